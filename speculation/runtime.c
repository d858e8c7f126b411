/*
 * The five phases of a speculatively parallelized loop, repeated until the
 * loop is done (section 2 of Feng, Gupta and Bhuyan):
 *   scheduling   (section 4) how many iterations the next assignment gets;
 *   computation  the device runs them with tracking (speculation/check.h);
 *   check        detection, and localization only when detection fires;
 *   commit       (section 5, Figure 7) copy to the host only the ranges
 *                between wrong elements;
 *   recovery     (section 5) re-execute misspeculated iterations on the CPU
 *                in order; for a range to the end (Figure 6(c)) only the
 *                first, the rest go to the next assignment; then copy in only
 *                the elements recovery changed.
 * --opt no-mo re-executes the whole assignment on the CPU when detection
 * fires (no localization), no-co copies the whole array both ways every
 * assignment, no-sched gives every assignment all remaining iterations.
 *
 * Deviations: commit copies only what the assignment wrote, not the whole
 * array between wrong elements: a memory loop's written elements are
 * gathered through the write traces, an SP_CF loop's span is known from its
 * regular mapping (whose Wrong ranges come from the Misspec list on the host).
 * A control-flow loop whose clause only names ranges to the end runs its
 * short assignments as device-decided rounds (device_rounds), recovery
 * included, with the same schedule and decisions; a commit with many wrong
 * ranges copies its region once and merges on the host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/runtime.h"

const char *const sp_opt_names[] = {
	[SP_OPT_ALL] = "all", [SP_OPT_NO_MO] = "no-mo", [SP_OPT_NO_CO] = "no-co", [SP_OPT_NO_SCHED] = "no-sched",
	[SP_NOPTS] = NULL,
};
const char *const sp_phase_names[] = {
	[SP_PH_INPUTS] = "inputs",
	[SP_PH_SETUP] = "setup",
	[SP_PH_SCHEDULE] = "scheduling",
	[SP_PH_COMPUTE] = "computation",
	[SP_PH_CHECK] = "check",
	[SP_PH_COMMIT] = "commit",
	[SP_PH_RECOVERY] = "recovery",
};

/* Wrong ranges from which commit copies the whole region once instead of piece by piece. */
#define COMMIT_PIECES 32

typedef struct range {
	uint32_t lo, hi;
} range;

/* The state of one sp_run. */
typedef struct run {
	const sp_backend *b;
	void *ctx;
	const sp_problem *p;
	const sp_config *c;
	sp_result *r;
	uint32_t *host;
	float *s;
	uint32_t *mlist, *wlist, *sidx, *sval, *stage;
	range *ranges;
	uint32_t nranges, cap_ranges;
	uint64_t t_phase;
} run;

static void phase_end(run *u, unsigned ph)
{
	uint64_t now = gb_now_ns();
	u->r->phase_s[ph] += (double)(now - u->t_phase) / 1e9;
	u->t_phase = now;
}

static void upload(run *u, unsigned buf, size_t off, const uint32_t *src, size_t words)
{
	u->b->upload(u->ctx, buf, off, src, words);
	u->r->bytes_in += 4 * (uint64_t)words;
}

static void download(run *u, unsigned buf, size_t off, uint32_t *dst, size_t words)
{
	u->b->download(u->ctx, buf, off, dst, words);
	u->r->bytes_out += 4 * (uint64_t)words;
}

/* Copy the read-only inputs to the device, unless it uses them in place; returns the bytes. */
static uint64_t upload_inputs(const sp_backend *b, void *ctx, const sp_problem *p)
{
	if (b->host_memory)
		return 0;
	b->upload(ctx, SP_BUF_INPUTS, 0, p->idx, p->nidx);
	b->upload(ctx, SP_BUF_INPUTS, p->nidx, (const uint32_t *)p->in, p->nin);
	return 4 * (uint64_t)(p->nidx + p->nin);
}

static void run_iteration(const sp_problem *p, uint32_t *host, float *s, uint32_t i)
{
	sp_args a = p->args;
	sp_track t = sp_track_sequential();
	a.A = host;
	memcpy(a.s, s, sizeof(a.s));
	sp_body(&a, &t, i);
	memcpy(s, a.s, sizeof(a.s));
}

