/*
 * GPU-STM's kernel body and launch, shared by the translation units of the
 * GPU backends of gpustm (stm/gpustm/gpustm_gpu.cu for sets of 8 words,
 * stm/gpustm/gpustm_gpu_set16.cu for GPUSTM_WIDE_SET) and gpustm-local
 * (stm/gpustm/gpustm_local_gpu.cu, stm/gpustm/gpustm_local_gpu_set16.cu). A
 * unit defines GPUSTM_MAX_SET when it builds another capacity than 8, and
 * GPUSTM_LOCAL_LOGS as 1 for gpustm-local, includes this file once, defines GPUSTM_GPU_SET_8 and
 * GPUSTM_GPU_SET_16 (1 for its capacity, 0 for the other) and expands
 * GPUSTM_GPU_UNIT(): a kernel and its ops for each workload of
 * workloads/stm/list.h whose set is the unit's, each calling
 * gpustm_kernel_body with its workload's constant (so each keeps only its own
 * step).
 *
 * One CUDA thread per logical thread, each running the shared scheduler
 * (stm/gpustm/gpustm_sched.h, with its step for the kernel's workload) over its
 * block of the transaction table until done. The lock table, data words and
 * status words live in global memory (stm/backend/stm_gpu.h) and are accessed
 * through the PTX loads, stores and atomics of common/port.h. gpustm's logs
 * are there too, a record per thread (the engine's device memory, d_engine),
 * each read and written by its thread alone with plain loads and stores;
 * gpustm-local's are the step's own. Per-thread counters are summed per block
 * (stm/backend/stm_gpu.cuh).
 */
#ifndef GB_GPUSTM_GPU_KERNEL_CUH
#define GB_GPUSTM_GPU_KERNEL_CUH

#include <stdio.h>

#include "common/cuda_check.h"
#include "stm/gpustm/gpustm_step.h"
#include "stm/backend/stm_gpu.cuh"
#include "stm/backend/stm_gpu.h"

/* One kernel's work, for the workload it was compiled for. */
__device__ __forceinline__ void gpustm_kernel_body(uint32_t workload, gpustm_mem m, tx_table v, stm_params p,
						   uint64_t timeout_ns, stm_shared *sh, stm_counters *out)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	stm_block_counters_clear(sum);
	if (tid < p.threads) {
		gpustm_sched s;
		uint64_t t0 = gb_cycles();
		gpustm_sched_init(&s, tid, &v, timeout_ns, sh, gb_clock_ns());
		while (gpustm_step(workload, &s, &m, &v, &p, sh) == STM_RUNNING)
			;
		stm_counters t = gpustm_thread_totals(&s);
		t.cycles_thread = gb_cycles() - t0;
		stm_block_counters_add(sum, &t);
	}
	stm_block_counters_flush(sum, out);
}

/* GPU-STM runs no timed rounds (stm/gpustm/gpustm_sched.h): run_ns is never set here. */
static void run(void *vctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	stm_gpu *g = (stm_gpu *)vctx;
	gpustm_mem m;
	tx_table v = stm_gpu_table(g);
	void *args[] = {&m, &v, &g->p, &timeout_ns, &g->d_shared, &g->d_counters};

	m.locks = g->d_locks;
	m.data = g->d_data;
	m.hash = g->p.hash;
	m.logs = (gpustm_log *)g->d_engine;
	stm_gpu_launch(g, args, run_ns, r);
}

/* The shared context for a kernel; for gpustm, with the pool of logs in device memory. */
static void *open_kernel(const tx_input *in, const stm_params *p, const void *kernel, const char *kernel_name)
{
	stm_gpu *g = stm_gpu_open(in, p, kernel, kernel_name);
	char what[160];

	if (!GPUSTM_LOCAL_LOGS) {
		snprintf(what, sizeof(what), "GPU-STM's logs (%u threads x %u bytes)", p->threads,
			 (unsigned)sizeof(gpustm_log));
		g->d_engine = gb_cuda_alloc((size_t)p->threads * sizeof(gpustm_log), what);
	}
	return g;
}

