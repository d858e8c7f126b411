/* --device: which CUDA device a run uses (common/device.h), the same in every build. */
#include <stdint.h>

#include "common/device.h"
#include "common/error.h"

static int chosen = -1;

void gb_device_select(uint64_t idx)
{
	if (!gb_cuda_compiled())
		gb_die(GB_EXIT_USAGE, "option --device: this gpubench was built without CUDA (CUDA=0 or no nvcc): "
		       "it runs on the CPU and has no device to choose");
	chosen = (int)idx;
}

int gb_device_current(void)
{
	return chosen < 0 ? 0 : chosen;
}

int gb_device_chosen(void)
{
	return chosen >= 0;
}
