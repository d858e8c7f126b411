/*
 * A kernel memory allocator in the spirit of KMA (Spliet et al. 2014, as
 * used in section 3.2 and 5 of Mulder 2015): the host sets up a heap of
 * superblocks whose count and size the user chooses; device threads (and the
 * CPU backend's threads, running this same code) call kma_malloc and
 * kma_free. The first superblocks hold the bookkeeping.
 *
 * A superblock is handed out whole from a pool of unused superblocks to one
 * size class (blocks of 8 << c bytes, KMA_NCLASS classes). Each class cuts
 * its current superblock front to back: a 64-bit bump word holds the
 * superblock and how many of its blocks were handed out, and one atomic add
 * hands out a contiguous run of blocks (kma_malloc_contig), so a warp's or a
 * block's nodes cost one atomic and no walk. The add that reaches the end of
 * the superblock installs the next one from the pool. Freed blocks sit on a
 * lock-free stack per class whose link word is the first word of the free
 * block; kma_malloc takes from it first, kma_malloc_run takes contiguous
 * blocks first and then pops the stack. The pool and the stacks have a
 * 64-bit head with a tag bumped by every successful push or pop, so a pop
 * that read a stale top fails its CAS instead of corrupting the stack (ABA).
 *
 * Deviations from KMA:
 *  - blocks are addressed by 32-bit byte offsets from the heap base, not by
 *    pointers, so one heap image means the same on the host, in CUDA and in
 *    OpenCL, and the host can build and check it (heaps up to 4 GiB);
 *  - the per-superblock header (its size class) lives in the bookkeeping
 *    superblocks instead of a header and footer inside each superblock, so
 *    every byte of a data superblock is blocks;
 *  - a class cuts one superblock at a time by bump allocation instead of
 *    pushing a fresh superblock's blocks onto its stack: a burst of threads
 *    that find the stack empty then share one superblock rather than each
 *    taking one, and a run needs no walk of the stack;
 *  - a superblock keeps its size class once given one: freed blocks are
 *    reused by later allocations of the same class, but superblocks are not
 *    returned to the pool.
 * An allocation fails only when its size class is exhausted: no free block
 * on the class's stack, no block left in its current superblock, no unused
 * superblock in the pool and none being installed (kma_exhausted); or when
 * the size is above the largest class. It returns KMA_NULL and counts itself
 * in failed_allocs. A thread that finds the current superblock used up while
 * another installs the next waits for it (a bounded amount of work) rather
 * than fail.
 */
#ifndef GB_KMA_H
#define GB_KMA_H

#include "common/port.h"

/* The address space of heap pointers: empty in C and CUDA, __global in the OpenCL kernel source. */
#ifndef GB_GLOBAL
#define GB_GLOBAL
#endif

#define KMA_NULL 0u
#define KMA_NCLASS 6u          /* 8, 16, 32, 64, 128, 256 bytes */
#define KMA_MIN_BLOCK 8u
#define KMA_MAX_BLOCK (KMA_MIN_BLOCK << (KMA_NCLASS - 1))
#define KMA_ROOT_BYTES 64u     /* room in the bookkeeping for a data structure's roots */

/*
 * The bookkeeping at offset 0 of the heap, followed by sb_class[sb_count]
 * (0: unused, c + 1: size class c) and sb_next[sb_count] (pool links).
 */
typedef struct kma_meta {
	uint64_t pool_head;                 /* tag << 48 | installs in flight << 24 | superblock index */
	uint64_t class_head[KMA_NCLASS];    /* free blocks: tag << 32 | block offset */
	uint64_t bump[KMA_NCLASS];          /* current superblock << 32 | blocks handed out of it */
	uint32_t failed_allocs;
	uint32_t pad;
	uint32_t root[KMA_ROOT_BYTES / 4];  /* owned by the data structure on the heap */
} kma_meta;

