/*
 * A stand-in for the NVIDIA driver's libnvidia-ml.so.1, for the tests on
 * machines without one (tests/cli-devices.sh builds it and puts it on
 * LD_LIBRARY_PATH): the entry points gpubench loads, answering as a driver
 * 580.159.04 would. NVML_STUB_INIT_FAILS=1 makes nvmlInit fail as it does
 * when the kernel module is not loaded. It knows no device.
 */
#include <stdio.h>
#include <stdlib.h>

#define NVML_SUCCESS 0
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_DRIVER_NOT_LOADED 9

int nvmlInit_v2(void)
{
	const char *fail = getenv("NVML_STUB_INIT_FAILS");
	return fail && *fail == '1' ? NVML_ERROR_DRIVER_NOT_LOADED : NVML_SUCCESS;
}

const char *nvmlErrorString(int r)
{
	return r == NVML_ERROR_DRIVER_NOT_LOADED ? "Driver Not Loaded" : r ? "Not Found" : "Success";
}

int nvmlSystemGetDriverVersion(char *version, unsigned len)
{
	snprintf(version, len, "580.159.04");
	return NVML_SUCCESS;
}

int nvmlDeviceGetHandleByUUID(const char *uuid, void **dev)
{
	(void)uuid;
	*dev = NULL;
	return NVML_ERROR_NOT_FOUND;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz)
{
	(void)dev;
	(void)type;
	*mhz = 0;
	return NVML_ERROR_NOT_FOUND;
}

int nvmlDeviceGetMaxClockInfo(void *dev, int type, unsigned *mhz)
{
	return nvmlDeviceGetClockInfo(dev, type, mhz);
}

int nvmlDeviceGetCurrentClocksEventReasons(void *dev, unsigned long long *reasons)
{
	(void)dev;
	*reasons = 0;
	return NVML_ERROR_NOT_FOUND;
}
