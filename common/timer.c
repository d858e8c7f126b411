#include <time.h>

#include "common/timer.h"

uint64_t gb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double gb_seconds_since(uint64_t start_ns)
{
	return (double)(gb_now_ns() - start_ns) / 1e9;
}
