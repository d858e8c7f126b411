/*
 * GPU-STM's GPU backend for the workloads whose transactions touch more than
 * 8 words (set 16 in workloads/stm/list.h; skiplist: 2 x --levels; memcached:
 * --ways + 1): the kernel body and launch of stm/gpustm/gpustm_gpu_kernel.cuh
 * with read and write sets and a lock log of GPUSTM_WIDE_SET words.
 */
#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_WIDE_SET
#include "stm/gpustm/gpustm_gpu_kernel.cuh"

#define GPUSTM_GPU_SET_8 0
#define GPUSTM_GPU_SET_16 1
GPUSTM_GPU_UNIT()
