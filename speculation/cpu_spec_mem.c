/*
 * Irregular-memory loops on the host's cores (the SP_MEM half of `--compare
 * cpu-spec`): thread-level speculation with private write logs, whose check
 * and commit run in parallel. A round's iterations are split into
 * contiguous chunks, one per worker:
 *
 * 1. Execution, all chunks at once. Chunk 0 reads only committed state, so
 *    it runs the plain loop in place, setting a bit per element it writes.
 *    Every other chunk runs through its view (sp_view in api/loop_body.h):
 *    its writes stay in its log, its reads see its own earlier writes and
 *    otherwise A, and each iteration logs what it read (with the value and
 *    where it came from) and what it wrote. Then each chunk but the last
 *    claims the elements it wrote in own[], which ends up holding, per
 *    element, the earliest of those chunks that writes it (a
 *    compare-and-swap per element, prefetched, outside the loop body; only
 *    later chunks read it).
 * 2. Resolution, each chunk once the chunks before it have executed, all
 *    in parallel. An iteration is misspeculated when it read from A an
 *    element an earlier chunk writes (the only way it can have seen a value
 *    the sequential loop would not show it: nothing else writes A before its
 *    chunk resolves), or took from the log what a misspeculated iteration of
 *    its chunk wrote. Every other iteration computed exactly what the
 *    sequential loop computes, and its writes are committed at once where
 *    no earlier chunk writes the element and no misspeculated iteration of
 *    the chunk wrote it before; its other writes are delayed.
 * 3. In order, by the lead thread, chunk by chunk as each is resolved (so it
 *    overlaps the later chunks' resolution): the delayed writes and the
 *    re-executions of the misspeculated iterations, merged by iteration.
 *    A re-executed iteration reads A where its speculative read was stale,
 *    or came from a misspeculated writer, and otherwise the value it saw
 *    then (which was right, while A may by now hold a later chunk's write).
 *
 * Why this is the sequential loop's result: for each element, every write
 * committed at once comes from its earliest writer chunk and precedes, in
 * loop order, every delayed write and re-execution touching it; those run
 * in loop order after the parallel commit, and a re-execution reads A only
 * where A then holds the last write before it. No dependence is missed:
 * WAR and WAW across chunks are resolved by the order of the commit, a RAW
 * inside a chunk by the log, and a RAW across chunks makes its reader
 * misspeculated. A bit shared by two elements (chunk 0's bitmap hashes the
 * element once A is larger than FILTER_EXACT_MAX) only adds misspeculated
 * iterations and delayed writes, both in order: still the sequential
 * result; in a view's filter (hashed too when the workers' exact filters
 * would take more than FILTER_BUDGET) it only sends a read to the log's
 * index, which finds nothing. Re-execution relies on the contract of a
 * memory loop (its accesses follow from its inputs, docs/speculate.md):
 * each re-execution is traced, and one that touches other elements than its
 * speculative run is an error rather than a wrong result.
 *
 * What it costs beyond the loop: per access a bit of the view's filter and
 * a log entry; per element a chunk writes, a claim in own[], a check and
 * the store of the commit, spread over the workers; in order only the
 * misspeculated iterations and the delayed writes. No step walks an array
 * of the loop's size, chunks share no written line but own[]'s and A's, and
 * what is misspeculated depends on which chunks write an element, never on
 * timing, so the counters are the same from run to run for the same chunks.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/cpu_spec_mem.h"
#include "workloads/speculation/spec_bodies.h"

/* Rows ahead whose own[] entries are prefetched while claiming. */
#define CLAIM_AHEAD 16
/* A filter has a bit per element of A up to FILTER_EXACT_MAX elements, while the workers'
 * filters take FILTER_BUDGET bytes at most, else a bit per hash of one: for chunk 0, a
 * fixed FILTER_HASH_BITS; for a view, 16 per element its chunk may write, within bounds. */
#define FILTER_EXACT_MAX (1u << 22)
#define FILTER_BUDGET ((size_t)64 << 20)
#define FILTER_HASH_BITS (1u << 20)
#define FILTER_HASH_MIN (1u << 12)

