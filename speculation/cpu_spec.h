/*
 * Speculative execution of a loop on the host's cores (`--compare
 * cpu-spec`): rounds of iterations run speculatively in parallel, checked
 * and committed in parallel, with only what misspeculated run in order
 * (speculation/cpu_spec.c and speculation/cpu_spec_mem.c say how and why).
 */
#ifndef GB_SPEC_CPU_SPEC_H
#define GB_SPEC_CPU_SPEC_H

#include "speculation/runtime.h"

/*
 * Run the whole loop on c->workers host threads. host holds the array (the
 * initial state on entry, the result on return), scalars the loop-carried
 * scalars, updated likewise. r is filled as by sp_run, with a round in
 * place of an assignment and nothing copied. Returns 0, or -1 with r->error
 * set (an iteration accessed more elements than its loop declares, or a
 * re-executed one other elements than it did speculatively).
 */
int sp_cpu_spec_run(const sp_problem *p, const sp_config *c, uint32_t *host,
		    float scalars[SP_NSCALARS], sp_result *r);

/*
 * How a control-flow loop's rounds run: in parallel while those finish
 * iterations faster than the loop runs in order (its stretches in order,
 * or the workers' own time per iteration before there is one), else in
 * stretches in order, trying a parallel round again after
 * SP_CF_PROBE_EVERY of them, twice as many after each try that loses
 * again (up to SP_CF_PROBE_MAX). Rates are iterations per nanosecond.
 */
#define SP_CF_PROBE_EVERY 8
#define SP_CF_PROBE_MAX 1024

typedef struct sp_cf_rates {
	double parallel, in_order, worker; /* averaged; worker: over the workers' own time */
	unsigned streak;                   /* stretches in order since the last parallel round */
	unsigned probe;                    /* stretches in order before the next try */
	int was_parallel;                  /* the last round ran in parallel */
} sp_cf_rates;

/* 1 when the next round runs in parallel (q starts zeroed: the first one does). */
int sp_cf_parallel_pays(sp_cf_rates *q);
/* A parallel round finished iterations at rate; its workers ran worker iterations a ns
 * each (0: not measured). */
void sp_cf_ran_parallel(sp_cf_rates *q, double rate, double worker);
/* A stretch in order ran at rate. */
void sp_cf_ran_in_order(sp_cf_rates *q, double rate);

#endif
