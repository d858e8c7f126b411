/*
 * Speculation with transactional memory on the host's cores: the `--compare
 * cpu-tm` baseline, the CPU speculation of Feng, Gupta and Bhuyan's Figure 9
 * (section 7.1: "the transactional memory on the CPU has high time
 * overhead"). The paper names neither the TM nor how its loops were mapped
 * onto it; this is the textbook mapping, thread-level speculation on a
 * software TM:
 *
 *  - every iteration of the loop is a transaction of the word-based STM of
 *    speculation/tm.h (TL2's clock and versioned locks), whose order is the
 *    iteration's index, so that it commits only after every earlier
 *    iteration has: the loop's result is the sequential loop's;
 *  - every access the body makes to A, tracked (sp_rd / sp_wr) or regular
 *    (sp_get / sp_put), is a transactional read or write (api/loop_body.h's
 *    sp_txn); so are the loop-carried scalars of a control-flow loop, read
 *    at the transaction's start and written at its end when the iteration
 *    changed them (a marked branch then runs its statements in the
 *    transaction, as in the sequential loop: sp_track's spec is 0). The
 *    read-only inputs are read directly;
 *  - the workers (--cpu-workers, default all cores, on the pool of
 *    speculation/cpu_pool.c whose calling thread, the lead, is one of them)
 *    take the iterations of a round (CHUNK per worker) one at a time in loop
 *    order from a shared count, and each runs its iteration to its commit
 *    before it takes the next: at most one iteration per worker is in flight.
 *    A transaction that aborts (a read found a word committed after its
 *    begin, or its commit found one) runs again at once;
 *  - between rounds the lead checks the timeout.
 *
 * Nothing here knows the loops' dependences: a conflict is found when it
 * happens, as a TM finds it, and WAR and WAW cost nothing (commit in order).
 * What it costs beyond the loop: a begin (a clock read and a sigsetjmp), a
 * lock read before and after each read, a write set searched by each read of
 * a word written before, and at commit a wait for the turn, the locks, the
 * clock and the write-back, on lines every worker shares.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/cpu_pool.h"
#include "speculation/cpu_tm.h"
#include "speculation/tm.h"
#include "workloads/speculation/spec_bodies.h"

/* Iterations of a round per worker. */
#define CHUNK 4096

struct tmrun;

/* A worker: its transaction (the body's sp_txn first, so that the body's calls find it) and
 * its counts of a round. */
typedef struct tmworker {
	_Alignas(64) sp_txn ops;
	sp_tm_tx tx;
	struct tmrun *run;
	uint64_t runs;       /* transactions begun */
	uint64_t redone;     /* iterations that aborted at least once */
	int first;           /* the current iteration has not aborted yet */
} tmworker;

typedef struct tmrun {
	const sp_problem *p;
	uint32_t *A;
	int shared_scalars;  /* a control-flow loop: its scalars are words of the TM */
	sp_tm tm;
	sp_pool pool;
	unsigned nw;
	tmworker *w;
	uint32_t end;        /* the round's end */
	_Alignas(64) uint32_t s[SP_NSCALARS]; /* the loop-carried scalars, as words (keys size + k) */
	_Alignas(64) uint32_t next; /* the round's next iteration to take */
} tmrun;

static uint32_t tx_rd(sp_txn *o, uint32_t e)
{
	tmworker *w = (tmworker *)o;
	return sp_tm_read(&w->tx, &w->run->A[e], e);
}

static void tx_wr(sp_txn *o, uint32_t e, uint32_t v)
{
	tmworker *w = (tmworker *)o;
	sp_tm_write(&w->tx, &w->run->A[e], e, v);
}

/* One run of iteration i as a transaction, to its commit (or to an abort, which leaves it
 * through the transaction's siglongjmp). */
static __attribute__((noinline)) void attempt(tmworker *w, uint32_t i)
{
	tmrun *x = w->run;
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential();
	uint32_t seen[SP_NSCALARS], k, size = a.size;

	w->runs++;
	sp_tm_begin(&w->tx, i);
	a.A = x->A;
	t.tx = &w->ops;
	if (x->shared_scalars)
		for (k = 0; k < SP_NSCALARS; k++) {
			seen[k] = sp_tm_read(&w->tx, &x->s[k], size + k);
			a.s[k] = sp_u2f(seen[k]);
		}
	sp_body(&a, &t, i);
	if (x->shared_scalars)
		for (k = 0; k < SP_NSCALARS; k++)
			if (sp_f2u(a.s[k]) != seen[k])
				sp_tm_write(&w->tx, &x->s[k], size + k, sp_f2u(a.s[k]));
	sp_tm_commit(&w->tx);
}