/* The heap as threads see it: passed by value into kernels. */
typedef struct kma_heap {
	GB_GLOBAL uint32_t *base;        /* the heap's words (device or host memory) */
	uint32_t sb_size;      /* bytes per superblock, a multiple of KMA_MAX_BLOCK */
	uint32_t sb_count;     /* superblocks in all, bookkeeping included */
	uint32_t sb_first;     /* first data superblock */
} kma_heap;

GB_HD GB_GLOBAL kma_meta *kma_meta_of(kma_heap h)
{
	return (GB_GLOBAL kma_meta *)h.base;
}

GB_HD GB_GLOBAL uint32_t *kma_sb_class(kma_heap h)
{
	return h.base + sizeof(kma_meta) / 4;
}

GB_HD GB_GLOBAL uint32_t *kma_sb_next(kma_heap h)
{
	return kma_sb_class(h) + h.sb_count;
}

/* The word at byte offset off. */
GB_HD GB_GLOBAL uint32_t *kma_word(kma_heap h, uint32_t off)
{
	return h.base + off / 4;
}

GB_HD uint32_t kma_class_of_size(uint32_t bytes)
{
	uint32_t c = 0;
	while (c < KMA_NCLASS && (KMA_MIN_BLOCK << c) < bytes)
		c++;
	return c;
}

GB_HD uint64_t kma_tagged(uint64_t old, uint32_t top)
{
	return (((old >> 32) + 1) << 32) | top;
}

/*
 * The pool word: tag << 48 | installs << 24 | superblock index. installs
 * counts the superblocks taken from the pool and not yet installed as their
 * class's current one; it changes in the same CAS that takes a superblock,
 * so one read of the word says whether the pool is empty with nothing on its
 * way (kma_exhausted). 24 bits each: at most 2^24 superblocks.
 */
#define KMA_SB_LIMIT (1u << 24)
#define KMA_SB_MASK (KMA_SB_LIMIT - 1u)

GB_HD uint32_t kma_pool_top(uint64_t w)
{
	return (uint32_t)w & KMA_SB_MASK;
}

GB_HD uint32_t kma_pool_installs(uint64_t w)
{
	return (uint32_t)(w >> 24) & KMA_SB_MASK;
}

GB_HD uint64_t kma_pool_word(uint64_t old, uint32_t top, uint32_t installs)
{
	return (((old >> 48) + 1) << 48) | ((uint64_t)installs << 24) | top;
}

/* Take an unused superblock (counted as an install in flight); 0 when the pool is empty. */
GB_HD uint32_t kma_pool_take(kma_heap h)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t backoff = 0;
	for (;;) {
		uint64_t w = gb_ld_relaxed_u64(&m->pool_head);
		uint32_t sb = kma_pool_top(w), next;
		if (sb == 0)
			return 0;
		gb_fence();
		next = gb_ld_relaxed_u32(&kma_sb_next(h)[sb]);
		if (gb_cas_u64(&m->pool_head, w, kma_pool_word(w, next, kma_pool_installs(w) + 1)) == w)
			return sb;
		gb_backoff(&backoff);
	}
}

/* An install taken with kma_pool_take is done: its superblock is visible in the bump word. */
GB_HD void kma_pool_installed(kma_heap h)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	gb_fence(); /* the bump word before the count drops */
	for (;;) {
		uint64_t w = gb_ld_relaxed_u64(&m->pool_head);
		if (gb_cas_u64(&m->pool_head, w, kma_pool_word(w, kma_pool_top(w), kma_pool_installs(w) - 1)) == w)
			return;
	}
}

/* Blocks of class c in one superblock. */
GB_HD uint32_t kma_per_sb(kma_heap h, uint32_t c)
{
	return h.sb_size / (KMA_MIN_BLOCK << c);
}

/*
 * The bump word's starting value: no superblock (0) and one block short of
 * full, so the first add of the class is the one that reaches the end and
 * installs a superblock (superblock 0 is bookkeeping and hands out nothing).
 */
