/*
 * PR-STM's CPU backend: the shared algorithm (stm/prstm/prstm.h, stm/prstm/prstm_sched.h
 * and its step for each workload) on the CPU backend every engine shares
 * (stm/backend/stm_cpu.h), with sets of 8 words. The skiplist's wider sets are built
 * in stm/prstm/prstm_cpu_set16.c, the bank's inquiries past 8 accounts run on
 * stm/prstm/prstm_cpu_long.c.
 */
#include "stm/prstm/prstm_bank.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/prstm/prstm_graph.h"
#include "stm/prstm/prstm_kmeans.h"
#include "stm/prstm/prstm_vacation.h"
#include "stm/prstm/prstm_cpu.h"

/* An inquiry past 8 accounts: the build with the read log. */
static void *open_bank(const tx_input *in, const stm_params *p, const stm_cpu_threads *threads)
{
	return in->max_words > PRSTM_MAX_SET ? prstm_bank_long_cpu_open(in, p) : open_with(in, p, threads);
}

STM_CPU_WORKLOAD(prstm, bank, open_bank);
STM_CPU_WORKLOAD(prstm, vacation, open_with);
STM_CPU_WORKLOAD(prstm, kmeans, open_with);
STM_CPU_WORKLOAD(prstm, graph, open_with);
