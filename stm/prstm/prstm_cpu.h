/*
 * What PR-STM's CPU backend gives the CPU backend every engine shares
 * (stm/backend/stm_cpu.h) for each of its logical threads: the scheduler's init,
 * wait and totals, and the open that sets the attempt time limit. Included by
 * each translation unit of PR-STM's CPU backend (stm/prstm/prstm_cpu.c for sets of
 * 8 words, stm/prstm/prstm_cpu_set16.c for PRSTM_WIDE_SET), after the workloads'
 * instantiation headers; STM_CPU_WORKLOAD then makes each workload's ops.
 */
#ifndef GB_PRSTM_CPU_H
#define GB_PRSTM_CPU_H

#include "stm/prstm/prstm_sched.h"
#include "stm/backend/stm_cpu.h"

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
 * commits on one lock and find its version again (stm/prstm/prstm.h): an attempt
 * whose first transactional read is older than 20 us at validation aborts.
 * Without preemption the reads and the validation of an attempt take about a
 * microsecond, and 2048 commits through one lock's cache line take far longer
 * than 20 us.
 */
static void *open_with(const tx_input *in, const stm_params *p, const stm_cpu_threads *threads)
{
	stm_cpu *c = stm_cpu_open(in, p, threads);
	c->p.window_cycles = (uint64_t)(20000.0 * c->cycles_per_ns);
	return c;
}

#endif
