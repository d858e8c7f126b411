/*
 * GPU-STM's CPU backend: the shared algorithm (stm/gpustm.h,
 * stm/gpustm_sched.h and its step for each workload) on the CPU backend every
 * engine shares (stm/stm_cpu.h).
 */
#include "stm/gpustm_bank.h"
#include "stm/gpustm_engines.h"
#include "stm/gpustm_graph.h"
#include "stm/gpustm_kmeans.h"
#include "stm/gpustm_vacation.h"
#include "stm/stm_cpu.h"

static void thread_init(void *t, uint32_t tid, stm_cpu *c, uint64_t now_ns)
{
	gpustm_sched_init(t, tid, &c->table, c->timeout_ns, &c->shared, now_ns);
}

static uint64_t thread_wait_ns(const void *t)
{
	(void)t;
	return 0; /* GPU-STM retries at once: a thread never waits */
}

static stm_counters thread_totals(const void *t)
{
	return gpustm_thread_totals(t);
}

STM_CPU_WORKLOAD(gpustm, bank, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, vacation, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, kmeans, stm_cpu_open);
STM_CPU_WORKLOAD(gpustm, graph, stm_cpu_open);
