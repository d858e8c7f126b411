/*
 * Irregular-memory loops on the host's cores: the rounds of thread-level
 * speculation that `--compare cpu-spec` runs for SP_MEM loops
 * (speculation/cpu_spec_mem.c says how; speculation/cpu_spec.c schedules
 * them and runs everything else).
 */
#ifndef GB_SPEC_CPU_SPEC_MEM_H
#define GB_SPEC_CPU_SPEC_MEM_H

#include <stdint.h>

#include "api/loop.h"
#include "speculation/cpu_pool.h"

typedef struct sp_tls sp_tls;

/* What a round found and how long its parts took. */
typedef struct sp_tls_round {
	uint64_t misspeculated;  /* iterations re-executed in order */
	uint64_t wrong;          /* their speculative writes, discarded */
	uint64_t t_executed;     /* when the last chunk had run (gb_now_ns) */
	uint64_t t_resolved;     /* when the lead saw the last chunk resolved */
	double head_ns, rest_ns; /* per iteration: chunk 0 in place, the median of the others */
	int overflow;            /* an iteration accessed more elements than its loop declares */
	int bad_replay;          /* a re-execution touched other elements than its speculative run */
	uint32_t bad_iteration;
} sp_tls_round;

/* State for rounds of up to workers chunks of at most max_chunk iterations each. */
sp_tls *sp_tls_open(const sp_problem *p, unsigned workers, uint32_t max_chunk);
void sp_tls_close(sp_tls *t);

/* The next round: count iterations from start over A (the loop-carried scalars s are left
 * alone by a memory loop), in nchunks chunks (at least 2, at most workers), the first of
 * head iterations and the others of equal shares. */
void sp_tls_plan(sp_tls *t, uint32_t *A, const float *s, uint32_t start, uint32_t count,
		 unsigned nchunks, uint32_t head);

/* A worker's part of round r (chunk w, w >= 1), started through the pool. */
void sp_tls_worker(sp_tls *t, sp_pool *pool, unsigned w, uint32_t r);

/* The calling thread's part of round r, which pool has started: chunk 0, then, chunk by
 * chunk as each is resolved, the re-executions and delayed writes; at return A holds the
 * sequential loop's state after the round. */
void sp_tls_lead(sp_tls *t, sp_pool *pool, uint32_t r, sp_tls_round *out);

#endif
