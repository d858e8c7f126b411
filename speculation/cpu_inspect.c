/*
 * An inspector-executor for irregular-memory loops on the host's cores
 * (`--compare cpu-inspect`). CPU speculation (speculation/cpu_spec_mem.c)
 * runs every access of a chunk through a view that traces it and logs its
 * value, about three times the plain loop's cost per access on the hosts
 * measured (docs/speculate.md); a memory loop's accesses follow from its
 * inputs, so they can instead be named before the iteration runs, and the
 * iterations that need no ordering run untraced, in place. A round of up to
 * CHUNK iterations per worker, split into contiguous chunks, one per worker:
 *
 * 1. Inspection, every chunk at once: the elements of each iteration
 *    (sp_mem_accesses), sorted by the worker that owns the element's part of
 *    A (A split into one contiguous part per worker), into the chunk's list.
 * 2. Classification, every owner over its part: which of its elements more
 *    than one chunk touches with at least one write among them (a word per
 *    element, info[], which no other core touches), then every iteration
 *    that touches such an element is marked crossing.
 * 3. Execution, every chunk at once, in loop order: an iteration is deferred
 *    when it crosses, or when it writes an element an iteration deferred
 *    earlier in the chunk touches, or reads one such an iteration writes;
 *    every other iteration runs at once, in place, untraced.
 * 4. In order, on the lead thread: the deferred iterations of every chunk,
 *    in loop order, in place.
 *
 * Why this is the sequential loop's result: two iterations that run in
 * parallel in step 3 touch no element in common with a write among them
 * unless they are of one chunk, which runs them in loop order; an iteration
 * run in step 3 and a deferred one, which step 4 runs after it whatever
 * their order in the loop, touch no such element either (across chunks the
 * element would cross, within a chunk the later one would be deferred: it
 * is never a deferred iteration that comes first). So every pair of
 * iterations whose order matters runs in loop order. It needs the exact
 * elements of every iteration: the unit tests hold sp_mem_accesses to the
 * bodies' traces, and every run is verified against the sequential loop.
 *
 * What it costs beyond the loop: per access, its name and its place in the
 * sorted list, and two looks at the element's word by its owner;
 * three barriers a round. It misspeculates nothing and copies nothing; the
 * price of a dependence is one iteration run in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/cpu_inspect.h"
#include "speculation/cpu_pool.h"
#include "workloads/speculation/spec_bodies.h"

/* Iterations of a chunk at most, so that its list stays in its core's cache. */
#define CHUNK 2048
/* Iterations of a chunk at least: fewer cost more to hand to a worker than they save. */
#define MIN_CHUNK 64
/* An element's info, one word touched by its owner only: the round's stamp, the first chunk
 * that touches it (workers are at most 4096), whether more than one does, whether one writes. */
#define INFO_WRITTEN 1u
#define INFO_SHARED 2u
#define INFO_CHUNK_SHIFT 2
#define INFO_CHUNK_MASK 0xfffu
#define INFO_STAMP_SHIFT 14
#define INFO_STAMP_MAX ((1u << (32 - INFO_STAMP_SHIFT)) - 1)
/* Entries of a list whose element's info is fetched ahead of its turn. */
#define AHEAD 8

/* An access in a chunk's list: the element, and row << 1 | written. */
typedef struct owned {
	uint32_t e, at;
} owned;

typedef struct chunk {
	_Alignas(64) owned *list; /* by owner: owner o's accesses are [cut[o], cut[o + 1]) */
	uint32_t *cut, *fill;
	uint8_t *cross;           /* per row, set by the owners */
	uint32_t *deferred, ndeferred;
	/* the elements the chunk's deferred iterations touch: an open-addressing set of
	 * (element, epoch, read 1 | written 2) */
	uint32_t *set, set_mask, set_epoch;
	_Alignas(64) uint32_t ncross; /* set by the owners */
} chunk;

typedef struct irun {
	const sp_problem *p;
	uint32_t *A;
	sp_pool pool;
	unsigned nw, nchunks;
	chunk *ck;
	uint32_t *info;         /* per element */
	uint32_t stamp;         /* the round's, 1 to INFO_STAMP_MAX */
	uint64_t owner_mul;     /* the owner of e is (e * owner_mul) >> 32 */
	uint32_t start, count;
} irun;

