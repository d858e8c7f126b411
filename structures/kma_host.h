/*
 * Host side of the KMA-style allocator (structures/kma.h): lay out and
 * initialise a heap image, and check one (after the threads are done) with a
 * walk that shares no code with kma_malloc/kma_free.
 */
#ifndef GB_KMA_HOST_H
#define GB_KMA_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "structures/kma.h"

/* What a finished heap holds, from kma_check. */
typedef struct kma_usage {
	uint64_t heap_bytes;
	uint64_t bookkeeping_bytes;   /* the bookkeeping superblocks */
	uint32_t superblocks_used;    /* data superblocks given a size class */
	uint32_t superblocks_free;    /* data superblocks still in the pool */
	uint64_t live_blocks;         /* blocks handed out and not freed */
	uint64_t free_blocks;         /* free blocks of used superblocks: freed, or not handed out yet */
	uint64_t live_bytes;          /* live blocks times their block size */
	uint64_t live_by_class[KMA_NCLASS];
	uint64_t free_by_class[KMA_NCLASS];
	uint32_t failed_allocs;
} kma_usage;

/*
 * Smallest superblock count, bookkeeping included, for a heap of sb_size-byte
 * superblocks whose data superblocks number data_sbs.
 */
uint32_t kma_superblocks_for(uint32_t data_sbs, uint32_t sb_size);
/* Validate a layout; 0, or -1 with a message naming the limit. */
int kma_layout_check(uint32_t sb_count, uint32_t sb_size, char *err, size_t errlen);
/* Bookkeeping superblocks of a layout. */
uint32_t kma_bookkeeping_sbs(uint32_t sb_count, uint32_t sb_size);

/* Allocate (64-byte aligned) and initialise a heap image; exits 1 when memory is short. */
kma_heap kma_host_create(uint32_t sb_count, uint32_t sb_size);
/* Re-initialise an image: every data superblock back in the pool. */
void kma_host_reset(kma_heap h);
void kma_host_destroy(kma_heap h);

/*
 * Walk the pool and every free stack of a quiescent heap: each free block
 * must lie in a superblock of its class, on a block boundary, and appear
 * once; each pool entry must be an unused data superblock, appear once, and
 * the pool must hold every unused one. 0 with *u filled, or -1 with a message.
 */
int kma_check(kma_heap h, kma_usage *u, char *err, size_t errlen);

#endif
