/*
 * Every workload of `gpubench stm`, once. The registry (stm_workloads.c),
 * the engines' instantiations, their CPU backends' ops, their GPU kernels and
 * the engine registry's runs (stm/registry.c) are all generated from this
 * list, so a new workload is its own files plus two lines here (the #include
 * of its header and its X line) and one in workloads/stm/bodies.h. PR-STM
 * and GPU-STM run every workload of the list; the CSMV family runs those of
 * its own list (stm/csmv/csmv_workloads.h).
 *
 *   X(name, set, sizes, long_reads)
 *
 * name        its files are workloads/stm/NAME.h (with NAME_load_entry),
 *             NAME_body.h (TX_NAME(NAME_body), api/tx.h) and its registry entry
 *             is stm_workload_NAME
 * set         the most distinct words one transaction may touch in the builds
 *             of PR-STM and GPU-STM that run it: 8, or 16 for workloads whose
 *             transactions grow with an option or the data (skiplist: 2 x
 *             --levels; memcached: a SET of the paper's layout, 14 words;
 *             graph: 1 + the largest degree, all of a vertex's neighbours); the
 *             CPU backends build exactly this capacity and the registry reports
 *             it; PR-STM's and GPU-STM's builds hold 64 for a workload of sizes
 *             `huge` (STM_SET_OF), the smallest build that holds a table picked
 *             at open
 * sizes       which of PR-STM's GPU capacities (2, 4, 8, 16, 32, 64: the
 *             smallest that holds the table's largest transaction runs,
 *             stm/prstm/prstm_gpu.cuh) are built for it: narrow (2 to 8), wide
 *             (8 and 16: transactions of 5 words and more), any (2 to 16), huge
 *             (2 to 64 on PR-STM's GPU, 64 on its CPU backend, 16 and 64 on
 *             GPU-STM's backends: graph, whose paper's transaction touches 1 +
 *             a vertex's degree, past 40 on its graph)
 * long_reads  1: its read-only transactions may read more words than any set
 *             (the bank's inquiries, memcached's GETs), which PR-STM logs in
 *             memory (stm/prstm/prstm.h, "Long reads"); 0: they never do
 *
 * A macro passed as X names its parameters apart from the fields it
 * initializes: a parameter `long_reads` would turn `.long_reads = ...` into
 * `.1 = ...`, an error the compiler reports at this list's lines.
 */
#ifndef GB_STM_WORKLOAD_LIST_H
#define GB_STM_WORKLOAD_LIST_H

#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"
#include "workloads/stm/bank.h"
#include "workloads/stm/graph.h"
#include "workloads/stm/kmeans.h"
#include "workloads/stm/memcached.h"
#include "workloads/stm/skiplist.h"
#include "workloads/stm/vacation.h"

#define STM_WORKLOADS(X)                  \
	X(bank, 8, narrow, 1)             \
	X(vacation, 8, narrow, 0)         \
	X(skiplist, 16, any, 0)           \
	X(kmeans, 8, narrow, 0)           \
	X(graph, 16, huge, 0)             \
	X(memcached, 16, wide, 1)

/* A workload's index in the list: STM_WORKLOAD_bank, ... */
#define STM_WORKLOAD_ID(name, set, sizes, long_reads) STM_WORKLOAD_##name,
enum stm_workload_id { STM_WORKLOADS(STM_WORKLOAD_ID) STM_NWORKLOADS };
#undef STM_WORKLOAD_ID

/*
 * Copy entry i of workload wl's table into a tx_entry. An engine's step calls
 * it with wl a constant of its kernel or CPU thread, so each instance keeps
 * only its own workload's copy.
 */
GB_HD void stm_load_entry(uint32_t wl, const tx_table *t, uint32_t i, tx_entry *out)
{
	switch (wl) {
#define STM_LOAD_CASE(name, set, sizes, long_reads) \
	case STM_WORKLOAD_##name:                   \
		name##_load_entry(t, i, out);       \
		return;
		STM_WORKLOADS(STM_LOAD_CASE)
#undef STM_LOAD_CASE
	}
}

/* The capacity PR-STM's and GPU-STM's builds hold for a workload of set `set` and sizes `sizes`:
 * 64 for huge (graph), else its set. */
#define STM_SET_OF(set, sizes) GB_STM_CAT(STM_SET_OF_, sizes)(set)
#define STM_SET_OF_narrow(set) set
#define STM_SET_OF_wide(set) set
#define STM_SET_OF_any(set) set
#define STM_SET_OF_huge(set) 64
/* 1 for a workload of sizes `huge`, whose 16-word builds open a 64-word one when a table needs it */
#define STM_HUGE(sizes) GB_STM_CAT(STM_HUGE_, sizes)
#define STM_HUGE_narrow 0
#define STM_HUGE_wide 0
#define STM_HUGE_any 0
#define STM_HUGE_huge 1

/* Token helpers for the generated code: GB_STM_IF(c)(code) keeps code when c is 1. */
#define GB_STM_CAT2(a, b) a##b
#define GB_STM_CAT(a, b) GB_STM_CAT2(a, b)
#define GB_STM_IF_1(...) __VA_ARGS__
#define GB_STM_IF_0(...)
#define GB_STM_IF(c) GB_STM_CAT(GB_STM_IF_, c)

#endif
