/* The starting heap image of the heap-based list implementations, and the hand-over of a finished one. */
#include <stddef.h>
#include <stdlib.h>

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

int list_walk_heap(kma_heap h, list_snapshot *s, char *err, size_t errlen)
{
	const uint32_t *cls = h.base + sizeof(kma_meta) / 4;
	uint64_t limit = (uint64_t)h.sb_count * h.sb_size / SL_NODE_BYTES, cap = 1024, steps = 0;
	uint32_t at = SL_ANCHOR, next;

	s->keys = gb_xmalloc(cap * sizeof(uint32_t), "list snapshot");
	s->nkeys = s->in_deletion = 0;
	for (;;) {
		next = *sl_next(h, at);
		if (next == 0)
			return 0;
		if (next & 1) {
			if (next != 1)
				return gb_errmsg(err, errlen, "node %u is still in deletion (next word %u)", at,
						 next);
			s->in_deletion++;
			s->nkeys--; /* counted below when it was reached */
			return 0;
		}
		if (next % SL_NODE_BYTES || next / h.sb_size < h.sb_first || next / h.sb_size >= h.sb_count ||
		    cls[next / h.sb_size] == 0 || KMA_MIN_BLOCK << (cls[next / h.sb_size] - 1) != SL_NODE_BYTES)
			return gb_errmsg(err, errlen, "node %u links to %u, which is no %u-byte heap block", at,
					 next, SL_NODE_BYTES);
		if (++steps > limit)
			return gb_errmsg(err, errlen, "the list does not end within the heap's %llu blocks (a cycle)",
					 (unsigned long long)limit);
		if (s->nkeys == cap) {
			cap *= 2;
			s->keys = realloc(s->keys, cap * sizeof(uint32_t));
			if (!s->keys)
				gb_die(GB_EXIT_RUNTIME, "out of memory for a list snapshot");
		}
		s->keys[s->nkeys++] = *sl_key(h, next);
		at = next;
	}
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