int sp_cpu_inspect_ok(const sp_loop *l)
{
	/* one iteration of a loop of that kind over zeros: enough index words for any of them */
	uint32_t idx[SP_MEM_ACCESSES] = {0}, acc[SP_MEM_ACCESSES];
	sp_args a;
	if (l->kind != SP_MEM)
		return 0;
	memset(&a, 0, sizeof(a));
	a.loop = l->id;
	a.n = 1;
	a.idx = idx;
	return sp_mem_accesses(&a, 0, acc) != SP_NO_ACCESSES;
}

static inline unsigned owner(const irun *x, uint32_t e)
{
	return (unsigned)(((uint64_t)e * x->owner_mul) >> 32);
}

static uint32_t chunk_lo(const irun *x, unsigned c)
{
	return x->start + (uint32_t)((uint64_t)x->count * c / x->nchunks);
}

/* Step 1 for chunk c: its accesses, sorted by owner (a stable counting sort). */
static void inspect(irun *x, unsigned c)
{
	chunk *k = &x->ck[c];
	sp_args a = x->p->args;
	uint32_t lo = chunk_lo(x, c), hi = chunk_lo(x, c + 1), i, q, n, o, sum, acc[SP_MEM_ACCESSES];

	memset(k->cut, 0, (x->nchunks + 1) * sizeof(uint32_t));
	for (i = lo; i < hi; i++) {
		n = sp_mem_accesses(&a, i, acc);
		for (q = 0; q < n; q++)
			k->cut[owner(x, acc[q] >> 1) + 1]++;
	}
	for (o = 0, sum = 0; o < x->nchunks; o++) {
		sum += k->cut[o + 1];
		k->cut[o + 1] = sum;
		k->fill[o] = k->cut[o];
	}
	for (i = lo; i < hi; i++) {
		n = sp_mem_accesses(&a, i, acc);
		for (q = 0; q < n; q++) {
			owned *w = &k->list[k->fill[owner(x, acc[q] >> 1)]++];
			w->e = acc[q] >> 1;
			w->at = (i - lo) << 1 | (acc[q] & 1u);
		}
	}
	memset(k->cross, 0, hi - lo);
}

/* Step 2 for owner o: which of its elements are touched by more than one chunk with a write
 * among them, then the rows that touch one, marked crossing in their chunks. */
static void classify(irun *x, unsigned o)
{
	const uint32_t mark = x->stamp << INFO_STAMP_SHIFT;
	unsigned c;
	uint32_t y;

	for (c = 0; c < x->nchunks; c++) {
		const chunk *k = &x->ck[c];
		const uint32_t end = k->cut[o + 1];
		for (y = k->cut[o]; y < end; y++) {
			uint32_t e = k->list[y].e, w = k->list[y].at & 1u, f = x->info[e];
			if (y + AHEAD < end)
				__builtin_prefetch(&x->info[k->list[y + AHEAD].e], 1);
			if (f >> INFO_STAMP_SHIFT != x->stamp)
				f = mark | c << INFO_CHUNK_SHIFT;
			else if ((f >> INFO_CHUNK_SHIFT & INFO_CHUNK_MASK) != c)
				f |= INFO_SHARED;
			x->info[e] = f | w;
		}
	}
	for (c = 0; c < x->nchunks; c++) {
		chunk *k = &x->ck[c];
		const uint32_t end = k->cut[o + 1];
		for (y = k->cut[o]; y < end; y++) {
			if (y + AHEAD < end)
				__builtin_prefetch(&x->info[k->list[y + AHEAD].e]);
			if ((x->info[k->list[y].e] & (INFO_WRITTEN | INFO_SHARED)) != (INFO_WRITTEN | INFO_SHARED))
				continue;
			__atomic_store_n(&k->cross[k->list[y].at >> 1], 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&k->ncross, 1, __ATOMIC_RELAXED);
		}
	}
}

/* The slot of e in chunk k's set of deferred elements: where it is, or the free one for it. */
static uint32_t *set_slot(chunk *k, uint32_t e)
{
	uint32_t h = (uint32_t)(((uint64_t)e * 0x9E3779B97F4A7C15ull) >> 40) & k->set_mask, *s;
	for (;;) {
		s = k->set + 3 * (size_t)h;
		if (s[1] != k->set_epoch || s[0] == e)
			return s;
		h = (h + 1) & k->set_mask;
	}
}

