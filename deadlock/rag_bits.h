/*
 * Bit matrices of the GPU deadlock detectors (Abell's thesis, sections 3.3.2,
 * 3.3.6, 4.3.2 and 4.3.6), shared by deadlock/osdda_bits.h and
 * deadlock/lmdda_bits.h and run by both the CUDA kernels and the CPU driver
 * of the unit tests.
 *
 * A matrix of R x C cells is stored row by row in 32-bit words; a word holds
 * 2^lcpw cells, the first one in its most significant bit as the thesis's
 * masks 1 << (INTBITS - (bit + 1)) do. lcpw = 5 is the bit-packed design
 * (32 cells a word); lcpw = 0 is the thesis's first design, one int per cell
 * (a set cell is the word 0x80000000, so the same code serves both). Rows
 * hold ceil(C / 2^lcpw) words, and the number of rows is padded to a whole
 * number of tiles of 2^lcpw rows, so M and N need not be powers of two (the
 * thesis requires them to be, for its shifts). Padding cells stay 0.
 *
 * Transpose (3.3.6): the thesis's BitMatrix_Transpose turns each tile of
 * 32 rows x 1 word in place into its transpose, one thread a tile, and
 * tileTranspose then moves tile (r, w) to (w, r). The in-tile transpose
 * here swaps the off-diagonal halves of blocks of 32, 16, ..., 2 rows; with
 * one cell a word a tile is one cell and only the move remains.
 */
#ifndef GB_RAG_BITS_H
#define GB_RAG_BITS_H

#include <stddef.h>
#include <stdint.h>

#include "common/port.h"

#define RB_NONE UINT32_MAX /* RAG_NONE, for code that does not include api/rag_model.h */
#define RB_TOP 0x80000000u
/* An event type that is neither a request nor a release: every kernel's gate is off, so
 * running all kernels with it loads and warms them without changing anything. */
#define RAG_GPU_WARM_UP 255u

/* Words in a row of cells cells. */
GB_HD uint32_t rb_words(uint32_t cells, uint32_t lcpw)
{
	return (uint32_t)(((uint64_t)cells + (1u << lcpw) - 1) >> lcpw);
}

/* The mask of cell c within its word. */
GB_HD uint32_t rb_mask(uint32_t c, uint32_t lcpw)
{
	return RB_TOP >> (c & ((1u << lcpw) - 1));
}

/* The word holding cell (row, c) of a matrix with pitch words a row. */
GB_HD size_t rb_at(uint32_t row, uint32_t pitch, uint32_t c, uint32_t lcpw)
{
	return (size_t)row * pitch + (c >> lcpw);
}

GB_HD int rb_test(const uint32_t *m, uint32_t pitch, uint32_t row, uint32_t c, uint32_t lcpw)
{
	return (m[rb_at(row, pitch, c, lcpw)] & rb_mask(c, lcpw)) != 0;
}

GB_HD void rb_set(uint32_t *m, uint32_t pitch, uint32_t row, uint32_t c, uint32_t lcpw)
{
	m[rb_at(row, pitch, c, lcpw)] |= rb_mask(c, lcpw);
}

GB_HD void rb_clear(uint32_t *m, uint32_t pitch, uint32_t row, uint32_t c, uint32_t lcpw)
{
	m[rb_at(row, pitch, c, lcpw)] &= ~rb_mask(c, lcpw);
}

/* The first set cell of word w of a row, or RB_NONE: one element of a row reduction. */
GB_HD uint32_t rb_first_in_word(uint32_t word, uint32_t w, uint32_t lcpw)
{
	return word ? (w << lcpw) + gb_clz_u32(word) : RB_NONE;
}

/* The row holding only cell c, word w of it. */
GB_HD uint32_t rb_onehot_word(uint32_t c, uint32_t w, uint32_t lcpw)
{
	return (c >> lcpw) == w ? rb_mask(c, lcpw) : 0;
}

/*
 * BitMatrix_Transpose of one tile: rows tr * 32 .. tr * 32 + 31, word tw of
 * src (pitch words a row), transposed into the same place of tmp. After the
 * step of size s, every block of 2s x 2s cells has its upper-right and
 * lower-left s x s quarters swapped; with s = 16, 8, ..., 1 that is the
 * transpose. Bit 31 - c of row r is cell (r, c): the upper-right quarter of
 * a block sits in the low s bits of its upper rows.
 */
GB_HD void rb_tile_transpose(const uint32_t *src, uint32_t *tmp, uint32_t pitch, uint32_t tr,
			     uint32_t tw, uint32_t lcpw)
{
	const uint32_t low[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u};
	size_t base = (size_t)tr * 32 * pitch + tw;
	uint32_t a[32], r, k, s;

	if (lcpw == 0) {
		tmp[(size_t)tr * pitch + tw] = src[(size_t)tr * pitch + tw];
		return;
	}
	GB_UNROLL
	for (r = 0; r < 32; r++)
		a[r] = src[base + (size_t)r * pitch];
	/* Both loops unrolled: constant indices keep a[] in registers on the GPU. */
	GB_UNROLL
	for (k = 0; k < 5; k++) {
		s = 16u >> k;
		GB_UNROLL
		for (r = 0; r < 32; r++)
			if (!(r & s)) {
				uint32_t t = (a[r] ^ (a[r + s] >> s)) & low[k];
				a[r] ^= t;
				a[r + s] ^= t << s;
			}
	}
	GB_UNROLL
	for (r = 0; r < 32; r++)
		tmp[base + (size_t)r * pitch] = a[r];
}

/* tileTranspose of one tile: tile (tr, tw) of tmp (spitch words a row) to (tw, tr) of dst. */
GB_HD void rb_tile_move(const uint32_t *tmp, uint32_t *dst, uint32_t spitch, uint32_t dpitch,
			uint32_t tr, uint32_t tw, uint32_t lcpw)
{
	uint32_t rows = 1u << lcpw, r;
	for (r = 0; r < rows; r++)
		dst[((size_t)tw * rows + r) * dpitch + tr] = tmp[((size_t)tr * rows + r) * spitch + tw];
}

/* Number of tiles of a matrix of rows (padded) x pitch words. */
GB_HD size_t rb_tiles(uint32_t rows, uint32_t pitch, uint32_t lcpw)
{
	return (size_t)(rows >> lcpw) * pitch;
}

/* How a detector's host code drives its kernels: the GPU engines launch them, the
 * unit tests' CPU driver runs their functions in launch order. */
typedef struct rag_launch_ops {
	void (*launch)(void *ctx, unsigned kernel, unsigned iteration);
	/* wait for the device; the io words as they are now */
	const uint32_t *(*read)(void *ctx);
} rag_launch_ops;

#endif
