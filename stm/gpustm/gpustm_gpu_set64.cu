/*
 * gpustm's GPU kernels for the workloads of sizes `huge` in workloads/stm/list.h
 * (graph, whose paper's transaction sends a vertex's value to all its
 * neighbours): the kernel body of stm/gpustm/gpustm_gpu_kernel.cuh with read and
 * write sets and a lock log of GPUSTM_HUGE_SET words, opened by the 16-word unit
 * (stm/gpustm/gpustm_gpu_set16.cu) when a table's transactions outgrow it.
 */
#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_HUGE_SET
#include "stm/gpustm/gpustm_gpu_kernel.cuh"

GPUSTM_GPU_HUGE_UNIT()
