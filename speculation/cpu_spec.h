/*
 * Speculative execution of a loop on the host's cores (`--compare
 * cpu-spec`): contiguous chunks of iterations run speculatively in parallel,
 * validated and committed in order (speculation/cpu_spec.c says how and why).
 */
#ifndef GB_SPEC_CPU_SPEC_H
#define GB_SPEC_CPU_SPEC_H

#include "speculation/runtime.h"

/*
 * Run the whole loop on c->workers host threads. host holds the array (the
 * initial state on entry, the result on return), scalars the loop-carried
 * scalars, updated likewise. r is filled as by sp_run, with a round in
 * place of an assignment and nothing copied. Returns 0, or -1 with r->error
 * set (an iteration accessed more elements than its loop declares).
 */
int sp_cpu_spec_run(const sp_problem *p, const sp_config *c, uint32_t *host,
		    float scalars[SP_NSCALARS], sp_result *r);

#endif
