/*
 * The baselines `gpubench speculate` times beside its --opt run (--compare):
 * one registry that --compare (through common/impl.h), the help and the
 * run read. Each names where it runs in its head (gb_entry_head): the
 * host's cores, or (gpu-nospec) the backend the runtime runs on.
 */
#ifndef GB_SPEC_BASELINES_H
#define GB_SPEC_BASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "common/registry.h"
#include "speculation/runtime.h"

typedef struct sp_baseline {
	gb_entry_head head;
	/* Why it cannot run loop at density: nonzero with the reason in why; NULL: it runs every loop */
	int (*refuses)(const sp_loop *loop, double density, char *why, size_t len);
	/*
	 * The whole loop once, as sp_run runs it: host and scalars hold the initial state on
	 * entry and the result on return, r the counters and phase times. be is the backend
	 * the head's backends let it run on. Returns 0, or -1 with r->error set.
	 */
	int (*run)(const sp_backend *be, const sp_problem *p, const sp_config *c, uint32_t *host,
		   float scalars[SP_NSCALARS], sp_result *r);
} sp_baseline;

extern const sp_baseline *const sp_baselines[]; /* NULL-terminated, in the order they run */

#endif