/* A chunk's flags on the elements it wrote (the view's slots), kept while it resolves. */
enum { SLOT_TAINT = 1, /* its last write in the chunk so far is a misspeculated one */
       SLOT_POISON = 2 /* a misspeculated iteration of the chunk wrote it */ };

/* An iteration's log entry: its trace lengths and where its reads came from. */
#define META(nrd, nwr, fwd, self) ((nrd) | (nwr) << 4 | (fwd) << 8 | (self) << 16)
#define META_NRD(m) ((m) & 15u)
#define META_NWR(m) ((m) >> 4 & 15u)
#define META_FWD(m) ((m) >> 8 & 255u)
#define META_SELF(m) ((m) >> 16 & 255u)

typedef struct chunk_log {
	_Alignas(64) uint32_t *rd, *rv, *wr, *wv, *meta; /* one row per iteration */
	uint8_t *wn;                                     /* writes per iteration, for the view */
	sp_view view;
	uint32_t *redo, *redo_from_a; /* misspeculated iterations (offsets), reads they take from A */
	uint32_t *delay;              /* delayed writes: (offset, element, value) */
	uint32_t nredo, ndelay;
	uint64_t exec_ns, wrong;
	uint32_t overflow;
} chunk_log;

struct sp_tls {
	const sp_problem *p;
	uint32_t mr, mw;
	unsigned nw;
	/* Per element: 1 + the first iteration of the earliest chunk that claimed it this round
	 * (chunks after the first and before the last claim). A round's values are above its
	 * start, so older ones need no clearing. */
	uint32_t *own;
	/* Chunk 0's view: its writes' bits (a bit per element, or per hash of one) and the list
	 * of them that clears the bits after the round. */
	sp_view first;
	chunk_log *ck;
	double *per_iter; /* the round's chunks after the first: time per iteration */
	/* the round */
	uint32_t *A;
	const float *s;
	uint32_t start, count, head;
	unsigned nchunks;
	_Alignas(64) uint32_t executed;
	uint64_t t_executed;
	int bad_replay;
	uint32_t bad_iteration;
};

sp_tls *sp_tls_open(const sp_problem *p, unsigned workers, uint32_t max_chunk)
{
	sp_tls *t = aligned_alloc(64, sizeof(sp_tls));
	const sp_loop *l = p->loop;
	size_t slots, chunk = max_chunk;
	unsigned w;
	size_t exact_words = ((size_t)p->args.size + 63) / 64, view_bits;
	int exact = p->args.size <= FILTER_EXACT_MAX;
	int view_exact = exact && exact_words * sizeof(uint64_t) * workers <= FILTER_BUDGET;

	if (!t)
		gb_die(GB_EXIT_RUNTIME, "out of memory for CPU speculation");
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->mr = l->max_reads;
	t->mw = l->max_writes;
	t->nw = workers;
	t->own = gb_xzalloc(p->args.size, sizeof(uint32_t), "the round's writers");
	t->first.mode = SP_VIEW_IN_PLACE;
	t->first.fexact = exact;
	t->first.fmask = FILTER_HASH_BITS - 1;
	t->first.filter = gb_xzalloc(exact ? exact_words : FILTER_HASH_BITS / 64, sizeof(uint64_t),
				 "the first chunk's writes");
	t->first.max_marks = (size_t)workers * chunk * t->mw;
	t->first.marks = gb_xzalloc(t->first.max_marks, sizeof(uint32_t), "the first chunk's writes");
	t->per_iter = gb_xzalloc(workers, sizeof(double), "the chunks' times");
	t->ck = aligned_alloc(64, (size_t)workers * sizeof(chunk_log));
	if (!t->ck)
		gb_die(GB_EXIT_RUNTIME, "out of memory for %u CPU speculation logs", workers);
	memset(t->ck, 0, (size_t)workers * sizeof(chunk_log));
	for (slots = 1; slots < 2 * chunk * t->mw; slots *= 2)
		;
	for (view_bits = FILTER_HASH_MIN; view_bits < 16 * chunk * t->mw && view_bits < FILTER_HASH_BITS;
	     view_bits *= 2)
		;
	for (w = 0; w < workers; w++) {
		chunk_log *k = &t->ck[w];
		k->rd = gb_xzalloc(chunk * t->mr, sizeof(uint32_t), "a read log");
		k->rv = gb_xzalloc(chunk * t->mr, sizeof(uint32_t), "a read log");
		k->wr = gb_xzalloc(chunk * t->mw, sizeof(uint32_t), "a write log");
		k->wv = gb_xzalloc(chunk * t->mw, sizeof(uint32_t), "a write log");
		k->meta = gb_xzalloc(chunk, sizeof(uint32_t), "an iteration log");
		k->wn = gb_xzalloc(chunk, sizeof(uint8_t), "an iteration log");
		k->redo = gb_xzalloc(chunk, sizeof(uint32_t), "a re-execution list");
		k->redo_from_a = gb_xzalloc(chunk, sizeof(uint32_t), "a re-execution list");
		k->delay = gb_xzalloc(3 * chunk * t->mw, sizeof(uint32_t), "a delayed-write list");
		k->view.slot = gb_xzalloc(slots * SP_SLOT_WORDS, sizeof(uint32_t), "a private view");
		k->view.mask = (uint32_t)(slots - 1);
		k->view.filter = gb_xzalloc(view_exact ? exact_words : view_bits / 64, sizeof(uint64_t),
					"a private view's filter");
		k->view.fexact = view_exact;
		k->view.fmask = (uint32_t)(view_bits - 1);
		k->view.log_e = k->wr;
		k->view.log_v = k->wv;
		k->view.log_n = k->wn;
		k->view.mw = t->mw;
	}
	return t;
}

