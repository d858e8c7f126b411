/*
 * PR-STM's GPU backend: the host side of the kernels in
 * stm/prstm/prstm_gpu_kernel.cuh, on the host code every engine shares
 * (stm/backend/stm_gpu.h). A batch is one launch in which every thread sweeps its
 * block of the transaction table until all of it has committed; a timed run
 * is one launch in which threads sweep round after round until the device
 * clock passes the run's end: no batch tails or launches in between. The lock
 * table, data words and status words live in global memory and are accessed
 * through the PTX loads, stores and atomics of common/port.h (gpu scope, so
 * the non-coherent L1 is bypassed).
 *
 * The kernels are built for set capacities 2, 4, 8, (the skiplist, memcached
 * and graph) 16 and (graph) 32 and 64 (stm/prstm/prstm_gpu.cuh); this file builds the ones for 8 and picks, at
 * open, the smallest capacity that holds every transaction of the table.
 */
#define PRSTM_MAX_SET 8
#define PRSTM_GPU_KERNELS set8
#include "stm/prstm/prstm_gpu_kernel.cuh"

#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/backend/stm_gpu.h"

/*
 * The kernel of the smallest capacity whose sets hold the largest transaction of the table, among those
 * built for workload wl; past all of them, the workload's kernel with the read log, where there is one
 * (the bank, memcached: their long transactions are read-only, and their updates fit the capacity
 * of their set, 8 and 16).
 */
static const prstm_gpu_kernel *kernel_for(const tx_input *in, uint32_t wl)
{
	static const prstm_gpu_kernel *const by_capacity[] = {
		prstm_gpu_kernels_set2,	 prstm_gpu_kernels_set4,  prstm_gpu_kernels_set8,
		prstm_gpu_kernels_set16, prstm_gpu_kernels_set32, prstm_gpu_kernels_set64,
	};
	const prstm_gpu_kernel *last = NULL;
	uint32_t k;

	for (k = 0; k < sizeof(by_capacity) / sizeof(by_capacity[0]); k++) {
		const prstm_gpu_kernel *c = &by_capacity[k][wl];
		if (!c->fn)
			continue;
		last = c;
		if (in->max_words <= c->capacity)
			return c;
	}
	if (prstm_gpu_kernels_long[wl].fn)
		return &prstm_gpu_kernels_long[wl];
	if (prstm_gpu_kernels_long16[wl].fn)
		return &prstm_gpu_kernels_long16[wl];
	return last;
}

/* Open the shared context for workload wl's kernel, with the read log when that kernel has one. */
static void *open_kernel(const tx_input *in, const stm_params *p, uint32_t wl)
{
	const prstm_gpu_kernel *k = kernel_for(in, wl);
	stm_gpu *g = stm_gpu_open(in, p, k->fn, k->name);
	char what[160];

	if (k->long_reads) {
		/* every thread's reads past its set, an address and a version each */
		g->engine_words = prstm_read_log_cap(in->max_words, k->capacity);
		snprintf(what, sizeof(what), "PR-STM's read log (%u threads x %u reads past the set, 8 bytes each)",
			 p->threads, g->engine_words);
		g->d_engine = gb_cuda_alloc(prstm_read_log_words(g->engine_words, p->threads) * sizeof(uint32_t), what);
	}
	return g;
}

static void run(void *vctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	stm_gpu *g = (stm_gpu *)vctx;
	prstm_kernel_args a;
	void *args[] = {&a};

	memset(&a, 0, sizeof(a));
	a.m.locks = g->d_locks;
	a.m.data = g->d_data;
	a.m.hash = g->p.hash;
	if (g->d_engine)
		prstm_read_log_attach(&a.m, (uint32_t *)g->d_engine, g->engine_words, g->p.threads, 1);
	a.v = stm_gpu_table(g);
	a.p = g->p;
	a.timeout_ns = timeout_ns;
	a.run_ns = run_ns;
	a.sh = g->d_shared;
	a.out = g->d_counters;
	stm_gpu_launch(g, args, run_ns, r);
}

/* Each workload's ops (prstm_bank_gpu_ops, ...), which the engine registry lists. */
#define PRSTM_GPU_OPS(name, set, sizes, long_reads)                                                        \
	static void *name##_open(const tx_input *in, const stm_params *p)                                  \
	{                                                                                                   \
		return open_kernel(in, p, STM_WORKLOAD_##name);                                             \
	}                                                                                                   \
	extern "C" const stm_ops prstm_##name##_gpu_ops = {                                                 \
		name##_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, \
		NULL,                                                                                       \
	};
STM_WORKLOADS(PRSTM_GPU_OPS)
