/*
 * Speculative execution of a loop on the host's cores: the `--compare
 * cpu-spec` baseline. Feng, Gupta and Bhuyan compare their GPU runtime with
 * speculation on a multicore CPU; this is a design for a multicore host
 * rather than the GPU runtime's steps run on threads (that is the CPU backend,
 * speculation/backend_cpu.c). It runs the same loop bodies
 * (workloads/speculation/spec_bodies.h) and the same misspeculate clauses, in rounds on
 * a pool of host threads (speculation/cpu_pool.c) whose calling thread
 * leads each round.
 *
 * Irregular memory: thread-level speculation whose check and commit run in
 * parallel (speculation/cpu_spec_mem.c): contiguous chunks, one per worker,
 * the first in place and the others through private write logs; every
 * chunk finds its own misspeculated iterations and commits the others'
 * writes at once; only those iterations and the writes whose order matters
 * run in order. Rounds follow section 4's policy (sp_sched, shared with the
 * runtime): n/m iterations at first (a longer round would revisit what an
 * earlier chunk of it wrote, as ocean's sweeps do), at most MAX_CHUNK per
 * chunk so that logs stay in cache, halved when the
 * misspeculation rate passes --threshold and doubled after --clean-run clean
 * rounds. A chunk carries at least MIN_CHUNK iterations and MIN_CHUNK_NS of
 * measured work, or the round runs sequentially (the fallback for dense
 * dependences). Chunk 0 runs at about the sequential speed and the others
 * slower, so each round gives it the share of the iterations that the last
 * one measured (its median chunk) to make all chunks finish together.
 *
 * Irregular control flow: the workers take the round's iterations in blocks
 * of a few cache lines' worth of writes, each the next block in loop order
 * (from a shared count, so that a worker without a core for a while delays
 * one block rather than a fixed share of the round), and run them in place
 * (by the loops' contract each iteration writes its own range of A), with
 * marked branches recording their clauses as the runtime's do (sp_branch).
 * Nobody starts an iteration at or after a range to the end (Figure 6(c))
 * once one has begun; since blocks are taken in loop order, the workers are
 * all near the branch when it is taken, so little work is lost past it, and a round
 * can take every remaining iteration instead of the interval schedule's
 * guess: it ends at the first branch by itself. After the round the lead
 * re-executes marked iterations in order, then the first iteration of a
 * range to the end, and the next round starts after it. A clause with
 * other items (whose marks live in an array of the round) keeps rounds of
 * the interval schedule's size.
 *
 * Whether a control-flow round in parallel pays depends on how far apart
 * the branches are against what a round costs (gothic's branches are about
 * 150 iterations, ten microseconds, apart): the lead measures the rate at
 * which parallel rounds finish iterations and the rate of the loop in order
 * (its stretches in order, or the workers' own time per iteration), runs
 * the faster, and tries a parallel round again after a number of stretches
 * in order (sp_cf_parallel_pays). A stretch in order of an all-subsequent
 * clause runs with its branches marking (cf_observed): an iteration whose
 * statements were dropped runs again at once, so the stretch runs at the
 * sequential loop's speed and the interval schedule keeps seeing the
 * branches.
 *
 * Deviations from a textbook TLS: commit is by chunk and in parallel rather
 * than by iteration in order; the control-flow recovery is the lead's (rare
 * by the clauses' design); speculation does not carry across rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/cpu_pool.h"
#include "speculation/cpu_spec.h"
#include "speculation/cpu_spec_mem.h"
#include "workloads/speculation/spec_bodies.h"

/* A memory chunk shorter than this many iterations, or than this much measured work, costs
 * more to hand to a worker and resolve than it saves. */
#define MIN_CHUNK 64
#define MIN_CHUNK_NS 10000.0
/* Iterations of a memory loop's chunk at most, so that its logs stay in cache. */
#define MAX_CHUNK 2048
/* Control flow: iterations per block at least (a block writes whole cache lines, so that
 * workers do not share them) and at most, and blocks per worker aimed at between two
 * branches (the mean interval): the work lost past a branch is about half a block per
 * worker, a few percent of the interval. */
#define CF_BLOCK_MIN 16
#define CF_BLOCK_MAX 256
#define CF_BLOCKS_PER_WORKER 8

