/*
 * GPU-STM's CPU backend for the workloads whose transactions touch more than
 * 8 words (skiplist: 2 x --levels; memcached: --ways + 1): the same code as stm/gpustm/gpustm_cpu.c, with
 * read and write sets and a lock log of GPUSTM_WIDE_SET words.
 */
/* GCC cannot follow gpustm_tx's set counts through the skiplist body's branches: it takes entries
 * below nr and nw, always written before they are read, for maybe uninitialized. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_WIDE_SET
#include "stm/gpustm/gpustm_skiplist.h"
#include "stm/gpustm/gpustm_memcached.h"
#include "stm/gpustm/gpustm_cpu.h"

STM_CPU_WORKLOAD(gpustm, skiplist, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, memcached, stm_cpu_open);
