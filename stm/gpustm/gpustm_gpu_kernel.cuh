/*
 * GPU-STM's kernel body and launch, shared by the translation units of its
 * GPU backend (stm/gpustm/gpustm_gpu.cu for sets of 8 words, stm/gpustm/gpustm_gpu_set16.cu
 * for GPUSTM_WIDE_SET). A unit includes its workloads' instantiation headers,
 * defines gpustm_step(workload, ...) over them, then includes this file once
 * and defines one kernel per workload that calls gpustm_kernel_body with its
 * workload's constant (so each kernel keeps only its own step).
 *
 * One CUDA thread per logical thread, each running the shared scheduler
 * (stm/gpustm/gpustm_sched.h, with its step for the kernel's workload) over its
 * block of the transaction table until done. The lock table, data words and
 * status words live in global memory (stm/backend/stm_gpu.h) and are accessed
 * through the PTX loads, stores and atomics of common/port.h. Per-thread
 * counters are summed per block (stm/backend/stm_gpu.cuh).
 */
#ifndef GB_GPUSTM_GPU_KERNEL_CUH
#define GB_GPUSTM_GPU_KERNEL_CUH

#include "stm/gpustm/gpustm_sched.h"
#include "stm/backend/stm_gpu.cuh"
#include "stm/backend/stm_gpu.h"

/* One kernel's work, for the workload it was compiled for. */
__device__ __forceinline__ void gpustm_kernel_body(int workload, gpustm_mem m, tx_table v, stm_params p,
						   uint64_t timeout_ns, stm_shared *sh, stm_counters *out)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	stm_block_counters_clear(sum);
	if (tid < p.threads) {
		gpustm_sched s;
		gpustm_sched_init(&s, tid, &v, timeout_ns, sh, gb_clock_ns());
		while (gpustm_step(workload, &s, &m, &v, &p, sh) == STM_RUNNING)
			;
		stm_counters t = gpustm_thread_totals(&s);
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
	stm_gpu_launch(g, args, run_ns, r);
}

#endif