/* A stretch in order runs this many times the mean interval between branches. */
#define STRETCH_INTERVALS 4

/* A worker's count of a control-flow round, on a line of its own. */
typedef struct cf_count {
	_Alignas(64) uint64_t iters, ns;
} cf_count;

typedef struct xrun {
	const sp_problem *p;
	const sp_config *c;
	uint32_t *A;
	float *s;
	sp_pool pool;
	unsigned nw;
	sp_tls *tls;   /* SP_MEM */
	double ns_per_iter, slowdown;
	/* SP_CF: the current round */
	uint32_t start, count, block;
	uint32_t *misspec;
	cf_count *cw;
	sp_cf_rates rates;
	_Alignas(64) uint32_t next_block; /* the round's next block to take */
	_Alignas(64) uint32_t all_from, marks;
} xrun;

/* A worker's blocks of a control-flow round: it takes the next block in loop order until
 * none is left before the end or a range to the end. Blocks are aligned on multiples of
 * their size, so that those of a round that starts anywhere write whole lines. */
static void cf_part(xrun *x, unsigned w)
{
	uint64_t t0 = gb_now_ns(), iters = 0, end = (uint64_t)x->start + x->count;
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential();

	a.A = x->A;
	memcpy(a.s, x->s, sizeof(a.s));
	t.spec = 1;
	t.misspec = x->misspec;
	t.all_from = &x->all_from;
	t.marks = &x->marks;
	t.start = x->start;
	t.count = x->count;
	t.clause = &x->p->clause;
	for (;;) {
		uint64_t lo = ((uint64_t)x->start / x->block +
			       __atomic_fetch_add(&x->next_block, 1, __ATOMIC_RELAXED)) * x->block;
		uint64_t hi = lo + x->block < end ? lo + x->block : end, i;
		if (lo < x->start)
			lo = x->start;
		if (lo >= end || lo >= gb_ld_relaxed_u32(&x->all_from))
			break;
		for (i = lo; i < hi && gb_ld_relaxed_u32(&x->all_from) > i; i++)
			sp_body(&a, &t, (uint32_t)i);
		iters += i - lo;
	}
	x->cw[w].iters = iters;
	x->cw[w].ns = gb_now_ns() - t0;
}

static void pool_part(void *ctx, unsigned w, uint32_t round)
{
	xrun *x = ctx;
	if (x->p->loop->kind == SP_MEM) {
		sp_tls_worker(x->tls, &x->pool, w, round);
	} else {
		cf_part(x, w);
		sp_pool_raise(&x->pool, w, SP_FLAG_DONE, round);
	}
}

/* State for rounds of up to cap iterations, and the workers started. */
static void open_run(xrun *x, const sp_problem *p, const sp_config *c, uint32_t cap,
		     unsigned workers)
{
	memset(x, 0, sizeof(*x));
	x->p = p;
	x->c = c;
	x->nw = workers;
	x->slowdown = 1;
	x->all_from = SP_NONE;
	if (p->loop->kind == SP_MEM) {
		/* Logs for ceil(cap / nw) iterations and more: a round whose chunks would not fit
		 * takes more of them (mem_round). */
		x->tls = sp_tls_open(p, workers, (cap + workers - 1) / workers + 2 * MIN_CHUNK);
	} else {
		x->misspec = gb_xzalloc(cap, sizeof(uint32_t), "the round's marks");
		x->cw = aligned_alloc(64, (size_t)workers * sizeof(cf_count));
		if (!x->cw)
			gb_die(GB_EXIT_RUNTIME, "out of memory for %u CPU speculation workers", workers);
		memset(x->cw, 0, (size_t)workers * sizeof(cf_count));
	}
	sp_pool_open(&x->pool, workers, pool_part, x); /* not timed, as the runtime's allocation */
}

static void close_run(xrun *x)
{
	sp_pool_close(&x->pool);
	sp_tls_close(x->tls);
	free(x->misspec);
	free(x->cw);
}

static void count_assignment(sp_result *r, uint32_t count, uint64_t executed)
{
	r->assignments++;
	r->iterations_gpu += executed;
	if (count < r->min_assignment)
		r->min_assignment = count;
	if (count > r->max_assignment)
		r->max_assignment = count;
}

