/* Checked CUDA calls: every failure exits 1 naming what was being done. */
#ifndef GB_CUDA_CHECK_H
#define GB_CUDA_CHECK_H

#include <stdio.h>

#include <cuda_runtime.h>

extern "C" {
#include "common/error.h"
}

/*
 * A failure ends the run through gb_die's runtime-failure hook: the summary
 * shows what finished, marked incomplete, and no report is written. With
 * GPUBENCH_TEST_FAULT (common/error.h) a call that succeeded fails as a
 * kernel that crashed would, for the tests.
 */
#define GB_CUDA(call, ...)                                                                      \
	do {                                                                                    \
		cudaError_t gb_e_ = (call);                                                     \
		int gb_injected_ = gb_e_ == cudaSuccess && gb_test_fault_due();                 \
		if (gb_injected_)                                                               \
			gb_e_ = cudaErrorLaunchFailure;                                         \
		if (gb_e_ != cudaSuccess) {                                                     \
			char gb_what_[256];                                                     \
			snprintf(gb_what_, sizeof(gb_what_), __VA_ARGS__);                      \
			gb_die(GB_EXIT_RUNTIME, "CUDA error while %s: %s%s", gb_what_,          \
			       cudaGetErrorString(gb_e_),                                       \
			       gb_injected_ ? " (injected by " GB_TEST_FAULT_ENV ")" : "");     \
		}                                                                               \
	} while (0)

/* Allocate device memory, failing before allocation when it cannot fit. */
static inline void *gb_cuda_alloc(size_t bytes, const char *what)
{
	size_t free_b = 0, total_b = 0;
	void *p = NULL;
	GB_CUDA(cudaMemGetInfo(&free_b, &total_b), "querying device memory");
	if (bytes > free_b)
		gb_die(GB_EXIT_RUNTIME,
		       "%s needs %zu bytes of device memory but only %zu of %zu are free", what,
		       bytes, free_b, total_b);
	GB_CUDA(cudaMalloc(&p, bytes ? bytes : 1), "allocating %zu bytes for %s", bytes, what);
	return p;
}

#endif
