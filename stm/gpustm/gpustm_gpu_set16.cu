/*
 * GPU-STM's GPU backend for the workloads whose transactions touch more than
 * 8 words (skiplist: 2 x --levels; memcached: --ways + 1): the kernel body and launch of
 * stm/gpustm/gpustm_gpu_kernel.cuh with read and write sets and a lock log of
 * GPUSTM_WIDE_SET words.
 */
#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_WIDE_SET
#include "stm/gpustm/gpustm_memcached.h"
#include "stm/gpustm/gpustm_skiplist.h"

/* The kernels' workloads: a constant in each, so each keeps only its own step. */
enum { GPUSTM_WIDE_SKIPLIST, GPUSTM_WIDE_MEMCACHED };

__device__ __forceinline__ uint32_t gpustm_step(int workload, gpustm_sched *s, const gpustm_mem *m,
						const tx_table *v, const stm_params *p, stm_shared *sh)
{
	if (workload == GPUSTM_WIDE_MEMCACHED)
		return gpustm_memcached_step(s, m, v, p, sh);
	return gpustm_skiplist_step(s, m, v, p, sh);
}

#include "stm/gpustm/gpustm_gpu_kernel.cuh"

__global__ void gpustm_skiplist_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
				       stm_shared *sh, stm_counters *out)
{
	gpustm_kernel_body(GPUSTM_WIDE_SKIPLIST, m, v, p, timeout_ns, sh, out);
}

__global__ void gpustm_memcached_kernel(gpustm_mem m, tx_table v, stm_params p, uint64_t timeout_ns,
					stm_shared *sh, stm_counters *out)
{
	gpustm_kernel_body(GPUSTM_WIDE_MEMCACHED, m, v, p, timeout_ns, sh, out);
}

static void *memcached_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_memcached_kernel, "gpustm_memcached_kernel");
}

static void *skiplist_open(const tx_input *in, const stm_params *p)
{
	return stm_gpu_open(in, p, (const void *)gpustm_skiplist_kernel, "gpustm_skiplist_kernel");
}

extern "C" const stm_ops gpustm_skiplist_gpu_ops = {
	skiplist_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, NULL,
};

extern "C" const stm_ops gpustm_memcached_gpu_ops = {
	memcached_open, stm_gpu_load, run, stm_gpu_rounds_ok, stm_gpu_fetch, stm_gpu_close, stm_gpu_retable, NULL,
};
