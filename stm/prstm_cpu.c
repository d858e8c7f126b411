/*
 * PR-STM's CPU backend: the shared algorithm (stm/prstm.h, stm/prstm_bank.h)
 * on pthreads. The logical --threads are dealt round-robin to --cpu-workers
 * workers; each worker interleaves its logical threads one transaction attempt
 * at a time, so a thread postponed on a semantic conflict lets the others of
 * its worker make the progress it waits for, and a logical thread that backs
 * off or waits for a round is passed over until its time has come.
 * Priorities are the logical thread indices, exactly as on the GPU.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "stm/prstm_bank.h"
#include "stm/prstm_engines.h"

typedef struct cpu_ctx {
	const bank_workload *w;
	stm_params p;
	uint32_t *data, *locks, *status;
	uint32_t nlocks;
	stm_shared shared;
	uint64_t timeout_ns, run_ns; /* of the current run */
	double cycles_per_ns;
} cpu_ctx;

typedef struct worker {
	cpu_ctx *ctx;
	uint32_t index;
	stm_counters c;
	pthread_t thread;
} worker;

static double calibrate_cycles_per_ns(void)
{
	uint64_t t0 = gb_now_ns(), c0 = gb_cycles(), t1, c1;
	do {
		t1 = gb_now_ns();
	} while (t1 - t0 < 20000000ull);
	c1 = gb_cycles();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

static void *cpu_open(const bank_workload *w, const stm_params *p)
{
	cpu_ctx *c = gb_xcalloc(1, sizeof(*c), "CPU backend state");
	c->w = w;
	c->p = *p;
	c->nlocks = (w->cfg.accounts + p->hash - 1) / p->hash;
	c->data = gb_xcalloc(w->cfg.accounts, sizeof(uint32_t), "accounts");
	c->locks = gb_xcalloc(c->nlocks, sizeof(uint32_t), "lock table");
	c->status = gb_xcalloc(w->ntx, sizeof(uint32_t), "transaction status");
	c->cycles_per_ns = calibrate_cycles_per_ns();
	/* A worker preempted in the middle of a transaction can sleep through
	 * 2048 commits on one lock and find its version again (stm/prstm.h): an
	 * attempt older than 20 us at validation aborts. Without preemption an
	 * attempt takes about a microsecond, and 2048 commits through one lock's
	 * cache line take far longer than 20 us. */
	c->p.window_cycles = (uint64_t)(20000.0 * c->cycles_per_ns);
	return c;
}

static void cpu_load(void *vctx, const int32_t *balances)
{
	cpu_ctx *c = vctx;
	memcpy(c->data, balances, c->w->cfg.accounts * sizeof(uint32_t));
	memset(c->locks, 0, c->nlocks * sizeof(uint32_t));
}

static void *worker_main(void *arg)
{
	worker *wk = arg;
	cpu_ctx *c = wk->ctx;
	uint32_t workers = c->p.cpu_workers, n = 0, active, k;
	prstm_sched *s;
	prstm_mem m = {c->locks, c->data, c->p.hash};
	bank_view v = bank_view_of(c->w, c->status);
	uint64_t now = gb_clock_ns();
	uint32_t t;

	for (t = wk->index; t < c->p.threads; t += workers)
		n++;
	s = gb_xmalloc((size_t)n * sizeof(*s) + 1, "CPU logical threads");
	for (t = wk->index, k = 0; t < c->p.threads; t += workers, k++)
		prstm_sched_init(&s[k], t, &v, &c->p, c->timeout_ns, c->run_ns, &c->shared, now);
	active = n;
	while (active) {
		int busy = 0;
		for (k = 0; k < active;) {
			if (prstm_bank_step(&s[k], &m, &v, &c->p, &c->shared) == STM_RUNNING) {
				busy |= s[k].wait_ns == 0;
				k++;
				continue;
			}
			{
				stm_counters t = prstm_thread_totals(&s[k]);
				stm_counters_add(&wk->c, &t);
			}
			s[k] = s[--active];
		}
		/* Every logical thread of this worker waits (backoff, round gate):
		 * let the workers they wait for have the core. */
		if (!busy && active)
			sched_yield();
	}
	free(s);
	return NULL;
}

static int cpu_rounds_ok(void *vctx)
{
	(void)vctx;
	return 1; /* every logical thread is always scheduled */
}

static void cpu_run(void *vctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	cpu_ctx *c = vctx;
	uint32_t nw = c->p.cpu_workers, i;
	worker *wk = gb_xcalloc(nw, sizeof(*wk), "CPU workers");
	uint64_t t0;
	int err;

	memset(c->status, 0, c->w->ntx * sizeof(uint32_t));
	memset(&c->shared, 0, sizeof(c->shared));
	c->timeout_ns = timeout_ns;
	c->run_ns = run_ns;
	memset(r, 0, sizeof(*r));
	t0 = gb_now_ns();
	for (i = 0; i < nw; i++) {
		wk[i].ctx = c;
		wk[i].index = i;
		err = pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CPU worker %u of %u: %s", i, nw,
			       strerror(err));
	}
	for (i = 0; i < nw; i++) {
		pthread_join(wk[i].thread, NULL);
		stm_counters_add(&r->c, &wk[i].c);
	}
	r->seconds = gb_seconds_since(t0);
	r->cycles_per_ns = c->cycles_per_ns;
	free(wk);
}

static void cpu_fetch(void *vctx, int32_t *balances, uint32_t *status)
{
	cpu_ctx *c = vctx;
	if (balances)
		memcpy(balances, c->data, c->w->cfg.accounts * sizeof(uint32_t));
	if (status)
		memcpy(status, c->status, c->w->ntx * sizeof(uint32_t));
}

static void cpu_close(void *vctx)
{
	cpu_ctx *c = vctx;
	free(c->data);
	free(c->locks);
	free(c->status);
	free(c);
}

const stm_bank_ops prstm_bank_cpu_ops = {
	cpu_open, cpu_load, cpu_run, cpu_rounds_ok, cpu_fetch, cpu_close,
};
