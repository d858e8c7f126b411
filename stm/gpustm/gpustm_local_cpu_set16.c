/*
 * gpustm-local's CPU backend for the workloads whose transactions touch more
 * than 8 words: stm/gpustm/gpustm_cpu_set16.c with each attempt's log in
 * thread-local memory (GPUSTM_LOCAL_LOGS, stm/gpustm/gpustm.h).
 */
/* As in stm/gpustm/gpustm_cpu_set16.c: entries below nr and nw are always written before they are read. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_WIDE_SET
#define GPUSTM_LOCAL_LOGS 1
#include "stm/gpustm/gpustm_cpu.h"

#define GPUSTM_CPU_SET_8 0
#define GPUSTM_CPU_SET_16 1
GPUSTM_CPU_UNIT()
