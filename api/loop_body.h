/*
 * What the body of a speculative loop (Feng, Gupta and Bhuyan, "Optimistic
 * Parallelism on GPUs") is written against: the per-iteration
 * instrumentation of section 3 and the arithmetic that keeps results bit for
 * bit equal on every backend, written once as GB_HD code that the GPU
 * kernels, the CPU backends, recovery and the sequential loop all run. The
 * loop itself is described in api/loop.h.
 *
 * A loop runs over n iterations and one speculated array A of 32-bit words
 * (floats are stored as their bit patterns, so results compare bit for bit).
 * Two kinds of loop, as in section 3:
 *   SP_MEM  irregular memory accesses: every access to A goes through sp_rd /
 *           sp_wr, which record the element in the iteration's read or write
 *           trace (at most SP_MAX_TRACE distinct elements each, declared per
 *           loop as in the paper);
 *   SP_CF   irregular control flow: accesses follow a regular mapping from
 *           iterations to elements (the loop's write ranges), and a branch
 *           marked with a misspeculate(...) clause records the iterations its
 *           execution makes wrong (sp_branch).
 * Loop-carried scalars (s[]) are read-only on the device: only a branch whose
 * statements run on the CPU may change them.
 *
 * One runtime (speculation/) runs every loop on every backend, so the
 * instrumentation is implemented here beside its interface; a second runtime
 * would make it an interface each defines, as api/tx.h is for STM engines.
 */
#ifndef GB_API_LOOP_BODY_H
#define GB_API_LOOP_BODY_H

#include <stdint.h>
#include <string.h>

#include "api/loop.h"
#include "common/port.h"

/*
 * The view of A through which CPU speculation (speculation/cpu_spec_mem.c)
 * runs an iteration of a memory loop, host only. Three uses (mode):
 *  - a speculative chunk (SP_VIEW_CHUNK): the chunk's writes stay in its write
 *    log (log_e, log_v: mw elements and values per iteration, log_n of them
 *    used; the current iteration's row is the trace's) instead of A, and its
 *    reads see them first. filter has a bit per element written (fexact),
 *    or per hash of one (fmask + 1 bits), so that a read of anything else
 *    goes straight to A; the others look in an index of the log (an
 *    open-addressing table of 16-byte slots: element, epoch (the slot is in
 *    use when it equals the view's), latest value, and flags the chunk's
 *    resolution keeps), built only when such a read comes, up to the
 *    iteration before it (indexed rows so far). rval and wval are the
 *    current iteration's rows of values read and written, beside its read
 *    and write traces; bit k of fwd is set when its read k found an earlier
 *    iteration's write, of self when it found its own;
 *  - the re-execution of a misspeculated iteration (SP_VIEW_REPLAY): writes
 *    go to A, and a read of an element the iteration has not written yet
 *    returns the value its speculative execution saw (rep_e, rep_v: that
 *    execution's read row and values), except for the reads whose bit is
 *    set in rep_from_a, which read A;
 *  - a chunk that runs in place (SP_VIEW_IN_PLACE): reads and writes go to
 *    A, and each write sets the element's filter bit and is listed in
 *    marks (while there is room: nmarks counts them all), so that others
 *    learn what it wrote at the cost of a bit, not of a trace.
 */
enum { SP_VIEW_CHUNK = 0, SP_VIEW_REPLAY, SP_VIEW_IN_PLACE };
enum { SP_SLOT_KEY = 0, SP_SLOT_TAG, SP_SLOT_VAL, SP_SLOT_FLAGS, SP_SLOT_WORDS };

typedef struct sp_view {
	uint64_t *filter;
	uint32_t fmask;
	int fexact;
	uint32_t *slot;
	uint32_t mask, epoch;
	const uint32_t *log_e, *log_v;
	const uint8_t *log_n;
	uint32_t mw, row, indexed;
	uint32_t *rval, *wval;
	uint32_t fwd, self;
	int mode;
	const uint32_t *rep_e, *rep_v;
	uint32_t rep_n, rep_from_a;
	uint32_t *marks;
	size_t nmarks, max_marks;
} sp_view;

/*
 * A transaction's accesses of A, host only: speculation with transactional
 * memory on the host's cores (speculation/cpu_tm.c) runs each iteration as a
 * transaction, and every access of A the body makes, tracked or regular,
 * goes through these two calls, as a TM library's read and write barriers.
 * The transaction embeds this pair and gets itself back from it; rd may
 * abandon the iteration (the TM's abort) and never return.
 */
typedef struct sp_txn {
	uint32_t (*rd)(struct sp_txn *x, uint32_t e);
	void (*wr)(struct sp_txn *x, uint32_t e, uint32_t v);
} sp_txn;

