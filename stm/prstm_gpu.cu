/*
 * PR-STM's GPU backend: one kernel per workload, one CUDA thread per logical
 * thread, each running the shared scheduler (stm/prstm_sched.h, with its step
 * for the kernel's workload) over
 * its block of the transaction table until done, or in a timed run round
 * after round until the device clock passes the run's end: one kernel for the
 * whole run, no batch tails or launches in between. The lock table, data
 * words and status words live in global memory (stm/stm_gpu.h) and are
 * accessed through the PTX loads, stores and atomics of common/port.h (gpu
 * scope, so the non-coherent L1 is bypassed).
 *
 * Per-thread counters are reduced in shared memory and added to the batch
 * totals once per block, after the transactional work (stm/stm_gpu.cuh).
 */
#include "stm/prstm_bank.h"
#include "stm/prstm_engines.h"
#include "stm/prstm_vacation.h"
#include "stm/stm_gpu.cuh"
#include "stm/stm_gpu.h"

/* The workloads PR-STM's kernels run: a constant in each kernel, so each keeps only its own step. */
enum prstm_gpu_workload { PRSTM_GPU_BANK, PRSTM_GPU_VACATION };

__device__ __forceinline__ uint32_t prstm_step(int workload, prstm_sched *s, const prstm_mem *m,
					       const tx_table *v, const stm_params *p, stm_shared *sh)
{
	return workload == PRSTM_GPU_VACATION ? prstm_vacation_step(s, m, v, p, sh)
					      : prstm_bank_step(s, m, v, p, sh);
}

/* One kernel's work, for the workload it was compiled for. */
__device__ __forceinline__ void prstm_kernel_body(int workload, prstm_mem m, tx_table v, stm_params p,
						  uint64_t timeout_ns, uint64_t run_ns, stm_shared *sh,
						  stm_counters *out)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	stm_block_counters_clear(sum);
	/* The lanes of a warp step together, one attempt (or wait) each, so a
	 * warp sleeps only when all its running lanes wait: a sleeping lane never
	 * delays a lane of its warp that holds locks or a read set. */
	unsigned live = __ballot_sync(0xFFFFFFFFu, tid < p.threads);
	if (tid < p.threads) {
		prstm_sched s;
		int running = 1;
		prstm_sched_init(&s, tid, &v, &p, timeout_ns, run_ns, sh, gb_clock_ns());
		for (;;) {
			unsigned wait = 0;
			if (running) {
				running = prstm_step(workload, &s, &m, &v, &p, sh) == STM_RUNNING;
				wait = running && s.wait_ns ? (unsigned)(s.wait_ns < 1000000u ? s.wait_ns : 1000000u) : 0;
			}
			if (!__any_sync(live, running))
				break;
			if (__all_sync(live, !running || wait))
				__nanosleep(__reduce_min_sync(live, running ? wait : 0xFFFFFFFFu));
		}
		stm_counters t = prstm_thread_totals(&s);
		stm_block_counters_add(sum, &t);
	}
	stm_block_counters_flush(sum, out);
}

__global__ void prstm_bank_kernel(prstm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				  uint64_t run_ns, stm_shared *sh, stm_counters *out)
{
	prstm_kernel_body(PRSTM_GPU_BANK, m, v, p, timeout_ns, run_ns, sh, out);
}

__global__ void prstm_vacation_kernel(prstm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				      uint64_t run_ns, stm_shared *sh, stm_counters *out)
{
	prstm_kernel_body(PRSTM_GPU_VACATION, m, v, p, timeout_ns, run_ns, sh, out);
}

static void run(void *vctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	stm_gpu *g = (stm_gpu *)vctx;
	prstm_mem m;
	tx_table v = stm_gpu_table(g);
	void *args[] = {&m, &v, &g->p, &timeout_ns, &run_ns, &g->d_shared, &g->d_counters};

	m.locks = g->d_locks;
	m.data = g->d_data;
	m.hash = g->p.hash;
	stm_gpu_launch(g, args, run_ns, r);
}

static void *bank_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)prstm_bank_kernel, "prstm_bank_kernel");
}

static void *vacation_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)prstm_vacation_kernel, "prstm_vacation_kernel");
}

extern "C" const stm_ops prstm_bank_gpu_ops = {
	bank_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close,
};

extern "C" const stm_ops prstm_vacation_gpu_ops = {
	vacation_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close,
};
