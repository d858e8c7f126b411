/* Timing device work with CUDA events, for the .cu backends. */
#ifndef GB_CUDA_TIMER_H
#define GB_CUDA_TIMER_H

#include "common/cuda_check.h"

extern "C" {
#include "common/timer.h"
}

typedef struct gb_cuda_timer {
	cudaEvent_t start, stop;
} gb_cuda_timer;

static inline void gb_cuda_timer_init(gb_cuda_timer *t)
{
	GB_CUDA(cudaEventCreate(&t->start), "creating a CUDA event");
	GB_CUDA(cudaEventCreate(&t->stop), "creating a CUDA event");
}

static inline void gb_cuda_timer_start(gb_cuda_timer *t)
{
	GB_CUDA(cudaEventRecord(t->start), "recording a CUDA event");
}

/*
 * Record the stop event, wait for the work before it (`what` names it in
 * errors), return seconds; GPUBENCH_TEST_DELAY_US longer when that is set
 * (common/timer.h), as a known slowdown for testing compare on a GPU.
 */
static inline double gb_cuda_timer_stop(gb_cuda_timer *t, const char *what)
{
	float ms = 0;
	GB_CUDA(cudaEventRecord(t->stop), "recording a CUDA event");
	GB_CUDA(cudaEventSynchronize(t->stop), "running %s", what);
	GB_CUDA(cudaEventElapsedTime(&ms, t->start, t->stop), "reading CUDA event time");
	return ms / 1e3 + (double)gb_test_delay_us() / 1e6;
}

static inline void gb_cuda_timer_destroy(gb_cuda_timer *t)
{
	cudaEventDestroy(t->start);
	cudaEventDestroy(t->stop);
}

#endif
