/*
 * JVSTM on CPU threads (Nunes et al. section III-A), the host baseline of
 * their comparison: the logical --threads are dealt round-robin to
 * --cpu-workers pthreads, and each worker runs its threads' transactions one
 * whole attempt at a time (announce the snapshot, execute the entry, retire
 * the snapshot, then, for an update transaction, validate, insert into the
 * ATR, write back and publish: stm/csmv/jvstm.h). A worker runs one attempt at a
 * time, so the snapshot announcements that bound reclamation are per worker,
 * not per logical thread. The execution and the lane's bookkeeping are CSMV's
 * GB_HD code (stm/csmv/csmv_step.h, stm/csmv/csmv_sched.h), the versioned boxes CSMV's
 * (stm/csmv/csmv.h), in the store CSMV's CPU backend keeps too (stm/csmv/csmv_store.h),
 * its announcement slots one per worker. The engine jvstm runs only this
 * backend; jvstm-gpu runs it as its CPU backend, and its own kernel
 * (stm/csmv/jvstm_gpu.cu) on the GPU.
 *
 * Waits, and why they end: a committer whose insertion finds a write-back
 * running waits for it; a write-back waits, holding the ATR, for the workers
 * that still announce a snapshot old enough to read the version it would
 * overwrite. Every worker retires its announcement before it commits, and an
 * execution waits for nothing (a read always finds its version, a read-only
 * transaction never aborts), so those workers retire and the write-back goes
 * on; the waits cannot form a cycle.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "stm/csmv/csmv_step.h"
#include "stm/csmv/csmv_store.h"
#include "stm/csmv/jvstm.h"
#include "stm/csmv/jvstm_engines.h"
#include "stm/backend/stm_cpu.h"

typedef struct jvstm_cpu {
	csmv_store s; /* first: the store's stm_ops functions take this state; its slots are per worker */
	stm_params p;
	csmv_execute_fn execute;
	jvstm_atr *atr;
	uint64_t deadline_ns;
	double cycles_per_ns;
} jvstm_cpu;

static void *jvstm_cpu_open(const tx_input *in, const stm_params *p, csmv_execute_fn execute)
{
	jvstm_cpu *c = gb_xcalloc(1, sizeof(*c), "JVSTM CPU backend state");

	c->p = *p;
	c->execute = execute;
	csmv_store_open(&c->s, in, p->cpu_workers ? p->cpu_workers : 1, "worker snapshots");
	c->atr = gb_xcalloc(1, sizeof(jvstm_atr), "active transaction record");
	c->cycles_per_ns = stm_cpu_cycles_per_ns();
	return c;
}

/* An inserted transaction's write-back and publication, holding the ATR. */
static void write_back(jvstm_cpu *c, csmv_lane *l, uint32_t cts)
{
	/* only the ATR's holder raises the bound, so it is as fresh as the announcements allow */
	csmv_refresh_safe(&c->s.m);
	while (!csmv_lane_install(l, &c->s.m, cts)) {
		l->c.reclaim_waits++;
		sched_yield(); /* the workers still reading the oldest version finish their attempts */
		csmv_refresh_safe(&c->s.m);
	}
	jvstm_record_publish(c->atr, &c->s.m, l, cts);
}

/* One attempt of lane l's current entry on worker w. */
static void attempt(jvstm_cpu *c, uint32_t w, csmv_lane *l)
{
	uint32_t snap, out, valid, st;

	if (gb_past_deadline(gb_clock_ns(), c->deadline_ns)) {
		l->state = STM_TIMED_OUT;
		return;
	}
	snap = csmv_announce(&c->s.m, w);
	out = c->execute(l, &c->s.m, &c->s.table, &c->p, snap);
	csmv_retire(&c->s.m, w);
	if (out != CSMV_LANE_SUBMIT)
		return; /* read-only committed, postponed, or failed (threads_failed ends the run) */
	l->tq = l->tr = l->t1; /* no group to wait for and no server: until insertion it is all validation */
	valid = snap;
	while ((st = jvstm_insert(c->atr, &l->tx, &valid)) == JVSTM_BUSY)
		sched_yield(); /* a write-back on another worker: it waits only for reclamation */
	if (st != JVSTM_INSERTED) {
		csmv_lane_outcome(l, &c->s.table, 0, 0, gb_cycles());
		return;
	}
	l->t2 = gb_cycles();
	write_back(c, l, valid + 1);
	csmv_lane_outcome(l, &c->s.table, 1, valid + 1, gb_cycles());
}

static void worker_main(stm_cpu_worker *wk)
{
	jvstm_cpu *c = wk->ctx;
	uint32_t n = 0, k, t, active;
	csmv_lane *ls;

	for (t = wk->index; t < c->p.threads; t += wk->count)
		n++;
	ls = gb_xcalloc(n ? n : 1, sizeof(csmv_lane), "JVSTM threads");
	for (t = wk->index, k = 0; t < c->p.threads; t += wk->count, k++)
		csmv_lane_init(&ls[k], t, c->p.threads, &c->s.table);
	active = n;
	while (active) {
		active = 0;
		for (k = 0; k < n; k++) {
			if (ls[k].state != STM_RUNNING)
				continue;
			attempt(c, wk->index, &ls[k]);
			active += ls[k].state == STM_RUNNING;
		}
	}
	for (k = 0; k < n; k++) {
		stm_counters tc = csmv_lane_totals(&ls[k]);
		stm_counters_add(&wk->totals, &tc);
	}
	free(ls);
}

static void jvstm_cpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	jvstm_cpu *c = ctx;
	uint64_t t0;

	(void)run_ns; /* no timed rounds: stm/registry.c says why */
	csmv_store_clear(&c->s);
	memset(c->atr, 0, sizeof(*c->atr));
	memset(r, 0, sizeof(*r));
	t0 = gb_now_ns();
	c->deadline_ns = gb_clock_ns() + timeout_ns;
	stm_cpu_workers_run(c->s.m.ngroups, worker_main, c, &r->c);
	r->seconds = gb_seconds_since(t0);
	r->cycles_per_ns = c->cycles_per_ns;
}

static void jvstm_cpu_close(void *ctx)
{
	jvstm_cpu *c = ctx;
	csmv_store_close(&c->s);
	free(c->atr);
	free(c);
}

/* Each workload's CPU backend (jvstm_bank_cpu_ops, ...): its execution compiled for CSMV's transaction
 * (stm/csmv/csmv_step.h). */
#define JVSTM_CPU_OPS(wl, ahead, ...)                                                 \
	static void *jvstm_##wl##_open(const tx_input *in, const stm_params *p)      \
	{                                                                             \
		return jvstm_cpu_open(in, p, csmv_##wl##_execute);                    \
	}                                                                             \
	const stm_ops jvstm_##wl##_cpu_ops = CSMV_STORE_OPS(jvstm_##wl##_open, jvstm_cpu_run, jvstm_cpu_close);
CSMV_WORKLOADS(JVSTM_CPU_OPS, 0)
