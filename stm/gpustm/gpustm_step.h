/*
 * GPU-STM's scheduler step (stm/gpustm/gpustm_sched.h) for one workload: a template
 * included once per workload, after the workload's body has been compiled
 * against GPU-STM's transactional API (stm/gpustm/gpustm_bank.h is the pattern). It
 * reads, and then takes back:
 *   GPUSTM_STEP               the name of the step function (gpustm_bank_step)
 *   GPUSTM_STEP_LOAD(t, i, e) the workload's copy of entry i into a tx_entry
 *   GPUSTM_STEP_BODY          the workload's body compiled for GPU-STM (gpustm_bank_body)
 * No include guard: each inclusion defines another step.
 */
#include "stm/gpustm/gpustm_sched.h"

#if !defined(GPUSTM_STEP) || !defined(GPUSTM_STEP_LOAD) || !defined(GPUSTM_STEP_BODY)
#error "define GPUSTM_STEP, GPUSTM_STEP_LOAD and GPUSTM_STEP_BODY before including stm/gpustm/gpustm_step.h"
#endif

/*
 * One transaction attempt, or the end of the thread's work. Returns s->state:
 * STM_RUNNING while there is more to do.
 */
GB_HD uint32_t GPUSTM_STEP(gpustm_sched *s, const gpustm_mem *m, const tx_table *v, const stm_params *p,
			   stm_shared *sh)
{
	uint32_t i = s->pos, r, status;
	uint64_t t0, t1, t2, t3;
	gpustm_tx tx;

	if ((++s->polls & (GPUSTM_POLL_EVERY - 1u)) == 0 && gb_clock_ns() >= s->deadline_ns)
		return s->state = STM_TIMED_OUT;
	if (i == s->end)
		return s->state = STM_DONE;
	if (s->loaded != i) {
		if (i == s->ahead)
			s->cur = s->next;
		else
			GPUSTM_STEP_LOAD(v, i, &s->cur);
		s->loaded = i;
		/* Load the next entry now: its latency hides behind this attempt. */
		if (i + 1 < s->end) {
			GPUSTM_STEP_LOAD(v, i + 1, &s->next);
			s->ahead = i + 1;
		}
	}
	t0 = gb_cycles();
	gpustm_tx_start(&tx);
	r = GPUSTM_STEP_BODY(&tx, m, v, i, &s->cur);
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

#undef GPUSTM_STEP
#undef GPUSTM_STEP_LOAD
#undef GPUSTM_STEP_BODY
