/*
 * PR-STM's CPU backend: the shared algorithm (stm/prstm/prstm.h,
 * stm/prstm/prstm_sched.h and its step) on the CPU backend every engine
 * shares (stm/backend/stm_cpu.h), with sets of 8 words, for the workloads of
 * workloads/stm/list.h whose set is 8. Those of 16 are built in
 * stm/prstm/prstm_cpu_set16.c; read-only transactions past the set run on
 * stm/prstm/prstm_cpu_long.c.
 */
#include "stm/prstm/prstm_cpu.h"

#define PRSTM_CPU_SET_8 1
#define PRSTM_CPU_SET_16 0
#define PRSTM_CPU_SET_64 0
PRSTM_CPU_UNIT()
