/*
 * One operation of a list workload (workloads/list/list_gen.h) on the shared
 * lock-free list, as every heap-based implementation runs it: the CPU
 * backend's threads, the CUDA kernels and the host when it builds a list.
 * A delete is the paper's get followed by delete of the node found. *steps
 * counts the next words its walks read (structures/semilist.h, sl_add): an
 * add's walk to the end, a get's or delete's search (a miss searches twice).
 */
#ifndef GB_LIST_APPLY_H
#define GB_LIST_APPLY_H

#include "api/list_ops.h"
#include "structures/semilist.h"

/* Add key's node alone (the tail variant links a chain of one). */
GB_HD uint8_t list_apply_add(kma_heap h, uint32_t key, int tail, uint32_t *steps)
{
	uint32_t node;
	if (!tail)
		return sl_insert(h, key, steps) ? LIST_DONE : LIST_NOMEM;
	node = kma_malloc(h, SL_NODE_BYTES);
	if (node == KMA_NULL)
		return LIST_NOMEM;
	gb_st_relaxed_u32(sl_key(h, node), key);
	gb_fence(); /* the key before the next word */
	gb_st_relaxed_u32(sl_next(h, node), SL_LINKING);
	sl_tail_append(h, node, node);
	return LIST_DONE;
}

/*
 * Get and delete share their search, one call site for both: on a GPU the
 * lanes of a warp that get and those that delete at the same step walk the
 * list together instead of one group after the other.
 */
GB_HD uint8_t list_apply(kma_heap h, uint32_t op, int tail, uint32_t *steps)
{
	uint32_t key = LIST_KEY_OF(op), kind = LIST_OP_OF(op), node, pred = 0;
	if (kind == LIST_ADD)
		return list_apply_add(h, key, tail, steps);
	if (kind != LIST_GET && kind != LIST_DEL)
		return LIST_NOT_RUN;
	node = sl_find(h, key, &pred, steps);
	if (!node)
		return LIST_MISS;
	if (kind == LIST_GET)
		return LIST_DONE;
	return (tail ? sl_tail_delete(h, pred, node) : sl_delete(h, pred, node)) ? LIST_DONE : LIST_MISS;
}

#endif
