/*
 * Runs a staged STM workload (workloads/stm/stm_workload.h: kmeans, graph) to the
 * end of one pass on an engine's backend, the way `gpubench stm` does: each
 * stage a batch, checked by the workload's replay, the next stage built from
 * the data and status words, the pass checked whole. Options are given by
 * name ("points=2000"), the rest keep their rows' defaults.
 */
#ifndef GB_TESTS_STAGED_RUN_H
#define GB_TESTS_STAGED_RUN_H

#include <stdint.h>

#include "stm/stm.h"
#include "workloads/stm/stm_workload.h"

typedef struct staged_result {
	int ok;                /* every batch and the pass verified */
	char message[600];     /* the first failure */
	uint32_t stages;
	uint64_t commits_update, commits_readonly, abandoned;
	uint64_t retry_limit_reached;
	stm_check pass;        /* the pass's check */
} staged_result;

/* NULL-terminated "name=value" list; returns 0, or -1 when generation failed (message says why). */
int staged_run(const stm_workload *w, const char *const *opts, const stm_table_cfg *tc, const stm_ops *ops,
	       const stm_params *p, staged_result *out);

/* The workload's option struct from its rows' defaults and "name=value" overrides (free() it). */
void *staged_opts(const stm_workload *w, const char *const *opts);

#endif
