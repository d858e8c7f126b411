/*
 * PR-STM's CPU backend for the workloads whose transactions touch more than
 * 8 words (set 16 in workloads/stm/list.h; skiplist: 2 x --levels; memcached:
 * --ways + 1): the same code as stm/prstm/prstm_cpu.c, with read, write and
 * lock sets of PRSTM_WIDE_SET words.
 */
/* GCC cannot follow prstm_tx's set counts through the skiplist body's branches: it takes entries
 * below nr and nw, always written before they are read, for maybe uninitialized. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET PRSTM_WIDE_SET
#include "stm/prstm/prstm_cpu.h"

#define PRSTM_CPU_SET_8 0
#define PRSTM_CPU_SET_16 1
#define PRSTM_CPU_SET_64 0
PRSTM_CPU_UNIT()