/* The fewest iterations worth a memory chunk, given the measured time of one (0: not yet). */
static uint32_t min_chunk(double ns_per_iter)
{
	if (ns_per_iter * MIN_CHUNK >= MIN_CHUNK_NS)
		return MIN_CHUNK;
	if (ns_per_iter * UINT32_MAX <= MIN_CHUNK_NS)
		return MIN_CHUNK;
	return (uint32_t)(MIN_CHUNK_NS / ns_per_iter);
}

/* One round of a memory loop from start; returns where the next starts, or 0 on an error. */
static uint32_t mem_round(xrun *x, sp_sched *sc, uint32_t start, sp_result *r, uint64_t *t_phase)
{
	uint32_t n = x->p->args.n, count = sc->size < n - start ? sc->size : n - start, head;
	uint32_t max_chunk = (sc->cap + x->nw - 1) / x->nw + 2 * MIN_CHUNK;
	unsigned nchunks = count / min_chunk(x->ns_per_iter);
	uint64_t t_start, miss = 0;
	sp_tls_round o;

	if (nchunks > x->nw)
		nchunks = x->nw;
	/* more, shorter chunks than the work floor asks when the logs need it (ceil(count /
	 * max_chunk) <= nw, since max_chunk >= ceil(cap / nw)) */
	if (nchunks >= 2 && (count + nchunks - 1) / nchunks > max_chunk)
		nchunks = (count + max_chunk - 1) / max_chunk;
	/* Chunk 0 runs in place at nearly sequential speed: the share that makes every chunk
	 * take as long as the others, within the others' logs. */
	head = nchunks >= 2 ? (uint32_t)(count * x->slowdown / (x->slowdown + nchunks - 1)) : count;
	if (nchunks >= 2 && (count - head + nchunks - 2) / (nchunks - 1) > max_chunk)
		head = count - (nchunks - 1) * max_chunk;
	if (nchunks >= 2 && head < 1)
		head = 1;
	count_assignment(r, count, count);
	sp_phase_to(r, SP_PH_SCHEDULE, t_phase, 0);
	t_start = *t_phase;
	if (nchunks < 2) {
		sp_run_sequential(x->p, x->A, x->s, start, start + count);
		sp_phase_to(r, SP_PH_COMPUTE, t_phase, 0);
		x->ns_per_iter = (double)(*t_phase - t_start) / count;
	} else {
		uint32_t round;
		sp_tls_plan(x->tls, x->A, x->s, start, count, nchunks, head);
		round = sp_pool_start(&x->pool, nchunks);
		sp_tls_lead(x->tls, &x->pool, round, &o);
		if (o.overflow) {
			snprintf(r->error, sizeof(r->error), "an iteration of %s accessed more distinct "
				 "elements than its declared trace size", x->p->loop->head.name);
			return 0;
		}
		if (o.bad_replay) {
			snprintf(r->error, sizeof(r->error), "iteration %u of %s touched other elements when "
				 "re-executed than speculatively: its accesses must follow from its inputs",
				 o.bad_iteration, x->p->loop->head.name);
			return 0;
		}
		/* Computation until the last chunk ran, commit until the last one was resolved, the
		 * rest the part of the in-order re-executions and delayed writes left after it. */
		sp_phase_to(r, SP_PH_COMPUTE, t_phase, o.t_executed);
		sp_phase_to(r, SP_PH_COMMIT, t_phase, o.t_resolved);
		sp_phase_to(r, SP_PH_RECOVERY, t_phase, 0);
		x->ns_per_iter = (double)(o.t_executed - t_start) * nchunks / count;
		if (o.head_ns > 0 && o.rest_ns > 0) {
			double ratio = o.rest_ns / o.head_ns;
			x->slowdown = ratio < 1 ? 1 : ratio > 16 ? 16 : ratio;
		}
		miss = o.misspeculated;
		r->misspeculated += miss;
		r->reexecuted += miss;
		r->wrong_elements += o.wrong;
		r->raw_war += miss > 0;
		r->detections += miss > 0;
	}
	r->assignments_misspeculated += miss > 0;
	sp_sched_after(sc, x->p, x->c, count, miss, SP_NONE);
	return start + count;
}

/*
 * After a parallel control-flow round: re-execute the marked iterations in
 * order, then the first of a range to the end. Returns the iteration the
 * next round starts at; *redone counts the iterations re-executed.
 */