/*
 * The instrumentation of one iteration. spec = 0 is plain sequential
 * execution (the baselines and recovery): nothing is recorded and every
 * branch runs its statements.
 */
typedef struct sp_track {
	int spec;
	uint32_t *rd, *wr;     /* this iteration's trace rows (SP_MEM) */
	uint32_t nrd, nwr;
	uint32_t maxrd, maxwr; /* the loop's declared trace sizes (at most SP_MAX_TRACE) */
	uint32_t overflow;     /* more distinct accesses than SP_MAX_TRACE */
	uint32_t *misspec;     /* per iteration of the assignment (SP_CF) */
	uint32_t *all_from;    /* first iteration marked by a range to the end (SP_CF); NULL: not kept */
	uint32_t *marks;       /* set when any other iteration was marked (SP_CF) */
	uint32_t start, count; /* the assignment */
	const sp_clause *clause;
	sp_view *view;         /* CPU speculation's view of A (SP_MEM, host only), or NULL */
	sp_txn *tx;            /* the transaction the iteration runs in (host only), or NULL */
	int inplace;           /* a (+0:end) branch runs its statements here (speculation/check.h) */
	int took;              /* set when such a branch ran */
} sp_track;

/* The instrumentation of a plain sequential execution: nothing recorded. */
GB_HD sp_track sp_track_sequential(void)
{
	sp_track t;
	memset(&t, 0, sizeof(t));
	return t;
}

/* Bit-exact float arithmetic: nvcc must not contract a*b+c into an FMA on one side only. */
GB_HD float sp_fadd(float a, float b)
{
#if defined(__CUDA_ARCH__)
	return __fadd_rn(a, b);
#else
	return a + b;
#endif
}

GB_HD float sp_fmul(float a, float b)
{
#if defined(__CUDA_ARCH__)
	return __fmul_rn(a, b);
#else
	return a * b;
#endif
}

GB_HD float sp_fsub(float a, float b)
{
#if defined(__CUDA_ARCH__)
	return __fsub_rn(a, b);
#else
	return a - b;
#endif
}

GB_HD float sp_fdiv(float a, float b)
{
#if defined(__CUDA_ARCH__)
	return __fdiv_rn(a, b);
#else
	return a / b;
#endif
}

GB_HD uint32_t sp_f2u(float f)
{
#if defined(__CUDA_ARCH__)
	return __float_as_uint(f);
#else
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
#endif
}

GB_HD float sp_u2f(uint32_t u)
{
#if defined(__CUDA_ARCH__)
	return __uint_as_float(u);
#else
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
#endif
}

/*
 * Loads and stores of A. Speculative iterations race on A by design (that is
 * what the check finds), so the CPU backend uses relaxed atomics to keep the
 * race defined; the GPU uses plain accesses.
 */
