/*
 * Operation streams for the lock-free list (gpubench list).
 *
 * Every logical thread owns the keys k with (k - 1) % threads == its index,
 * and only ever adds, gets or deletes keys it owns. Threads still contend on
 * the list itself (every add goes to the same end, deletions of adjacent
 * nodes race) but each thread's outcomes are fixed by its own history, so a
 * serial replay per thread is an exact oracle.
 *
 *  insert: an empty list; the threads add keys 1..nodes.
 *  delete: the list holds keys 1..nodes in order (added before the timed
 *          run); the threads delete all of them, so neighbours in the list
 *          belong to different threads and adjacent nodes go concurrently.
 *  mixed:  keys 1..2*nodes, the odd ones in the list at the start; ops
 *          operations in all (default nodes), a third gets of an owned key
 *          and two thirds updates: delete the key when the thread's history
 *          says it is in the list, add it otherwise.
 *
 * ops[i * threads + t] is thread t's i-th operation (api/list_ops.h;
 * LIST_NOP pads threads with fewer operations).
 */
#ifndef GB_LIST_GEN_H
#define GB_LIST_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "api/list_ops.h"

enum list_kind { LIST_INSERT = 0, LIST_DELETE, LIST_MIXED, LIST_NKINDS };
extern const char *const list_kind_names[];   /* NULL-terminated, in enum order */
extern const char *const list_opcode_names[]; /* "nop", "add", "get", "delete" */

typedef struct list_config {
	unsigned kind;
	uint32_t nodes;
	uint32_t threads;
	uint64_t ops;        /* mixed: operations in all (0: nodes) */
	uint64_t seed;
} list_config;

typedef struct list_workload {
	list_config cfg;
	uint32_t threads, steps;
	uint32_t *ops;       /* steps x threads */
	uint32_t *prefill;   /* keys in the list before the timed run, head first */
	uint32_t nprefill;
	uint32_t keyspace;   /* keys are 1..keyspace */
	uint64_t count[LIST_NOPCODES]; /* operations of each kind (count[LIST_NOP]: padding) */
} list_workload;

int list_generate(const list_config *cfg, list_workload *w, char *err, size_t errlen);
void list_workload_free(list_workload *w);
/* Operations that are not padding. */
uint64_t list_real_ops(const list_workload *w);

#endif