/*
 * Workload `name`'s kernel and ops (gpustm_bank_kernel, gpustm_bank_gpu_ops; gpustm_local_bank_kernel, ...),
 * when its set is the unit's.
 */
#define GPUSTM_GPU_OPS(name, set, sizes, long_reads)                                                          \
	GB_STM_IF(GB_STM_CAT(GPUSTM_GPU_SET_, set))(                                                          \
		__global__ void GPUSTM_UNIT_ID(name##_kernel)(gpustm_mem m, tx_table v, stm_params p,          \
							      uint64_t timeout_ns, stm_shared *sh,      \
							      stm_counters *out)                        \
		{ gpustm_kernel_body(STM_WORKLOAD_##name, m, v, p, timeout_ns, sh, out); }                     \
		static void *name##_open(const tx_input *in, const stm_params *p)                              \
		{                                                                                              \
			if (STM_HUGE(sizes) && in->max_words > GPUSTM_MAX_SET) /* the 64-word unit's */      \
				return GPUSTM_UNIT_ID(huge_gpu_open)(STM_WORKLOAD_##name, in, p);              \
			return open_kernel(in, p, (const void *)GPUSTM_UNIT_ID(name##_kernel),                 \
					   GPUSTM_UNIT_PREFIX #name "_kernel");                                \
		}                                                                                              \
		extern "C" const stm_ops GPUSTM_UNIT_ID(name##_gpu_ops) = {                                    \
			name##_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close,        \
			stm_gpu_retable, NULL,                                                                 \
		};)
#define GPUSTM_GPU_UNIT() STM_WORKLOADS(GPUSTM_GPU_OPS)

/*
 * The 64-word unit (GPUSTM_MAX_SET GPUSTM_HUGE_SET): a kernel for every workload of sizes `huge`, and
 * the open the 16-word unit calls, GPUSTM_UNIT_ID(huge_gpu_open); the 16-word unit's ops run it.
 */
#define GPUSTM_GPU_HUGE_KERNEL(name, set, sizes, long_reads)                                                  \
	GB_STM_IF(STM_HUGE(sizes))(                                                                           \
		__global__ void GPUSTM_UNIT_ID(name##_kernel64)(gpustm_mem m, tx_table v, stm_params p,        \
								uint64_t timeout_ns, stm_shared *sh,    \
								stm_counters *out)                      \
		{ gpustm_kernel_body(STM_WORKLOAD_##name, m, v, p, timeout_ns, sh, out); })
#define GPUSTM_GPU_HUGE_ENTRY_1(name) {(const void *)GPUSTM_UNIT_ID(name##_kernel64), GPUSTM_UNIT_PREFIX #name "_kernel64"},
#define GPUSTM_GPU_HUGE_ENTRY_0(name) {NULL, NULL},
#define GPUSTM_GPU_HUGE_ENTRY(name, set, sizes, long_reads) \
	GB_STM_CAT(GPUSTM_GPU_HUGE_ENTRY_, STM_HUGE(sizes))(name)
#define GPUSTM_GPU_HUGE_UNIT()                                                                                 \
	STM_WORKLOADS(GPUSTM_GPU_HUGE_KERNEL)                                                                  \
	static const struct {                                                                                  \
		const void *fn;                                                                                \
		const char *name;                                                                              \
	} huge_kernels[STM_NWORKLOADS] = {STM_WORKLOADS(GPUSTM_GPU_HUGE_ENTRY)};                              \
	extern "C" void *GPUSTM_UNIT_ID(huge_gpu_open)(unsigned workload, const tx_input *in, const stm_params *p) \
	{                                                                                                      \
		(void)run; /* the 16-word unit's ops run the kernel opened here, with the same run */          \
		if (workload >= STM_NWORKLOADS || !huge_kernels[workload].fn)                                  \
			gb_die(GB_EXIT_RUNTIME, "GPU-STM's 64-word GPU build has no workload %u", workload);   \
		return open_kernel(in, p, huge_kernels[workload].fn, huge_kernels[workload].name);             \
	}

#endif
