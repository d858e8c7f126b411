/*
 * The replay plan of a memory loop kept on the device (speculation/replay.h).
 * O(rows x trace) host work: the rows are put in loop order by a radix sort
 * of their iterations, and each element's levels kept in an open-addressing
 * table sized to the plan and cleared for it, small enough to stay in cache
 * where an array of the speculated array's size would cost a cache miss an
 * access (planning ocean's first replay, 2,873 iterations, took 0.2-0.3 ms
 * that way on a 2-core VM, 0.1 ms this way).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "speculation/check.h"
#include "speculation/replay.h"

/* An element of the plan (key SP_NONE: a free entry): 1 + the level of its last writer,
 * 1 + the highest level that read it. */
typedef struct sp_plan_elem {
	uint32_t key, lw, lr;
} sp_plan_elem;

void sp_planner_init(sp_planner *pl, uint32_t max_rows, uint32_t size, uint32_t trace)
{
	size_t elems = (size_t)max_rows * trace;
	memset(pl, 0, sizeof(*pl));
	pl->level = gb_xzalloc(max_rows, sizeof(uint32_t), "the replay plan");
	pl->order = gb_xzalloc(max_rows, sizeof(uint32_t), "the replay plan");
	pl->spare = gb_xzalloc(max_rows, sizeof(uint32_t), "the replay plan");
	/* twice the elements a plan can touch, a power of two */
	for (pl->elem_cap = 16; pl->elem_cap < 2 * (elems < size ? elems : size); pl->elem_cap *= 2)
		;
	pl->elem = gb_xzalloc(pl->elem_cap, sizeof(sp_plan_elem), "the replay plan");
}

void sp_planner_free(sp_planner *pl)
{
	free(pl->level);
	free(pl->order);
	free(pl->spare);
	free(pl->elem);
	memset(pl, 0, sizeof(*pl));
}

/* The element's entry in a table of mask + 1 entries, new when first seen. */
static sp_plan_elem *touch_element(sp_planner *pl, uint32_t e, uint32_t mask)
{
	uint32_t k = (uint32_t)(((uint64_t)e * 0x9E3779B97F4A7C15ull) >> 32) & mask;
	for (;; k = (k + 1) & mask) {
		sp_plan_elem *q = &pl->elem[k];
		if (q->key == SP_NONE) {
			q->key = e;
			q->lw = q->lr = 0;
			return q;
		}
		if (q->key == e)
			return q;
	}
}

/* The rows' indices in loop order: a radix sort of their iterations, 11 bits a pass. */
static const uint32_t *order_rows(sp_planner *pl, const uint32_t *rows, uint32_t W, uint32_t start,
				  uint32_t count, uint32_t nm)
{
	uint32_t *a = pl->order, *b = pl->spare, *t, k, shift, sum, hist[2048];
	for (k = 0; k < nm; k++)
		a[k] = k;
	for (shift = 0; shift < 32 && (count - 1) >> shift; shift += 11) {
		memset(hist, 0, sizeof(hist));
		for (k = 0; k < nm; k++)
			hist[((rows[(size_t)a[k] * W] - start) >> shift) & 2047]++;
		for (k = 0, sum = 0; k < 2048; k++) {
			uint32_t c = hist[k];
			hist[k] = sum;
			sum += c;
		}
		for (k = 0; k < nm; k++)
			b[hist[((rows[(size_t)a[k] * W] - start) >> shift) & 2047]++] = a[k];
		t = a;
		a = b;
		b = t;
	}
	return a;
}

uint32_t sp_replay_plan(sp_planner *pl, const uint32_t *rows, uint32_t maxrd, uint32_t maxwr,
			uint32_t start, uint32_t count, uint32_t nm, uint32_t *plan)
{
	uint32_t W = SP_ROW_WORDS(maxrd, maxwr), *off, *list, levels = 0, k, j, n;
	const uint32_t *order = order_rows(pl, rows, W, start, count, nm);
	size_t want = 2 * (size_t)nm * (maxrd + maxwr), cap = 16;
	sp_plan_elem *seen[2 * SP_MAX_TRACE];

	while (cap < want && cap < pl->elem_cap)
		cap *= 2;
	memset(pl->elem, 0xFF, cap * sizeof(sp_plan_elem)); /* also brings the table into cache */
	for (n = 0; n < nm; n++) {
		const uint32_t *row = rows + (size_t)order[n] * W, *rd = row + 3, *wr = rd + maxrd;
		uint32_t lvl = 0;
		for (j = 0; j < row[1]; j++) {
			seen[j] = touch_element(pl, rd[j], (uint32_t)cap - 1);
			lvl = seen[j]->lw > lvl ? seen[j]->lw : lvl;
		}
		for (j = 0; j < row[2]; j++) {
			sp_plan_elem *q = seen[SP_MAX_TRACE + j] = touch_element(pl, wr[j], (uint32_t)cap - 1);
			lvl = q->lw > lvl ? q->lw : lvl;
			lvl = q->lr > lvl ? q->lr : lvl;
		}
		pl->level[order[n]] = lvl;
		for (j = 0; j < row[1]; j++)
			seen[j]->lr = lvl + 1 > seen[j]->lr ? lvl + 1 : seen[j]->lr;
		for (j = 0; j < row[2]; j++)
			seen[SP_MAX_TRACE + j]->lw = lvl + 1;
		levels = lvl + 1 > levels ? lvl + 1 : levels;
	}
	/* levels, offsets (counted, then summed), rows by level in loop order */
	off = plan + 1;
	list = plan + levels + 2;
	plan[0] = levels;
	memset(off, 0, ((size_t)levels + 1) * sizeof(uint32_t));
	for (k = 0; k < nm; k++)
		off[pl->level[k] + 1]++;
	for (j = 0; j < levels; j++)
		off[j + 1] += off[j];
	for (n = 0; n < nm; n++)
		list[off[pl->level[order[n]]]++] = order[n];
	for (j = levels; j > 0; j--) /* each offset moved to its level's end: back by one level */
		off[j] = off[j - 1];
	off[0] = 0;
	return levels + 2 + nm;
}