/* Iteration i until it commits: an abort comes back to the sigsetjmp and runs it again. */
static void iteration(tmworker *w, uint32_t i)
{
	w->first = 1;
	if (sigsetjmp(w->tx.env, 0)) {
		w->redone += w->first;
		w->first = 0;
	}
	attempt(w, i);
}

/* A worker's part of a round: the next iteration in loop order until none is left. */
static void part(tmrun *x, unsigned wi)
{
	tmworker *w = &x->w[wi];
	for (;;) {
		uint32_t i = __atomic_fetch_add(&x->next, 1, __ATOMIC_RELAXED);
		if (i >= x->end)
			return;
		iteration(w, i);
	}
}

static void pool_part(void *ctx, unsigned w, uint32_t round)
{
	tmrun *x = ctx;
	part(x, w);
	sp_pool_raise(&x->pool, w, SP_FLAG_DONE, round);
}

int sp_cpu_tm_run(const sp_problem *p, const sp_config *c, uint32_t *host, float scalars[SP_NSCALARS],
		  sp_result *r)
{
	uint32_t n = p->args.n, start = 0, k;
	unsigned workers = c->workers ? c->workers : 1, w;
	uint64_t t0, t, runs0, redone0;
	tmrun *x = gb_xzalloc(1, sizeof(*x), "the transactional run");

	memset(r, 0, sizeof(*r));
	r->min_assignment = UINT64_MAX;
	x->p = p;
	x->A = host;
	x->nw = workers;
	x->shared_scalars = p->loop->kind == SP_CF;
	for (k = 0; k < SP_NSCALARS; k++)
		x->s[k] = sp_f2u(scalars[k]);
	/* not timed, as the other baselines' allocation */
	sp_tm_open(&x->tm, (size_t)p->args.size + SP_NSCALARS);
	x->w = aligned_alloc(64, (size_t)workers * sizeof(tmworker));
	if (!x->w)
		gb_die(GB_EXIT_RUNTIME, "out of memory for %u transactional workers", workers);
	memset(x->w, 0, (size_t)workers * sizeof(tmworker));
	for (w = 0; w < workers; w++) {
		x->w[w].ops.rd = tx_rd;
		x->w[w].ops.wr = tx_wr;
		x->w[w].run = x;
		sp_tm_tx_open(&x->w[w].tx, &x->tm);
	}
	sp_pool_open(&x->pool, workers, pool_part, x);
	sp_tm_set_turn(&x->tm, 0);

	t = t0 = gb_now_ns();
	while (start < n) {
		uint32_t count = n - start < (uint64_t)workers * CHUNK ? n - start : workers * CHUNK, round;
		uint64_t runs = 0, redone = 0;
		if (sp_out_of_time(c, t0)) {
			r->incomplete = 1;
			break;
		}
		x->end = start + count;
		__atomic_store_n(&x->next, start, __ATOMIC_RELAXED);
		for (w = 0, runs0 = redone0 = 0; w < workers; w++) {
			runs0 += x->w[w].runs;
			redone0 += x->w[w].redone;
		}
		sp_phase_to(r, SP_PH_SCHEDULE, &t, 0);
		round = sp_pool_start(&x->pool, workers);
		part(x, 0);
		for (w = 1; w < workers; w++)
			sp_pool_wait(&x->pool, w, SP_FLAG_DONE, round);
		sp_phase_to(r, SP_PH_COMPUTE, &t, 0);
		for (w = 0; w < workers; w++) {
			runs += x->w[w].runs;
			redone += x->w[w].redone;
		}
		runs -= runs0;
		redone -= redone0;
		r->assignments++;
		r->iterations_gpu += runs;
		r->misspeculated += redone;
		r->reexecuted += runs - count;
		r->assignments_misspeculated += redone > 0;
		r->detections += redone > 0;
		r->raw_war += redone > 0;
		if (count < r->min_assignment)
			r->min_assignment = count;
		if (count > r->max_assignment)
			r->max_assignment = count;
		start += count;
	}
	r->total_s = (double)(t - t0) / 1e9;
	if (r->min_assignment == UINT64_MAX)
		r->min_assignment = 0;
	for (k = 0; k < SP_NSCALARS; k++)
		scalars[k] = sp_u2f(x->s[k]);
	sp_pool_close(&x->pool);
	for (w = 0; w < workers; w++)
		sp_tm_tx_close(&x->w[w].tx);
	sp_tm_close(&x->tm);
	free(x->w);
	free(x);
	return 0;
}
