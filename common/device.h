/*
 * GPU discovery. Implemented by device_cuda.cu in CUDA builds and by
 * device_none.c in CPU-only builds, so callers never need #ifdefs.
 */
#ifndef GB_DEVICE_H
#define GB_DEVICE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gb_device_info {
	int index;
	char name[256];
	int cc_major, cc_minor;
	int sm_count;
	int max_threads_per_sm;
	uint64_t global_mem_bytes;
	uint64_t l2_bytes;
	int sm_clock_khz;     /* peak SM clock reported by the driver */
	int mem_clock_khz;
	int mem_bus_bits;
} gb_device_info;

/* 1 when this binary contains CUDA kernels. */
int gb_cuda_compiled(void);
/* The CUDA architectures the kernels were built for, e.g. "sm_90 compute_90". */
const char *gb_cuda_archs(void);
/* Number of usable devices; 0 with a reason in why when none (no driver, no GPU, CPU-only build). */
int gb_device_count(char *why, size_t why_len);
/* Fill info for device idx; returns 0 on success. */
int gb_device_query(int idx, gb_device_info *info);
/* CUDA driver and runtime versions as integers (e.g. 13000), 0 when unknown. */
void gb_cuda_versions(int *driver, int *runtime);

#endif
