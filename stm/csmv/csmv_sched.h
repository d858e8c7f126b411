/*
 * CSMV's client lane: which entry of its block it runs next, and what
 * happens to it after a round. Both backends drive a group of CSMV_GROUP
 * lanes through rounds (stm/csmv/csmv_cpu.c, stm/csmv/csmv_gpu.cu): announce the
 * snapshot, execute one entry per lane (the workload's step, stm/csmv/csmv_step.h),
 * submit the update transactions, install what committed, publish GTS.
 *
 * Thread t owns entries [t*P, (t+1)*P) as in the other engines. The paper's
 * bank has no semantic conflicts; gpubench's bank does (chains), so a lane
 * whose body finds too little money postpones the entry and goes on to its
 * next pending one, coming back to it in a later sweep, as PR-STM's scheduler
 * does; a lane whose whole sweep met only such entries while GTS did not move
 * for --stall-timeout gives up (its entries are abandoned). A transaction the
 * server aborted is retried in the next round.
 */
#ifndef GB_CSMV_SCHED_H
#define GB_CSMV_SCHED_H

#include <string.h>

#include "api/tx_table.h"
#include "stm/csmv/csmv.h"
#include "stm/csmv/csmv_params.h"
#include "stm/stm.h"

/* What a lane's round produced. */
enum csmv_lane_out {
	CSMV_LANE_NONE = 0,  /* nothing to submit: idle, read-only committed, or postponed */
	CSMV_LANE_SUBMIT,    /* an update transaction whose sets are in tx */
	CSMV_LANE_FAILED,    /* the run must stop (capacity, no version visible) */
};

typedef struct csmv_lane_counters {
	uint32_t commits_update, commits_readonly;
	uint32_t aborts_validation, aborts_semantic;
	uint32_t versions_kept_peak, reclaim_waits;
	uint64_t cycles_committed, cycles_wasted;
	uint64_t cycles_read, cycles_validate, cycles_commit;
	uint64_t cycles_diverge, cycles_prevalidate, cycles_wait_server;
	uint64_t cycles_record; /* jvstm: writing the ATR's record, inside cycles_commit */
} csmv_lane_counters;

typedef struct csmv_lane {
	uint32_t tid, begin, end, pos, pending;
	uint32_t state;     /* enum stm_thread_state */
	uint32_t sem_run;   /* postponements since the last commit of this lane or the pass start */
	uint32_t pass_gts;  /* GTS when the current run of postponements began */
	uint64_t pass_ns;
	uint32_t wb;        /* write set entries installed so far (client write-back) */
	/* cycles: attempt start, executed, the group's lanes all executed, request sent, answered */
	uint64_t t0, t1, tq, tr, t2;
	csmv_tx tx;
	csmv_lane_counters c;
} csmv_lane;

/* A workload's execution of a lane's entry (stm/csmv/csmv_step.h defines one per workload), as a host backend keeps it. */
typedef uint32_t (*csmv_execute_fn)(csmv_lane *l, const csmv_mem *m, const tx_table *v, const stm_params *p,
				    uint32_t snap);

GB_HD void csmv_lane_init(csmv_lane *l, uint32_t tid, uint32_t threads, const tx_table *v)
{
	memset(l, 0, sizeof(*l));
	l->tid = tid;
	l->begin = l->pos = tid * v->tx_per_thread;
	l->end = l->begin + v->tx_per_thread;
	l->pending = v->tx_per_thread;
	l->state = tid < threads && l->pending ? STM_RUNNING : STM_DONE;
}

/* To the next entry of the block still pending after pos, wrapping (pos itself last). */
GB_HD void csmv_lane_next(csmv_lane *l, const tx_table *v)
{
	if (!l->pending) {
		l->state = STM_DONE;
		return;
	}
	do {
		if (++l->pos == l->end)
			l->pos = l->begin;
	} while (v->status[l->pos] != TX_STATUS_PENDING);
}

