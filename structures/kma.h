/*
 * A kernel memory allocator in the spirit of KMA (Spliet et al. 2014, as
 * used in section 3.2 and 5 of Mulder 2015): the host sets up a heap of
 * superblocks whose count and size the user chooses; device threads (and the
 * CPU backend's threads, running this same code) call kma_malloc and
 * kma_free. The first superblocks hold the bookkeeping.
 *
 * A superblock is handed out whole from a pool of unused superblocks to one
 * size class (blocks of 8 << c bytes, KMA_NCLASS classes) and cut into
 * blocks; free blocks of a class sit on a lock-free stack whose link word is
 * the first word of the free block. Both stacks have a 64-bit head: the low
 * half is the top (a byte offset or a superblock index, 0 = empty), the high
 * half a tag bumped by every successful push or pop, so a pop that read a
 * stale top fails its CAS instead of corrupting the stack (ABA).
 * kma_malloc_run pops a run of blocks with one CAS, for a warp's allocations.
 *
 * Deviations from KMA:
 *  - blocks are addressed by 32-bit byte offsets from the heap base, not by
 *    pointers, so one heap image means the same on the host, in CUDA and in
 *    OpenCL, and the host can build and check it (heaps up to 4 GiB);
 *  - the per-superblock header (its size class) lives in the bookkeeping
 *    superblocks instead of a header and footer inside each superblock, so
 *    every byte of a data superblock is blocks;
 *  - a superblock keeps its size class once given one: freed blocks are
 *    reused by later allocations of the same class, but superblocks are not
 *    returned to the pool.
 * An allocation fails only when its size class is exhausted: no free block
 * on the class's stack, no unused superblock in the pool, and no superblock
 * being carved by another thread (kma_exhausted); or when the size is above
 * the largest class. It returns KMA_NULL and counts itself in failed_allocs.
 * A thread that finds the stack empty while another carves waits for that
 * carve (a bounded amount of work) rather than fail.
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
	uint64_t pool_head;                 /* tag << 48 | carves in flight << 24 | superblock index */
	uint64_t class_head[KMA_NCLASS];    /* tag << 32 | block offset */
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
 * The pool word: tag << 48 | carving << 24 | superblock index. carving counts
 * the superblocks taken from the pool whose blocks are not on their class's
 * stack yet; it changes in the same CAS that takes or returns a superblock,
 * so one read of the word says whether the pool is empty with no carve in
 * flight (kma_exhausted). 24 bits each: at most 2^24 superblocks.
 */
#define KMA_SB_LIMIT (1u << 24)
#define KMA_SB_MASK (KMA_SB_LIMIT - 1u)

GB_HD uint32_t kma_pool_top(uint64_t w)
{
	return (uint32_t)w & KMA_SB_MASK;
}

GB_HD uint32_t kma_pool_carving(uint64_t w)
{
	return (uint32_t)(w >> 24) & KMA_SB_MASK;
}

GB_HD uint64_t kma_pool_word(uint64_t old, uint32_t top, uint32_t carving)
{
	return (((old >> 48) + 1) << 48) | ((uint64_t)carving << 24) | top;
}

/* Take an unused superblock for a carve (counted as in flight); 0 when the pool is empty. */
GB_HD uint32_t kma_pool_take(kma_heap h)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	for (;;) {
		uint64_t w = gb_ld_relaxed_u64(&m->pool_head);
		uint32_t sb = kma_pool_top(w), next;
		if (sb == 0)
			return 0;
		gb_fence();
		next = gb_ld_relaxed_u32(&kma_sb_next(h)[sb]);
		if (gb_cas_u64(&m->pool_head, w, kma_pool_word(w, next, kma_pool_carving(w) + 1)) == w)
			return sb;
	}
}

/* End a carve: its blocks are on the stack, or (back != 0) superblock back returns to the pool unused. */
GB_HD void kma_pool_done(kma_heap h, uint32_t back)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	gb_fence(); /* the carve's push is visible before the count drops */
	for (;;) {
		uint64_t w = gb_ld_relaxed_u64(&m->pool_head);
		uint32_t top = kma_pool_top(w);
		if (back) {
			gb_st_relaxed_u32(&kma_sb_next(h)[back], top);
			gb_fence();
			top = back;
		}
		if (gb_cas_u64(&m->pool_head, w, kma_pool_word(w, top, kma_pool_carving(w) - 1)) == w)
			return;
	}
}

