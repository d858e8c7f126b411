/*
 * The bit-matrix helpers of the GPU detectors (deadlock/rag_bits.h): the
 * tiled transpose against a cell-by-cell one on odd shapes, in both the
 * bit-packed layout and one int a cell; the first set cell of a row.
 */
#include <stdlib.h>

#include "common/rng.h"
#include "deadlock/rag_bits.h"
#include "tests/unit/test.h"

static void transpose_shape(uint32_t R, uint32_t C, uint32_t lcpw, uint64_t seed)
{
	uint32_t Rw = rb_words(R, lcpw), Cw = rb_words(C, lcpw);
	uint32_t Rp = Rw << lcpw, Cp = Cw << lcpw, r, c, bad = 0;
	uint32_t *src = calloc((size_t)Rp * Cw, 4), *tmp = calloc((size_t)Rp * Cw, 4);
	uint32_t *dst = calloc((size_t)Cp * Rw, 4);
	size_t x, tiles = rb_tiles(Rp, Cw, lcpw);
	gb_rng g;

	gb_rng_init(&g, seed, R * 7919u + C);
	for (r = 0; r < R; r++)
		for (c = 0; c < C; c++)
			if (gb_rng_below(&g, 3) == 0)
				rb_set(src, Cw, r, c, lcpw);
	for (x = 0; x < tiles; x++)
		rb_tile_transpose(src, tmp, Cw, (uint32_t)(x / Cw), (uint32_t)(x % Cw), lcpw);
	for (x = 0; x < tiles; x++)
		rb_tile_move(tmp, dst, Cw, Rw, (uint32_t)(x / Cw), (uint32_t)(x % Cw), lcpw);
	for (r = 0; r < Rp; r++)
		for (c = 0; c < Cp; c++) {
			int want = r < R && c < C && rb_test(src, Cw, r, c, lcpw);
			bad += rb_test(dst, Rw, c, r, lcpw) != want;
		}
	if (bad)
		tu_fail(__FILE__, __LINE__, "transpose of %u x %u (lcpw %u): %u cells wrong", R, C, lcpw, bad);
	free(src);
	free(tmp);
	free(dst);
}

TEST(rag_bits_tiled_transpose)
{
	static const uint32_t shapes[][2] = {{1, 1}, {1, 70}, {70, 1}, {31, 33}, {32, 32},
					     {64, 96}, {100, 37}, {129, 257}};
	unsigned k;
	for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		transpose_shape(shapes[k][0], shapes[k][1], 5, k + 1);
		transpose_shape(shapes[k][0], shapes[k][1], 0, k + 1);
	}
}

TEST(rag_bits_first_set_cell)
{
	uint32_t row[3] = {0, 0, 0};
	rb_set(row, 3, 0, 70, 5);
	rb_set(row, 3, 0, 95, 5);
	CHECK_EQ(rb_first_in_word(row[0], 0, 5), RB_NONE);
	CHECK_EQ(rb_first_in_word(row[2], 2, 5), 70u);
	rb_set(row, 3, 0, 64, 5);
	CHECK_EQ(rb_first_in_word(row[2], 2, 5), 64u);
	CHECK_EQ(rb_first_in_word(RB_TOP, 9, 0), 9u);
	CHECK_EQ(rb_onehot_word(70, 2, 5), RB_TOP >> 6);
	CHECK_EQ(rb_onehot_word(70, 1, 5), 0u);
}
