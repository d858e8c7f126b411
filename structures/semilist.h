/*
 * The semi-linked list of Mulder 2015, section 6.1, written once for every
 * backend (CUDA kernels, the CPU backend's threads, host-side set-up). Nodes
 * come from the KMA-style heap (structures/kma.h) and are named by their
 * byte offset in it: word 1 is the key, word 2 the next offset (0 ends the
 * list), word 3 the generation, so next and generation form one aligned 64-bit
 * word that a traversal reads at once; word 0 is the allocator's link while
 * the block is free, so a stale read of a freed node never takes that link for
 * a key.
 * A node's key is written before its next word, and traversals read the next
 * word before the key: a node whose next word is unmarked shows its own key. The list's entry point is an anchor node in the heap's bookkeeping
 * whose next word is the head, so every cursor is a node offset.
 *
 *  - sl_add: Listing 1, add at the end by CAS of 0 -> node on a next word.
 *  - sl_get: the first node with a key, or 0.
 *  - sl_delete: Listing 3. The low bit of a node's next word marks it as in
 *    deletion; the deleter then looks for the next word that holds the node
 *    and swings it to the node's successor. A dirty (marked) pointer met on
 *    the way means that part of the list is changing: the listing starts
 *    again from the head; here the walk waits at the last clean node instead
 *    (sl_back). Before any walk, the deleter tries the predecessor its get
 *    came through with one CAS (sl_unlink). After a successful swing the
 *    node goes back to the heap.
 *  - the tail variant (section 8's future work): a tail word beside the
 *    anchor so an append does not traverse, sl_tail_append linking a chain
 *    of pre-linked nodes (a warp's or a block's) with one CAS.
 *
 * Deviations from the listings, each fixing a lost update or a crash the
 * concurrency tests found possible:
 *  - the mark is set by CAS, not by a plain store (Listing 3, line 9): a
 *    store could overwrite a concurrent add's link behind the last node or a
 *    neighbour's deletion, losing nodes;
 *  - add and delete never follow a dirty pointer (the listing would, and at
 *    a last node in deletion, next = 0|1, dereference offset 0), and they do
 *    not go back to the head at one either: they look again from the node
 *    whose clean next word led there (sl_back), since with thousands of
 *    deletions in flight every walk from the head meets a mark and walks
 *    that all restart there livelock (a 100000-node mixed run on 65536 GPU
 *    threads did not finish);
 *  - a next word of exactly 1 (a last node in deletion) ends every traversal;
 *  - a node's next word is SL_LINKING, not 0, until the node is linked (then
 *    its adder stores 0): a late add that reaches a reused block through a
 *    stale pointer would otherwise link its node behind a block that is not
 *    in the list yet, and report the add done while its node is unreachable;
 *  - traversals load a next word and CAS only where it holds the expected
 *    value (test and CAS), instead of a CAS at every node.
 * Memory is reused without a grace period, as in the paper. A freed node
 * keeps its marked next word (the allocator links free blocks through word
 * 0) and a reused one shows SL_LINKING until it is linked, so a late CAS on
 * either fails. What reuse can still do is let a traversal that sits on a
 * node while it is deleted, freed and added again read the new incarnation's
 * next word and jump past live nodes. Hence, beyond the listings:
 *  - a node has a third word, its generation, bumped when it is freed (so
 *    nodes take 16 bytes, the allocator's second size class);
 *  - a get that finds nothing confirms the miss with a traversal that checks
 *    generations (sl_get_validated); a hit needs no check, as only a key's
 *    owner adds it;
 *  - delete takes a node from get: once marked it stays linked until its
 *    marker unlinks it, so the search for its predecessor starts again from
 *    the head when it meets the end (Listing 3 gives up and restores the next
 *    word; a traversal through a reused node can meet a false end).
 */
#ifndef GB_SEMILIST_H
#define GB_SEMILIST_H

#include <stddef.h>

#include "structures/kma.h"

#define SL_NODE_BYTES 16u   /* free-list link, next, key, generation */
#define SL_MARK 1u
#define SL_LINKING 2u       /* next word of a node not linked yet: nothing may be linked behind it */
#define SL_ANCHOR ((uint32_t)offsetof(kma_meta, root))  /* a node: next word = head */
#define SL_TAIL_WORD (SL_ANCHOR + SL_NODE_BYTES)         /* tail variant: the last node */
#define SL_HELP_AFTER 16u   /* looks at a lagging tail word before an append helps it along */

