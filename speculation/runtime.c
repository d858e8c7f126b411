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
 * assignment, no-sched gives every assignment all remaining iterations;
 * none does all three.
 *
 * Deviations: commit copies only what the assignment wrote, not the whole
 * array between wrong elements: a memory loop's written elements are
 * gathered through the write traces, an SP_CF loop's span is known from its
 * regular mapping (whose Wrong ranges come from the Misspec list on the host).
 * Where commit copies a region, it copies it whole, in one copy, and puts
 * back the host's values of the wrong elements in it (saved just before), so
 * its cost is one copy and O(wrong elements) on the host, whatever their
 * number. A control-flow loop whose clause only names ranges to the end runs
 * all its assignments as device-decided rounds (device_rounds), recovery
 * included, with the same schedule and decisions, each batch's span copied
 * back while the next batch runs. A control-flow loop that writes its whole
 * array before reading it is not copied in (sp_loop.writes_whole_array).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/stop.h"
#include "common/timer.h"
#include "speculation/replay.h"
#include "speculation/runtime.h"

const char *const sp_opt_names[] = {
	[SP_OPT_ALL] = "all", [SP_OPT_NO_MO] = "no-mo", [SP_OPT_NO_CO] = "no-co", [SP_OPT_NO_SCHED] = "no-sched",
	[SP_OPT_NONE] = "none", [SP_NOPTS] = NULL,
};
const char *const sp_schedule_names[] = {
	[SP_SCHED_PAPER] = "paper", [SP_SCHED_WIDE] = "wide", [SP_SCHED_LOOKAHEAD] = "lookahead",
	[SP_NSCHEDULES] = NULL,
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

/* Launches of wide rounds queued at once: a launch that finds the batch over costs a few
 * microseconds, a batch's round trip ten or more. */
#define WIDE_QUEUE 16
/* Misspec lists longer than this are put in order through a bitmap rather than sorted. */
#define SORT_MAX 64
/* Iterations a replay level has on average from which each level gets a launch of its own
 * over the whole device rather than a turn in one block's launch. */
#define REPLAY_WIDE 4096

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
	uint64_t *bits;      /* one bit per iteration of an assignment: ordering the Misspec list */
	range *ranges;
	uint32_t nranges, cap_ranges;
	int pending;         /* copies back still running (download_async) */
	int inputs_later;    /* inputs still being copied in the background (upload_inputs) */
	/* A memory loop kept on the device (resident): the misspeculated iterations' rows and
	 * the replay plan (speculation/replay.h). */
	int resident, replayed;
	int inplace;         /* device rounds recover a branch in place (speculation/check.h) */
	int lookahead;       /* device rounds run a second hypothesis (--schedule lookahead) */
	uint32_t *rows, *plan;
	sp_planner planner;
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

/*
 * Copy the read-only inputs to the device, unless it uses them in place;
 * returns the bytes. Where the loop says which inputs its iterations read
 * (sp_inputs_read) and the first assignment, of first iterations, is not the
 * whole loop, only what it reads is copied now and the rest in the
 * background (*later set; the runtime drains it before the next
 * assignment). later NULL: everything now.
 */
static uint64_t upload_inputs(const sp_backend *b, void *ctx, const sp_problem *p, uint32_t first,
			      int *later)
{
	sp_input_span now[SP_MAX_INPUT_SPANS], rest[SP_MAX_INPUT_SPANS];
	uint32_t k, nnow = 0, nrest;
	uint64_t words = 0;
	if (b->host_memory)
		return 0;
	if (later && first < p->args.n)
		nnow = sp_inputs_read(&p->args, 0, first, now);
	if (!nnow) {
		b->upload(ctx, SP_BUF_INPUTS, 0, p->idx, p->nidx);
		b->upload(ctx, SP_BUF_INPUTS, p->nidx, (const uint32_t *)p->in, p->nin);
		return 4 * (uint64_t)(p->nidx + p->nin);
	}
	nrest = sp_inputs_read(&p->args, first, p->args.n, rest);
	for (k = 0; k < nnow + nrest; k++) {
		sp_input_span t = k < nnow ? now[k] : rest[k - nnow];
		const uint32_t *src = t.in_floats ? (const uint32_t *)p->in : p->idx;
		size_t base = t.in_floats ? p->nidx : 0;
		/* what the first assignment's spans copied already (its whole parts) is not copied again */
		if (k >= nnow && k - nnow < nnow && now[k - nnow].in_floats == t.in_floats &&
		    t.lo < now[k - nnow].hi && t.lo >= now[k - nnow].lo)
			t.lo = now[k - nnow].hi < t.hi ? now[k - nnow].hi : t.hi;
		if (t.hi <= t.lo)
			continue;
		if (k < nnow)
			b->upload(ctx, SP_BUF_INPUTS, base + t.lo, src + t.lo, t.hi - t.lo);
		else
			b->upload_async(ctx, SP_BUF_INPUTS, base + t.lo, src + t.lo, t.hi - t.lo);
		words += t.hi - t.lo;
	}
	*later = 1;
	return 4 * words;
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

void sp_phase_to(sp_result *r, unsigned ph, uint64_t *t, uint64_t at)
{
	uint64_t now = at ? at : gb_now_ns();
	if (now > *t) {
		r->phase_s[ph] += (double)(now - *t) / 1e9;
		*t = now;
	}
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

/* What the check of one assignment found. */
typedef struct verdict {
	int detected;
	uint32_t all_from; /* first iteration of a range to the end, SP_NONE when none */
	uint32_t nm;       /* misspeculated iterations in u->mlist (offsets, in loop order) */
	uint32_t nw;       /* SP_MEM: wrong elements in u->wlist (distinct, in no order) */
} verdict;

/* Save the host's values of the wrong elements inside [lo, hi) into u->sval, in order:
 * the Wrong list's elements (memory loop) or the merged wrong ranges (control flow). */
static void save_wrong(run *u, const verdict *v, uint32_t lo, uint32_t hi, int restore)
{
	uint32_t k, n = 0;
	if (u->p->loop->kind == SP_MEM) {
		for (k = 0; k < v->nw; k++) {
			uint32_t e = u->wlist[k];
			if (restore)
				u->host[e] = u->sval[k];
			else
				u->sval[k] = u->host[e];
		}
		return;
	}
	for (k = 0; k < u->nranges; k++) {
		uint32_t a = u->ranges[k].lo > lo ? u->ranges[k].lo : lo;
		uint32_t z = u->ranges[k].hi < hi ? u->ranges[k].hi : hi;
		if (a >= z)
			continue;
		if (restore)
			memcpy(u->host + a, u->sval + n, (size_t)(z - a) * 4);
		else
			memcpy(u->sval + n, u->host + a, (size_t)(z - a) * 4);
		n += z - a;
	}
}

/*
 * Figure 7: the assignment's correct writes in region [lo, hi) reach the
 * host, its wrong elements keep the host's values. When a memory loop's
 * assignment wrote few of its elements (index and value for each cost less
 * than the region), those are gathered through the write traces
 * (speculation/check.h). Otherwise the region is copied in one piece, less a
 * wrong range that reaches its end (a range to the end), and the wrong
 * elements inside get back the values saved just before: one copy and
 * O(wrong elements) of host work, where a copy per piece between wrong
 * ranges costs a round trip each. no-co copies the whole array: the region
 * into place, the rest into a staging buffer (locked like the host array).
 */
static void commit(run *u, range region, uint32_t start, uint32_t count, const verdict *v)
{
	const sp_loop *l = u->p->loop;
	uint32_t k, maxwr = l->max_writes;
	int all = !sp_opt_copies_less(u->c->opt);
	int gather = !all && l->kind == SP_MEM && 2 * (uint64_t)count * maxwr < u->p->args.size;

	if (l->kind == SP_MEM) {
		u->r->wrong_elements += v->nw;
	} else {
		for (k = 0; k < u->nranges; k++)
			u->r->wrong_elements += u->ranges[k].hi - u->ranges[k].lo;
		if (u->nranges && u->ranges[u->nranges - 1].hi >= region.hi &&
		    u->ranges[u->nranges - 1].lo < region.hi)
			region.hi = u->ranges[u->nranges - 1].lo > region.lo ? u->ranges[u->nranges - 1].lo
									      : region.lo;
	}
	if (gather) {
		size_t slots = (size_t)count * maxwr, j;
		u->b->launch(u->ctx, SP_K_GATHER, start, count, u->s);
		download(u, SP_BUF_SIDX, 0, u->sidx, slots);
		download(u, SP_BUF_SVAL, 0, u->sval, slots);
		for (j = 0; j < slots; j++)
			if (u->sidx[j] != SP_NONE)
				u->host[u->sidx[j]] = u->sval[j];
		return;
	}
	if (region.hi <= region.lo && !all)
		return;
	save_wrong(u, v, region.lo, region.hi, 0);
	if (all) {
		/* The whole array crosses the link: the region into place, the rest into
		 * the (locked) staging buffer, where it is dropped. */
		uint32_t lo = region.lo, hi = region.hi > region.lo ? region.hi : region.lo;
		uint32_t size = u->p->args.size;
		if (lo)
			download(u, SP_BUF_A, 0, u->stage, lo);
		if (hi > lo)
			download(u, SP_BUF_A, lo, u->host + lo, hi - lo);
		if (size > hi)
			download(u, SP_BUF_A, hi, u->stage + hi, size - hi);
	} else {
		download(u, SP_BUF_A, region.lo, u->host + region.lo, region.hi - region.lo);
	}
	save_wrong(u, v, region.lo, region.hi, 1);
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

/* Copy in the host's values of n distinct elements (a memory loop's Wrong list, in any
 * order): a few one copy each, more through the scatter step. */
static void copy_in_elements(run *u, const uint32_t *e, uint32_t n)
{
	uint32_t k;
	if (n <= 4) {
		for (k = 0; k < n; k++)
			upload(u, SP_BUF_A, e[k], u->host + e[k], 1);
		return;
	}
	for (k = 0; k < n; k++)
		u->sval[k] = u->host[e[k]];
	upload(u, SP_BUF_SIDX, 0, e, n);
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

int sp_out_of_time(const sp_config *c, uint64_t t0)
{
	return gb_stop_requested() || (c->timeout_s > 0 && gb_seconds_since(t0) > c->timeout_s);
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
	if (!sp_opt_schedules(c->opt))
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
					     all_from, sc->floor, sc->cap);
	} else if (sp_clause_all_subsequent(&p->clause)) {
		sc->size = sp_sched_clean(sc->size, count, sc->grow, sc->cap);
	}
}

/* Put the Misspec list (distinct offsets below count) in loop order: a short one by sorting,
 * a long one through a bitmap of the assignment, O(count / 64 + nm), where sorting thousands
 * costs as much as re-executing them. */
static void order_misspec(run *u, uint32_t count, uint32_t nm)
{
	uint32_t words = (count + 63) / 64, w, k, n = 0;
	if (nm <= SORT_MAX) {
		qsort(u->mlist, nm, sizeof(uint32_t), cmp_u32);
		return;
	}
	memset(u->bits, 0, (size_t)words * sizeof(uint64_t));
	for (k = 0; k < nm; k++)
		u->bits[u->mlist[k] / 64] |= 1ull << (u->mlist[k] % 64);
	for (w = 0; w < words; w++)
		for (uint64_t b = u->bits[w]; b; b &= b - 1)
			u->mlist[n++] = w * 64 + (uint32_t)__builtin_ctzll(b);
}

/*
 * Detection, then localization when it fired (and --opt allows it): the
 * Misspec list in u->mlist, and the wrong elements in u->wlist (memory loop)
 * or as merged u->ranges (control flow); for a resident memory loop, the
 * misspeculated iterations' rows in u->rows instead (the lists stay on the
 * device). Returns -1 when an iteration overflowed its traces, -2 when a
 * replay touched elements outside its rows (SP_C_UNSTABLE).
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
	if (counters[SP_C_UNSTABLE])
		return -2;
	v->all_from = counters[SP_C_ALL_FROM];
	v->detected = counters[SP_C_CONFLICT] || counters[SP_C_WAW] || counters[SP_C_MARKS] ||
		      v->all_from != SP_NONE;
	v->nm = v->nw = 0;
	u->r->raw_war += l->kind == SP_MEM && counters[SP_C_CONFLICT];
	u->r->waw += counters[SP_C_WAW];
	u->r->detections += v->detected;
	u->nranges = 0;
	if (!v->detected || !sp_opt_localizes(u->c->opt))
		return 0;
	/* A control-flow loop whose only marks are a range to the end has no list to make,
	 * and Read-min matters only where a RAW/WAR was seen. */
	if (l->kind == SP_MEM || counters[SP_C_MARKS]) {
		if (l->kind == SP_MEM && counters[SP_C_CONFLICT])
			u->b->launch(u->ctx, SP_K_MINREAD, start, count, u->s);
		u->b->launch(u->ctx, SP_K_LOCALIZE, start, count, u->s);
		download(u, SP_BUF_COUNTERS, 0, counters, SP_NCOUNTERS);
		v->nm = counters[SP_C_NMISSPEC];
		v->nw = counters[SP_C_NWRONG];
		if (u->resident) {
			/* What the replay plan needs: the misspeculated iterations' traces. */
			uint32_t words = SP_ROW_WORDS(l->max_reads, l->max_writes);
			u->b->launch(u->ctx, SP_K_TRACES, start, v->nm, u->s);
			download(u, SP_BUF_ROWS, 0, u->rows, (size_t)v->nm * words);
			return 0;
		}
		download(u, SP_BUF_MLIST, 0, u->mlist, v->nm);
		order_misspec(u, count, v->nm);
	}
	if (l->kind == SP_MEM) {
		download(u, SP_BUF_WLIST, 0, u->wlist, v->nw);
	} else {
		for (k = 0; k < v->nm; k++)
			add_iteration_ranges(u, start + u->mlist[k]);
		if (v->all_from != SP_NONE) {
			range t = cf_span(u->p, v->all_from, end);
			add_range(u, t.lo, t.hi);
		}
		merge_ranges(u);
	}
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

	if (u->resident) {
		/* On the device: the wrong elements back to their committed values, then (recovery)
		 * the misspeculated iterations replayed by levels; the clearing step commits what
		 * the assignment wrote to the committed copy. No copy of the array. */
		u->r->wrong_elements += v->nw;
		if (v->nw)
			u->b->launch(u->ctx, SP_K_RESTORE, start, v->nw, u->s);
		if (!v->nm)
			clear_check(u, start, count);
		u->b->sync(u->ctx, "the commit phase");
		phase_end(u, SP_PH_COMMIT);
		if (v->nm) {
			uint32_t levels, l;
			const sp_loop *lp = p->loop;
			upload(u, SP_BUF_PLAN, 0, u->plan,
			       sp_replay_plan(&u->planner, u->rows, lp->max_reads, lp->max_writes, start,
					      count, v->nm, u->plan));
			levels = u->plan[0];
			/* A few iterations a level: one launch runs the levels; many: one each. */
			if ((uint64_t)levels * REPLAY_WIDE > v->nm)
				u->b->launch(u->ctx, SP_K_REPLAY, start, 1, u->s);
			else
				for (l = 0; l < levels; l++)
					u->b->launch(u->ctx, SP_K_REPLAY_LEVEL, levels + 2 + u->plan[1 + l],
						     u->plan[2 + l] - u->plan[1 + l], u->s);
			clear_check(u, start, count);
			u->replayed = 1;
		}
		u->r->reexecuted += v->nm;
		*miss = v->nm;
		return end;
	}
	if (v->detected && !sp_opt_localizes(u->c->opt)) {
		/* Nothing is committed: the CPU redoes the assignment and the device gets it back. */
		clear_check(u, start, count);
		phase_end(u, SP_PH_COMMIT);
		sp_run_sequential(p, u->host, u->s, start, end);
		*miss = count;
		u->r->reexecuted += count;
		upload(u, SP_BUF_A, span.lo, u->host + span.lo, span.hi - span.lo);
		return end;
	}
	commit(u, span, start, count, v);
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
	if (!sp_opt_copies_less(u->c->opt)) {
		upload(u, SP_BUF_A, 0, u->host, size);
	} else if (v->detected && p->loop->kind == SP_MEM) {
		/* The elements recovery changed: the wrong ones, which it rewrote. */
		copy_in_elements(u, u->wlist, v->nw);
	} else if (v->detected) {
		/* The elements recovery changed: those of the iterations it re-executed. */
		u->nranges = 0;
		for (k = 0; k < v->nm; k++)
			add_iteration_ranges(u, start + u->mlist[k]);
		if (v->all_from != SP_NONE)
			add_iteration_ranges(u, v->all_from);
		merge_ranges(u);
		copy_in_ranges(u);
	}
	return next;
}

/*
 * A batch of device-decided assignments (SP_K_ROUNDS or SP_K_WIDE,
 * speculation/check.h) from *start with the schedule sc, then the span it
 * finished copied back while the next batch runs (download_async: rounds
 * only write after the span a batch finished). The launches and the state's
 * copies count as computation (the check and the recovery of each round run
 * inside them, on the device), issuing the copy back as commit; the part of
 * the copies that the batches did not hide is commit when sp_run waits for
 * it at the end. Updates sc, *start and the scalars.
 */
static void device_rounds(run *u, sp_sched *sc, uint32_t *start)
{
	sp_result *r = u->r;
	uint32_t first = *start, n = u->p->args.n, launches = 1, k;
	sp_rounds st;

	memset(&st, 0, sizeof(st));
	memcpy(st.s, u->s, sizeof(st.s));
	st.start = first;
	st.size = sc->size;
	st.cap = sc->cap;
	st.wide = sc->size > SP_ROUND_MAX;
	st.floor = sc->floor;
	st.grow = sc->grow;
	st.inplace = (uint32_t)u->inplace;
	st.lookahead = (uint32_t)u->lookahead;
	memcpy(st.delta, sc->delta, sizeof(st.delta));
	st.left = SP_ROUND_BUDGET;
	if (st.wide) {
		/* As many launches as rounds of this size would finish the loop, within the queue. */
		uint32_t want = (uint32_t)(((uint64_t)n - first + st.size - 1) / st.size);
		launches = st.left = want < WIDE_QUEUE ? want : WIDE_QUEUE;
	}
	st.min_count = UINT32_MAX;
	st.last_branch = sc->last_branch;
	st.interval_sum = sc->interval_sum;
	st.intervals = sc->intervals;
	sp_round_begin(&st, n);
	phase_end(u, SP_PH_SCHEDULE);
	upload(u, SP_BUF_ROUNDS, 0, (const uint32_t *)&st, SP_ROUND_WORDS);
	for (k = 0; k < launches; k++)
		u->b->launch(u->ctx, st.wide ? SP_K_WIDE : SP_K_ROUNDS, first, 1, u->s);
	download(u, SP_BUF_ROUNDS, 0, (uint32_t *)&st, SP_ROUND_WORDS);
	phase_end(u, SP_PH_COMPUTE);
	if (st.start > first) {
		range span = cf_span(u->p, first, st.start);
		u->b->download_async(u->ctx, SP_BUF_A, span.lo, u->host + span.lo, span.hi - span.lo);
		r->bytes_out += 4 * (uint64_t)(span.hi - span.lo);
		u->pending = 1;
	}
	phase_end(u, SP_PH_COMMIT);

	memcpy(u->s, st.s, sizeof(st.s));
	r->assignments += st.rounds;
	r->assignments_misspeculated += st.branch_rounds;
	r->detections += st.branch_rounds;
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
	memcpy(sc->delta, st.delta, sizeof(sc->delta));
	sc->last_branch = st.last_branch;
	sc->interval_sum = st.interval_sum;
	sc->intervals = st.intervals;
	*start = st.start;
}

/* The array's initial values, unless the loop writes all of it before reading any. */
static uint64_t upload_array(const sp_backend *b, void *ctx, const sp_problem *p, const uint32_t *host)
{
	if (p->loop->kind == SP_CF && p->loop->writes_whole_array)
		return 0;
	b->upload(ctx, SP_BUF_A, 0, host, p->args.size);
	return 4 * (uint64_t)p->args.size;
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
	if (c->schedule == SP_SCHED_WIDE || c->schedule == SP_SCHED_LOOKAHEAD) {
		sc.floor = SP_SCHED_FLOOR;
		sc.grow = 1;
	}
	r->min_assignment = UINT64_MAX;

	/* no-sched ignores n/m: every assignment takes all that remains (up to --max-assignment). */
	limit = sc.cap;
	if (!sp_opt_schedules(c->opt))
		limit = c->max_assignment && c->max_assignment < n ? c->max_assignment : n;
	/* A memory loop stays on the device but for the ablations of localization and of the
	 * copy optimization, which keep the paper's commit to the host and recovery on it. */
	u.resident = l->kind == SP_MEM && sp_opt_localizes(c->opt) && sp_opt_copies_less(c->opt);
	/* Allocation is not timed: a runtime that runs many loops keeps its memory. */
	u.inplace = l->branch_sets_scalars && sp_clause_from_self(&p->clause);
	u.lookahead = rounds && u.inplace && l->reads_no_array && c->schedule == SP_SCHED_LOOKAHEAD;
	u.ctx = b->open(p, host, limit, c->workers,
			(u.resident ? SP_OPEN_RESIDENT : 0) | (u.lookahead ? SP_OPEN_SHADOW : 0));
	if (u.resident) {
		u.rows = gb_xzalloc((size_t)limit * SP_ROW_WORDS(l->max_reads, l->max_writes), sizeof(uint32_t),
				    "misspeculated iterations' traces");
		u.plan = gb_xzalloc(SP_PLAN_WORDS(limit), sizeof(uint32_t), "the replay plan");
		sp_planner_init(&u.planner, limit, size, l->max_reads + l->max_writes);
	}
	staging = (size_t)limit * l->max_writes > size ? (size_t)limit * l->max_writes : size;
	u.mlist = gb_xzalloc(limit, sizeof(uint32_t), "the Misspec list");
	u.bits = gb_xzalloc((size_t)limit / 64 + 1, sizeof(uint64_t), "the Misspec bitmap");
	u.wlist = gb_xzalloc(size, sizeof(uint32_t), "the Wrong list");
	u.sidx = gb_xzalloc(staging, sizeof(uint32_t), "commit and copy-in staging");
	u.sval = gb_xzalloc(staging, sizeof(uint32_t), "commit and copy-in staging");
	u.stage = gb_xzalloc(!sp_opt_copies_less(c->opt) ? size : 0, sizeof(uint32_t), "copy-out staging");
	/* Locked like the host array, so that no-co's whole-array copy runs at the link's
	 * speed: leaving out the copy optimization costs the bytes, not a slower path. */
	if (u.stage && b->pin)
		b->pin(u.ctx, u.stage, (size_t)size * sizeof(uint32_t));

	u.t_phase = t0 = gb_now_ns();
	r->bytes_in += upload_inputs(b, u.ctx, p, !sp_opt_schedules(c->opt) ? limit : sc.size,
				     &u.inputs_later);
	phase_end(&u, SP_PH_INPUTS);
	r->bytes_in += upload_array(b, u.ctx, p, host);
	if (u.resident) /* the committed copy */
		b->launch(u.ctx, SP_K_RESET, 0, size, scalars);
	/* Later assignments find the counters reset by the clearing step, on the device. */
	memset(counters, 0, sizeof(counters));
	counters[SP_C_ALL_FROM] = SP_NONE;
	upload(&u, SP_BUF_COUNTERS, 0, counters, SP_NCOUNTERS);
	phase_end(&u, SP_PH_SETUP);

	while (start < n) {
		uint32_t count, next;
		uint64_t miss = 0;
		verdict v;

		if (sp_out_of_time(c, t0)) {
			r->incomplete = 1;
			break;
		}
		if (u.inputs_later && start > 0) {
			/* The inputs copied while the first assignment ran: what it did not hide. */
			b->drain(u.ctx, "copying the inputs of later assignments");
			u.inputs_later = 0;
			phase_end(&u, SP_PH_INPUTS);
		}
		/* Assignments whose whole decision the device can take run there, in batches. */
		if (rounds) {
			device_rounds(&u, &sc, &start);
			continue;
		}
		/* scheduling */
		count = !sp_opt_schedules(c->opt) ? limit : sc.size;
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
		rc = check_phase(&u, start, count, &v);
		if (rc != 0)
			break;
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
	if (u.pending) {
		/* The copies back that the batches did not hide. */
		b->drain(u.ctx, "copying back the device-decided assignments");
		phase_end(&u, SP_PH_COMMIT);
	}
	if (u.inputs_later) { /* a loop cut short: nothing may still be copying */
		b->drain(u.ctx, "copying the inputs of later assignments");
		phase_end(&u, SP_PH_INPUTS);
	}
	if (u.resident && rc == 0) {
		/* The array crosses to the host once, at the end; a replay's traces are checked. */
		if (u.replayed) {
			download(&u, SP_BUF_COUNTERS, 0, counters, SP_NCOUNTERS);
			rc = counters[SP_C_UNSTABLE] ? -2 : 0;
		}
		download(&u, SP_BUF_A, 0, host, size);
		phase_end(&u, SP_PH_COMMIT);
	}
	if (rc == -1)
		snprintf(r->error, sizeof(r->error), "an iteration of %s accessed more distinct "
			 "elements than its declared trace size", l->head.name);
	else if (rc == -2)
		snprintf(r->error, sizeof(r->error), "an iteration of %s accessed other elements when "
			 "re-executed than speculatively (its accesses must follow from its inputs)",
			 l->head.name);
	rc = rc ? -1 : 0;
	if (r->min_assignment == UINT64_MAX)
		r->min_assignment = 0;
	r->total_s = (double)(u.t_phase - t0) / 1e9;
	b->close(u.ctx);
	free(u.mlist);
	free(u.bits);
	free(u.wlist);
	free(u.sidx);
	free(u.sval);
	free(u.stage);
	free(u.ranges);
	free(u.rows);
	free(u.plan);
	sp_planner_free(&u.planner);
	return rc;
}

void sp_run_nospec(const sp_backend *b, const sp_problem *p, const sp_config *c, uint32_t *host,
		   sp_result *r)
{
	uint64_t t0, t;
	void *ctx;

	memset(r, 0, sizeof(*r));
	ctx = b->open(p, host, p->args.n, c->workers, 0);
	t0 = gb_now_ns();
	r->bytes_in = upload_inputs(b, ctx, p, p->args.n, NULL);
	t = gb_now_ns();
	r->phase_s[SP_PH_INPUTS] = (double)(t - t0) / 1e9;
	r->bytes_in += upload_array(b, ctx, p, host);
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
