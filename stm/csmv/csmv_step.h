/*
 * CSMV's execution of one lane's entry for one workload: a template included
 * once per workload, after the workload's body has been compiled against
 * CSMV's transactional API (stm/csmv/csmv_bank.h is the pattern). It reads, and
 * then takes back:
 *   CSMV_STEP               the name of the function (csmv_bank_execute)
 *   CSMV_STEP_LOAD(t, i, e) the workload's copy of entry i into a tx_entry
 *   CSMV_STEP_BODY          the workload's body compiled for CSMV (csmv_bank_body)
 *   CSMV_STEP_AHEAD         optional, 1: read-only transactions read ahead (csmv_tx_read_ahead)
 * No include guard: each inclusion defines another function.
 */
#include "stm/csmv/csmv_sched.h"

#if !defined(CSMV_STEP) || !defined(CSMV_STEP_LOAD) || !defined(CSMV_STEP_BODY)
#error "define CSMV_STEP, CSMV_STEP_LOAD and CSMV_STEP_BODY before including stm/csmv/csmv_step.h"
#endif
#ifndef CSMV_STEP_AHEAD
#define CSMV_STEP_AHEAD 0
#endif

/*
 * Run the lane's current entry once on snapshot snap (the group's). A
 * read-only entry commits here (it never aborts); an update leaves its sets
 * in l->tx for the request. Returns enum csmv_lane_out.
 */
GB_HD uint32_t CSMV_STEP(csmv_lane *l, const csmv_mem *m, const tx_table *v, const stm_params *p,
			 uint32_t snap)
{
	tx_entry e;
	uint32_t r;

	if (l->state != STM_RUNNING)
		return CSMV_LANE_NONE;
	CSMV_STEP_LOAD(v, l->pos, &e);
	l->t0 = gb_cycles();
	csmv_tx_start(&l->tx, snap, (e.w[0] & TX_ENTRY_READONLY) != 0);
	l->tx.ahead = CSMV_STEP_AHEAD;
	l->wb = 0;
	r = CSMV_STEP_BODY(&l->tx, m, v, l->pos, &e);
	l->t1 = gb_cycles();
	if (l->tx.abort != CSMV_OK) {
		l->state = STM_FAILED;
		return CSMV_LANE_FAILED;
	}
	if (r == TX_BODY_SEMANTIC) {
		csmv_lane_semantic(l, v, p, l->t1);
		return CSMV_LANE_NONE;
	}
	if (l->tx.ro) {
		csmv_lane_readonly(l, v, l->t1);
		return CSMV_LANE_NONE;
	}
	if (l->tx.nw == 0) {
		/* an update entry that wrote nothing commits on its snapshot like a read-only one */
		csmv_lane_readonly(l, v, l->t1);
		return CSMV_LANE_NONE;
	}
	return CSMV_LANE_SUBMIT;
}

#undef CSMV_STEP
#undef CSMV_STEP_LOAD
#undef CSMV_STEP_BODY
#undef CSMV_STEP_AHEAD