/* 1 when an access (element << 1 | written) conflicts with what the chunk deferred so far. */
static int conflicts(chunk *k, uint32_t acc)
{
	const uint32_t *s = set_slot(k, acc >> 1);
	if (s[1] != k->set_epoch)
		return 0;
	return (acc & 1u) ? 1 : (s[2] & 2u) != 0;
}

static void add_deferred(chunk *k, uint32_t acc)
{
	uint32_t *s = set_slot(k, acc >> 1);
	if (s[1] != k->set_epoch) {
		s[0] = acc >> 1;
		s[1] = k->set_epoch;
		s[2] = 0;
	}
	s[2] |= (acc & 1u) ? 2u : 1u;
}

/* Step 3 for chunk c: run in place what needs no ordering, list the rest. */
static void execute(irun *x, unsigned c)
{
	chunk *k = &x->ck[c];
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential();
	uint32_t lo = chunk_lo(x, c), hi = chunk_lo(x, c + 1), i, q, n, acc[SP_MEM_ACCESSES];

	a.A = x->A;
	k->ndeferred = 0;
	if (!__atomic_load_n(&k->ncross, __ATOMIC_RELAXED)) {
		for (i = lo; i < hi; i++)
			sp_body(&a, &t, i);
		return;
	}
	if (++k->set_epoch == 0) { /* every slot's tag may match again: empty them */
		memset(k->set, 0, 3 * ((size_t)k->set_mask + 1) * sizeof(uint32_t));
		k->set_epoch = 1;
	}
	for (i = lo; i < hi; i++) {
		int defer = k->cross[i - lo];
		if (!defer && !k->ndeferred) { /* nothing to conflict with yet */
			sp_body(&a, &t, i);
			continue;
		}
		n = sp_mem_accesses(&a, i, acc);
		for (q = 0; q < n && !defer; q++)
			defer = conflicts(k, acc[q]);
		if (!defer) {
			sp_body(&a, &t, i);
			continue;
		}
		k->deferred[k->ndeferred++] = i;
		for (q = 0; q < n; q++)
			add_deferred(k, acc[q]);
	}
	k->ncross = 0;
}

static void wait_all(irun *x, unsigned w, unsigned f, uint32_t r)
{
	unsigned c;
	for (c = 0; c < x->nchunks; c++)
		if (c != w)
			sp_pool_wait(&x->pool, c, f, r);
}

/* Worker w's part of round r (the lead's too): steps 1 to 3, with a barrier after each. */
static void part(irun *x, unsigned w, uint32_t r)
{
	inspect(x, w);
	sp_pool_raise(&x->pool, w, SP_FLAG_EXECUTED, r);
	wait_all(x, w, SP_FLAG_EXECUTED, r);
	classify(x, w);
	sp_pool_raise(&x->pool, w, SP_FLAG_RESOLVED, r);
	wait_all(x, w, SP_FLAG_RESOLVED, r);
	execute(x, w);
	sp_pool_raise(&x->pool, w, SP_FLAG_DONE, r);
}

static void pool_part(void *ctx, unsigned w, uint32_t round)
{
	irun *x = ctx;
	if (w < x->nchunks)
		part(x, w, round);
}

static void open_run(irun *x, const sp_problem *p, unsigned workers)
{
	unsigned w;
	uint32_t slots;

	memset(x, 0, sizeof(*x));
	x->p = p;
	x->nw = workers;
	x->info = gb_xzalloc(p->args.size, sizeof(uint32_t), "the inspector's marks");
	x->ck = aligned_alloc(64, (size_t)workers * sizeof(chunk));
	if (!x->ck)
		gb_die(GB_EXIT_RUNTIME, "out of memory for %u inspector chunks", workers);
	memset(x->ck, 0, (size_t)workers * sizeof(chunk));
	for (slots = 1; slots < 2 * CHUNK * SP_MEM_ACCESSES; slots *= 2)
		;
	for (w = 0; w < workers; w++) {
		chunk *k = &x->ck[w];
		k->list = gb_xzalloc((size_t)CHUNK * SP_MEM_ACCESSES, sizeof(owned), "an inspector's list");
		k->cut = gb_xzalloc(workers + 1, sizeof(uint32_t), "an inspector's list");
		k->fill = gb_xzalloc(workers, sizeof(uint32_t), "an inspector's list");
		k->cross = gb_xzalloc(CHUNK, 1, "an inspector's marks");
		k->deferred = gb_xzalloc(CHUNK, sizeof(uint32_t), "an inspector's deferred iterations");
		k->set = gb_xzalloc(3 * (size_t)slots, sizeof(uint32_t), "an inspector's deferred elements");
		k->set_mask = slots - 1;
	}
	sp_pool_open(&x->pool, workers, pool_part, x); /* not timed, as the runtime's allocation */
}

