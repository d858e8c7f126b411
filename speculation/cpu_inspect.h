/*
 * An inspector-executor for irregular-memory loops on the host's cores
 * (`--compare cpu-inspect`): no speculation, no trace, no log. It names each
 * iteration's elements ahead from the loop's inputs (sp_mem_accesses in
 * workloads/speculation/spec_bodies.h), runs in place and in parallel the iterations
 * that no other worker's iterations of the round touch in a conflicting
 * way, and the others in order after them (speculation/cpu_inspect.c says
 * how and why).
 */
#ifndef GB_SPEC_CPU_INSPECT_H
#define GB_SPEC_CPU_INSPECT_H

#include "speculation/runtime.h"

/* 1 when loop l can run under cpu-inspect: an SP_MEM loop whose accesses can be named ahead. */
int sp_cpu_inspect_ok(const sp_loop *l);

/*
 * Run the whole loop on c->workers host threads, as sp_cpu_spec_run does: host holds the
 * array (the initial state on entry, the result on return). r is filled with a round in
 * place of an assignment: reexecuted counts the iterations run in order after a round (none
 * is run twice), iterations_gpu those run in parallel, nothing is misspeculated or copied.
 * Returns 0, or -1 with r->error set (the loop cannot run here).
 */
int sp_cpu_inspect_run(const sp_problem *p, const sp_config *c, uint32_t *host, sp_result *r);

#endif
