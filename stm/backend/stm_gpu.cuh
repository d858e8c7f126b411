/*
 * Device code every STM engine's kernel shares: the per-block sums of the
 * threads' counters (stm_counters as an array of 64-bit words), added to the
 * run's totals once per block after the transactional work.
 */
#ifndef GB_STM_GPU_CUH
#define GB_STM_GPU_CUH

#include "stm/stm.h"

/* Every thread of the block calls it before any adds. */
__device__ __forceinline__ void stm_block_counters_clear(unsigned long long *sum)
{
	if (threadIdx.x < STM_NCOUNTERS)
		sum[threadIdx.x] = 0;
	__syncthreads();
}

__device__ __forceinline__ void stm_block_counters_add(unsigned long long *sum, const stm_counters *t)
{
	const uint64_t *w = (const uint64_t *)t;
	int k;
	for (k = 0; k < STM_NCOUNTERS; k++)
		if (k == STM_PASSES_MAX_WORD || k == STM_VERSIONS_MAX_WORD)
			atomicMax(&sum[k], (unsigned long long)w[k]);
		else if (w[k])
			atomicAdd(&sum[k], (unsigned long long)w[k]);
}

/* Every thread of the block calls it after its adds. */
__device__ __forceinline__ void stm_block_counters_flush(unsigned long long *sum, stm_counters *out)
{
	__syncthreads();
	if (threadIdx.x < STM_NCOUNTERS && sum[threadIdx.x]) {
		unsigned long long *o = (unsigned long long *)out;
		if (threadIdx.x == STM_PASSES_MAX_WORD || threadIdx.x == STM_VERSIONS_MAX_WORD)
			atomicMax(&o[threadIdx.x], sum[threadIdx.x]);
		else
			atomicAdd(&o[threadIdx.x], sum[threadIdx.x]);
	}
}

#endif
