/*
 * GPU-STM's CPU backend: the shared algorithm (stm/gpustm/gpustm.h,
 * stm/gpustm/gpustm_sched.h and its step for each workload) on the CPU backend every
 * engine shares (stm/backend/stm_cpu.h), with sets of 8 words. The skiplist's wider
 * sets are built in stm/gpustm/gpustm_cpu_set16.c.
 */
#include "stm/gpustm/gpustm_bank.h"
#include "stm/gpustm/gpustm_engines.h"
#include "stm/gpustm/gpustm_graph.h"
#include "stm/gpustm/gpustm_kmeans.h"
#include "stm/gpustm/gpustm_vacation.h"
#include "stm/gpustm/gpustm_cpu.h"

STM_CPU_WORKLOAD(gpustm, bank, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, vacation, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, kmeans, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, graph, stm_cpu_open);