/* A read-only entry committed on snapshot snap with the body's result. */
GB_HD void csmv_lane_readonly(csmv_lane *l, const tx_table *v, uint64_t now)
{
	uint32_t i = l->pos;
	if (v->results) {
		v->results[(size_t)i * TX_RESULT_WORDS] = l->tx.snap;
		v->results[(size_t)i * TX_RESULT_WORDS + 1] = l->tx.result;
	}
	v->status[i] = TX_STATUS_READONLY;
	l->c.commits_readonly++;
	l->c.cycles_committed += now - l->t0;
	l->c.cycles_read += now - l->t0;
	l->pending--;
	l->sem_run = 0;
	csmv_lane_next(l, v);
}

/* The body said not now: postpone the entry, or give up when nothing anywhere moved for stall_ns. */
GB_HD void csmv_lane_semantic(csmv_lane *l, const tx_table *v, const stm_params *p, uint64_t now_cycles)
{
	uint64_t now = gb_clock_ns();
	l->c.aborts_semantic++;
	l->c.cycles_wasted += now_cycles - l->t0;
	if (l->sem_run++ == 0 || l->tx.snap != l->pass_gts) {
		l->sem_run = 1;
		l->pass_gts = l->tx.snap;
		l->pass_ns = now;
	} else if (l->sem_run > l->pending && now - l->pass_ns > csmv_params_of(p)->stall_ns) {
		l->state = STM_STALLED;
		return;
	}
	csmv_lane_next(l, v);
}

/* The server's answer for a submitted update: committed with CTS cts, or aborted (retried). */
GB_HD void csmv_lane_outcome(csmv_lane *l, const tx_table *v, int committed, uint32_t cts, uint64_t now)
{
	if (!committed) {
		l->c.aborts_validation++;
		l->c.cycles_wasted += now - l->t0;
		return;
	}
	v->status[l->pos] = cts; /* CTS 1, 2, ...: the stamp + 1 of api/tx_table.h */
	l->c.commits_update++;
	l->c.cycles_committed += now - l->t0;
	l->c.cycles_read += l->t1 - l->t0;
	l->c.cycles_validate += l->t2 - l->t1;
	l->c.cycles_diverge += l->tq - l->t1;
	l->c.cycles_prevalidate += l->tr - l->tq;
	l->c.cycles_wait_server += l->t2 - l->tr;
	l->c.cycles_commit += now - l->t2;
	l->pending--;
	l->sem_run = 0;
	csmv_lane_next(l, v);
}

/*
 * Install the lane's write set with commit timestamp cts, from where it left
 * off. Returns 0 while the oldest version of a word may still be read (the
 * caller waits for the server to raise safe and calls again).
 */
GB_HD int csmv_lane_install(csmv_lane *l, const csmv_mem *m, uint32_t cts)
{
	uint32_t safe = gb_ld_relaxed_u32(&m->g->safe), kept = 0;
	while (l->wb < l->tx.nw) {
		if (!csmv_install(m, l->tx.w_addr[l->wb], cts, l->tx.w_val[l->wb], safe, &kept))
			return 0;
		if (kept > l->c.versions_kept_peak)
			l->c.versions_kept_peak = kept;
		l->wb++;
	}
	return 1;
}

GB_HD stm_counters csmv_lane_totals(const csmv_lane *l)
{
	stm_counters c;
	memset(&c, 0, sizeof(c)); /* every counter this engine does not keep is 0 */
	c.commits_update = l->c.commits_update;
	c.commits_readonly = l->c.commits_readonly;
	c.aborts_validation = l->c.aborts_validation;
	c.aborts_semantic = l->c.aborts_semantic;
	c.cycles_committed = l->c.cycles_committed;
	c.cycles_wasted = l->c.cycles_wasted;
	c.cycles_read = l->c.cycles_read;
	c.cycles_validate = l->c.cycles_validate;
	c.cycles_commit = l->c.cycles_commit;
	c.passes_max = 1;
	c.threads_timed_out = l->state == STM_TIMED_OUT;
	c.threads_failed = l->state == STM_FAILED;
	c.threads_stalled = l->state == STM_STALLED;
	c.versions_kept_peak = l->c.versions_kept_peak;
	c.reclaim_waits = l->c.reclaim_waits;
	c.cycles_diverge = l->c.cycles_diverge;
	c.cycles_prevalidate = l->c.cycles_prevalidate;
	c.cycles_wait_server = l->c.cycles_wait_server;
	c.cycles_record = l->c.cycles_record;
	return c;
}

#endif
