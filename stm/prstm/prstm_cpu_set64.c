/*
 * PR-STM's CPU backend for the workloads of sizes `huge` in workloads/stm/list.h
 * (graph, whose paper's transaction sends a vertex's value to all its
 * neighbours: 1 + its degree words, past 40 on the paper's graph): the same code
 * as stm/prstm/prstm_cpu.c, with read, write and lock sets of PRSTM_HUGE_SET
 * words and 64-bit masks over them (stm/prstm/prstm.h, prstm_mask).
 */
/* as stm/prstm/prstm_cpu_set16.c: GCC takes set entries below nr and nw for maybe uninitialized */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET PRSTM_HUGE_SET
#include "stm/prstm/prstm_cpu.h"

#define PRSTM_CPU_SET_8 0
#define PRSTM_CPU_SET_16 0
#define PRSTM_CPU_SET_64 1
PRSTM_CPU_UNIT()