GB_HD GB_GLOBAL uint32_t *sl_key(kma_heap h, uint32_t node)
{
	return kma_word(h, node + 4);
}

GB_HD GB_GLOBAL uint32_t *sl_next(kma_heap h, uint32_t node)
{
	return kma_word(h, node + 8);
}

GB_HD GB_GLOBAL uint32_t *sl_gen(kma_heap h, uint32_t node)
{
	return kma_word(h, node + 12);
}

/* A node's next word (low half) and generation (high half), read at one moment. */
GB_HD uint64_t sl_next_gen(kma_heap h, uint32_t node)
{
	return gb_ld_acquire_u64((GB_GLOBAL uint64_t *)sl_next(h, node));
}

GB_HD uint64_t sl_pair(uint32_t next, uint32_t gen)
{
	return (uint64_t)gen << 32 | next;
}

/* Back to the heap: the generation moves first, so a validated traversal sees the reuse. */
GB_HD void sl_free_node(kma_heap h, uint32_t node)
{
	gb_add_u32(sl_gen(h, node), 1);
	kma_free(h, node);
}

/* 0, SL_MARK (a last node in deletion) and SL_LINKING end a traversal; node offsets are larger. */
GB_HD int sl_end(uint32_t v)
{
	return v < 4u;
}

/* An empty list on a fresh heap (single-threaded). */
GB_HD void sl_init(kma_heap h)
{
	gb_st_relaxed_u32(sl_next(h, SL_ANCHOR), 0);
	gb_st_relaxed_u32(kma_word(h, SL_TAIL_WORD), SL_ANCHOR);
}

/*
 * The last SL_TRAIL nodes a walk left through clean next words, most recent
 * last, each with its generation (used by the validated get). When a walk
 * meets a marked next word, the cursor is in deletion and its deleter will
 * swing the clean next word that points at it to its successor: the walk
 * waits at the node it came from (sl_back) rather than going back to the
 * anchor. With thousands of deletions in flight a walk from the anchor meets
 * marks almost surely, and often on neighbours, so walks that restart at
 * the anchor (the listings) or even one node back livelock; going back
 * further along the trail restarts only past SL_TRAIL nodes in deletion in a
 * row.
 */
#define SL_TRAIL 8u

typedef struct sl_trail {
	uint32_t node[SL_TRAIL], gen[SL_TRAIL];
	uint32_t n;       /* nodes pushed; the last min(n, SL_TRAIL) are kept */
	uint32_t backoff;
} sl_trail;

GB_HD void sl_trail_start(sl_trail *t)
{
	t->n = 0;
	t->backoff = 0;
}

GB_HD void sl_trail_push(sl_trail *t, uint32_t node, uint32_t gen)
{
	t->node[t->n % SL_TRAIL] = node;
	t->gen[t->n % SL_TRAIL] = gen;
	t->n++;
}

/*
 * The most recent node of the trail whose next word is neither marked nor
 * SL_LINKING (taken off the trail: the walk pushes it again as it leaves),
 * or SL_ANCHOR when none is. Backs off first: the deleter needs a moment,
 * and waiting walks should not crowd the words it works on.
 */
GB_HD uint32_t sl_back(kma_heap h, sl_trail *t, uint32_t *gen)
{
	uint32_t lo = t->n > SL_TRAIL ? t->n - SL_TRAIL : 0;
	gb_backoff(&t->backoff);
	while (t->n > lo) {
		uint32_t i = (t->n - 1) % SL_TRAIL, p = t->node[i];
		uint32_t w = gb_ld_acquire_u32(sl_next(h, p));
		t->n--;
		if (!(w & SL_MARK) && w != SL_LINKING) {
			*gen = t->gen[i];
			return p;
		}
	}
	t->n = 0;
	*gen = 0; /* the anchor is never freed */
	return SL_ANCHOR;
}

/*
 * Listing 1: link node (its key already set) behind the last node. *steps
 * counts the walk's reads of a next word (a wait at a node being linked and a
 * step back to the trail count one each), here and in every walk below: the
 * list's report gives them per operation.
 */
