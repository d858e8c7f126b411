/*
 * NVML through dlopen (common/nvml.h). Only the few entry points gpubench
 * reads are declared here, with NVML's types as the driver's ABI has them
 * (nvmlReturn_t an int, 0 success; nvmlDevice_t an opaque pointer), so no
 * header of the toolkit is needed and a CPU-only build compiles it too.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/nvml.h"

#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2

typedef int nvml_ret;
typedef void *nvml_dev;

static struct {
	nvml_ret (*init)(void);
	const char *(*error_string)(nvml_ret);
	nvml_ret (*driver_version)(char *, unsigned);
	nvml_ret (*by_uuid)(const char *, nvml_dev *);
	nvml_ret (*clock)(nvml_dev, int, unsigned *);
	nvml_ret (*max_clock)(nvml_dev, int, unsigned *);
	nvml_ret (*reasons)(nvml_dev, unsigned long long *);
	int ok;
	char why[256];
} nv;

static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void *sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);
	if (!p && !nv.why[0])
		snprintf(nv.why, sizeof(nv.why), "libnvidia-ml.so.1 lacks %s", name);
	return p;
}

static void nv_load(void)
{
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	nvml_ret r;

	if (!lib) {
		snprintf(nv.why, sizeof(nv.why), "NVML not loaded: %s", dlerror());
		return;
	}
	*(void **)&nv.init = sym(lib, "nvmlInit_v2");
	*(void **)&nv.error_string = sym(lib, "nvmlErrorString");
	*(void **)&nv.driver_version = sym(lib, "nvmlSystemGetDriverVersion");
	*(void **)&nv.by_uuid = sym(lib, "nvmlDeviceGetHandleByUUID");
	*(void **)&nv.clock = sym(lib, "nvmlDeviceGetClockInfo");
	*(void **)&nv.max_clock = sym(lib, "nvmlDeviceGetMaxClockInfo");
	/* renamed in CUDA 12.2's NVML; older drivers have only the first name */
	*(void **)&nv.reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	if (!nv.reasons)
		*(void **)&nv.reasons = sym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (nv.why[0])
		return;
	r = nv.init();
	if (r != 0) {
		snprintf(nv.why, sizeof(nv.why), "nvmlInit: %s", nv.error_string(r));
		return;
	}
	nv.ok = 1;
}

int gb_nvml_open(char *why, size_t len)
{
	pthread_once(&nv_once, nv_load);
	if (!nv.ok && why && len)
		snprintf(why, len, "%s", nv.why);
	return nv.ok;
}

int gb_nvml_driver_version(char *buf, size_t len)
{
	char v[96];

	if (!gb_nvml_open(NULL, 0) || nv.driver_version(v, sizeof(v)) != 0)
		return -1;
	snprintf(buf, len, "%s", v);
	return 0;
}

void *gb_nvml_device(const char *uuid)
{
	nvml_dev d = NULL;

	if (!gb_nvml_open(NULL, 0) || nv.by_uuid(uuid, &d) != 0)
		return NULL;
	return d;
}

int gb_nvml_clocks(void *dev, unsigned *sm_mhz, unsigned *mem_mhz)
{
	if (!dev || !gb_nvml_open(NULL, 0))
		return -1;
	return nv.clock(dev, NVML_CLOCK_SM, sm_mhz) == 0 && nv.clock(dev, NVML_CLOCK_MEM, mem_mhz) == 0 ? 0 : -1;
}

int gb_nvml_max_clocks(void *dev, unsigned *sm_mhz, unsigned *mem_mhz)
{
	if (!dev || !gb_nvml_open(NULL, 0))
		return -1;
	return nv.max_clock(dev, NVML_CLOCK_SM, sm_mhz) == 0 && nv.max_clock(dev, NVML_CLOCK_MEM, mem_mhz) == 0
		       ? 0
		       : -1;
}

int gb_nvml_reasons(void *dev, uint64_t *mask)
{
	unsigned long long m = 0;

	if (!dev || !gb_nvml_open(NULL, 0) || nv.reasons(dev, &m) != 0)
		return -1;
	*mask = m;
	return 0;
}

unsigned gb_nvml_reason_names(uint64_t mask, const char **names, unsigned max)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} reasons[] = {
		{GB_NVML_IDLE, "gpu_idle"},
		{GB_NVML_APP_CLOCKS, "applications_clocks_setting"},
		{GB_NVML_SW_POWER_CAP, "sw_power_cap"},
		{GB_NVML_HW_SLOWDOWN, "hw_slowdown"},
		{GB_NVML_SYNC_BOOST, "sync_boost"},
		{GB_NVML_SW_THERMAL, "sw_thermal_slowdown"},
		{GB_NVML_HW_THERMAL, "hw_thermal_slowdown"},
		{GB_NVML_HW_POWER_BRAKE, "hw_power_brake_slowdown"},
		{GB_NVML_DISPLAY_CLOCKS, "display_clock_setting"},
	};
	unsigned i, n = 0;

	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]) && n < max; i++)
		if (mask & reasons[i].bit)
			names[n++] = reasons[i].name;
	return n;
}
