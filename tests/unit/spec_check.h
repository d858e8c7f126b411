/* What the speculation unit tests (test_speculate.c, test_cpu_spec.c) share. */
#ifndef GB_TESTS_SPEC_CHECK_H
#define GB_TESTS_SPEC_CHECK_H

#include "speculation/runtime.h"

/* A speculative execution of p into host and scalars: 0, or nonzero on failure. */
typedef int (*spec_runner)(const sp_problem *p, const sp_config *c, uint32_t *host, float *scalars,
			   sp_result *r);

/* Run p through run and sequentially from the same start; 1 when both end equal, bit for bit. */
int spec_matches_seq(spec_runner run, const sp_problem *p, const sp_config *c, sp_result *r);

#endif
