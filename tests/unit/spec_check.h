/* What the speculation unit tests (test_speculate.c, test_cpu_spec.c) share. */
#ifndef GB_TESTS_SPEC_CHECK_H
#define GB_TESTS_SPEC_CHECK_H

#include "speculation/runtime.h"

/* The loop --loop NAME runs (speculate's registry), or NULL. */
const sp_loop *spec_loop(const char *name);

/* A speculative execution of p into host and scalars: 0, or nonzero on failure. */
typedef int (*spec_runner)(const sp_problem *p, const sp_config *c, uint32_t *host, float *scalars,
			   sp_result *r);

/* Run p through run and sequentially from the same start; 1 when both end equal, bit for bit. */
int spec_matches_seq(spec_runner run, const sp_problem *p, const sp_config *c, sp_result *r);

/*
 * figure3 (A[P[i]] = 3 A[Q[i]] + i + 1) over 256 iterations and 512 elements into p:
 * iteration i writes element i and reads 256 + i, except where set says otherwise (each
 * {0 for P or 1 for Q, iteration, element}); A[e] starts at 7 e + 1. Free it with
 * sp_problem_free.
 */
void spec_figure3_256(sp_problem *p, const uint32_t set[][3], unsigned nset);

#endif
