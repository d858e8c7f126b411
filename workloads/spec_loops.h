/*
 * The loops of `gpubench speculate` (--loop): one table that --help, option
 * validation, `gpubench info` and the runtime read, and the seeded generator
 * of each loop's inputs. The bodies are in workloads/spec_bodies.h.
 */
#ifndef GB_SPEC_LOOPS_H
#define GB_SPEC_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include "speculation/clause.h"
#include "speculation/spec.h"

typedef struct sp_loop_gen {
	uint32_t iters;
	double density; /* the loop's dependence density (its meaning: docs/speculate.md) */
	uint32_t work;  /* per-iteration work knob (0: the loop's default) */
	uint64_t seed;
} sp_loop_gen;

/* A generated instance: inputs, initial array and scalars. Owns its memory. */
typedef struct sp_problem {
	sp_args args;       /* A points at A0 */
	uint32_t *A0;       /* the initial array */
	uint32_t *idx;
	float *in;
	size_t nidx, nin;
	sp_clause clause;
	const struct sp_loop *loop;
} sp_problem;

typedef struct sp_loop {
	const char *name;
	const char *summary;
	unsigned id;          /* enum sp_loop_id */
	unsigned kind;        /* enum sp_kind */
	const char *clause;   /* misspeculate(...) of its branch (SP_CF) */
	uint32_t max_reads;   /* SP_MEM: distinct elements of A read per iteration (trace size) */
	uint32_t max_writes;  /* m of section 4: distinct elements written per iteration */
	uint32_t default_iters;
	double default_density, max_density;
	uint32_t default_work, max_work; /* max_work 0: no work knob */
	int nospec_ok;        /* no runtime dependence at density 0: --compare gpu-nospec applies */
	/* Fill p (args, inputs, A0, scalars); 0, or -1 with a message in err. */
	int (*generate)(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen);
} sp_loop;

extern const sp_loop *const sp_loops[];
const sp_loop *sp_loop_find(const char *name);

/* Generate an instance of loop l; exits 1 when memory is short. */
int sp_problem_generate(const sp_loop *l, const sp_loop_gen *g, sp_problem *p, char *err,
			size_t errlen);
/* An instance with caller-given inputs (tests): copies idx, in and A0. */
void sp_problem_make(sp_problem *p, const sp_loop *l, uint32_t n, uint32_t size,
		     const uint32_t *idx, size_t nidx, const float *in, size_t nin,
		     const uint32_t *A0);
void sp_problem_free(sp_problem *p);

#endif