void sp_tls_close(sp_tls *t)
{
	unsigned w;
	if (!t)
		return;
	for (w = 0; w < t->nw; w++) {
		chunk_log *k = &t->ck[w];
		free(k->rd);
		free(k->rv);
		free(k->wr);
		free(k->wv);
		free(k->meta);
		free(k->wn);
		free(k->redo);
		free(k->redo_from_a);
		free(k->delay);
		free(k->view.slot);
		free(k->view.filter);
	}
	free(t->ck);
	free(t->per_iter);
	free(t->own);
	free(t->first.filter);
	free(t->first.marks);
	free(t);
}

void sp_tls_plan(sp_tls *t, uint32_t *A, const float *s, uint32_t start, uint32_t count,
		 unsigned nchunks, uint32_t head)
{
	t->A = A;
	t->s = s;
	t->start = start;
	t->count = count;
	t->nchunks = nchunks;
	t->head = head;
	t->executed = 0;
	t->bad_replay = 0;
}

/* Chunk 0 takes head iterations, the others share the rest evenly. */
static uint32_t chunk_lo(const sp_tls *t, unsigned w)
{
	if (w == 0)
		return t->start;
	return t->start + t->head +
	       (uint32_t)((uint64_t)(t->count - t->head) * (w - 1) / (t->nchunks - 1));
}

static void chunk_executed(sp_tls *t, sp_pool *pool, unsigned w, uint32_t r)
{
	if (__atomic_add_fetch(&t->executed, 1, __ATOMIC_ACQ_REL) == t->nchunks)
		t->t_executed = gb_now_ns();
	sp_pool_raise(pool, w, SP_FLAG_EXECUTED, r);
}

/* Words of view v's filter. */
static size_t filter_words(const sp_tls *t, const sp_view *v)
{
	return v->fexact ? ((size_t)t->p->args.size + 63) / 64 : ((size_t)v->fmask + 1) / 64;
}

/* 1 when chunk 0 may have written e this round (exactly, with a bit per element). */
static int head_wrote(const sp_tls *t, uint32_t e)
{
	uint32_t b = sp_view_bit(&t->first, e);
	return (int)(t->first.filter[b >> 6] >> (b & 63) & 1);
}

/*
 * Chunk 0, in place: the plain loop, its writes marked in its view's filter.
 * Being the round's first chunk, it reads only committed state; marking costs
 * a store to a bitmap a few times smaller than A, rather than a claim in
 * own[] or a trace.
 */
