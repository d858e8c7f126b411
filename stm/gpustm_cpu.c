/*
 * GPU-STM's CPU backend: the shared algorithm (stm/gpustm.h,
 * stm/gpustm_sched.h and its step for each workload) on the CPU backend every
 * engine shares (stm/stm_cpu.h).
 */
#include "stm/gpustm_bank.h"
#include "stm/gpustm_engines.h"
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

/*
 * One workload's CPU backend: its step behind the shared workers, and the
 * stm_ops the registry lists (gpustm_bank_cpu_ops, ...).
 */
#define GPUSTM_CPU_WORKLOAD(wl)                                                       \
	static uint32_t wl##_step(void *t, stm_cpu *c)                                \
	{                                                                             \
		gpustm_mem m = {c->locks, c->data, c->p.hash};                        \
		return gpustm_##wl##_step(t, &m, &c->table, &c->p, &c->shared);      \
	}                                                                             \
	static const stm_cpu_threads wl##_threads = {                                 \
		.size = sizeof(gpustm_sched),                                         \
		.init = thread_init,                                                  \
		.step = wl##_step,                                                    \
		.wait_ns = thread_wait_ns,                                            \
		.totals = thread_totals,                                              \
	};                                                                            \
	static void *wl##_open(const tx_input *in, const stm_params *p)              \
	{                                                                             \
		return stm_cpu_open(in, p, &wl##_threads);                            \
	}                                                                             \
	const stm_ops gpustm_##wl##_cpu_ops = {                                       \
		.open = wl##_open,                                                    \
		.load = stm_cpu_load,                                                 \
		.run = stm_cpu_run,                                                   \
		.rounds_ok = stm_cpu_rounds_ok,                                       \
		.fetch = stm_cpu_fetch,                                               \
		.close = stm_cpu_close,                                               \
	}

GPUSTM_CPU_WORKLOAD(bank);
GPUSTM_CPU_WORKLOAD(vacation);
