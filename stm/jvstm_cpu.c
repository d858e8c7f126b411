/*
 * JVSTM on CPU threads (Nunes et al. section III-A), the host baseline of
 * their comparison: the logical --threads are dealt round-robin to
 * --cpu-workers pthreads, and each worker runs its threads' transactions one
 * whole attempt at a time (announce the snapshot, execute the entry, retire
 * the snapshot, then, for an update transaction, validate, insert into the
 * ATR, write back and publish: stm/jvstm.h). A worker runs one attempt at a
 * time, so the snapshot announcements that bound reclamation are per worker,
 * not per logical thread. The execution and the lane's bookkeeping are CSMV's
 * GB_HD code (stm/csmv_step.h, stm/csmv_sched.h), the versioned boxes CSMV's
 * (stm/csmv.h). The engine jvstm runs only this backend; jvstm-gpu runs it
 * as its CPU backend, and its own kernel (stm/jvstm_gpu.cu) on the GPU.
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
#include "stm/csmv_bank.h"
#include "stm/csmv_memcached.h"
#include "stm/jvstm.h"
#include "stm/jvstm_engines.h"
#include "stm/stm_cpu.h"

typedef uint32_t (*execute_fn)(csmv_lane *l, const csmv_mem *m, const tx_table *v, const stm_params *p,
			       uint32_t snap);

typedef struct jvstm_cpu {
	tx_input in;
	stm_params p;
	execute_fn execute;
	uint32_t *head, *status, *results;
	uint64_t *ver;
	csmv_words words;
	uint32_t *worker_ts; /* per worker: the snapshot its running attempt reads, or CSMV_IDLE */
	csmv_mem m;
	tx_table table;
	jvstm_atr *atr;
	uint64_t deadline_ns;
	double cycles_per_ns;
} jvstm_cpu;

static void *jvstm_cpu_open(const tx_input *in, const stm_params *p, execute_fn execute)
{
	jvstm_cpu *c = gb_xcalloc(1, sizeof(*c), "JVSTM CPU backend state");
	uint32_t workers = p->cpu_workers ? p->cpu_workers : 1;

	c->in = *in;
	c->p = *p;
	c->execute = execute;
	c->head = gb_xcalloc(in->words, sizeof(uint32_t), "version counts");
	c->ver = gb_xcalloc((size_t)in->words * CSMV_VERSIONS, sizeof(uint64_t), "versions");
	c->status = gb_xcalloc(in->ntx, sizeof(uint32_t), "transaction status");
	c->results = gb_xcalloc(in->ntx * TX_RESULT_WORDS, sizeof(uint32_t), "read-only results");
	c->worker_ts = gb_xcalloc(workers, sizeof(uint32_t), "worker snapshots");
	c->atr = gb_xcalloc(1, sizeof(jvstm_atr), "active transaction record");
	c->m.head = c->head;
	c->m.ver = c->ver;
	c->m.g = &c->words;
	c->m.client_ts = c->worker_ts;
	c->m.ngroups = workers;
	c->m.words = in->words;
	c->table.entries = in->entries;
	c->table.aux = in->aux;
	c->table.aux_stride = in->aux_stride;
	c->table.status = c->status;
	c->table.tx_per_thread = in->tx_per_thread;
	c->table.max_tag = in->max_tag;
	c->table.results = c->results;
	c->cycles_per_ns = stm_cpu_cycles_per_ns();
	return c;
}

static void jvstm_cpu_load(void *ctx, const uint32_t *words)
{
	jvstm_cpu *c = ctx;
	uint32_t i;
	for (i = 0; i < c->in.words; i++)
		csmv_box_init(&c->m, i, words[i]);
}

/* An inserted transaction's write-back and publication, holding the ATR. */
static void write_back(jvstm_cpu *c, csmv_lane *l, uint32_t cts)
{
	/* only the ATR's holder raises the bound, so it is as fresh as the announcements allow */
	csmv_refresh_safe(&c->m);
	while (!csmv_lane_install(l, &c->m, cts)) {
		l->c.reclaim_waits++;
		sched_yield(); /* the workers still reading the oldest version finish their attempts */
		csmv_refresh_safe(&c->m);
	}
	jvstm_record_fill(c->atr, cts, &l->tx);
	jvstm_publish(c->atr, &c->m, cts);
}