void sp_run_sequential(const sp_problem *p, uint32_t *host, float scalars[SP_NSCALARS],
		       uint32_t lo, uint32_t hi)
{
	sp_args a = p->args;
	sp_track t = sp_track_sequential();
	uint32_t i;
	a.A = host;
	memcpy(a.s, scalars, sizeof(a.s));
	for (i = lo; i < hi; i++) /* the scalars carry from iteration to iteration in a.s */
		sp_body(&a, &t, i);
	memcpy(scalars, a.s, sizeof(a.s));
}

/* Elements iterations i0..i1-1 of an SP_CF loop write. */
static range cf_span(const sp_problem *p, uint32_t i0, uint32_t i1)
{
	range s;
	sp_cf_span(&p->args, i0, i1, &s.lo, &s.hi);
	return s;
}

static void add_range(run *u, uint32_t lo, uint32_t hi)
{
	if (lo >= hi)
		return;
	if (u->nranges == u->cap_ranges) {
		u->cap_ranges = u->cap_ranges ? 2 * u->cap_ranges : 64;
		u->ranges = realloc(u->ranges, u->cap_ranges * sizeof(range));
		if (!u->ranges)
			gb_die(GB_EXIT_RUNTIME, "out of host memory for %u wrong ranges", u->cap_ranges);
	}
	u->ranges[u->nranges].lo = lo;
	u->ranges[u->nranges++].hi = hi;
}

static void add_iteration_ranges(run *u, uint32_t i)
{
	uint32_t lo[2], hi[2], k, nr = sp_cf_writes(&u->p->args, i, lo, hi);
	for (k = 0; k < nr; k++)
		add_range(u, lo[k], hi[k]);
}