GB_HD void sl_add(kma_heap h, uint32_t node, uint32_t *steps)
{
	uint32_t cursor = SL_ANCHOR, unused;
	sl_trail trail;
	sl_trail_start(&trail);
	gb_fence(); /* the key before the next word */
	gb_st_relaxed_u32(sl_next(h, node), SL_LINKING);
	gb_fence(); /* both before the node is linked */
	for (;;) {
		uint32_t v = gb_ld_acquire_u32(sl_next(h, cursor));
		++*steps;
		if (v == 0) {
			v = gb_cas_u32(sl_next(h, cursor), 0, node);
			if (v == 0) {
				gb_fence();
				gb_st_relaxed_u32(sl_next(h, node), 0); /* linked: now the end */
				return;
			}
		}
		/* SL_LINKING: cursor's adder has linked it or will; wait here for its end (0). */
		if (v == SL_LINKING || v == 0) {
			gb_backoff(&trail.backoff);
			continue;
		}
		if (v & SL_MARK) {
			cursor = sl_back(h, &trail, &unused);
		} else {
			sl_trail_push(&trail, cursor, 0);
			cursor = v;
		}
	}
}

/* Listing 2's body: allocate a node for key and add it; 0 when the heap is exhausted. */
GB_HD uint32_t sl_insert(kma_heap h, uint32_t key, uint32_t *steps)
{
	uint32_t node = kma_malloc(h, SL_NODE_BYTES);
	if (node == KMA_NULL)
		return 0;
	gb_st_relaxed_u32(sl_key(h, node), key);
	sl_add(h, node, steps);
	return node;
}

/*
 * The traversal of the listings: the first node with key not in deletion, or
 * 0 (maybe falsely). It goes on through nodes in deletion (Listing 2 gives up
 * at them; with thousands of deletions in flight almost every search met one
 * and took the validated path): a hit needs no check wherever the walk went,
 * as only a key's owner adds or deletes it, and a miss is confirmed by
 * sl_get_validated. *pred is the node whose next word led to the hit, a hint
 * for the delete that follows (sl_unlink).
 */
GB_HD uint32_t sl_get_fast(kma_heap h, uint32_t key, uint32_t *pred, uint32_t *steps)
{
	uint32_t p = SL_ANCHOR, v = gb_ld_acquire_u32(sl_next(h, SL_ANCHOR));
	for (;;) {
		uint32_t n, k;
		++*steps;
		v &= ~SL_MARK;
		if (sl_end(v))
			return 0;
		/* Both words at once (one round trip a node): a walk that may be wrong anyway. */
		n = gb_ld_relaxed_u32(sl_next(h, v));
		k = gb_ld_relaxed_u32(sl_key(h, v));
		/* A node in deletion (or left deleted at the end) no longer holds its key. */
		if (k == key && !(n & SL_MARK)) {
			/* A hit is read again in order, the next word before the key. */
			n = gb_ld_acquire_u32(sl_next(h, v));
			if (!(n & SL_MARK) && gb_ld_relaxed_u32(sl_key(h, v)) == key) {
				*pred = p;
				return v;
			}
		}
		p = v;
		v = n;
	}
}

/*
 * *c := p's next word, read while p is still the node of generation *gp the
 * walk validated; when p was freed meanwhile, from the last node of the trail
 * that still is (sl_back), the anchor at worst. An unmarked *c then was p's
 * successor while p was linked; a marked one says p is in deletion.
 */
GB_HD void sl_reread(kma_heap h, sl_trail *t, uint32_t *p, uint32_t *gp, uint32_t *c)
{
	for (;;) {
		uint64_t x = sl_next_gen(h, *p);
		*c = (uint32_t)x;
		if ((uint32_t)(x >> 32) == *gp)
			return;
		*p = sl_back(h, t, gp);
	}
}

/*
 * The same search, reading each node's next word only while the node is
 * provably linked: its predecessor, itself linked, still points at it after
 * its generation was read, and that generation is unchanged after its key
 * was read. An unmarked node of unchanged generation is linked (unlinking
 * marks first), so every step is a step of the list as it was at that
 * moment. Next word and generation are one 64-bit word, read at once: a step
 * reads c's (next, generation), then c's key and p's (next, generation)
 * together, which must still be (c, gp): c was linked then, and had
 * generation gc throughout, so its next word was read while it was linked
 * (a node is never linked again without being freed). That c's key was read
 * while c had generation gc is checked by the next step, which reads c's
 * (next, generation) again, or before a hit or a miss is returned. When a
 * check fails, the walk reads again at the last node it validated
 * (sl_reread) rather than at the head: a search from the head that starts
 * over at every change on its way does not end while thousands of threads
 * change the list.
 */
