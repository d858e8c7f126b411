/*
 * The NVIDIA driver's management library (NVML), loaded at run time with
 * dlopen("libnvidia-ml.so.1"): what names a card and what it does while a run
 * is timed, as the driver itself reports it. The library comes with the
 * driver, not with the toolkit, so gpubench neither links it nor needs its
 * header; where it is missing (no driver, a container without it) every
 * function fails and says why, and the report leaves those fields out.
 */
#ifndef GB_NVML_H
#define GB_NVML_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a clock is slowed, as NVML's clock event (throttle) reason bits. */
#define GB_NVML_IDLE 0x1ull
#define GB_NVML_APP_CLOCKS 0x2ull
#define GB_NVML_SW_POWER_CAP 0x4ull
#define GB_NVML_HW_SLOWDOWN 0x8ull
#define GB_NVML_SYNC_BOOST 0x10ull
#define GB_NVML_SW_THERMAL 0x20ull
#define GB_NVML_HW_THERMAL 0x40ull
#define GB_NVML_HW_POWER_BRAKE 0x80ull
#define GB_NVML_DISPLAY_CLOCKS 0x100ull
/* The reasons that mean a run was slowed by power or heat, not by choice or idleness. */
#define GB_NVML_THROTTLING (GB_NVML_SW_POWER_CAP | GB_NVML_HW_SLOWDOWN | GB_NVML_SW_THERMAL | \
			    GB_NVML_HW_THERMAL | GB_NVML_HW_POWER_BRAKE)

/* Load and initialize NVML once; 1 when it is usable, else 0 with the reason in why. */
int gb_nvml_open(char *why, size_t len);

/* The driver's version as it prints it ("580.159.04"); 0 on success. */
int gb_nvml_driver_version(char *buf, size_t len);

/* The device whose UUID is uuid ("GPU-..."), or NULL. */
void *gb_nvml_device(const char *uuid);

/* Its SM and memory clocks now, in MHz; 0 on success. */
int gb_nvml_clocks(void *dev, unsigned *sm_mhz, unsigned *mem_mhz);
/* Its highest SM and memory clocks, in MHz; 0 on success. */
int gb_nvml_max_clocks(void *dev, unsigned *sm_mhz, unsigned *mem_mhz);
/* Why its clocks are below their highest now (GB_NVML_* bits); 0 on success. */
int gb_nvml_reasons(void *dev, uint64_t *mask);

/*
 * The names of the reason bits in mask ("sw_power_cap", "hw_thermal", ...),
 * in bit order, into names (at most max); returns how many.
 */
unsigned gb_nvml_reason_names(uint64_t mask, const char **names, unsigned max);

#ifdef __cplusplus
}
#endif

#endif