/* Reset the check arrays: through the traces, or element by element when that is less work. */
static void clear_check(run *u, uint32_t start, uint32_t count)
{
	const sp_loop *l = u->p->loop;
	if (l->kind == SP_MEM && (uint64_t)count * (l->max_reads + l->max_writes) > u->p->args.size)
		u->b->launch(u->ctx, SP_K_RESET, 0, u->p->args.size, u->s);
	else
		u->b->launch(u->ctx, SP_K_CLEAR, start, count, u->s);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int cmp_range(const void *a, const void *b)
{
	return cmp_u32(a, b);
}

/* Sort the ranges and merge those that overlap or touch. */
static void merge_ranges(run *u)
{
	uint32_t k, n = 0;
	qsort(u->ranges, u->nranges, sizeof(range), cmp_range);
	for (k = 0; k < u->nranges; k++) {
		if (n && u->ranges[k].lo <= u->ranges[n - 1].hi) {
			if (u->ranges[k].hi > u->ranges[n - 1].hi)
				u->ranges[n - 1].hi = u->ranges[k].hi;
		} else {
			u->ranges[n++] = u->ranges[k];
		}
	}
	u->nranges = n;
}

/*
 * Figure 7: copy region [lo, hi) to the host except the wrong ranges. When a
 * memory loop's assignment wrote few of its elements (index and value for
 * each cost less than the array), those are gathered through the write
 * traces instead (speculation/check.h). no-co copies the whole array and
 * merges the correct ranges on the host, and so does an assignment with
 * COMMIT_PIECES wrong ranges or more, with one copy of its region.
 */
static void commit(run *u, range region, uint32_t start, uint32_t count)
{
	uint32_t k, at = region.lo, maxwr = u->p->loop->max_writes;
	int all = u->c->opt == SP_OPT_NO_CO;
	int gather = !all && u->p->loop->kind == SP_MEM &&
		     2 * (uint64_t)count * maxwr < u->p->args.size;

	/* Many wrong ranges: one copy of the region and a merge on the host beat a copy per
	 * piece (ocean's misspeculated assignments have thousands, each a synchronous copy). */
	if (!all && !gather && u->nranges >= COMMIT_PIECES) {
		all = 1;
		download(u, SP_BUF_A, region.lo, u->stage + region.lo, region.hi - region.lo);
	} else if (all) {
		download(u, SP_BUF_A, 0, u->stage, u->p->args.size);
	}
	if (gather) {
		size_t slots = (size_t)count * maxwr, j;
		u->b->launch(u->ctx, SP_K_GATHER, start, count, u->s);
		download(u, SP_BUF_SIDX, 0, u->sidx, slots);
		download(u, SP_BUF_SVAL, 0, u->sval, slots);
		for (j = 0; j < slots; j++)
			if (u->sidx[j] != SP_NONE)
				u->host[u->sidx[j]] = u->sval[j];
	}
	for (k = 0; k <= u->nranges; k++) {
		uint32_t end = k < u->nranges ? u->ranges[k].lo : region.hi;
		if (end > region.hi)
			end = region.hi;
		if (end > at && all)
			memcpy(u->host + at, u->stage + at, (size_t)(end - at) * 4);
		else if (end > at && !gather)
			download(u, SP_BUF_A, at, u->host + at, end - at);
		if (k < u->nranges) {
			u->r->wrong_elements += u->ranges[k].hi - u->ranges[k].lo;
			if (u->ranges[k].hi > at)
				at = u->ranges[k].hi;
		}
	}
}

/* Copy in the elements of the (merged) ranges: a few ranges one copy each, many
 * through the device's scatter step. */
static void copy_in_ranges(run *u)
{
	uint32_t k, e, n = 0;
	if (u->nranges <= 4) {
		for (k = 0; k < u->nranges; k++)
			upload(u, SP_BUF_A, u->ranges[k].lo, u->host + u->ranges[k].lo,
			       u->ranges[k].hi - u->ranges[k].lo);
		return;
	}
	for (k = 0; k < u->nranges; k++)
		for (e = u->ranges[k].lo; e < u->ranges[k].hi; e++) {
			u->sidx[n] = e;
			u->sval[n++] = u->host[e];
		}
	if (!n)
		return;
	upload(u, SP_BUF_SIDX, 0, u->sidx, n);
	upload(u, SP_BUF_SVAL, 0, u->sval, n);
	u->b->launch(u->ctx, SP_K_SCATTER, 0, n, u->s);
}

uint32_t sp_first_assignment(const sp_problem *p, const sp_config *c)
{
	const sp_loop *l = p->loop;
	uint32_t cap = p->args.n;
	if (l->kind == SP_MEM && p->args.size / l->max_writes < cap)
		cap = p->args.size / l->max_writes ? p->args.size / l->max_writes : 1;
	if (c->max_assignment && c->max_assignment < cap)
		cap = c->max_assignment;
	return cap;
}

void sp_sched_init(sp_sched *sc, uint32_t cap)
{
	memset(sc, 0, sizeof(*sc));
	sc->size = sc->cap = cap;
	sc->last_branch = -1;
}

void sp_sched_after(sp_sched *sc, const sp_problem *p, const sp_config *c, uint32_t count,
		    uint64_t miss, uint32_t all_from)
{
	if (c->opt == SP_OPT_NO_SCHED)
		return;
	if (p->loop->kind == SP_MEM) {
		if ((double)miss > c->threshold * count) {
			sc->size = sc->size > 1 ? sc->size / 2 : 1;
			sc->clean = 0;
		} else if (miss == 0 && ++sc->clean >= c->clean_run) {
			sc->size = sc->size > sc->cap / 2 ? sc->cap : 2 * sc->size;
			sc->clean = 0;
		} else if (miss) {
			sc->clean = 0;
		}
	} else if (sp_clause_all_subsequent(&p->clause) && all_from != SP_NONE) {
		sc->size = sp_sched_interval(&sc->last_branch, &sc->interval_sum, &sc->intervals,
					     all_from, sc->cap);
	}
}

static void *xalloc_words(size_t words, const char *what)
{
	return gb_xmalloc((words ? words : 1) * sizeof(uint32_t), what);
}

/* What the check of one assignment found. */
typedef struct verdict {
	int detected;
	uint32_t all_from; /* first iteration of a range to the end, SP_NONE when none */
	uint32_t nm;       /* misspeculated iterations in u->mlist (offsets, sorted) */
} verdict;

/*
 * Detection, then localization when it fired (and --opt allows it): the
 * Misspec list in u->mlist and the wrong elements as merged u->ranges.
 * Returns -1 when an iteration overflowed its traces.
 */
static int check_phase(run *u, uint32_t start, uint32_t count, verdict *v)
{
	const sp_loop *l = u->p->loop;
	uint32_t counters[SP_NCOUNTERS], end = start + count, k;

	/* A control-flow loop's marks are made during computation: nothing to launch. */
	if (l->kind == SP_MEM) {
		u->b->launch(u->ctx, SP_K_MARK, start, count, u->s);
		u->b->launch(u->ctx, SP_K_INTERSECT, start, count, u->s);
	}
	download(u, SP_BUF_COUNTERS, 0, counters, SP_NCOUNTERS);
	if (counters[SP_C_OVERFLOW])
		return -1;
	v->all_from = counters[SP_C_ALL_FROM];
	v->detected = counters[SP_C_CONFLICT] || counters[SP_C_WAW] || counters[SP_C_MARKS] ||
		      v->all_from != SP_NONE;
	v->nm = 0;
	u->r->raw_war += l->kind == SP_MEM && counters[SP_C_CONFLICT];
	u->r->waw += counters[SP_C_WAW];
	u->r->detections += v->detected;
	u->nranges = 0;
	if (!v->detected || u->c->opt == SP_OPT_NO_MO)
		return 0;
	/* A control-flow loop whose only marks are a range to the end has no list to make,
	 * and Read-min matters only where a RAW/WAR was seen. */
	if (l->kind == SP_MEM || counters[SP_C_MARKS]) {
		if (l->kind == SP_MEM && counters[SP_C_CONFLICT])
			u->b->launch(u->ctx, SP_K_MINREAD, start, count, u->s);
		u->b->launch(u->ctx, SP_K_LOCALIZE, start, count, u->s);
		download(u, SP_BUF_COUNTERS, 0, counters, SP_NCOUNTERS);
		v->nm = counters[SP_C_NMISSPEC];
		download(u, SP_BUF_MLIST, 0, u->mlist, v->nm);
		qsort(u->mlist, v->nm, sizeof(uint32_t), cmp_u32);
	}
	if (l->kind == SP_MEM) {
		uint32_t nw = counters[SP_C_NWRONG];
		download(u, SP_BUF_WLIST, 0, u->wlist, nw);
		for (k = 0; k < nw; k++)
			add_range(u, u->wlist[k], u->wlist[k] + 1);
	} else {
		for (k = 0; k < v->nm; k++)
			add_iteration_ranges(u, start + u->mlist[k]);
		if (v->all_from != SP_NONE) {
			range t = cf_span(u->p, v->all_from, end);
			add_range(u, t.lo, t.hi);
		}
	}
	merge_ranges(u);
	return 0;
}

/*
 * Commit and recovery of one checked assignment. Returns the first iteration
 * of the next assignment; *miss counts the assignment's misspeculated iterations.
 */
static uint32_t commit_and_recover(run *u, uint32_t start, uint32_t count, const verdict *v,
				   uint64_t *miss)
{
	const sp_problem *p = u->p;
	uint32_t size = p->args.size, end = start + count, next = end, k;
	range span = p->loop->kind == SP_MEM ? (range){0, size} : cf_span(p, start, end);

	if (v->detected && u->c->opt == SP_OPT_NO_MO) {
		/* Nothing is committed: the CPU redoes the assignment and the device gets it back. */
		clear_check(u, start, count);
		phase_end(u, SP_PH_COMMIT);
		sp_run_sequential(p, u->host, u->s, start, end);
		*miss = count;
		u->r->reexecuted += count;
		upload(u, SP_BUF_A, span.lo, u->host + span.lo, span.hi - span.lo);
		return end;
	}
	commit(u, span, start, count);
	clear_check(u, start, count);
	phase_end(u, SP_PH_COMMIT);
	for (k = 0; k < v->nm; k++)
		run_iteration(p, u->host, u->s, start + u->mlist[k]);
	u->r->reexecuted += v->nm;
	*miss = v->nm;
	if (v->all_from != SP_NONE) {
		run_iteration(p, u->host, u->s, v->all_from);
		u->r->reexecuted++;
		*miss += end - v->all_from;
		u->r->deferred += end - v->all_from - 1;
		next = v->all_from + 1;
	}
	if (u->c->opt == SP_OPT_NO_CO) {
		upload(u, SP_BUF_A, 0, u->host, size);
	} else if (v->detected) {
		/* The elements recovery changed: those of the iterations it re-executed. */
		if (p->loop->kind == SP_CF) {
			u->nranges = 0;
			for (k = 0; k < v->nm; k++)
				add_iteration_ranges(u, start + u->mlist[k]);
			if (v->all_from != SP_NONE)
				add_iteration_ranges(u, v->all_from);
			merge_ranges(u);
		}
		copy_in_ranges(u);
	}
	return next;
}

/*
 * A batch of device-decided assignments (SP_K_ROUNDS, speculation/check.h)
 * from *start with the schedule sc, then the span it finished copied back
 * in one copy. Its launch and the state's copies count as computation (the
 * check and the recovery of each round run inside it, on the device), the
 * copy back as commit. Updates sc, *start and the scalars.
 */
static void device_rounds(run *u, sp_sched *sc, uint32_t *start)
{
	sp_result *r = u->r;
	sp_rounds st;
	uint32_t first = *start;

	memset(&st, 0, sizeof(st));
	memcpy(st.s, u->s, sizeof(st.s));
	st.start = first;
	st.size = sc->size;
	st.cap = sc->cap;
	st.left = SP_ROUND_BUDGET;
	st.min_count = UINT32_MAX;
	st.last_branch = sc->last_branch;
	st.interval_sum = sc->interval_sum;
	st.intervals = sc->intervals;
	phase_end(u, SP_PH_SCHEDULE);
	upload(u, SP_BUF_ROUNDS, 0, (const uint32_t *)&st, SP_ROUND_WORDS);
	u->b->launch(u->ctx, SP_K_ROUNDS, first, 1, u->s);
	download(u, SP_BUF_ROUNDS, 0, (uint32_t *)&st, SP_ROUND_WORDS);
	phase_end(u, SP_PH_COMPUTE);
	if (st.start > first) {
		range span = cf_span(u->p, first, st.start);
		download(u, SP_BUF_A, span.lo, u->host + span.lo, span.hi - span.lo);
	}
	phase_end(u, SP_PH_COMMIT);

	memcpy(u->s, st.s, sizeof(st.s));
	r->assignments += st.rounds;
	r->assignments_misspeculated += st.branches;
	r->detections += st.branches;
	r->iterations_gpu += st.iterations;
	r->misspeculated += st.misspeculated;
	r->reexecuted += st.branches;
	r->deferred += st.deferred;
	r->wrong_elements += st.wrong;
	if (st.rounds && st.min_count < r->min_assignment)
		r->min_assignment = st.min_count;
	if (st.rounds && st.max_count > r->max_assignment)
		r->max_assignment = st.max_count;
	sc->size = st.size;
	sc->last_branch = st.last_branch;
	sc->interval_sum = st.interval_sum;
	sc->intervals = st.intervals;
	*start = st.start;
}

int sp_run(const sp_backend *b, const sp_problem *p, const sp_config *c, uint32_t *host,
	   float scalars[SP_NSCALARS], sp_result *r)
{
	const sp_loop *l = p->loop;
	uint32_t n = p->args.n, size = p->args.size, start = 0, limit;
	uint32_t counters[SP_NCOUNTERS];
	uint64_t t0;
	size_t staging;
	sp_sched sc;
	run u;
	int rc = 0;
	/* The ablations keep the paper's host-driven assignments. */
	int rounds = c->opt == SP_OPT_ALL && l->kind == SP_CF && sp_clause_only_to_end(&p->clause);

	memset(r, 0, sizeof(*r));
	memset(&u, 0, sizeof(u));
	u.b = b;
	u.p = p;
	u.c = c;
	u.r = r;
	u.host = host;
	u.s = scalars;
	/* First assignment: n/m iterations for irregular memory, as many as possible for
	 * irregular control flow; never above n/m (memory), or --max-assignment. */
	sp_sched_init(&sc, sp_first_assignment(p, c));
	r->min_assignment = UINT64_MAX;

	/* no-sched ignores n/m: every assignment takes all that remains (up to --max-assignment). */
	limit = sc.cap;
	if (c->opt == SP_OPT_NO_SCHED)
		limit = c->max_assignment && c->max_assignment < n ? c->max_assignment : n;
	/* Allocation is not timed: a runtime that runs many loops keeps its memory. */
	u.ctx = b->open(p, host, limit, c->workers);
	staging = (size_t)limit * l->max_writes > size ? (size_t)limit * l->max_writes : size;
	u.mlist = xalloc_words(n, "the Misspec list");
	u.wlist = xalloc_words(size, "the Wrong list");
	u.sidx = xalloc_words(staging, "commit and copy-in staging");
	u.sval = xalloc_words(staging, "commit and copy-in staging");
	u.stage = xalloc_words(size, "copy-out staging");

	u.t_phase = t0 = gb_now_ns();
	r->bytes_in += upload_inputs(b, u.ctx, p);
	phase_end(&u, SP_PH_INPUTS);
	upload(&u, SP_BUF_A, 0, host, size);
	/* Later assignments find the counters reset by the clearing step, on the device. */
	memset(counters, 0, sizeof(counters));
	counters[SP_C_ALL_FROM] = SP_NONE;
	upload(&u, SP_BUF_COUNTERS, 0, counters, SP_NCOUNTERS);
	phase_end(&u, SP_PH_SETUP);

	while (start < n) {
		uint32_t count, next;
		uint64_t miss = 0;
		verdict v;

		if (c->timeout_s > 0 && gb_seconds_since(t0) > c->timeout_s) {
			r->incomplete = 1;
			break;
		}
		/* Assignments whose whole decision the device can take run there, in batches. */
		if (rounds && sc.size <= SP_ROUND_MAX) {
			device_rounds(&u, &sc, &start);
			continue;
		}
		/* scheduling */
		count = c->opt == SP_OPT_NO_SCHED ? limit : sc.size;
		if (count > n - start)
			count = n - start;
		r->assignments++;
		r->iterations_gpu += count;
		if (count < r->min_assignment)
			r->min_assignment = count;
		if (count > r->max_assignment)
			r->max_assignment = count;
		phase_end(&u, SP_PH_SCHEDULE);

		/* computation */
		b->launch(u.ctx, SP_K_COMPUTE, start, count, scalars);
		b->sync(u.ctx, "the computation phase");
		phase_end(&u, SP_PH_COMPUTE);

		/* misspeculation check */
		if (check_phase(&u, start, count, &v) != 0) {
			snprintf(r->error, sizeof(r->error), "an iteration of %s accessed more distinct "
				 "elements than its declared trace size", l->name);
			rc = -1;
			break;
		}
		phase_end(&u, SP_PH_CHECK);

		/* commit (its phase ends inside) and recovery */
		next = commit_and_recover(&u, start, count, &v, &miss);
		b->sync(u.ctx, "the recovery phase");
		r->misspeculated += miss;
		r->assignments_misspeculated += miss > 0;
		phase_end(&u, SP_PH_RECOVERY);
		sp_sched_after(&sc, p, c, count, miss, v.all_from);
		start = next;
	}
	if (r->min_assignment == UINT64_MAX)
		r->min_assignment = 0;
	r->total_s = (double)(u.t_phase - t0) / 1e9;
	b->close(u.ctx);
	free(u.mlist);
	free(u.wlist);
	free(u.sidx);
	free(u.sval);
	free(u.stage);
	free(u.ranges);
	return rc;
}

void sp_run_nospec(const sp_backend *b, const sp_problem *p, const sp_config *c, uint32_t *host,
		   sp_result *r)
{
	uint64_t t0, t;
	void *ctx;

	memset(r, 0, sizeof(*r));
	ctx = b->open(p, host, p->args.n, c->workers);
	t0 = gb_now_ns();
	r->bytes_in = upload_inputs(b, ctx, p) + 4 * (uint64_t)p->args.size;
	t = gb_now_ns();
	r->phase_s[SP_PH_INPUTS] = (double)(t - t0) / 1e9;
	b->upload(ctx, SP_BUF_A, 0, host, p->args.size);
	r->phase_s[SP_PH_SETUP] = gb_seconds_since(t);
	t = gb_now_ns();
	b->launch(ctx, SP_K_PLAIN, 0, p->args.n, p->args.s);
	b->sync(ctx, "the unchecked loop");
	r->phase_s[SP_PH_COMPUTE] = gb_seconds_since(t);
	t = gb_now_ns();
	b->download(ctx, SP_BUF_A, 0, host, p->args.size);
	r->bytes_out = 4 * (uint64_t)p->args.size;
	r->phase_s[SP_PH_COMMIT] = gb_seconds_since(t);
	r->assignments = 1;
	r->iterations_gpu = p->args.n;
	r->min_assignment = r->max_assignment = p->args.n;
	r->total_s = gb_seconds_since(t0);
	b->close(ctx);
}