GB_HD uint64_t kma_bump_start(kma_heap h, uint32_t c)
{
	return (uint64_t)(kma_per_sb(h, c) - 1);
}

/*
 * No superblock can come to the bump word any more: the pool is empty and no
 * install is in flight.
 */
GB_HD int kma_pool_dry(kma_heap h)
{
	uint64_t w = gb_ld_relaxed_u64(&kma_meta_of(h)->pool_head);
	return kma_pool_top(w) == 0 && kma_pool_installs(w) == 0;
}

/*
 * The add that took class c's current superblock to its end installs the
 * next one (or leaves the word full when the pool is empty). Exactly one add
 * crosses the end of each superblock, so installs never race; adds that come
 * after the crossing and before the exchange find the old superblock full
 * and wait for the new one, adds after the exchange count against it.
 */
GB_HD void kma_bump_install(kma_heap h, uint32_t c)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t sb = kma_pool_take(h);
	if (sb == 0)
		return;
	gb_st_relaxed_u32(&kma_sb_class(h)[sb], c + 1);
	gb_fence(); /* the class word before the blocks are handed out */
	gb_xchg_u64(&m->bump[c], (uint64_t)sb << 32);
	kma_pool_installed(h);
}

/*
 * Up to want contiguous blocks of class c from its current superblock:
 * returns how many (*first the lowest), fewer than want at the end of a
 * superblock, 0 only when the pool can give no superblock any more.
 */
GB_HD uint32_t kma_malloc_contig_class(kma_heap h, uint32_t c, uint32_t want, uint32_t *first)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t per = kma_per_sb(h, c), backoff = 0;
	for (;;) {
		uint64_t w = gb_ld_relaxed_u64(&m->bump[c]);
		uint32_t sb, used, k = 0;
		/* A full word that no install can change: skip the add (it would only grow the count). */
		if ((uint32_t)w >= per && kma_pool_dry(h))
			return 0;
		w = gb_add_u64(&m->bump[c], want);
		sb = (uint32_t)(w >> 32);
		used = (uint32_t)w;
		if (used < per) {
			if (sb != 0) {
				k = per - used < want ? per - used : want;
				*first = sb * h.sb_size + used * (KMA_MIN_BLOCK << c);
			}
			if (used + want >= per)
				kma_bump_install(h, c);
			if (k)
				return k;
			continue;
		}
		/* Full: wait until the crossing add installs the next superblock, or none can come. */
		while ((uint32_t)(gb_ld_relaxed_u64(&m->bump[c]) >> 32) == sb) {
			if (kma_pool_dry(h) && (uint32_t)(gb_ld_relaxed_u64(&m->bump[c]) >> 32) == sb)
				return 0;
			gb_backoff(&backoff);
		}
		gb_fence();
	}
}

GB_HD uint32_t kma_malloc_contig(kma_heap h, uint32_t bytes, uint32_t want, uint32_t *first)
{
	uint32_t c = kma_class_of_size(bytes);
	return c < KMA_NCLASS ? kma_malloc_contig_class(h, c, want, first) : 0;
}

/* Push the chain first..last (linked through their first words) onto class c's stack. */
GB_HD void kma_push_chain(kma_heap h, uint32_t c, uint32_t first, uint32_t last)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t backoff = 0;
	for (;;) {
		uint64_t head = gb_ld_relaxed_u64(&m->class_head[c]);
		gb_st_relaxed_u32(kma_word(h, last), (uint32_t)head);
		gb_fence(); /* the links are visible before the new top */
		if (gb_cas_u64(&m->class_head[c], head, kma_tagged(head, first)) == head)
			return;
		gb_backoff(&backoff);
	}
}

/*
 * Pop up to n blocks off class c's stack with one CAS, linked through their
 * first words (*first the top); 0 when the stack is empty.
 */
