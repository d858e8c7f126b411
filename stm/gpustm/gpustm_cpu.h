/*
 * What GPU-STM's CPU backend gives the CPU backend every engine shares
 * (stm/backend/stm_cpu.h) for each of its logical threads: the scheduler's init,
 * wait and totals. Included by each translation unit of GPU-STM's CPU
 * backend (stm/gpustm/gpustm_cpu.c for sets of 8 words, stm/gpustm/gpustm_cpu_set16.c for
 * GPUSTM_WIDE_SET), after the workloads' instantiation headers;
 * STM_CPU_WORKLOAD then makes each workload's ops.
 */
#ifndef GB_GPUSTM_CPU_H
#define GB_GPUSTM_CPU_H

#include "stm/gpustm/gpustm_sched.h"
#include "stm/backend/stm_cpu.h"

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

#endif
