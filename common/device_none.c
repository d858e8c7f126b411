/* Device discovery for builds without CUDA: there are never any devices. */
#include <stdio.h>

#include "common/device.h"

int gb_cuda_compiled(void)
{
	return 0;
}

const char *gb_cuda_archs(void)
{
	return "";
}

int gb_device_count(char *why, size_t why_len)
{
	if (why && why_len)
		snprintf(why, why_len, "this gpubench was built without CUDA (CUDA=0 or no nvcc)");
	return 0;
}

int gb_device_query(int idx, gb_device_info *info)
{
	(void)idx;
	(void)info;
	return -1;
}

void gb_cuda_versions(int *driver, int *runtime)
{
	*driver = 0;
	*runtime = 0;
}
