/*
 * PR-STM's GPU kernel for one read/write set capacity (stm/prstm_gpu.cuh says
 * why there are several). A translation unit defines PRSTM_MAX_SET,
 * PRSTM_GPU_KERNEL (the kernel's name) and PRSTM_GPU_ENTRY (its
 * prstm_gpu_kernel entry), then includes this file once.
 *
 * One CUDA thread per logical thread, each running the shared scheduler
 * (stm/prstm_bank.h) over its block of the transaction table until done, or
 * in a timed run round after round until the device clock passes the run's
 * end. Per-thread counters are reduced in shared memory and added to the batch
 * totals once per block, after the transactional work.
 */
#if !defined(PRSTM_MAX_SET) || !defined(PRSTM_GPU_KERNEL) || !defined(PRSTM_GPU_ENTRY)
#error "define PRSTM_MAX_SET, PRSTM_GPU_KERNEL and PRSTM_GPU_ENTRY before including stm/prstm_gpu_kernel.cuh"
#endif

#include <stddef.h>

#include "stm/prstm_bank.h"
#include "stm/prstm_gpu.cuh"

/* The kernel sums the counters as an array of 64-bit words, in field order. */
#define STM_NCOUNTERS 16
#define STM_PASSES_MAX (offsetof(stm_counters, passes_max) / sizeof(uint64_t)) /* a maximum, not a sum */
static_assert(sizeof(stm_counters) == STM_NCOUNTERS * sizeof(uint64_t), "stm_counters layout");

__global__ void PRSTM_GPU_KERNEL(prstm_kernel_args a)
{
	const prstm_mem m = a.m;
	bank_view v = a.v;
	const stm_params p = a.p;
	stm_shared *sh = a.sh;
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	if (threadIdx.x < STM_NCOUNTERS)
		sum[threadIdx.x] = 0;
	__syncthreads();
	/* The lanes of a warp step together, one attempt (or wait) each, so a
	 * warp sleeps only when all its running lanes wait: a sleeping lane never
	 * delays a lane of its warp that holds locks or a read set. */
	unsigned live = __ballot_sync(0xFFFFFFFFu, tid < p.threads);
	if (tid < p.threads) {
		prstm_sched s;
		int running = 1;
		prstm_sched_init(&s, tid, &v, &p, a.timeout_ns, a.run_ns, sh, gb_clock_ns());
		for (;;) {
			unsigned wait = 0;
			if (running) {
				running = prstm_bank_step(&s, &m, &v, &p, sh) == STM_RUNNING;
				wait = running && s.wait_ns ? (unsigned)(s.wait_ns < 1000000u ? s.wait_ns : 1000000u) : 0;
			}
			if (!__any_sync(live, running))
				break;
			if (__all_sync(live, !running || wait))
				__nanosleep(__reduce_min_sync(live, running ? wait : 0xFFFFFFFFu));
		}
		stm_counters t = prstm_thread_totals(&s);
		const uint64_t *w = (const uint64_t *)&t;
		int k;
		for (k = 0; k < STM_NCOUNTERS; k++)
			if (k == STM_PASSES_MAX)
				atomicMax(&sum[k], (unsigned long long)w[k]);
			else if (w[k])
				atomicAdd(&sum[k], (unsigned long long)w[k]);
	}
	__syncthreads();
	if (threadIdx.x < STM_NCOUNTERS && sum[threadIdx.x]) {
		unsigned long long *o = (unsigned long long *)a.out;
		if (threadIdx.x == STM_PASSES_MAX)
			atomicMax(&o[threadIdx.x], sum[threadIdx.x]);
		else
			atomicAdd(&o[threadIdx.x], sum[threadIdx.x]);
	}
}

#define PRSTM_STR2(x) #x
#define PRSTM_STR(x) PRSTM_STR2(x)
extern const prstm_gpu_kernel PRSTM_GPU_ENTRY = {
	.capacity = PRSTM_MAX_SET,
	.fn = (const void *)PRSTM_GPU_KERNEL,
	.name = PRSTM_STR(PRSTM_GPU_KERNEL),
};
