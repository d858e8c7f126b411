/* The starting heap image of the heap-based list implementations, and the hand-over of a finished one. */
#include <stddef.h>

#include "common/error.h"
#include "structures/list_engine.h"
#include "structures/semilist.h"

int list_heap_build(const list_workload *w, const list_params *p, int tail, kma_heap *out,
		    char *err, size_t errlen)
{
	kma_heap h;
	uint32_t i, last = SL_ANCHOR;

	if (kma_layout_check(p->sb_count, p->sb_size, err, errlen) != 0)
		return -1;
	h = kma_host_create(p->sb_count, p->sb_size);
	sl_init(h);
	for (i = 0; i < w->nprefill; i++) {
		uint32_t node = kma_malloc(h, SL_NODE_BYTES);
		if (node == KMA_NULL) {
			kma_host_destroy(h);
			return gb_errmsg(err, errlen,
					 "a heap of %u superblocks of %u bytes cannot hold the %u starting nodes",
					 p->sb_count, p->sb_size, w->nprefill);
		}
		*sl_key(h, node) = w->prefill[i];
		if (tail) {
			*sl_next(h, node) = SL_LINKING;
			sl_tail_append(h, node, node);
		} else { /* one thread: link behind the last node without Listing 1's walk (O(n^2) in all) */
			*sl_next(h, node) = 0;
			*sl_next(h, last) = node;
			last = node;
		}
	}
	*out = h;
	return 0;
}

void list_heap_finish(kma_heap image, list_run *r)
{
	uint32_t c = kma_class_of_size(SL_NODE_BYTES);
	r->has_heap = 1;
	if (kma_check(image, &r->heap, r->broken, sizeof(r->broken)) != 0 ||
	    list_walk_heap(image, &r->snap, r->broken, sizeof(r->broken)) != 0)
		return;
	r->snap.live_blocks = r->heap.live_by_class[c];
	r->snap.heap_known = 1;
	r->snap.heap_room = r->heap.free_by_class[c] + (uint64_t)r->heap.superblocks_free * kma_per_sb(image, c);
	r->snap.counted = sl_count(image);
}
