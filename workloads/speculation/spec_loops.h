/*
 * The loops of `gpubench speculate` (--loop): one table that --help, option
 * validation, `gpubench info` and the runtime read, and the seeded generator
 * of each loop's inputs. The bodies are in workloads/speculation/spec_bodies.h.
 */
#ifndef GB_SPEC_LOOPS_H
#define GB_SPEC_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include "api/loop.h"

extern const sp_loop *const sp_loops[];

/* Generate an instance of loop l; exits 1 when memory is short. */
int sp_problem_generate(const sp_loop *l, const sp_loop_gen *g, sp_problem *p, char *err,
			size_t errlen);
/* An instance with caller-given inputs (tests): copies idx, in and A0. */
void sp_problem_make(sp_problem *p, const sp_loop *l, uint32_t n, uint32_t size,
		     const uint32_t *idx, size_t nidx, const float *in, size_t nin,
		     const uint32_t *A0);
void sp_problem_free(sp_problem *p);

#endif