GB_HD uint32_t sp_ld(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
	return *p;
#else
	return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

GB_HD void sp_st(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	*p = v;
#else
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/* Add e to a trace row of n distinct elements; 0 when the row is full. */
GB_HD int sp_trace_add(uint32_t *row, uint32_t *n, uint32_t max, uint32_t e)
{
	uint32_t k;
	for (k = 0; k < *n; k++)
		if (row[k] == e)
			return 1;
	if (*n == max)
		return 0;
	row[(*n)++] = e;
	return 1;
}

#if !defined(__CUDA_ARCH__)
/* The slot of e in view v's index: where it is, or the free slot where it goes. */
static inline uint32_t *sp_view_slot(const sp_view *v, uint32_t e)
{
	uint32_t k = (uint32_t)(((uint64_t)e * 0x9E3779B97F4A7C15ull) >> 40) & v->mask, *q;
	for (;;) {
		q = v->slot + (size_t)k * SP_SLOT_WORDS;
		if (q[SP_SLOT_TAG] != v->epoch || q[SP_SLOT_KEY] == e)
			return q;
		k = (k + 1) & v->mask;
	}
}

/* Extend view v's index over the write log's rows up to rows. */
static inline void sp_view_index(sp_view *v, uint32_t rows)
{
	for (; v->indexed < rows; v->indexed++) {
		const uint32_t *e = v->log_e + (size_t)v->indexed * v->mw;
		const uint32_t *x = v->log_v + (size_t)v->indexed * v->mw;
		uint32_t q, n = v->log_n[v->indexed];
		for (q = 0; q < n; q++) {
			uint32_t *s = sp_view_slot(v, e[q]);
			if (s[SP_SLOT_TAG] != v->epoch) {
				s[SP_SLOT_KEY] = e[q];
				s[SP_SLOT_TAG] = v->epoch;
				s[SP_SLOT_FLAGS] = 0;
			}
			s[SP_SLOT_VAL] = x[q];
		}
	}
}

/* The filter bit of e in view v. */
static inline uint32_t sp_view_bit(const sp_view *v, uint32_t e)
{
	if (v->fexact)
		return e;
	return (uint32_t)(((uint64_t)e * 0x9E3779B97F4A7C15ull) >> 20) & v->fmask;
}

/* Position of e in a row of n elements, or n. */
static inline uint32_t sp_row_find(const uint32_t *row, uint32_t n, uint32_t e)
{
	uint32_t j;
	for (j = 0; j < n && row[j] != e; j++)
		;
	return j;
}

/* What a replayed iteration reads of e: A once it wrote e itself, else what its speculative
 * execution saw, unless that read is one of those to take from A. */
static inline uint32_t sp_replay_value(const sp_args *a, const sp_track *t, uint32_t e)
{
	const sp_view *v = t->view;
	uint32_t k;
	if (sp_row_find(t->wr, t->nwr, e) < t->nwr)
		return sp_ld(&a->A[e]);
	k = sp_row_find(v->rep_e, v->rep_n, e);
	if (k < v->rep_n && !(v->rep_from_a >> k & 1))
		return v->rep_v[k];
	return sp_ld(&a->A[e]);
}

/* A read through the view. In a chunk: the chunk's own latest write when there is one, else
 * A; the first value the iteration saw of each element is traced beside it, with where it
 * came from. */
static inline uint32_t sp_view_rd(const sp_args *a, sp_track *t, uint32_t e)
{
	sp_view *v = t->view;
	uint32_t x, j, b, from = 0; /* 1: an earlier iteration's write, 2: its own */
	if (v->mode == SP_VIEW_IN_PLACE)
		return sp_ld(&a->A[e]);
	if (v->mode == SP_VIEW_REPLAY) {
		x = sp_replay_value(a, t, e);
		if (!sp_trace_add(t->rd, &t->nrd, t->maxrd, e))
			t->overflow = 1;
		return x;
	}
	b = sp_view_bit(v, e);
	if (v->filter[b >> 6] >> (b & 63) & 1) {
		j = sp_row_find(t->wr, t->nwr, e);
		if (j < t->nwr) {
			from = 2;
			x = v->wval[j];
		} else {
			const uint32_t *q;
			sp_view_index(v, v->row);
			q = sp_view_slot(v, e);
			from = q[SP_SLOT_TAG] == v->epoch;
			x = from ? q[SP_SLOT_VAL] : sp_ld(&a->A[e]);
		}
	} else {
		x = sp_ld(&a->A[e]);
	}
	j = sp_row_find(t->rd, t->nrd, e);
	if (j == t->nrd) {
		if (t->nrd == t->maxrd) {
			t->overflow = 1;
		} else {
			v->fwd |= (uint32_t)(from == 1) << j;
			v->self |= (uint32_t)(from == 2) << j;
			v->rval[j] = x;
			t->rd[t->nrd++] = e;
		}
	}
	return x;
}

/* A write through the view: in a chunk into the iteration's (element, value) rows of the
 * write log; in a replay or in place into A. */
static inline void sp_view_wr(const sp_args *a, sp_track *t, uint32_t e, uint32_t x)
{
	sp_view *v = t->view;
	uint32_t j, b;
	if (v->mode == SP_VIEW_IN_PLACE) {
		b = sp_view_bit(v, e);
		v->filter[b >> 6] |= 1ull << (b & 63);
		if (v->nmarks < v->max_marks)
			v->marks[v->nmarks] = e;
		v->nmarks++;
		sp_st(&a->A[e], x);
		return;
	}
	if (v->mode == SP_VIEW_REPLAY) {
		if (!sp_trace_add(t->wr, &t->nwr, t->maxwr, e))
			t->overflow = 1;
		sp_st(&a->A[e], x);
		return;
	}
	b = sp_view_bit(v, e);
	v->filter[b >> 6] |= 1ull << (b & 63);
	j = sp_row_find(t->wr, t->nwr, e);
	if (j == t->nwr) {
		if (t->nwr == t->maxwr) {
			t->overflow = 1;
			return;
		}
		t->wr[t->nwr++] = e;
	}
	v->wval[j] = x;
}
#endif

/* A tracked read of A[e] (Figure 3(b): the tracking operation after each irregular access). */
GB_HD uint32_t sp_rd(const sp_args *a, sp_track *t, uint32_t e)
{
#if !defined(__CUDA_ARCH__)
	if (t->view)
		return sp_view_rd(a, t, e);
	if (t->tx)
		return t->tx->rd(t->tx, e);
#endif
	if (t->spec && !sp_trace_add(t->rd, &t->nrd, t->maxrd, e))
		t->overflow = 1;
	return sp_ld(&a->A[e]);
}

GB_HD void sp_wr(const sp_args *a, sp_track *t, uint32_t e, uint32_t v)
{
#if !defined(__CUDA_ARCH__)
	if (t->view) {
		sp_view_wr(a, t, e, v);
		return;
	}
	if (t->tx) {
		t->tx->wr(t->tx, e, v);
		return;
	}
#endif
	if (t->spec && !sp_trace_add(t->wr, &t->nwr, t->maxwr, e))
		t->overflow = 1;
	sp_st(&a->A[e], v);
}

/*
 * A regular (untracked) load or store of A[e], as the control-flow loops make
 * them (section 3.2: their accesses follow a regular mapping): sp_ld / sp_st,
 * except inside a transaction, which sees every access (host only).
 */
GB_HD uint32_t sp_get(const sp_args *a, const sp_track *t, uint32_t e)
{
#if !defined(__CUDA_ARCH__)
	if (t->tx)
		return t->tx->rd(t->tx, e);
#endif
	(void)t;
	return sp_ld(&a->A[e]);
}

GB_HD void sp_put(const sp_args *a, const sp_track *t, uint32_t e, uint32_t v)
{
#if !defined(__CUDA_ARCH__)
	if (t->tx) {
		t->tx->wr(t->tx, e, v);
		return;
	}
#endif
	(void)t;
	sp_st(&a->A[e], v);
}

GB_HD float sp_rdf(const sp_args *a, sp_track *t, uint32_t e)
{
	return sp_u2f(sp_rd(a, t, e));
}

GB_HD void sp_wrf(const sp_args *a, sp_track *t, uint32_t e, float v)
{
	sp_wr(a, t, e, sp_f2u(v));
}

/* The iterations [*lo, *hi] an item names when executed in iteration i of n. */
GB_HD void sp_clause_resolve(const sp_clause_item *it, uint32_t i, uint32_t n, int64_t *lo,
			     int64_t *hi)
{
	*lo = it->lo_rel ? (int64_t)i + it->lo : (int64_t)it->lo;
	if (it->hi_end)
		*hi = (int64_t)n - 1;
	else
		*hi = it->hi_rel ? (int64_t)i + it->hi : (int64_t)it->hi;
}

/*
 * A marked branch is executed in iteration i (section 3.2). Sequentially it
 * just runs (returns 1). Speculatively it records the iterations its clause
 * names and returns whether the branch's statements may run on the device:
 * only when every named iteration comes after i and none is a range to the
 * end (Figure 6(a)). Otherwise (Figure 6(b), (c)) the statements are dropped
 * and i itself is marked unless a range to the end already covers it, so
 * that recovery re-executes them: a deviation that keeps a clause such as
 * (+1:end) correct too. Ranges to the end set the all_from flag instead of
 * marking iterations one by one; any other mark raises the marks flag. In
 * a device-decided round with inplace set the statements run (see
 * speculation/check.h).
 */
GB_HD int sp_branch(sp_track *t, uint32_t i, uint32_t n)
{
	uint32_t k, end = t->start + t->count;
	int keep = 1, covered = 0, marked = 0;

	if (!t->spec)
		return 1;
	for (k = 0; k < t->clause->nitems; k++) {
		const sp_clause_item *it = &t->clause->item[k];
		int64_t lo, hi, j;
		sp_clause_resolve(it, i, n, &lo, &hi);
		if (lo <= (int64_t)i || it->hi_end)
			keep = 0;
		if (lo < (int64_t)t->start)
			lo = t->start;
		if (it->hi_end) {
			covered |= lo <= (int64_t)i;
			if (lo < (int64_t)end && t->all_from)
				gb_min_u32(t->all_from, (uint32_t)lo);
			continue;
		}
		if (hi >= (int64_t)end)
			hi = (int64_t)end - 1;
		for (j = lo; j <= hi; j++) {
			gb_st_relaxed_u32(&t->misspec[j - t->start], 1);
			marked = 1;
		}
	}
	if (!keep && !covered) {
		gb_st_relaxed_u32(&t->misspec[i - t->start], 1);
		marked = 1;
	}
	if (marked && !gb_ld_relaxed_u32(t->marks))
		gb_st_relaxed_u32(t->marks, 1);
	if (t->inplace) {
		/* A device-decided round whose clause is (+0:end): the branch runs on this thread's
		 * own scalars; right for the round's first branching iteration, which read the
		 * round's scalars after iterations that did not branch (speculation/check.h). */
		t->took = 1;
		return 1;
	}
	return keep;
}

#endif
