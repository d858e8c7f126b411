/*
 * The replay plan of a memory loop kept on the device (speculation/check.h
 * describes the rows it reads and the plan it writes; speculation/runtime.c
 * when it is used): the misspeculated iterations of an assignment put in
 * dependence levels, so that the device re-executes each level's iterations
 * at once and the levels in order, which is the in-order re-execution of
 * section 5 of Feng, Gupta and Bhuyan.
 */
#ifndef GB_SPEC_REPLAY_H
#define GB_SPEC_REPLAY_H

#include <stddef.h>
#include <stdint.h>

/* The planner's memory, for assignments of up to max_rows misspeculated iterations. */
typedef struct sp_planner {
	uint32_t *level;             /* per row: its level */
	uint32_t *order, *spare;     /* row indices in loop order, and the radix sort's other buffer */
	struct sp_plan_elem *elem;   /* the plan's elements, an open-addressing table */
	size_t elem_cap;             /* its entries, a power of two */
} sp_planner;

/* Memory for plans of up to max_rows rows of trace elements each, over an array of size
 * elements; touched now (allocation is not timed). */
void sp_planner_init(sp_planner *pl, uint32_t max_rows, uint32_t size, uint32_t trace);
void sp_planner_free(sp_planner *pl);

/*
 * The plan for the nm rows (SP_ROW_WORDS(maxrd, maxwr) words each, in any
 * order) of the misspeculated iterations of the assignment of count
 * iterations at start: each iteration, in loop order, one level after every
 * earlier one that wrote an element it reads or writes or read an element it
 * writes. Writes plan (the number of levels L, L + 1 offsets, then the rows'
 * indices level by level, in loop order within a level) and returns its words.
 */
uint32_t sp_replay_plan(sp_planner *pl, const uint32_t *rows, uint32_t maxrd, uint32_t maxwr,
			uint32_t start, uint32_t count, uint32_t nm, uint32_t *plan);

#endif
