/*
 * What GPU-STM's CPU backend gives the CPU backend every engine shares
 * (stm/backend/stm_cpu.h) for each of its logical threads: the scheduler's init,
 * wait and totals, and for gpustm the pool of logs, a record per logical
 * thread (stm/gpustm/gpustm.h). Included by each translation unit of the CPU
 * backends of gpustm (stm/gpustm/gpustm_cpu.c for sets of 8 words,
 * stm/gpustm/gpustm_cpu_set16.c for GPUSTM_WIDE_SET) and gpustm-local
 * (stm/gpustm/gpustm_local_cpu.c, stm/gpustm/gpustm_local_cpu_set16.c, which
 * define GPUSTM_LOCAL_LOGS as 1 first); GPUSTM_CPU_UNIT then makes the ops of
 * the workloads of workloads/stm/list.h whose set is the unit's.
 */
#ifndef GB_GPUSTM_CPU_H
#define GB_GPUSTM_CPU_H

#include "common/error.h"
#include "stm/gpustm/gpustm_engines.h"
#include "stm/gpustm/gpustm_step.h"
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

/* gpustm's threads keep their logs in the pool the backend holds for the engine; gpustm-local's keep none there. */
static void logs_mem(gpustm_mem *m, stm_cpu *c)
{
	STM_CPU_MEM_PLAIN(m, c);
	m->logs = (gpustm_log *)c->engine;
}

static void *open_with_logs(unsigned workload, const tx_input *in, const stm_params *p,
			    const stm_cpu_threads *threads)
{
	stm_cpu *c = stm_cpu_open(in, p, threads);

	(void)workload;
	if (!GPUSTM_LOCAL_LOGS)
		c->engine = gb_xcalloc(p->threads, sizeof(gpustm_log), "GPU-STM's logs, a record per thread");
	return c;
}

/* A workload of sizes `huge` (workloads/stm/list.h): past this unit's sets, the 64-word unit. */
static inline void *open_or_huge(unsigned workload, const tx_input *in, const stm_params *p,
				 const stm_cpu_threads *threads)
{
	if (in->max_words > GPUSTM_MAX_SET)
		return GPUSTM_UNIT_ID(huge_cpu_open)(workload, in, p);
	return open_with_logs(workload, in, p, threads);
}

/*
 * The ops of every workload whose set is this unit's capacity: a unit defines
 * GPUSTM_CPU_SET_8 and GPUSTM_CPU_SET_16 as 1 for its capacity and 0 for the other.
 * Those of sizes `huge` open the 64-word unit's threads when a table needs them.
 */
#define GPUSTM_CPU_OPEN_0 open_with_logs
#define GPUSTM_CPU_OPEN_1 open_or_huge
#define GPUSTM_CPU_WORKLOAD(name, sizes) \
	STM_CPU_OPS(gpustm, name, GPUSTM_UNIT_ID(name##_cpu_ops), logs_mem, GB_STM_CAT(GPUSTM_CPU_OPEN_, STM_HUGE(sizes)));
#define GPUSTM_CPU_OPS(name, set, sizes, long_reads) \
	GB_STM_IF(GB_STM_CAT(GPUSTM_CPU_SET_, set))(GPUSTM_CPU_WORKLOAD(name, sizes))
#define GPUSTM_CPU_UNIT() STM_WORKLOADS(GPUSTM_CPU_OPS)

/*
 * The 64-word unit (GPUSTM_MAX_SET GPUSTM_HUGE_SET): the threads of every workload of sizes `huge`,
 * and the open the 16-word unit calls, GPUSTM_UNIT_ID(huge_cpu_open).
 */
#define GPUSTM_CPU_HUGE_THREADS(name, set, sizes, long_reads) \
	GB_STM_IF(STM_HUGE(sizes))(STM_CPU_THREADS(gpustm, name, name##_huge_threads, logs_mem);)
#define GPUSTM_CPU_HUGE_ENTRY_1(name) &name##_huge_threads,
#define GPUSTM_CPU_HUGE_ENTRY_0(name) NULL,
#define GPUSTM_CPU_HUGE_ENTRY(name, set, sizes, long_reads) \
	GB_STM_CAT(GPUSTM_CPU_HUGE_ENTRY_, STM_HUGE(sizes))(name)
#define GPUSTM_CPU_HUGE_UNIT()                                                                       \
	STM_WORKLOADS(GPUSTM_CPU_HUGE_THREADS)                                                        \
	static const stm_cpu_threads *const huge_threads[STM_NWORKLOADS] = {                           \
		STM_WORKLOADS(GPUSTM_CPU_HUGE_ENTRY)};                                                \
	void *GPUSTM_UNIT_ID(huge_cpu_open)(unsigned workload, const tx_input *in, const stm_params *p) \
	{                                                                                             \
		if (workload >= STM_NWORKLOADS || !huge_threads[workload])                            \
			gb_die(GB_EXIT_RUNTIME, "GPU-STM's 64-word CPU build has no workload %u", workload); \
		return open_with_logs(workload, in, p, huge_threads[workload]);                       \
	}

#endif