/* Push the chain first..last (linked through their first words) onto class c's stack. */
GB_HD void kma_push_chain(kma_heap h, uint32_t c, uint32_t first, uint32_t last)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	for (;;) {
		uint64_t head = gb_ld_relaxed_u64(&m->class_head[c]);
		gb_st_relaxed_u32(kma_word(h, last), (uint32_t)head);
		gb_fence(); /* the links are visible before the new top */
		if (gb_cas_u64(&m->class_head[c], head, kma_tagged(head, first)) == head)
			return;
	}
}

/*
 * Class c's stack was found empty: give it a fresh superblock. Its first
 * block goes to the caller, the rest onto the stack in one push. KMA_NULL
 * when the pool is empty, or when the stack was refilled while this call
 * took a superblock (the superblock goes back, and the caller pops the
 * stack: a burst of threads that all found the stack empty then carves few
 * superblocks instead of one each).
 */
GB_HD uint32_t kma_refill(kma_heap h, uint32_t c)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t sb = kma_pool_take(h), bs = KMA_MIN_BLOCK << c, n, i, first;
	if (sb == 0)
		return KMA_NULL;
	gb_fence();
	if ((uint32_t)gb_ld_relaxed_u64(&m->class_head[c]) != KMA_NULL) {
		kma_pool_done(h, sb);
		return KMA_NULL;
	}
	n = h.sb_size / bs;
	first = sb * h.sb_size;
	gb_st_relaxed_u32(&kma_sb_class(h)[sb], c + 1);
	for (i = 1; i + 1 < n; i++)
		gb_st_relaxed_u32(kma_word(h, first + i * bs), first + (i + 1) * bs);
	if (n > 1)
		kma_push_chain(h, c, first + bs, first + (n - 1) * bs);
	kma_pool_done(h, 0);
	return first;
}

/*
 * Class c really is exhausted: the pool is empty with no carve in flight,
 * and after that the stack is empty too. A stack found empty while a carve
 * is in flight, or a pool found empty while another thread carved its last
 * superblock, is not exhaustion: the blocks are on their way.
 */
GB_HD int kma_exhausted(kma_heap h, uint32_t c)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint64_t w = gb_ld_relaxed_u64(&m->pool_head);
	if (kma_pool_top(w) != 0 || kma_pool_carving(w) != 0)
		return 0;
	gb_fence();
	return (uint32_t)gb_ld_relaxed_u64(&m->class_head[c]) == KMA_NULL;
}

/*
 * Up to n blocks of one size class in one go, so that a warp's (or a group's)
 * allocations cost one contended CAS on the class's stack instead of n: a run
 * of the stack is popped with one CAS, and fresh superblocks are carved when
 * the stack is empty. The blocks come linked through their first word, *first
 * the head of the run. Returns how many; fewer than n only when the class is
 * exhausted (kma_exhausted; the shortfall counts as failed allocations).
 */
GB_HD uint32_t kma_malloc_run(kma_heap h, uint32_t bytes, uint32_t n, uint32_t *first)
{
	GB_GLOBAL kma_meta *m = kma_meta_of(h);
	uint32_t c = kma_class_of_size(bytes), got = 0, last = KMA_NULL;
	uint32_t bs = KMA_MIN_BLOCK << c, limit = h.sb_count * h.sb_size;

	*first = KMA_NULL;
	while (c < KMA_NCLASS && got < n) {
		uint64_t head = gb_ld_relaxed_u64(&m->class_head[c]);
		uint32_t top = (uint32_t)head, end = top, k = 1, next;
		if (top == KMA_NULL) {
			top = end = kma_refill(h, c);
			if (top == KMA_NULL) {
				if (kma_exhausted(h, c))
					break;
				continue;
			}
		} else {
			gb_fence();
			/*
			 * The links may be rewritten by whoever pops the blocks meanwhile; then the
			 * tag has moved on and the CAS fails. The bounds check only keeps such a stale
			 * walk inside the heap.
			 */
			next = gb_ld_relaxed_u32(kma_word(h, end));
			while (k < n - got && next != KMA_NULL && next < limit && next % bs == 0) {
				end = next;
				next = gb_ld_relaxed_u32(kma_word(h, end));
				k++;
			}
			if (gb_cas_u64(&m->class_head[c], head, kma_tagged(head, next)) != head)
				continue;
			gb_fence();
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

GB_HD uint32_t kma_malloc(kma_heap h, uint32_t bytes)
{
	uint32_t off;
	return kma_malloc_run(h, bytes, 1, &off) ? off : KMA_NULL;
}

GB_HD void kma_free(kma_heap h, uint32_t off)
{
	uint32_t c = gb_ld_relaxed_u32(&kma_sb_class(h)[off / h.sb_size]) - 1;
	kma_push_chain(h, c, off, off);
}

#endif