GB_HD uint32_t kma_pop_run(kma_heap h, uint32_t c, uint32_t n, uint32_t *first, uint32_t *end)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t bs = KMA_MIN_BLOCK << c, limit = h.sb_count * h.sb_size, backoff = 0;
	for (;;) {
		uint64_t head = gb_ld_relaxed_u64(&m->class_head[c]);
		uint32_t top = (uint32_t)head, last = top, k = 1, next;
		if (top == KMA_NULL)
			return 0;
		gb_fence();
		/*
		 * The links may be rewritten by whoever pops the blocks meanwhile; then the
		 * tag has moved on and the CAS fails. The bounds check only keeps such a stale
		 * walk inside the heap.
		 */
		next = gb_ld_relaxed_u32(kma_word(h, last));
		while (k < n && next != KMA_NULL && next < limit && next % bs == 0) {
			last = next;
			next = gb_ld_relaxed_u32(kma_word(h, last));
			k++;
		}
		if (gb_cas_u64(&m->class_head[c], head, kma_tagged(head, next)) == head) {
			gb_fence();
			*first = top;
			*end = last;
			return k;
		}
		gb_backoff(&backoff);
	}
}

/*
 * Class c really is exhausted: nothing left in its current superblock, the
 * pool empty with no install in flight, and after that its stack empty too.
 */
GB_HD int kma_exhausted(kma_heap h, uint32_t c)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	if ((uint32_t)gb_ld_relaxed_u64(&m->bump[c]) < kma_per_sb(h, c) || !kma_pool_dry(h))
		return 0;
	gb_fence();
	return (uint32_t)gb_ld_relaxed_u64(&m->class_head[c]) == KMA_NULL;
}

/*
 * Up to n blocks of one size class in one go, for a warp's (or a group's)
 * allocations: contiguous blocks from the class's current superblocks first
 * (one atomic each, linked here), then runs popped off the stack of freed
 * blocks (one CAS each). The blocks come linked through their first word,
 * *first the head of the run. Returns how many; fewer than n only when the
 * class is exhausted (the shortfall counts as failed allocations).
 */
GB_HD uint32_t kma_malloc_run(kma_heap h, uint32_t bytes, uint32_t n, uint32_t *first)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t c = kma_class_of_size(bytes), got = 0, last = KMA_NULL, bs = KMA_MIN_BLOCK << c;

	*first = KMA_NULL;
	while (c < KMA_NCLASS && got < n) {
		uint32_t top, end, k, i;
		k = kma_malloc_contig_class(h, c, n - got, &top);
		if (k) {
			for (i = 0; i + 1 < k; i++)
				gb_st_relaxed_u32(kma_word(h, top + i * bs), top + (i + 1) * bs);
			end = top + (k - 1) * bs;
		} else {
			k = kma_pop_run(h, c, n - got, &top, &end);
			if (k == 0) {
				if (kma_exhausted(h, c))
					break;
				continue;
			}
		}
		if (last == KMA_NULL)
			*first = top;
		else
			gb_st_relaxed_u32(kma_word(h, last), top);
		last = end;
		got += k;
	}
	if (got < n)
		gb_add_u32(&m->failed_allocs, n - got);
	return got;
}

/* One block: a freed one when the class has some, else the next of its current superblock. */
GB_HD uint32_t kma_malloc(kma_heap h, uint32_t bytes)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t c = kma_class_of_size(bytes), off, end;
	while (c < KMA_NCLASS) {
		if (kma_pop_run(h, c, 1, &off, &end) || kma_malloc_contig_class(h, c, 1, &off))
			return off;
		if (kma_exhausted(h, c))
			break;
	}
	gb_add_u32(&m->failed_allocs, 1);
	return KMA_NULL;
}

GB_HD void kma_free(kma_heap h, uint32_t off)
{
	uint32_t c = gb_ld_relaxed_u32(&kma_sb_class(h)[off / h.sb_size]) - 1;
	kma_push_chain(h, c, off, off);
}

#endif
