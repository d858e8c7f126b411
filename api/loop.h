/*
 * A speculative loop as a workload describes it and the runtime reads it
 * (Feng, Gupta and Bhuyan, "Optimistic Parallelism on GPUs"): its kind, the
 * misspeculate(...) clause of its marked branch (section 6.2), the arguments
 * every iteration gets, a generated instance (sp_problem) and the entry of
 * the loop table. The loops themselves, their table and generators are in
 * workloads/speculation/spec_loops.h and workloads/speculation/spec_bodies.h; what a body calls is
 * api/loop_body.h.
 */
#ifndef GB_API_LOOP_H
#define GB_API_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "common/registry.h"

#define SP_MAX_TRACE 8    /* distinct elements an iteration may read (or write) */
#define SP_NSCALARS 4
#define SP_NPARAMS 4
#define SP_MAX_CLAUSE 4   /* items in one misspeculate(...) clause */
#define SP_NONE 0xFFFFFFFFu

/* Irregular memory accesses, or irregular control flow (api/loop_body.h says how each is tracked). */
enum sp_kind { SP_MEM = 0, SP_CF = 1 };

/* One item of a misspeculate(...) clause: (i), (+i), (-i) or (a:b). */
typedef struct sp_clause_item {
	int32_t lo, hi;
	uint8_t lo_rel, hi_rel; /* relative to the current iteration */
	uint8_t hi_end;         /* (a:end): up to the loop's last iteration */
	uint8_t pad;
} sp_clause_item;

typedef struct sp_clause {
	uint32_t nitems;
	sp_clause_item item[SP_MAX_CLAUSE];
} sp_clause;

/* Everything one iteration of any loop needs; passed by value to kernels. */
typedef struct sp_args {
	uint32_t loop;              /* which loop body runs (enum sp_loop_id, workloads/speculation/spec_bodies.h) */
	uint32_t n;                 /* iterations of the whole loop */
	uint32_t size;              /* elements of A */
	uint32_t p[SP_NPARAMS];     /* the loop's integer parameters */
	const uint32_t *idx;        /* read-only integer inputs */
	const float *in;            /* read-only float inputs */
	uint32_t *A;                /* the speculated array */
	float s[SP_NSCALARS];       /* loop-carried scalars */
} sp_args;

/* What a loop's generator is asked for (--iters, --density, --work, --seed). */
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

/* An entry of the loop table (workloads/speculation/spec_loops.c). */
typedef struct sp_loop {
	gb_entry_head head;   /* a workload's: backends 0 */
	unsigned id;          /* enum sp_loop_id */
	unsigned kind;        /* enum sp_kind */
	const char *clause;   /* misspeculate(...) of its branch (SP_CF) */
	uint32_t max_reads;   /* SP_MEM: distinct elements of A read per iteration (trace size) */
	uint32_t max_writes;  /* m of section 4: distinct elements written per iteration */
	uint32_t default_iters;
	double default_density, max_density;
	uint32_t default_work, max_work; /* max_work 0: no work knob */
	int nospec_ok;        /* no runtime dependence at density 0: --compare gpu-nospec applies */
	/* SP_CF: the iterations' first write ranges (sp_cf_writes) cover A, so every element is
	 * written on every path before any iteration reads it, and A's initial values are dead:
	 * the runtime does not copy the array in (OpenMP's map(from:) rather than tofrom). */
	int writes_whole_array;
	/* SP_CF: its marked branch's statements change only loop-carried scalars (never A), so an
	 * iteration may take the branch on the device with its own copy of them (speculation/check.h,
	 * "in place"). */
	int branch_sets_scalars;
	/* SP_CF: no iteration reads A, so an iteration's result depends on nothing but its inputs
	 * and the scalars it starts from: the rounds' lookahead (--schedule lookahead) may run it
	 * on predicted scalars into a shadow array (speculation/check.h). */
	int reads_no_array;
	/* Fill p (args, inputs, A0, scalars); 0, or -1 with a message in err. */
	int (*generate)(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen);
} sp_loop;

/*
 * Parse a misspeculate clause, "(+1)", "(-1,+1)", "(+0:+4)", "(10)",
 * "(+0:end)"; 0, or -1 with a message naming the bad item (api/loop_clause.c).
 */
int sp_clause_parse(const char *text, sp_clause *c, char *err, size_t errlen);
/* 1 when some item is a range to the end (Figure 6(c): the interval schedule). */
int sp_clause_all_subsequent(const sp_clause *c);
/* 1 when every item is a range from the current iteration or before it to the end, such as
 * (+0:end): a branch then only ever names one first iteration (no Misspec list), so the
 * device can take the whole check, commit and recovery decision (speculation/check.h). */
int sp_clause_only_to_end(const sp_clause *c);
/* 1 when every item is (+0:end): the first iteration a branch names is its own. */
int sp_clause_from_self(const sp_clause *c);

#endif
