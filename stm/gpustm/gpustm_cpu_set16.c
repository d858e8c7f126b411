/*
 * GPU-STM's CPU backend for the workloads whose transactions touch more than
 * 8 words (set 16 in workloads/stm/list.h; skiplist: 2 x --levels; memcached:
 * --ways + 1): the same code as stm/gpustm/gpustm_cpu.c, with read and write
 * sets and a lock log of GPUSTM_WIDE_SET words.
 */
/* GCC cannot follow gpustm_tx's set counts through the skiplist body's branches: it takes entries
 * below nr and nw, always written before they are read, for maybe uninitialized. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_WIDE_SET
#include "stm/gpustm/gpustm_cpu.h"

#define GPUSTM_CPU_SET_8 0
#define GPUSTM_CPU_SET_16 1
GPUSTM_CPU_UNIT()
