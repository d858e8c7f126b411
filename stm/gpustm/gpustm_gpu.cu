/*
 * GPU-STM's GPU backend: one kernel per workload, on the kernel body and
 * launch of stm/gpustm/gpustm_gpu_kernel.cuh, with sets of 8 words. The skiplist's
 * wider sets are built in stm/gpustm/gpustm_gpu_set16.cu.
 */
#include "stm/gpustm/gpustm_bank.h"
#include "stm/gpustm/gpustm_engines.h"
#include "stm/gpustm/gpustm_graph.h"
#include "stm/gpustm/gpustm_kmeans.h"
#include "stm/gpustm/gpustm_vacation.h"

/* The workloads GPU-STM's kernels run: a constant in each kernel, so each keeps only its own step. */
enum gpustm_gpu_workload { GPUSTM_GPU_BANK, GPUSTM_GPU_VACATION, GPUSTM_GPU_KMEANS, GPUSTM_GPU_GRAPH };

__device__ __forceinline__ uint32_t gpustm_step(int workload, gpustm_sched *s, const gpustm_mem *m,
						const tx_table *v, const stm_params *p, stm_shared *sh)
{
	if (workload == GPUSTM_GPU_KMEANS)
		return gpustm_kmeans_step(s, m, v, p, sh);
	if (workload == GPUSTM_GPU_GRAPH)
		return gpustm_graph_step(s, m, v, p, sh);
	return workload == GPUSTM_GPU_VACATION ? gpustm_vacation_step(s, m, v, p, sh)
					       : gpustm_bank_step(s, m, v, p, sh);
}

#include "stm/gpustm/gpustm_gpu_kernel.cuh"

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

__global__ void gpustm_kmeans_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				     stm_shared *sh, stm_counters *out)
{
	gpustm_kernel_body(GPUSTM_GPU_KMEANS, m, v, p, timeout_ns, sh, out);
}

__global__ void gpustm_graph_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				    stm_shared *sh, stm_counters *out)
{
	gpustm_kernel_body(GPUSTM_GPU_GRAPH, m, v, p, timeout_ns, sh, out);
}

static void *bank_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_bank_kernel, "gpustm_bank_kernel");
}

static void *vacation_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_vacation_kernel, "gpustm_vacation_kernel");
}

static void *kmeans_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_kmeans_kernel, "gpustm_kmeans_kernel");
}

static void *graph_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_graph_kernel, "gpustm_graph_kernel");
}

extern "C" const stm_ops gpustm_bank_gpu_ops = {
	bank_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, NULL,
};

extern "C" const stm_ops gpustm_vacation_gpu_ops = {
	vacation_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, NULL,
};

extern "C" const stm_ops gpustm_kmeans_gpu_ops = {
	kmeans_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, NULL,
};

extern "C" const stm_ops gpustm_graph_gpu_ops = {
	graph_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, NULL,
};
