/*
 * GPU-STM's GPU backend: one kernel per workload, one CUDA thread per logical
 * thread, each running the shared scheduler (stm/gpustm_sched.h, with its
 * step for the kernel's workload) over
 * its block of the transaction table until done. The lock table, data words
 * and status words live in global memory (stm/stm_gpu.h) and are accessed
 * through the PTX loads, stores and atomics of common/port.h. Per-thread
 * counters are summed per block (stm/stm_gpu.cuh).
 */
#include "stm/gpustm_bank.h"
#include "stm/gpustm_engines.h"
#include "stm/gpustm_vacation.h"
#include "stm/stm_gpu.cuh"
#include "stm/stm_gpu.h"

/* The workloads GPU-STM's kernels run: a constant in each kernel, so each keeps only its own step. */
enum gpustm_gpu_workload { GPUSTM_GPU_BANK, GPUSTM_GPU_VACATION };

__device__ __forceinline__ uint32_t gpustm_step(int workload, gpustm_sched *s, const gpustm_mem *m,
						const tx_table *v, const stm_params *p, stm_shared *sh)
{
	return workload == GPUSTM_GPU_VACATION ? gpustm_vacation_step(s, m, v, p, sh)
					       : gpustm_bank_step(s, m, v, p, sh);
}

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

__global__ void gpustm_bank_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				   stm_shared *sh, stm_counters *out)
{
	gpustm_kernel_body(GPUSTM_GPU_BANK, m, v, p, timeout_ns, sh, out);
}

__global__ void gpustm_vacation_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				       stm_shared *sh, stm_counters *out)
{
	gpustm_kernel_body(GPUSTM_GPU_VACATION, m, v, p, timeout_ns, sh, out);
}

/* GPU-STM runs no timed rounds (stm/gpustm_sched.h): run_ns is never set here. */
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

static void *bank_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_bank_kernel, "gpustm_bank_kernel");
}

static void *vacation_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_vacation_kernel, "gpustm_vacation_kernel");
}

extern "C" const stm_ops gpustm_bank_gpu_ops = {
	bank_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, NULL,
};

extern "C" const stm_ops gpustm_vacation_gpu_ops = {
	vacation_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, NULL,
};
