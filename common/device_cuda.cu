/* Device discovery through the CUDA runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

extern "C" {
#include "common/device.h"
#include "common/error.h"
#include "common/gpu_monitor.h"
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

/* --device's device as the calling thread's current one, watched while runs are timed. */
static void use_chosen(int n)
{
	int idx = gb_device_current();
	gb_device_info info;
	cudaError_t e;

	if (idx >= n) {
		const char *vis = getenv("CUDA_VISIBLE_DEVICES");
		gb_die(GB_EXIT_USAGE, "option --device: there is no CUDA device %d here: %d visible (0..%d)%s%s", idx, n,
		       n - 1, vis ? ", CUDA_VISIBLE_DEVICES=" : "", vis ? vis : "");
	}
	e = cudaSetDevice(idx);
	if (e != cudaSuccess)
		gb_die(GB_EXIT_RUNTIME, "cannot use CUDA device %d: %s", idx, cudaGetErrorString(e));
	if (gb_device_query(idx, &info) == 0)
		gb_gpu_monitor_attach(info.uuid);
}

extern "C" int gb_device_count(char *why, size_t why_len)
{
	static int used = -1; /* the device made current, once */
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
	if (n > 0 && used != gb_device_current()) {
		use_chosen(n);
		used = gb_device_current();
	}
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
	{
		const unsigned char *u = (const unsigned char *)p.uuid.bytes;
		snprintf(info->uuid, sizeof(info->uuid),
			 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
			 u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	}
	if (cudaDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof(info->pci_bus_id), idx) != cudaSuccess) {
		cudaGetLastError();
		info->pci_bus_id[0] = '\0';
	}
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
