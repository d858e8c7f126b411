#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "common/error.h"
#include "common/timer.h"

static pthread_once_t delay_once = PTHREAD_ONCE_INIT;
static uint64_t delay_us;

static void read_test_delay(void)
{
	unsigned long long v = gb_test_env_count(GB_TEST_DELAY_ENV, 10000000ull, "microseconds");

	delay_us = v;
	if (v)
		gb_note("note: %s=%llu: every host-timed interval is %llu us longer, on purpose",
			GB_TEST_DELAY_ENV, v, v);
}

uint64_t gb_test_delay_us(void)
{
	pthread_once(&delay_once, read_test_delay);
	return delay_us;
}

uint64_t gb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * delay_us more work: the calling thread spins until it has used delay_us of
 * CPU time. A regression is more work, and work stretches with the machine's
 * load; so does this, where a sleep or a wall-clock deadline would not, and a
 * slowdown sized as a share of a run stays that share on a loaded machine.
 */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void test_delay(uint64_t delay)
{
	uint64_t start = thread_cpu_ns();

	while (thread_cpu_ns() - start < delay * 1000)
		;
}

double gb_seconds_since(uint64_t start_ns)
{
	uint64_t delay = gb_test_delay_us();
	if (delay)
		test_delay(delay);
	return (double)(gb_now_ns() - start_ns) / 1e9;
}
