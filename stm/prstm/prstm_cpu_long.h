/*
 * PR-STM's CPU backend with the read log (stm/prstm/prstm.h, "Long reads"): sets of
 * PRSTM_MAX_SET words and the reads past them logged in a slot of each worker, for
 * the read-only transactions longer than any set (the bank's inquiries past 8
 * accounts, memcached's GETs). Included by one unit per capacity,
 * stm/prstm/prstm_cpu_long.c (8: the bank) and stm/prstm/prstm_cpu_long16.c (16:
 * memcached, whose PUT writes 14 words in the paper's layout), each for the
 * workloads with long_reads whose set is its capacity; stm/prstm/prstm_cpu.c and
 * stm/prstm/prstm_cpu_set16.c open them when a table's transactions outgrow their
 * sets, as the GPU backend picks stm/prstm/prstm_gpu_long.cu's and
 * stm/prstm/prstm_gpu_long16.cu's kernels. The including unit defines
 * PRSTM_MAX_SET, PRSTM_CPU_SET_8, PRSTM_CPU_SET_16 and PRSTM_CPU_SET_64 (1 for
 * its capacity, 0 for the others) and PRSTM_LONG_OPEN, the name of its open.
 */
#ifndef GB_PRSTM_CPU_LONG_H
#define GB_PRSTM_CPU_LONG_H

#include "common/error.h"
#define PRSTM_LONG_READS 1
#include "stm/prstm/prstm_cpu.h"

/* The read log: a slot of engine_words entries per worker (one attempt at a time each). */
static void long_mem(prstm_mem *m, stm_cpu *c)
{
	STM_CPU_MEM_PLAIN(m, c);
	prstm_read_log_attach(m, (uint32_t *)c->engine, c->engine_words, c->p.cpu_workers, 0);
}

/* The logical threads of each workload with long_reads whose set is this unit's, by workload. */
#define PRSTM_LONG_BUILT(set, sizes, long_reads) \
	GB_STM_CAT(GB_STM_CAT(PRSTM_LONG_BUILT_, long_reads), GB_STM_CAT(PRSTM_CPU_SET_, STM_SET_OF(set, sizes)))
#define PRSTM_LONG_BUILT_00 0
#define PRSTM_LONG_BUILT_01 0
#define PRSTM_LONG_BUILT_10 0
#define PRSTM_LONG_BUILT_11 1
#define PRSTM_LONG_THREADS(name, set, sizes, long_reads) \
	GB_STM_IF(PRSTM_LONG_BUILT(set, sizes, long_reads))(STM_CPU_THREADS(prstm, name, name##_long_threads, long_mem);)
STM_WORKLOADS(PRSTM_LONG_THREADS)
#define PRSTM_LONG_ENTRY_1(name) &name##_long_threads,
#define PRSTM_LONG_ENTRY_0(name) NULL,
#define PRSTM_LONG_ENTRY(name, set, sizes, long_reads) \
	GB_STM_CAT(PRSTM_LONG_ENTRY_, PRSTM_LONG_BUILT(set, sizes, long_reads))(name)
static const stm_cpu_threads *const long_threads[STM_NWORKLOADS] = {STM_WORKLOADS(PRSTM_LONG_ENTRY)};

/*
 * The attempt time limit of open_with (stm/prstm/prstm_cpu.h) guards the 11-bit
 * versions against a worker preempted for 2048 commits on one lock; it is 20
 * us for transactions of a few words. A long read takes about 5 ns a word
 * here (a lock load, a value load, two stores to the log), so the limit grows
 * by 20 ns a word past the set, up to 200 us: 2048 commits on one lock move
 * its cache line between cores three times each (pre-lock, lock, release),
 * far longer than that. A read that takes longer still commits when the
 * commits counted since it started prove its versions (open_with): alone, or
 * while few others commit.
 */
void *PRSTM_LONG_OPEN(uint32_t wl, const tx_input *in, const stm_params *p)
{
	stm_cpu *c;
	uint32_t past = prstm_read_log_cap(in->max_words, PRSTM_MAX_SET);
	double limit_ns = 20000.0 + 20.0 * past;

	if (!long_threads[wl])
		gb_die(GB_EXIT_RUNTIME, "PR-STM's CPU build with the read log at capacity %u has no workload %u",
		       (unsigned)PRSTM_MAX_SET, (unsigned)wl);
	c = open_with(wl, in, p, long_threads[wl]);
	c->engine_words = past;
	c->engine = gb_xcalloc(prstm_read_log_words(past, p->cpu_workers), sizeof(uint32_t), "PR-STM's read log");
	if (limit_ns > 200000.0)
		limit_ns = 200000.0;
	prstm_params_rw(&c->p)->window_cycles = (uint64_t)(limit_ns * c->cycles_per_ns);
	return c;
}

#endif
