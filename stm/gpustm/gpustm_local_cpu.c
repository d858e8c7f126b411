/*
 * gpustm-local's CPU backend: stm/gpustm/gpustm_cpu.c with each attempt's log
 * in thread-local memory (GPUSTM_LOCAL_LOGS, stm/gpustm/gpustm.h), sets of 8
 * words. Those of 16 are built in stm/gpustm/gpustm_local_cpu_set16.c.
 */
#define GPUSTM_LOCAL_LOGS 1
#include "stm/gpustm/gpustm_cpu.h"

#define GPUSTM_CPU_SET_8 1
#define GPUSTM_CPU_SET_16 0
GPUSTM_CPU_UNIT()
