/*
 * What PR-STM's CPU backend gives the CPU backend every engine shares
 * (stm/backend/stm_cpu.h) for each of its logical threads: the scheduler's init,
 * wait and totals, and the opens that set the attempt time limit. Included by
 * each translation unit of PR-STM's CPU backend (stm/prstm/prstm_cpu.c for sets of
 * 8 words, stm/prstm/prstm_cpu_set16.c for PRSTM_WIDE_SET, stm/prstm/prstm_cpu_set64.c for
 * PRSTM_HUGE_SET, stm/prstm/prstm_cpu_long.c and
 * stm/prstm/prstm_cpu_long16.c with the read log); PRSTM_CPU_UNIT then makes the ops of the workloads of
 * workloads/stm/list.h whose set is the unit's.
 */
#ifndef GB_PRSTM_CPU_H
#define GB_PRSTM_CPU_H

#include "stm/prstm/prstm_engines.h"
#include "stm/prstm/prstm_step.h"
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
 * whose first transactional read is older than 20 us at validation aborts,
 * unless fewer than 2048 commits (those counted since it started and one in
 * flight a worker) can have happened since (prstm_versions_held), which holds
 * within a second: the 32-bit counter takes longer than that to wrap. Without
 * preemption the reads and the validation of an attempt take about a
 * microsecond, and 2048 commits through one lock's cache line take far longer
 * than 20 us.
 */
static inline void *open_with(uint32_t wl, const tx_input *in, const stm_params *p, const stm_cpu_threads *threads)
{
	stm_cpu *c = stm_cpu_open(in, p, threads);
	prstm_params *pr = prstm_params_rw(&c->p);
	(void)wl;
	pr->window_cycles = (uint64_t)(20000.0 * c->cycles_per_ns);
	pr->counted_cycles = (uint64_t)(1e9 * c->cycles_per_ns);
	pr->inflight = c->p.cpu_workers;
	return c;
}

/* A workload whose read-only transactions may outgrow the set (long_reads): past it, the build with the read log. */
static inline void *open_or_long(uint32_t wl, const tx_input *in, const stm_params *p,
				 const stm_cpu_threads *threads)
{
#if PRSTM_MAX_SET == 16
	return in->max_words > PRSTM_MAX_SET ? prstm_long16_cpu_open(wl, in, p) : open_with(wl, in, p, threads);
#else
	return in->max_words > PRSTM_MAX_SET ? prstm_long_cpu_open(wl, in, p) : open_with(wl, in, p, threads);
#endif
}

/*
 * The ops of every workload whose PR-STM capacity (STM_SET_OF, workloads/stm/list.h) is this
 * unit's: a unit defines PRSTM_CPU_SET_8, PRSTM_CPU_SET_16 and PRSTM_CPU_SET_64 as 1 for its
 * capacity and 0 for the others.
 */
#define PRSTM_CPU_OPEN_0 open_with
#define PRSTM_CPU_OPEN_1 open_or_long
#define PRSTM_CPU_OPS(name, set, sizes, long_reads)        \
	GB_STM_IF(GB_STM_CAT(PRSTM_CPU_SET_, STM_SET_OF(set, sizes)))( \
		STM_CPU_WORKLOAD(prstm, name, GB_STM_CAT(PRSTM_CPU_OPEN_, long_reads));)
#define PRSTM_CPU_UNIT() STM_WORKLOADS(PRSTM_CPU_OPS)

#endif
