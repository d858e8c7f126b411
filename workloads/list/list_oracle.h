/*
 * The oracle of the lock-free list: a serial replay of each thread's
 * operations on its own keys (list_gen.h says why that is exact), and a
 * check of what a finished list holds, as the implementation hands it over
 * (api/list_snapshot.h). Shares no code with the lists.
 */
#ifndef GB_LIST_ORACLE_H
#define GB_LIST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "api/list_snapshot.h"
#include "workloads/list/list_gen.h"

typedef struct list_verdict {
	int ok;
	uint64_t outcome_mismatches, first_mismatch;
	uint64_t nomem;          /* adds refused for want of heap, accepted as such */
	uint64_t expected_nodes;
	char message[256];       /* the first thing found wrong */
} list_verdict;

/*
 * Check every outcome against the per-thread replay and the snapshot against
 * the keys the replay leaves: each once, nothing else, the count method
 * agreeing, and as many live blocks as reachable nodes. An add refused for
 * want of heap is accepted only if the heap was really full: at that moment
 * it had no room, and since then at most one node per successful delete went
 * back, so a heap that ends with more room than deletes freed failed an
 * allocation it could have served.
 */
void list_verify(const list_workload *w, const uint8_t *outcome, const list_snapshot *s,
		 list_verdict *v);

#endif