/* One attempt of lane l's current entry on worker w. */
static void attempt(jvstm_cpu *c, uint32_t w, csmv_lane *l)
{
	uint32_t snap, out, valid, st;

	if (gb_clock_ns() >= c->deadline_ns) {
		l->state = STM_TIMED_OUT;
		return;
	}
	snap = csmv_announce(&c->m, w);
	out = c->execute(l, &c->m, &c->table, &c->p, snap);
	csmv_retire(&c->m, w);
	if (out != CSMV_LANE_SUBMIT)
		return; /* read-only committed, postponed, or failed (threads_failed ends the run) */
	valid = snap;
	while ((st = jvstm_insert(c->atr, &l->tx, &valid)) == JVSTM_BUSY)
		sched_yield(); /* a write-back on another worker: it waits only for reclamation */
	if (st != JVSTM_INSERTED) {
		csmv_lane_outcome(l, &c->table, 0, 0, gb_cycles());
		return;
	}
	l->t2 = gb_cycles();
	write_back(c, l, valid + 1);
	csmv_lane_outcome(l, &c->table, 1, valid + 1, gb_cycles());
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
		csmv_lane_init(&ls[k], t, c->p.threads, &c->table);
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
	uint32_t nw = c->m.ngroups, i;
	uint64_t t0;

	(void)run_ns; /* no timed rounds: stm/registry.c says why */
	memset(c->status, 0, c->in.ntx * sizeof(uint32_t));
	memset(c->results, 0, c->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t));
	memset(&c->words, 0, sizeof(c->words));
	memset(c->atr, 0, sizeof(*c->atr));
	for (i = 0; i < nw; i++)
		c->worker_ts[i] = CSMV_IDLE;
	memset(r, 0, sizeof(*r));
	t0 = gb_now_ns();
	c->deadline_ns = gb_clock_ns() + timeout_ns;
	stm_cpu_workers_run(nw, worker_main, c, &r->c);
	r->seconds = gb_seconds_since(t0);
	r->cycles_per_ns = c->cycles_per_ns;
}

static int jvstm_cpu_rounds_ok(void *ctx)
{
	(void)ctx;
	return 0; /* JVSTM runs batches only */
}

static void jvstm_cpu_fetch(void *ctx, uint32_t *words, uint32_t *status)
{
	jvstm_cpu *c = ctx;
	uint32_t i;
	if (words)
		for (i = 0; i < c->in.words; i++)
			words[i] = csmv_box_newest(&c->m, i);
	if (status)
		memcpy(status, c->status, c->in.ntx * sizeof(uint32_t));
}

static void jvstm_cpu_fetch_results(void *ctx, uint32_t *results)
{
	jvstm_cpu *c = ctx;
	memcpy(results, c->results, c->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t));
}

static void jvstm_cpu_close(void *ctx)
{
	jvstm_cpu *c = ctx;
	free(c->head);
	free(c->ver);
	free(c->status);
	free(c->results);
	free(c->worker_ts);
	free(c->atr);
	free(c);
}

/* One workload's CPU backend: its execution compiled for CSMV's transaction (stm/csmv_step.h). */
#define JVSTM_CPU_OPS(wl)                                                             \
	static void *jvstm_##wl##_open(const tx_input *in, const stm_params *p)      \
	{                                                                             \
		return jvstm_cpu_open(in, p, csmv_##wl##_execute);                    \
	}                                                                             \
	const stm_ops jvstm_##wl##_cpu_ops = {                                        \
		.open = jvstm_##wl##_open,                                            \
		.load = jvstm_cpu_load,                                               \
		.run = jvstm_cpu_run,                                                 \
		.rounds_ok = jvstm_cpu_rounds_ok,                                     \
		.fetch = jvstm_cpu_fetch,                                             \
		.close = jvstm_cpu_close,                                             \
		.fetch_results = jvstm_cpu_fetch_results,                             \
	}

JVSTM_CPU_OPS(bank);
JVSTM_CPU_OPS(memcached);
