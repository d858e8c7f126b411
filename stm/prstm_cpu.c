/*
 * PR-STM's CPU backend: the shared algorithm (stm/prstm.h, stm/prstm_sched.h
 * and its step for each workload) on the CPU backend every engine shares
 * (stm/stm_cpu.h), with sets of 8 words. The skiplist's wider sets are built
 * in stm/prstm_cpu_set16.c.
 */
#include "stm/prstm_bank.h"
#include "stm/prstm_engines.h"
#include "stm/prstm_graph.h"
#include "stm/prstm_kmeans.h"
#include "stm/prstm_vacation.h"
#include "stm/prstm_cpu.h"

STM_CPU_WORKLOAD(prstm, bank, open_with);
STM_CPU_WORKLOAD(prstm, vacation, open_with);
STM_CPU_WORKLOAD(prstm, kmeans, open_with);
STM_CPU_WORKLOAD(prstm, graph, open_with);
