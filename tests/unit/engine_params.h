/*
 * An engine's own parameters (stm_params.engine) as `gpubench stm` sets
 * them: its family's option rows (stm_engine_options) at their defaults and
 * "name=value" overrides ("retry-limit=1"), through the family's params
 * hook. An option of another family is left out, so a test that runs several
 * engines through one function gives each the same list.
 */
#ifndef GB_TESTS_ENGINE_PARAMS_H
#define GB_TESTS_ENGINE_PARAMS_H

#include "stm/stm.h"

/* The engine whose CPU backend of some workload ops is (the test fails without one). */
const stm_engine *tu_engine_of(const stm_ops *ops);

/* e's parameters into p's engine area; opts is NULL-terminated, each name an option some engine declares. */
void tu_engine_params(stm_params *p, const stm_engine *e, const char *const *opts);

#endif
