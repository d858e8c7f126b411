/*
 * PR-STM's CPU backend: the shared algorithm (stm/prstm.h, stm/prstm_sched.h
 * and its step for each workload) on the CPU backend every engine shares
 * (stm/stm_cpu.h).
 */
#include "stm/prstm_bank.h"
#include "stm/prstm_engines.h"
#include "stm/prstm_graph.h"
#include "stm/prstm_kmeans.h"
#include "stm/prstm_vacation.h"
#include "stm/stm_cpu.h"

static void thread_init(void *t, uint32_t tid, stm_cpu *c, uint64_t now_ns)
{
	prstm_sched_init(t, tid, &c->table, &c->p, c->timeout_ns, c->run_ns, &c->shared, now_ns);
}

static uint64_t thread_wait_ns(const void *t)
{
	return ((const prstm_sched *)t)->wait_ns;
}

static stm_counters thread_totals(const void *t)
{
	return prstm_thread_totals(t);
}

/*
 * A worker preempted in the middle of a transaction can sleep through 2048
 * commits on one lock and find its version again (stm/prstm.h): an attempt
 * older than 20 us at validation aborts. Without preemption an attempt takes
 * about a microsecond, and 2048 commits through one lock's cache line take
 * far longer than 20 us.
 */
static void *open_with(const tx_input *in, const stm_params *p, const stm_cpu_threads *threads)
{
	stm_cpu *c = stm_cpu_open(in, p, threads);
	c->p.window_cycles = (uint64_t)(20000.0 * c->cycles_per_ns);
	return c;
}

STM_CPU_WORKLOAD(prstm, bank, open_with);
STM_CPU_WORKLOAD(prstm, vacation, open_with);
STM_CPU_WORKLOAD(prstm, kmeans, open_with);
STM_CPU_WORKLOAD(prstm, graph, open_with);
