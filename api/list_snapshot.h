/*
 * What a list implementation hands over after a run for its oracle to
 * check: the keys its finished list holds and its own accounting, in plain
 * arrays and counts, so the oracle (workloads/list/list_oracle.h) reads no
 * implementation's data structure. Host only (not part of the OpenCL kernel
 * source, unlike api/list_ops.h).
 */
#ifndef GB_API_LIST_SNAPSHOT_H
#define GB_API_LIST_SNAPSHOT_H

#include <stdint.h>

typedef struct list_snapshot {
	uint32_t *keys;          /* keys of the nodes reachable and not in deletion, head first */
	uint64_t nkeys;
	uint64_t in_deletion;    /* reachable nodes marked deleted (the tail variant's last node) */
	uint64_t live_blocks;    /* nodes the allocator counts as allocated */
	uint64_t counted;        /* the implementation's own count method */
	int heap_known;          /* on a bounded heap: heap_room below is filled */
	uint64_t heap_room;      /* nodes the heap could still have handed out at the end */
} list_snapshot;

#endif
