/*
 * gpustm-local's CPU backend for the workloads of sizes `huge` in workloads/stm/list.h
 * (graph, whose paper's transaction sends a vertex's value to all its
 * neighbours): the same code as stm/gpustm/gpustm_local_cpu.c, with read and write
 * sets and a lock log of GPUSTM_HUGE_SET words, opened by the 16-word unit
 * (stm/gpustm/gpustm_local_cpu_set16.c) when a table's transactions outgrow it.
 */
/* as stm/gpustm/gpustm_cpu_set16.c: GCC takes set entries below nr and nw for maybe uninitialized */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_HUGE_SET
#define GPUSTM_LOCAL_LOGS 1
#include "stm/gpustm/gpustm_cpu.h"

GPUSTM_CPU_HUGE_UNIT()
