/*
 * Speculation with transactional memory on the host's cores (`--compare
 * cpu-tm`), the paper's CPU baseline: each iteration a transaction of an
 * ordered word-based STM (speculation/tm.h), committed in loop order
 * (speculation/cpu_tm.c says how).
 */
#ifndef GB_SPEC_CPU_TM_H
#define GB_SPEC_CPU_TM_H

#include "speculation/runtime.h"

/*
 * Run the whole loop on c->workers host threads, as sp_cpu_spec_run does:
 * host holds the array and scalars the loop-carried scalars (the initial
 * state on entry, the result on return). r is filled with a round in place
 * of an assignment: iterations_gpu counts transactions begun (every
 * attempt), iterations_misspeculated the iterations that aborted at least
 * once, reexecuted the attempts past each iteration's first (its aborts);
 * nothing is copied. Returns 0.
 */
int sp_cpu_tm_run(const sp_problem *p, const sp_config *c, uint32_t *host, float scalars[SP_NSCALARS],
		  sp_result *r);

#endif
