/*
 * CSMV's execution of one lane's entry, for the workloads of the CSMV family
 * (stm/csmv/csmv_workloads.h): their bodies compiled against CSMV's
 * transactional API (stm/csmv/csmv_api.h), csmv_step that runs workload wl's,
 * and csmv_NAME_execute, the same for one workload as a function the CPU
 * backends hold a pointer to (csmv_execute_fn). The GPU kernels call
 * csmv_step with their workload as a constant, so each keeps only its own body.
 */
#ifndef GB_CSMV_STEP_H
#define GB_CSMV_STEP_H

#include "stm/csmv/csmv_sched.h"
#include "stm/csmv/csmv_workloads.h"

#include "stm/csmv/csmv_api.h"
#include "workloads/stm/bodies.h"
#include "api/tx_end.h"

/* Workload wl's body on CSMV: csmv_bank_body, ... */
GB_HD_FLAT int csmv_body(uint32_t wl, csmv_tx *tx, const csmv_mem *m, const tx_table *t, uint32_t i,
			 const tx_entry *x)
{
	switch (wl) {
#define CSMV_BODY_CASE(name, ahead, ...) \
	case STM_WORKLOAD_##name:        \
		return csmv_##name##_body(tx, m, t, i, x);
		CSMV_WORKLOADS(CSMV_BODY_CASE, 0)
#undef CSMV_BODY_CASE
	}
	return TX_BODY_ABORT;
}

/* Whether workload wl's read-only transactions read ahead. */
GB_HD_FLAT uint32_t csmv_reads_ahead(uint32_t wl)
{
#define CSMV_AHEAD_OF(name, ahead, ...) (wl == STM_WORKLOAD_##name && (ahead)) ||
	return CSMV_WORKLOADS(CSMV_AHEAD_OF, 0) 0;
#undef CSMV_AHEAD_OF
}

/*
 * Run the lane's current entry once on snapshot snap (the group's). A
 * read-only entry commits here (it never aborts); an update leaves its sets
 * in l->tx for the request. Returns enum csmv_lane_out.
 */
GB_HD_FLAT uint32_t csmv_step(uint32_t wl, csmv_lane *l, const csmv_mem *m, const tx_table *v,
			       const stm_params *p, uint32_t snap)
{
	tx_entry e;
	uint32_t r;

	if (l->state != STM_RUNNING)
		return CSMV_LANE_NONE;
	stm_load_entry(wl, v, l->pos, &e);
	l->t0 = gb_cycles();
	csmv_tx_start(&l->tx, snap, (e.w[0] & TX_ENTRY_READONLY) != 0);
	l->tx.ahead = csmv_reads_ahead(wl);
	l->wb = 0;
	r = csmv_body(wl, &l->tx, m, v, l->pos, &e);
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

/* csmv_bank_execute, ...: csmv_step for one workload, as a csmv_execute_fn. */
#define CSMV_EXECUTE_FN(name, ahead, ...)                                                             \
	GB_HD uint32_t csmv_##name##_execute(csmv_lane *l, const csmv_mem *m, const tx_table *v,      \
					     const stm_params *p, uint32_t snap)                      \
	{                                                                                             \
		return csmv_step(STM_WORKLOAD_##name, l, m, v, p, snap);                              \
	}
CSMV_WORKLOADS(CSMV_EXECUTE_FN, 0)
#undef CSMV_EXECUTE_FN

#endif