GB_HD uint32_t sl_get_validated(kma_heap h, uint32_t key, uint32_t *pred, uint32_t *steps)
{
	uint32_t p = SL_ANCHOR, gp = 0, c, gc, k, n; /* the anchor is never freed */
	uint64_t x;
	sl_trail trail;
	sl_trail_start(&trail);
	c = gb_ld_acquire_u32(sl_next(h, p));
	for (;;) {
		++*steps;
		if (sl_end(c))
			return 0; /* p was linked when its next word ended the list */
		if (c & SL_MARK) {
			/* p is in deletion: wait for its unlink at a node of the trail. */
			p = sl_back(h, &trail, &gp);
			sl_reread(h, &trail, &p, &gp, &c);
			continue;
		}
		x = sl_next_gen(h, c);
		k = gb_ld_relaxed_u32(sl_key(h, c)); /* in flight with the check of p */
		if (sl_next_gen(h, p) != sl_pair(c, gp)) {
			sl_reread(h, &trail, &p, &gp, &c);
			continue;
		}
		n = (uint32_t)x;
		gc = (uint32_t)(x >> 32);
		if ((k == key && !(n & SL_MARK)) || sl_end(n)) {
			/* A hit, or the end: c's key and next word were c's own (generation gc). */
			if (gb_ld_acquire_u32(sl_gen(h, c)) != gc) {
				sl_reread(h, &trail, &p, &gp, &c);
				continue;
			}
			if (k != key || (n & SL_MARK))
				return 0;
			*pred = p;
			return c;
		}
		sl_trail_push(&trail, p, gp);
		p = c;
		gp = gc;
		c = n;
	}
}

/* The first node with key that is not in deletion, or 0; *pred as in sl_get_fast. A miss walks
 * twice: the fast walk, then the validated one. */
GB_HD uint32_t sl_find(kma_heap h, uint32_t key, uint32_t *pred, uint32_t *steps)
{
	uint32_t v = sl_get_fast(h, key, pred, steps);
	return v ? v : sl_get_validated(h, key, pred, steps);
}

GB_HD uint32_t sl_get(kma_heap h, uint32_t key)
{
	uint32_t unused, steps = 0;
	return sl_find(h, key, &unused, &steps);
}

/* Mark node as in deletion; 1 with its successor in *succ, 0 when someone else marked it. */
GB_HD int sl_mark(kma_heap h, uint32_t node, uint32_t *succ)
{
	uint32_t v = gb_ld_relaxed_u32(sl_next(h, node));
	for (;;) {
		uint32_t w;
		if (v & SL_MARK)
			return 0;
		w = gb_cas_u32(sl_next(h, node), v, v | SL_MARK);
		if (w == v) {
			*succ = v;
			return 1;
		}
		v = w;
	}
}

/*
 * Swing the clean next word that holds node to succ (Listing 3's loop). node
 * is marked by the caller, so it stays linked until this succeeds, and the
 * one clean next word that holds it is its predecessor's: a node out of the
 * list has a marked next word (freed) or a fresh one (SL_LINKING, then its
 * new successor). So pred, the node whose next word led the caller's search
 * to node (0 when unknown), is tried first with one CAS, whatever became of
 * it since: the mark is then held for a few atomics, not for a walk from the
 * head. With thousands of deletions in flight, every walk from the head
 * meets marks and waits at them, and deleters that each held their mark
 * through such a walk convoyed (a 10000-node mixed run on 8192 GPU threads
 * took 7 s). Meeting the end means the walk went through a reused node:
 * start again.
 */
GB_HD void sl_unlink(kma_heap h, uint32_t pred, uint32_t node, uint32_t succ)
{
	uint32_t cursor = SL_ANCHOR, unused;
	sl_trail trail;
	if (pred && gb_cas_u32(sl_next(h, pred), node, succ) == node)
		return;
	sl_trail_start(&trail);
	for (;;) {
		uint32_t v = gb_ld_acquire_u32(sl_next(h, cursor));
		if (v == node) {
			v = gb_cas_u32(sl_next(h, cursor), node, succ);
			if (v == node)
				return;
			continue;
		}
		if (sl_end(v)) { /* the walk went through a reused node: start again */
			cursor = SL_ANCHOR;
			trail.n = 0;
		} else if (v & SL_MARK) {
			cursor = sl_back(h, &trail, &unused);
		} else {
			sl_trail_push(&trail, cursor, 0);
			cursor = v;
		}
	}
}