static uint32_t cf_recover(xrun *x, sp_result *r, uint64_t *redone)
{
	uint32_t end = x->start + x->count, af = x->all_from, stop = af < end ? af : end, i;
	int marked = x->marks != 0;
	*redone = 0;
	if (marked) {
		for (i = x->start; i < stop; i++)
			if (x->misspec[i - x->start]) {
				sp_run_sequential(x->p, x->A, x->s, i, i + 1);
				++*redone;
			}
		memset(x->misspec, 0, (size_t)x->count * sizeof(uint32_t));
		x->marks = 0;
	}
	r->detections += marked || af != SP_NONE;
	if (af == SP_NONE)
		return end;
	sp_run_sequential(x->p, x->A, x->s, af, af + 1);
	++*redone;
	x->all_from = SP_NONE;
	return af + 1;
}

/*
 * A stretch in order of an all-subsequent clause: the lead runs it with the
 * branches marking as in a round, and re-executes at once an iteration
 * whose statements were dropped. It runs at the sequential loop's speed
 * (plus one iteration per branch) and the interval schedule sees the
 * branches.
 */
static void cf_observed(xrun *x, const sp_config *c, sp_sched *sc, sp_result *r)
{
	uint32_t end = x->start + x->count, i;
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential(), seq = sp_track_sequential();

	a.A = x->A;
	memcpy(a.s, x->s, sizeof(a.s));
	t.spec = 1;
	t.misspec = x->misspec;
	t.all_from = &x->all_from;
	t.marks = &x->marks;
	t.start = x->start;
	t.count = x->count;
	t.clause = &x->p->clause;
	for (i = x->start; i < end; i++) {
		sp_body(&a, &t, i);
		if (x->all_from <= i || (x->marks && x->misspec[i - x->start])) {
			sp_body(&a, &seq, i);
			r->reexecuted++;
			r->misspeculated++;
		}
		if (x->all_from != SP_NONE) {
			sp_sched_after(sc, x->p, c, 0, 0, x->all_from);
			x->all_from = SP_NONE;
		}
	}
	if (x->marks) {
		memset(x->misspec, 0, (size_t)x->count * sizeof(uint32_t));
		x->marks = 0;
	}
	memcpy(x->s, a.s, sizeof(a.s));
}

static void average(double *avg, double v)
{
	*avg = *avg > 0 ? 0.7 * *avg + 0.3 * v : v;
}

int sp_cf_parallel_pays(sp_cf_rates *q)
{
	double in_order = q->in_order > 0 ? q->in_order : q->worker;
	if (q->parallel <= 0 || q->parallel >= in_order) {
		q->probe = SP_CF_PROBE_EVERY;
		q->streak = 0;
		return 1;
	}
	if (++q->streak >= q->probe) {
		q->probe = q->probe < SP_CF_PROBE_MAX / 2 ? 2 * q->probe : SP_CF_PROBE_MAX;
		q->streak = 0;
		return 1;
	}
	return 0;
}

void sp_cf_ran_parallel(sp_cf_rates *q, double rate, double worker)
{
	/* Averaged over consecutive parallel rounds: a try after stretches in order starts anew. */
	if (!q->was_parallel)
		q->parallel = 0;
	average(&q->parallel, rate);
	if (worker > 0)
		average(&q->worker, worker);
	q->was_parallel = 1;
}

void sp_cf_ran_in_order(sp_cf_rates *q, double rate)
{
	average(&q->in_order, rate);
	q->was_parallel = 0;
}