static void head_chunk(sp_tls *t, uint32_t lo, uint32_t hi)
{
	sp_args a = t->p->args;
	sp_track tr = sp_track_sequential();
	uint32_t i;

	a.A = t->A;
	memcpy(a.s, t->s, sizeof(a.s));
	tr.view = &t->first;
	t->first.nmarks = 0;
	for (i = lo; i < hi; i++)
		sp_body(&a, &tr, i);
}

/* After the round: clear chunk 0's bits, by its list or at once when that is shorter. */
static void clear_head(sp_tls *t)
{
	size_t words = filter_words(t, &t->first), q;
	if (words <= t->first.nmarks || t->first.nmarks > t->first.max_marks) {
		memset(t->first.filter, 0, words * sizeof(uint64_t));
		return;
	}
	for (q = 0; q < t->first.nmarks; q++)
		t->first.filter[sp_view_bit(&t->first, t->first.marks[q]) >> 6] = 0;
}

/* A chunk after the first, through its view. */
static void spec_chunk(sp_tls *t, chunk_log *k, uint32_t lo, uint32_t hi)
{
	sp_args a = t->p->args;
	sp_track tr = sp_track_sequential();
	uint32_t mr = t->mr, mw = t->mw, i;

	a.A = t->A;
	memcpy(a.s, t->s, sizeof(a.s));
	tr.spec = 1;
	tr.maxrd = mr;
	tr.maxwr = mw;
	tr.view = &k->view;
	if (++k->view.epoch == 0) { /* every slot's tag may match again: empty them */
		memset(k->view.slot, 0, ((size_t)k->view.mask + 1) * SP_SLOT_WORDS * sizeof(uint32_t));
		k->view.epoch = 1;
	}
	k->view.indexed = 0;
	for (i = lo; i < hi; i++) {
		size_t j = i - lo;
		tr.rd = k->rd + j * mr;
		tr.wr = k->wr + j * mw;
		k->view.rval = k->rv + j * mr;
		k->view.wval = k->wv + j * mw;
		k->view.row = (uint32_t)j;
		k->view.fwd = k->view.self = 0;
		tr.nrd = tr.nwr = 0;
		sp_body(&a, &tr, i);
		k->wn[j] = (uint8_t)tr.nwr;
		k->meta[j] = META(tr.nrd, tr.nwr, k->view.fwd, k->view.self);
	}
	k->overflow = tr.overflow;
}