static void close_run(irun *x)
{
	unsigned w;
	sp_pool_close(&x->pool);
	for (w = 0; w < x->nw; w++) {
		free(x->ck[w].list);
		free(x->ck[w].cut);
		free(x->ck[w].fill);
		free(x->ck[w].cross);
		free(x->ck[w].deferred);
		free(x->ck[w].set);
	}
	free(x->ck);
	free(x->info);
}

int sp_cpu_inspect_run(const sp_problem *p, const sp_config *c, uint32_t *host, sp_result *r)
{
	uint32_t n = p->args.n, workers = c->workers ? c->workers : 1;
	uint64_t t0, t;
	irun x;

	memset(r, 0, sizeof(*r));
	if (!sp_cpu_inspect_ok(p->loop)) {
		snprintf(r->error, sizeof(r->error), "%s is not an irregular-memory loop whose accesses "
			 "can be named ahead", p->loop->head.name);
		return -1;
	}
	r->min_assignment = UINT64_MAX;
	open_run(&x, p, workers);
	x.A = host;
	t = t0 = gb_now_ns();
	while (x.start < n) {
		uint32_t round, k;
		if (sp_out_of_time(c, t0)) {
			r->incomplete = 1;
			break;
		}
		x.count = n - x.start < (uint64_t)workers * CHUNK ? n - x.start : workers * CHUNK;
		x.nchunks = x.count / MIN_CHUNK < workers ? x.count / MIN_CHUNK : workers;
		r->assignments++;
		if (x.count < r->min_assignment)
			r->min_assignment = x.count;
		if (x.count > r->max_assignment)
			r->max_assignment = x.count;
		if (x.nchunks < 2) { /* too short to share: in order (a memory loop's scalars stay) */
			float s[SP_NSCALARS];
			memcpy(s, p->args.s, sizeof(s));
			sp_run_sequential(p, host, s, x.start, x.start + x.count);
			r->reexecuted += x.count;
			sp_phase_to(r, SP_PH_COMPUTE, &t, 0);
			x.start += x.count;
			continue;
		}
		if (++x.stamp > INFO_STAMP_MAX) { /* older marks could match again: clear them */
			memset(x.info, 0, (size_t)p->args.size * sizeof(uint32_t));
			x.stamp = 1;
		}
		x.owner_mul = ((uint64_t)x.nchunks << 32) / p->args.size;
		sp_phase_to(r, SP_PH_SCHEDULE, &t, 0);
		round = sp_pool_start(&x.pool, x.nchunks);
		inspect(&x, 0);
		sp_pool_raise(&x.pool, 0, SP_FLAG_EXECUTED, round);
		wait_all(&x, 0, SP_FLAG_EXECUTED, round);
		classify(&x, 0);
		sp_pool_raise(&x.pool, 0, SP_FLAG_RESOLVED, round);
		wait_all(&x, 0, SP_FLAG_RESOLVED, round);
		sp_phase_to(r, SP_PH_CHECK, &t, 0);
		execute(&x, 0);
		wait_all(&x, 0, SP_FLAG_DONE, round);
		sp_phase_to(r, SP_PH_COMPUTE, &t, 0);
		for (k = 0; k < x.nchunks; k++) {
			sp_args a = p->args;
			sp_track tr = sp_track_sequential();
			uint32_t d;
			a.A = host;
			for (d = 0; d < x.ck[k].ndeferred; d++)
				sp_body(&a, &tr, x.ck[k].deferred[d]);
			r->reexecuted += x.ck[k].ndeferred;
			r->iterations_gpu += chunk_lo(&x, k + 1) - chunk_lo(&x, k) - x.ck[k].ndeferred;
		}
		sp_phase_to(r, SP_PH_RECOVERY, &t, 0);
		x.start += x.count;
	}
	if (r->min_assignment == UINT64_MAX)
		r->min_assignment = 0;
	r->total_s = (double)(t - t0) / 1e9;
	close_run(&x);
	return 0;
}
