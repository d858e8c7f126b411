/*
 * GPU-STM's GPU backend: one CUDA thread per logical thread, each running the
 * shared scheduler (stm/gpustm_sched.h, with its step for the workload) over
 * its block of the transaction table until done. The lock table, data words
 * and status words live in global memory (stm/stm_gpu.h) and are accessed
 * through the PTX loads, stores and atomics of common/port.h. Per-thread
 * counters are summed per block (stm/stm_gpu.cuh).
 */
#include "stm/gpustm_bank.h"
#include "stm/gpustm_engines.h"
#include "stm/stm_gpu.cuh"
#include "stm/stm_gpu.h"

__global__ void gpustm_bank_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				   stm_shared *sh, stm_counters *out)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	stm_block_counters_clear(sum);
	if (tid < p.threads) {
		gpustm_sched s;
		gpustm_sched_init(&s, tid, &v, timeout_ns, sh, gb_clock_ns());
		while (gpustm_bank_step(&s, &m, &v, &p, sh) == STM_RUNNING)
			;
		stm_counters t = gpustm_thread_totals(&s);
		stm_block_counters_add(sum, &t);
	}
	stm_block_counters_flush(sum, out);
}

static void *bank_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_bank_kernel, "gpustm_bank_kernel");
}

/* GPU-STM runs no timed rounds (stm/gpustm_sched.h): run_ns is never set here. */
static void bank_run(void *vctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	stm_gpu *g = (stm_gpu *)vctx;
	gpustm_mem m;

	m.locks = g->d_locks;
	m.data = g->d_data;
	m.hash = g->p.hash;
	stm_gpu_begin(g, r);
	gpustm_bank_kernel<<<g->blocks, g->block_size>>>(m, stm_gpu_table(g), g->p, timeout_ns, g->d_shared,
							 g->d_counters);
	stm_gpu_end(g, r, "gpustm_bank_kernel", run_ns);
}

extern "C" const stm_ops gpustm_bank_gpu_ops = {
	bank_open, stm_gpu_load, bank_run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close,
};
