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
	char uuid[48];        /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it */
	char pci_bus_id[32];  /* "0000:1b:00.0" */
} gb_device_info;

/* 1 when this binary contains CUDA kernels. */
int gb_cuda_compiled(void);
/* The CUDA architectures the kernels were built for, e.g. "sm_90 compute_90". */
const char *gb_cuda_archs(void);
/* Number of usable devices; 0 with a reason in why when none (no driver, no GPU, CPU-only build).
 * When there are some, --device's is made current (see gb_device_select). */
int gb_device_count(char *why, size_t why_len);
/* Fill info for device idx; returns 0 on success. */
int gb_device_query(int idx, gb_device_info *info);
/*
 * --device N: the CUDA device a run uses, counted among those the CUDA
 * runtime sees (CUDA_VISIBLE_DEVICES, when set, chooses and orders them).
 * Exits 2 in a build without CUDA, which has no device to choose. The first
 * gb_device_count that finds devices checks N against them (exit 2 when
 * there is no device N), makes it the calling thread's current device and
 * watches it while runs are timed (common/gpu_monitor.h).
 */
void gb_device_select(uint64_t idx);
/* The device a run uses: --device's, else 0. */
int gb_device_current(void);
/* Whether --device was given. */
int gb_device_chosen(void);

/* CUDA driver and runtime versions as integers (e.g. 13000), 0 when unknown. */
void gb_cuda_versions(int *driver, int *runtime);

#endif
