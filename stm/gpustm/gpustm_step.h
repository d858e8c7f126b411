/*
 * GPU-STM's scheduler step (stm/gpustm/gpustm_sched.h) over every workload of
 * workloads/stm/list.h: their bodies compiled against GPU-STM's transactional
 * API (stm/gpustm/gpustm_api.h), gpustm_body that runs workload wl's, and the
 * step. A translation unit includes this once, after defining GPUSTM_MAX_SET
 * when it builds another capacity than 8, and GPUSTM_LOCAL_LOGS as 1 when it
 * builds gpustm-local (each attempt's log a variable of the step, in
 * thread-local memory) rather than gpustm (each thread's log its record of
 * the pool in global memory, gpustm_mem.logs: stm/gpustm/gpustm.h); its
 * callers (a kernel, a CPU thread) pass the workload as a constant, so each
 * keeps only its own body.
 */
#ifndef GB_GPUSTM_STEP_H
#define GB_GPUSTM_STEP_H

#ifndef GPUSTM_LOCAL_LOGS
#define GPUSTM_LOCAL_LOGS 0
#endif

/* What the unit's backends are named after: gpustm_bank_cpu_ops, or gpustm_local_bank_cpu_ops. */
#if GPUSTM_LOCAL_LOGS
#define GPUSTM_UNIT_ID(x) gpustm_local_##x
#define GPUSTM_UNIT_PREFIX "gpustm_local_"
#else
#define GPUSTM_UNIT_ID(x) gpustm_##x
#define GPUSTM_UNIT_PREFIX "gpustm_"
#endif

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/list.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/bodies.h"
#include "api/tx_end.h"

/* Workload wl's body on GPU-STM: gpustm_bank_body, ... */
GB_HD_FLAT int gpustm_body(uint32_t wl, gpustm_tx *tx, const gpustm_mem *m, const tx_table *t, uint32_t i,
			   const tx_entry *x)
{
	switch (wl) {
#define GPUSTM_BODY_CASE(name, set, sizes, long_reads) \
	case STM_WORKLOAD_##name:                      \
		return gpustm_##name##_body(tx, m, t, i, x);
		STM_WORKLOADS(GPUSTM_BODY_CASE)
#undef GPUSTM_BODY_CASE
	}
	return TX_BODY_ABORT;
}

/*
 * One transaction attempt, or the end of the thread's work. Returns s->state:
 * STM_RUNNING while there is more to do.
 */
GB_HD_FLAT uint32_t gpustm_step(uint32_t wl, gpustm_sched *s, const gpustm_mem *m, const tx_table *v,
				const stm_params *p, stm_shared *sh)
{
	uint32_t i = s->pos, r, status;
	uint64_t t0, t1, t2, t3;
	gpustm_tx tx;
#if GPUSTM_LOCAL_LOGS
	gpustm_log log;
#endif

	if ((++s->polls & (GPUSTM_POLL_EVERY - 1u)) == 0 && gb_past_deadline(gb_clock_ns(), s->deadline_ns))
		return s->state = STM_TIMED_OUT;
	if (i == s->end)
		return s->state = STM_DONE;
	if (s->loaded != i) {
		if (i == s->ahead)
			s->cur = s->next;
		else
			stm_load_entry(wl, v, i, &s->cur);
		s->loaded = i;
		/* Load the next entry now: its latency hides behind this attempt. */
		if (i + 1 < s->end) {
			stm_load_entry(wl, v, i + 1, &s->next);
			s->ahead = i + 1;
		}
	}
	t0 = gb_cycles();
#if GPUSTM_LOCAL_LOGS
	gpustm_tx_start(&tx, &log);
#else
	gpustm_tx_start(&tx, m->logs + s->tid);
#endif
	r = gpustm_body(wl, &tx, m, v, i, &s->cur);
	t1 = gb_cycles();
	if (r == TX_BODY_SEMANTIC) {
		s->c.aborts_semantic++;
		s->c.cycles_wasted += t1 - t0;
		gpustm_sched_failed(s, p);
		return STM_RUNNING;
	}
	if (r != TX_BODY_OK || !gpustm_tx_validate(&tx, m)) {
		if (tx.abort == GPUSTM_ABORT_CAPACITY)
			return s->state = STM_FAILED;
		gpustm_count_abort(&s->c, tx.abort);
		s->c.cycles_wasted += gb_cycles() - t0;
		gpustm_sched_failed(s, p);
		return STM_RUNNING;
	}
	t2 = gb_cycles();
	if (tx.nw == 0) {
		gpustm_tx_commit(&tx, m, NULL);
		status = TX_STATUS_READONLY;
		s->c.commits_readonly++;
	} else {
		status = gpustm_tx_commit(&tx, m, &sh->stamp) + 1u;
		s->c.commits_update++;
	}
	v->status[i] = status;
	t3 = gb_cycles();
	s->c.cycles_committed += t3 - t0;
	s->c.cycles_read += t1 - t0;
	s->c.cycles_validate += t2 - t1;
	s->c.cycles_commit += t3 - t2;
	s->attempts = 0;
	s->pos++;
	return STM_RUNNING;
}

#endif
