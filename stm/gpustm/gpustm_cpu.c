/*
 * gpustm's CPU backend: the shared algorithm (stm/gpustm/gpustm.h,
 * stm/gpustm/gpustm_sched.h and its step), each thread's log its record of
 * the pool in memory shared by all, on the CPU backend every engine shares
 * (stm/backend/stm_cpu.h), with sets of 8 words, for the workloads of
 * workloads/stm/list.h whose set is 8. Those of 16 are built in
 * stm/gpustm/gpustm_cpu_set16.c; gpustm-local's in stm/gpustm/gpustm_local_cpu.c.
 */
#include "stm/gpustm/gpustm_cpu.h"

#define GPUSTM_CPU_SET_8 1
#define GPUSTM_CPU_SET_16 0
GPUSTM_CPU_UNIT()
