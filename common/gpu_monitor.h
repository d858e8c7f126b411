/*
 * What the GPU did while a run was timed: its SM and memory clocks and why
 * they were below their highest (power, heat), sampled through NVML
 * (common/nvml.h) at the start and end of every timed repetition and every
 * 100 ms within one. A report's device block carries the result, so a slow
 * number can be told from a throttled card.
 */
#ifndef GB_GPU_MONITOR_H
#define GB_GPU_MONITOR_H

#include <stdint.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gb_gpu_sample {
	unsigned sm_mhz, mem_mhz;
	uint64_t reasons; /* GB_NVML_* bits */
} gb_gpu_sample;

/* Read one sample of dev; 0 on success. */
typedef int (*gb_gpu_sampler)(void *dev, gb_gpu_sample *s);

/* Watch the device with this UUID (the one the run uses), through NVML; a no-op without NVML. */
void gb_gpu_monitor_attach(const char *uuid);
/* Watch dev through fn instead, with every sample so far dropped (the unit tests' fake GPU). */
void gb_gpu_monitor_use(gb_gpu_sampler fn, void *dev);
/* The measurement loop around a timed repetition: 1 before it, 0 after. */
void gb_gpu_monitor_timing(int on);
/*
 * Into a report's device block: "driver_version" (as the driver prints it)
 * and "during_timing" (samples; busy_samples, those the GPU was not idle;
 * sm_clock_mhz and memory_clock_mhz min, max and mean over the busy samples,
 * or every sample when none was busy; clock_reasons seen; throttled: a power
 * or thermal reason seen), or both null and "nvml_error" saying why.
 */
void gb_gpu_monitor_json(cJSON *device);

#ifdef __cplusplus
}
#endif

#endif