/* One round (or stretch in order) of a control-flow loop from start; returns the next start. */
static uint32_t cf_round(xrun *x, sp_sched *sc, uint32_t start, sp_result *r, uint64_t *t_phase)
{
	const sp_clause *cl = &x->p->clause;
	uint32_t n = x->p->args.n, left = n - start, count, block = 0, next, w, round, af;
	uint64_t t_start, executed = 0, busy = 0, redone = 0, deferred = 0;
	unsigned parts = 0;

	if (x->nw >= 2 && sp_cf_parallel_pays(&x->rates)) {
		uint64_t per = (uint64_t)sc->size / ((uint64_t)CF_BLOCKS_PER_WORKER * x->nw);
		count = sp_clause_only_to_end(cl) ? (left < sc->cap ? left : sc->cap)
						 : (left < sc->size ? left : sc->size);
		per = (per + CF_BLOCK_MIN - 1) / CF_BLOCK_MIN * CF_BLOCK_MIN;
		block = per < CF_BLOCK_MIN ? CF_BLOCK_MIN : per > CF_BLOCK_MAX ? CF_BLOCK_MAX : (uint32_t)per;
		parts = (count + block - 1) / block < x->nw ? (count + block - 1) / block : x->nw;
	}
	if (parts < 2) {
		uint64_t want = (uint64_t)STRETCH_INTERVALS * sc->size;
		count = sp_clause_all_subsequent(cl) && want < left ? (uint32_t)want : left;
		if (count > sc->cap)
			count = sc->cap;
	}
	x->start = start;
	x->count = count;
	sp_phase_to(r, SP_PH_SCHEDULE, t_phase, 0);
	t_start = *t_phase;
	if (parts < 2) {
		if (sp_clause_all_subsequent(cl))
			cf_observed(x, x->c, sc, r);
		else
			sp_run_sequential(x->p, x->A, x->s, start, start + count);
		count_assignment(r, count, count);
		sp_phase_to(r, SP_PH_COMPUTE, t_phase, 0);
		sp_cf_ran_in_order(&x->rates, (double)count / (double)(*t_phase - t_start + 1));
		return start + count;
	}
	x->block = block;
	x->next_block = 0;
	round = sp_pool_start(&x->pool, parts);
	cf_part(x, 0);
	for (w = 1; w < parts; w++)
		sp_pool_wait(&x->pool, w, SP_FLAG_DONE, round);
	for (w = 0; w < parts; w++) {
		executed += x->cw[w].iters;
		busy += x->cw[w].ns;
	}
	sp_phase_to(r, SP_PH_COMPUTE, t_phase, 0);
	af = x->all_from;
	if (af != SP_NONE)
		sp_sched_after(sc, x->p, x->c, count, 0, af);
	next = cf_recover(x, r, &redone);
	sp_phase_to(r, SP_PH_RECOVERY, t_phase, 0);
	/* What ran after the round's first range to the end began runs again in later rounds
	 * (the range's first iteration was just re-executed). The round speculated everything
	 * before the range, its first iteration (which a range starting after its branch may
	 * not have reached) and those. */
	if (af != SP_NONE && executed > (uint64_t)(af - start) + 1)
		deferred = executed - (af - start) - 1;
	count_assignment(r, count, (uint64_t)(next - start) + deferred);
	r->reexecuted += redone;
	r->deferred += deferred;
	r->misspeculated += redone + deferred;
	r->assignments_misspeculated += redone + deferred > 0;
	sp_cf_ran_parallel(&x->rates, (double)(next - start) / (double)(*t_phase - t_start + 1),
			   busy ? (double)executed / (double)busy : 0);
	return next;
}

int sp_cpu_spec_run(const sp_problem *p, const sp_config *c, uint32_t *host,
		    float scalars[SP_NSCALARS], sp_result *r)
{
	const sp_loop *l = p->loop;
	uint32_t n = p->args.n, start = 0, cap, workers = c->workers ? c->workers : 1;
	uint64_t t0, t_phase;
	sp_sched sc;
	xrun x;

	memset(r, 0, sizeof(*r));
	r->min_assignment = UINT64_MAX;
	cap = sp_first_assignment(p, c);
	if (l->kind == SP_MEM && cap / workers > MAX_CHUNK)
		cap = workers * MAX_CHUNK;
	sp_sched_init(&sc, cap);
	open_run(&x, p, c, cap, workers);
	x.A = host;
	x.s = scalars;
	t_phase = t0 = gb_now_ns();
	while (start < n) {
		uint32_t next;
		if (sp_out_of_time(c, t0)) {
			r->incomplete = 1;
			break;
		}
		next = l->kind == SP_MEM ? mem_round(&x, &sc, start, r, &t_phase)
					 : cf_round(&x, &sc, start, r, &t_phase);
		if (!next)
			break;
		start = next;
	}
	if (r->min_assignment == UINT64_MAX)
		r->min_assignment = 0;
	r->total_s = (double)(t_phase - t0) / 1e9;
	close_run(&x);
	return r->error[0] ? -1 : 0;
}