/* Lower own[e] to mark unless a chunk no later than this one's has it this round. */
static void claim(uint32_t *o, uint32_t mark, uint32_t floor)
{
	uint32_t cur = __atomic_load_n(o, __ATOMIC_RELAXED);
	while (cur < floor || cur > mark)
		if (__atomic_compare_exchange_n(o, &cur, mark, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
}

/* Claim what chunk [lo, hi) wrote: the lines are fetched ahead, since each claim is a
 * locked instruction that waits for the memory operations before it. */
static void claim_writes(sp_tls *t, const chunk_log *k, uint32_t lo, uint32_t hi)
{
	uint32_t n = hi - lo, mw = t->mw, mark = lo + 1, floor = t->start + 1, j, q;
	for (j = 0; j < n; j++) {
		if (j + CLAIM_AHEAD < n) {
			uint32_t ahead = j + CLAIM_AHEAD, m = k->meta[ahead];
			for (q = 0; q < META_NWR(m); q++)
				__builtin_prefetch(&t->own[k->wr[(size_t)ahead * mw + q]], 1);
		}
		for (q = 0; q < META_NWR(k->meta[j]); q++)
			claim(&t->own[k->wr[(size_t)j * mw + q]], mark, floor);
	}
}

/* 1 when a chunk before the one starting at lo writes e this round: chunk 0 (its bits), or,
 * when claimed (some chunk between claimed its writes), one that claimed e in own[]. */
static int earlier_writer(const sp_tls *t, uint32_t e, uint32_t lo, int claimed)
{
	if (claimed) {
		uint32_t o = __atomic_load_n(&t->own[e], __ATOMIC_RELAXED);
		if (o > t->start && o <= lo)
			return 1;
	}
	return head_wrote(t, e);
}

static uint32_t *slot_flags(chunk_log *k, uint32_t e)
{
	return &sp_view_slot(&k->view, e)[SP_SLOT_FLAGS];
}

/* Clear the filter bits of what chunk k's n iterations wrote, for its next round. */
static void clear_filter(sp_tls *t, chunk_log *k, uint32_t n)
{
	size_t words = filter_words(t, &k->view);
	uint32_t j, q;
	if (words <= (size_t)n * t->mw) {
		memset(k->view.filter, 0, words * sizeof(uint64_t));
		return;
	}
	for (j = 0; j < n; j++)
		for (q = 0; q < k->wn[j]; q++) {
			uint32_t b = sp_view_bit(&k->view, k->wr[(size_t)j * t->mw + q]);
			k->view.filter[b >> 6] = 0;
		}
}

/*
 * Chunk [lo, hi)'s resolution, in its loop order, once every earlier chunk has claimed
 * its writes: which iterations are misspeculated, and the commit of the others' writes
 * (at once, or delayed). The flags in the view's slots matter only after the chunk's
 * first misspeculated iteration, so the common case never looks at them.
 */
static void resolve_chunk(sp_tls *t, chunk_log *k, uint32_t lo, uint32_t hi, int claimed)
{
	const uint32_t mr = t->mr, mw = t->mw;
	uint32_t i, q;
	int flagged = 0;

	k->nredo = k->ndelay = 0;
	k->wrong = 0;
	for (i = lo; i < hi; i++) {
		size_t j = i - lo;
		uint32_t m = k->meta[j], nr = META_NRD(m), nw = META_NWR(m), from_a = 0;
		const uint32_t *rd = k->rd + j * mr, *wr = k->wr + j * mw, *wv = k->wv + j * mw;

		for (q = 0; q < nr; q++) {
			if (META_SELF(m) >> q & 1)
				continue;
			if (META_FWD(m) >> q & 1) {
				if (flagged && (*slot_flags(k, rd[q]) & SLOT_TAINT))
					from_a |= 1u << q;
			} else if (earlier_writer(t, rd[q], lo, claimed)) {
				from_a |= 1u << q;
			}
		}
		if (from_a) {
			k->redo[k->nredo] = (uint32_t)j;
			k->redo_from_a[k->nredo++] = from_a;
			k->wrong += nw;
			if (!flagged)
				sp_view_index(&k->view, hi - lo);
			flagged = 1;
			for (q = 0; q < nw; q++)
				*slot_flags(k, wr[q]) = SLOT_TAINT | SLOT_POISON;
			continue;
		}
		for (q = 0; q < nw; q++) {
			uint32_t poisoned = 0;
			if (flagged) {
				uint32_t *f = slot_flags(k, wr[q]);
				poisoned = *f & SLOT_POISON;
				*f &= ~(uint32_t)SLOT_TAINT;
			}
			if (!poisoned && !earlier_writer(t, wr[q], lo, claimed)) {
				sp_st(&t->A[wr[q]], wv[q]);
			} else {
				uint32_t *d = k->delay + 3 * (size_t)k->ndelay++;
				d[0] = (uint32_t)j;
				d[1] = wr[q];
				d[2] = wv[q];
			}
		}
	}
}

/* 1 when rows a (na) and b (nb) hold the same elements. */
static int same_elements(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
	uint32_t q;
	if (na != nb)
		return 0;
	for (q = 0; q < na; q++)
		if (sp_row_find(b, nb, a[q]) == nb)
			return 0;
	return 1;
}

/* Re-execute misspeculated iteration lo + j of chunk k in place, traced. */
static void replay(sp_tls *t, const chunk_log *k, uint32_t lo, uint32_t j, uint32_t from_a)
{
	sp_args a = t->p->args;
	sp_track tr = sp_track_sequential();
	sp_view v;
	uint32_t rd[SP_MAX_TRACE], wr[SP_MAX_TRACE], m = k->meta[j];

	memset(&v, 0, sizeof(v));
	v.mode = SP_VIEW_REPLAY;
	v.rep_e = k->rd + (size_t)j * t->mr;
	v.rep_v = k->rv + (size_t)j * t->mr;
	v.rep_n = META_NRD(m);
	v.rep_from_a = from_a;
	a.A = t->A;
	memcpy(a.s, t->s, sizeof(a.s));
	tr.spec = 1;
	tr.maxrd = t->mr;
	tr.maxwr = t->mw;
	tr.rd = rd;
	tr.wr = wr;
	tr.view = &v;
	sp_body(&a, &tr, lo + j);
	if (tr.overflow || !same_elements(rd, tr.nrd, v.rep_e, v.rep_n) ||
	    !same_elements(wr, tr.nwr, k->wr + (size_t)j * t->mw, META_NWR(m))) {
		if (!t->bad_replay)
			t->bad_iteration = lo + j;
		t->bad_replay = 1;
	}
}

/* Chunk k's delayed writes and re-executions, merged in loop order. */
static void in_order(sp_tls *t, const chunk_log *k, uint32_t lo)
{
	uint32_t d = 0, x;
	for (x = 0; x <= k->nredo; x++) {
		uint32_t until = x < k->nredo ? k->redo[x] : UINT32_MAX;
		for (; d < k->ndelay && k->delay[3 * (size_t)d] < until; d++)
			sp_st(&t->A[k->delay[3 * (size_t)d + 1]], k->delay[3 * (size_t)d + 2]);
		if (x < k->nredo)
			replay(t, k, lo, k->redo[x], k->redo_from_a[x]);
	}
}

void sp_tls_worker(sp_tls *t, sp_pool *pool, unsigned w, uint32_t r)
{
	chunk_log *k = &t->ck[w];
	uint32_t lo = chunk_lo(t, w), hi = chunk_lo(t, w + 1);
	uint64_t t0 = gb_now_ns();
	unsigned c;

	if (w >= t->nchunks)
		return;
	spec_chunk(t, k, lo, hi);
	if (w + 1 < t->nchunks) /* only later chunks read the claims */
		claim_writes(t, k, lo, hi);
	k->exec_ns = gb_now_ns() - t0;
	chunk_executed(t, pool, w, r);
	for (c = 0; c < w; c++)
		sp_pool_wait(pool, c, SP_FLAG_EXECUTED, r);
	if (!k->overflow)
		resolve_chunk(t, k, lo, hi, w >= 2);
	clear_filter(t, k, hi - lo);
	sp_pool_raise(pool, w, SP_FLAG_RESOLVED, r);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void sp_tls_lead(sp_tls *t, sp_pool *pool, uint32_t r, sp_tls_round *out)
{
	chunk_log *k0 = &t->ck[0];
	uint64_t t0 = gb_now_ns();
	unsigned c, timed = 0;

	memset(out, 0, sizeof(*out));
	head_chunk(t, t->start, t->start + t->head);
	k0->exec_ns = gb_now_ns() - t0;
	chunk_executed(t, pool, 0, r);
	for (c = 1; c < t->nchunks; c++) {
		chunk_log *k = &t->ck[c];
		sp_pool_wait(pool, c, SP_FLAG_RESOLVED, r);
		if (c + 1 == t->nchunks)
			out->t_resolved = gb_now_ns();
		out->overflow |= k->overflow != 0;
		if (out->overflow)
			continue;
		in_order(t, k, chunk_lo(t, c));
		out->misspeculated += k->nredo;
		out->wrong += k->wrong;
		if (chunk_lo(t, c + 1) > chunk_lo(t, c))
			t->per_iter[timed++] = (double)k->exec_ns / (chunk_lo(t, c + 1) - chunk_lo(t, c));
	}
	clear_head(t);
	out->overflow |= k0->overflow != 0;
	out->t_executed = t->t_executed;
	out->head_ns = (double)k0->exec_ns / (t->head ? t->head : 1);
	/* The median chunk: one whose worker lost its core for a while would otherwise hand
	 * the lead, which runs its chunk sequentially, most of the next round. */
	qsort(t->per_iter, timed, sizeof(double), by_value);
	out->rest_ns = timed ? t->per_iter[timed / 2] : 0;
	out->bad_replay = t->bad_replay;
	out->bad_iteration = t->bad_iteration;
}