/*
 * Listing 3 for a node from sl_find (pred its hint, or 0): 1 when this call
 * removed (and freed) it, 0 when another did.
 */
GB_HD int sl_delete(kma_heap h, uint32_t pred, uint32_t node)
{
	uint32_t succ;
	if (!sl_mark(h, node, &succ))
		return 0;
	sl_unlink(h, pred, node, succ);
	sl_free_node(h, node);
	return 1;
}

/* Tail variant: node is unlinked; move the tail word off it, then free it. */
GB_HD void sl_tail_release(kma_heap h, uint32_t node, uint32_t succ)
{
	GB_GLOBAL uint32_t *tail = kma_word(h, SL_TAIL_WORD);
	while (gb_ld_acquire_u32(tail) == node)
		gb_cas_u32(tail, node, succ);
	sl_free_node(h, node);
}

/* Tail variant: the chain ending in last was linked behind t; end the list there and move the tail. */
GB_HD void sl_tail_linked(kma_heap h, uint32_t t, uint32_t last)
{
	gb_fence();
	gb_st_relaxed_u32(sl_next(h, last), 0);
	gb_cas_u32(kma_word(h, SL_TAIL_WORD), t, last);
}

/*
 * Tail variant: link the chain first..last (keys set, each next word
 * pointing at the following node, last's SL_LINKING) behind the last node with
 * one CAS, then swing the tail word to last. A lagging tail word is helped
 * forward. The policy for the last node's removal: a deleted last node is
 * not unlinked (its next word becomes 1, and the tail word may point at it);
 * the append that links behind it marks the link (1 -> first|1) and then
 * removes it like any inner node. So the tail word never names a freed
 * node while an append can still follow it to a live one.
 */
GB_HD void sl_tail_append(kma_heap h, uint32_t first, uint32_t last)
{
	GB_GLOBAL uint32_t *tail = kma_word(h, SL_TAIL_WORD);
	uint32_t backoff = 0, seen = 0, lag = 0;
	gb_fence(); /* the chain is visible before it is linked */
	for (;;) {
		uint32_t t = gb_ld_acquire_u32(tail);
		uint32_t v = gb_ld_acquire_u32(sl_next(h, t));
		if (v == 0) {
			if (gb_cas_u32(sl_next(h, t), 0, first) == 0) {
				sl_tail_linked(h, t, last);
				return;
			}
		} else if (v == SL_MARK) {
			if (gb_cas_u32(sl_next(h, t), SL_MARK, first | SL_MARK) == SL_MARK) {
				sl_tail_linked(h, t, last);
				sl_unlink(h, 0, t, first);
				sl_tail_release(h, t, first);
				return;
			}
		} else if (v != SL_LINKING) { /* SL_LINKING: an append is finishing; look again */
			/*
			 * The tail word lags behind a chain linked after t. That chain's appender
			 * moves it to the chain's last node right after its link; helping at once
			 * would move it one node along instead, make that CAS fail and leave the
			 * chain to be walked a node per CAS. So help (a node) only when the tail
			 * has stayed on t for a while (its appender may be descheduled on a host).
			 */
			if (t != seen) {
				seen = t;
				lag = 0;
			} else if (++lag >= SL_HELP_AFTER) {
				gb_cas_u32(tail, t, v & ~SL_MARK);
				lag = 0;
			}
		}
		gb_backoff(&backoff);
	}
}

/* Tail variant of sl_delete: 1 when this call deleted node (unlinked and freed, or left as the last node). */
GB_HD int sl_tail_delete(kma_heap h, uint32_t pred, uint32_t node)
{
	uint32_t succ;
	if (!sl_mark(h, node, &succ))
		return 0;
	if (succ == 0)
		return 1;
	sl_unlink(h, pred, node, succ);
	sl_tail_release(h, node, succ);
	return 1;
}

/* The paper's count: nodes reachable from the head and not in deletion. */
GB_HD uint32_t sl_count(kma_heap h)
{
	uint32_t n = 0, v = gb_ld_acquire_u32(sl_next(h, SL_ANCHOR));
	while (!sl_end(v)) {
		uint32_t w = gb_ld_acquire_u32(sl_next(h, v & ~SL_MARK));
		n += !(w & SL_MARK);
		v = w;
	}
	return n;
}

#endif
