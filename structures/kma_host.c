/* Heap images of the KMA-style allocator: layout, initialisation, checking. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "structures/kma_host.h"

static uint64_t meta_bytes(uint32_t sb_count)
{
	return sizeof(kma_meta) + 8ull * sb_count;
}

uint32_t kma_bookkeeping_sbs(uint32_t sb_count, uint32_t sb_size)
{
	return (uint32_t)((meta_bytes(sb_count) + sb_size - 1) / sb_size);
}

uint32_t kma_superblocks_for(uint32_t data_sbs, uint32_t sb_size)
{
	uint32_t n = data_sbs + 1;
	while (n - kma_bookkeeping_sbs(n, sb_size) < data_sbs)
		n++;
	return n;
}

int kma_layout_check(uint32_t sb_count, uint32_t sb_size, char *err, size_t errlen)
{
	if (sb_size < KMA_MAX_BLOCK || sb_size % KMA_MAX_BLOCK)
		return gb_errmsg(err, errlen, "--superblock-size %u is not a multiple of %u bytes", sb_size,
				 KMA_MAX_BLOCK);
	if (sb_count > KMA_SB_LIMIT)
		return gb_errmsg(err, errlen, "--superblocks %u is above the %u the pool word indexes",
				 sb_count, KMA_SB_LIMIT);
	if ((uint64_t)sb_count * sb_size > 0xFFFFFF00ull)
		return gb_errmsg(err, errlen,
				 "--superblocks %u x --superblock-size %u is a heap above the 4 GiB that 32-bit "
				 "block offsets address: at most %u superblocks of this size",
				 sb_count, sb_size, (uint32_t)(0xFFFFFF00ull / sb_size));
	if (kma_bookkeeping_sbs(sb_count, sb_size) >= sb_count)
		return gb_errmsg(err, errlen,
				 "--superblocks %u of --superblock-size %u leave none for data after the bookkeeping "
				 "(%u needed)",
				 sb_count, sb_size, kma_bookkeeping_sbs(sb_count, sb_size));
	return 0;
}

void kma_host_reset(kma_heap h)
{
	kma_meta *m = kma_meta_of(h);
	uint32_t *next = kma_sb_next(h), sb, c;

	/* Never-used blocks read as zero: a list node's next word is then "end". */
	memset(h.base, 0, (size_t)h.sb_count * h.sb_size);
	/* The pool hands out superblocks in address order: sb_first on top. */
	for (sb = h.sb_first; sb + 1 < h.sb_count; sb++)
		next[sb] = sb + 1;
	next[h.sb_count - 1] = 0;
	m->pool_head = h.sb_first;
	for (c = 0; c < KMA_NCLASS; c++)
		m->bump[c] = kma_bump_start(h, c);
}

kma_heap kma_host_create(uint32_t sb_count, uint32_t sb_size)
{
	kma_heap h;
	size_t bytes = (size_t)sb_count * sb_size;
	h.sb_size = sb_size;
	h.sb_count = sb_count;
	h.sb_first = kma_bookkeeping_sbs(sb_count, sb_size);
	h.base = aligned_alloc(64, bytes);
	if (!h.base)
		gb_die(GB_EXIT_RUNTIME, "out of memory allocating a %zu-byte heap", bytes);
	kma_host_reset(h);
	return h;
}

void kma_host_destroy(kma_heap h)
{
	free(h.base);
}

int kma_check(kma_heap h, kma_usage *u, char *err, size_t errlen)
{
	const kma_meta *m = kma_meta_of(h);
	const uint32_t *cls = kma_sb_class(h), *next = kma_sb_next(h);
	uint64_t nbits = (uint64_t)h.sb_count * h.sb_size / KMA_MIN_BLOCK;
	uint8_t *seen = gb_xcalloc((size_t)(nbits / 8 + 1), 1, "heap check bitmap");
	uint64_t pool_len = 0, carved[KMA_NCLASS] = {0};
	uint32_t sb, c, top;
	int rc = -1;

	memset(u, 0, sizeof(*u));
	u->heap_bytes = (uint64_t)h.sb_count * h.sb_size;
	u->bookkeeping_bytes = (uint64_t)h.sb_first * h.sb_size;
	u->failed_allocs = m->failed_allocs;
	for (sb = h.sb_first; sb < h.sb_count; sb++) {
		if (cls[sb] > KMA_NCLASS) {
			gb_errmsg(err, errlen, "superblock %u has class word %u", sb, cls[sb]);
			goto out;
		}
		if (cls[sb]) {
			u->superblocks_used++;
			carved[cls[sb] - 1] += h.sb_size / (KMA_MIN_BLOCK << (cls[sb] - 1));
		}
	}
	if (kma_pool_installs(m->pool_head) != 0) {
		gb_errmsg(err, errlen, "the pool counts %u installs still in flight in a finished heap",
			  kma_pool_installs(m->pool_head));
		goto out;
	}
	for (top = kma_pool_top(m->pool_head); top; top = next[top]) {
		if (top < h.sb_first || top >= h.sb_count || cls[top] || ++pool_len > h.sb_count) {
			gb_errmsg(err, errlen, "the superblock pool holds superblock %u, which is %s", top,
				  top < h.sb_first || top >= h.sb_count ? "out of range"
				  : cls[top] ? "in use" : "listed twice");
			goto out;
		}
	}
	u->superblocks_free = (uint32_t)pool_len;
	if (u->superblocks_used + pool_len != h.sb_count - h.sb_first) {
		gb_errmsg(err, errlen, "%u superblocks in use and %llu in the pool, of %u data superblocks",
			  u->superblocks_used, (unsigned long long)pool_len, h.sb_count - h.sb_first);
		goto out;
	}
	for (c = 0; c < KMA_NCLASS; c++) {
		uint32_t bs = KMA_MIN_BLOCK << c, per = h.sb_size / bs;
		uint32_t cur = (uint32_t)(m->bump[c] >> 32), used = (uint32_t)m->bump[c];
		uint64_t len = 0, untaken = 0;
		if (used > per)
			used = per;
		if (cur != 0) {
			if (cur < h.sb_first || cur >= h.sb_count || cls[cur] != c + 1) {
				gb_errmsg(err, errlen, "the %u-byte class cuts superblock %u, which is not of its class",
					  bs, cur);
				goto out;
			}
			untaken = per - used; /* never handed out: free, though on no stack */
		}
		for (top = (uint32_t)m->class_head[c]; top; top = h.base[top / 4]) {
			uint64_t bit = top / KMA_MIN_BLOCK;
			sb = top / h.sb_size;
			if (top % bs || sb < h.sb_first || sb >= h.sb_count || cls[sb] != c + 1 ||
			    (sb == cur && (top % h.sb_size) / bs >= used)) {
				gb_errmsg(err, errlen, "the %u-byte free list holds offset %u, not a %u-byte block "
					  "handed out before", bs, top, bs);
				goto out;
			}
			if (seen[bit / 8] & (1u << (bit % 8)) || ++len + untaken > carved[c]) {
				gb_errmsg(err, errlen, "the %u-byte free list holds block %u twice (a double free)",
					  bs, top);
				goto out;
			}
			seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
		}
		u->free_blocks += len + untaken;
		u->free_by_class[c] = len + untaken;
		u->live_by_class[c] = carved[c] - len - untaken;
		u->live_blocks += carved[c] - len - untaken;
		u->live_bytes += (carved[c] - len - untaken) * bs;
	}
	rc = 0;
out:
	free(seen);
	return rc;
}
