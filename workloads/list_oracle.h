/*
 * The oracle of the lock-free list: a serial replay of each thread's
 * operations on its own keys (list_gen.h says why that is exact), and a
 * check of what a finished list holds. Shares no code with the lists.
 */
#ifndef GB_LIST_ORACLE_H
#define GB_LIST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "structures/kma.h"
#include "workloads/list_gen.h"

/* What a finished list holds, as its implementation hands it over. */
typedef struct list_snapshot {
	uint32_t *keys;          /* keys of the nodes reachable and not in deletion, head first */
	uint64_t nkeys;
	uint64_t in_deletion;    /* reachable nodes marked deleted (the tail variant's last node) */
	uint64_t live_blocks;    /* nodes the allocator counts as allocated */
	uint64_t counted;        /* the implementation's own count method */
	int heap_known;          /* on a bounded heap: heap_room below is filled */
	uint64_t heap_room;      /* nodes the heap could still have handed out at the end */
} list_snapshot;

typedef struct list_verdict {
	int ok;
	uint64_t outcome_mismatches, first_mismatch;
	uint64_t nomem;          /* adds refused for want of heap, accepted as such */
	uint64_t expected_nodes;
	char message[256];       /* the first thing found wrong */
} list_verdict;

/*
 * Read the list out of a quiescent heap image (anchor at SL_ANCHOR): every
 * node must be a node-sized block of the heap, the walk must end, and only the
 * last node may be marked (next word 1). Fills keys, nkeys and in_deletion;
 * -1 with a message when the list is broken.
 */
int list_walk_heap(kma_heap h, list_snapshot *s, char *err, size_t errlen);

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
