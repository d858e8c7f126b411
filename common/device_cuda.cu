/* Device discovery through the CUDA runtime. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

extern "C" {
#include "common/device.h"
}

#ifndef GB_CUDA_ARCHS
#define GB_CUDA_ARCHS "unknown"
#endif

extern "C" int gb_cuda_compiled(void)
{
	return 1;
}

extern "C" const char *gb_cuda_archs(void)
{
	return GB_CUDA_ARCHS;
}

extern "C" int gb_device_count(char *why, size_t why_len)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);
	if (e != cudaSuccess) {
		if (why && why_len)
			snprintf(why, why_len, "%s (CUDA: %s)",
				 e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice
					 ? "no NVIDIA GPU or driver found"
					 : "no usable CUDA device",
				 cudaGetErrorString(e));
		cudaGetLastError();
		return 0;
	}
	if (n == 0 && why && why_len)
		snprintf(why, why_len, "the CUDA driver reports no devices");
	return n;
}

static int attr(enum cudaDeviceAttr a, int dev)
{
	int v = 0;
	if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return v;
}

extern "C" int gb_device_query(int idx, gb_device_info *info)
{
	cudaDeviceProp p;
	if (cudaGetDeviceProperties(&p, idx) != cudaSuccess) {
		cudaGetLastError();
		return -1;
	}
	memset(info, 0, sizeof(*info));
	info->index = idx;
	snprintf(info->name, sizeof(info->name), "%s", p.name);
	info->cc_major = p.major;
	info->cc_minor = p.minor;
	info->sm_count = p.multiProcessorCount;
	info->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
	info->global_mem_bytes = p.totalGlobalMem;
	info->l2_bytes = (uint64_t)p.l2CacheSize;
	info->sm_clock_khz = attr(cudaDevAttrClockRate, idx);
	info->mem_clock_khz = attr(cudaDevAttrMemoryClockRate, idx);
	info->mem_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth, idx);
	return 0;
}

extern "C" void gb_cuda_versions(int *driver, int *runtime)
{
	*driver = 0;
	*runtime = 0;
	if (cudaDriverGetVersion(driver) != cudaSuccess)
		*driver = 0;
	if (cudaRuntimeGetVersion(runtime) != cudaSuccess)
		*runtime = 0;
	cudaGetLastError();
}
