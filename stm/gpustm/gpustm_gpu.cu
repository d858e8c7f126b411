/*
 * gpustm's GPU backend (each thread's log its record of the pool in global
 * memory: stm/gpustm/gpustm.h): one kernel per workload, on the kernel body and
 * launch of stm/gpustm/gpustm_gpu_kernel.cuh, with sets of 8 words, for the
 * workloads of workloads/stm/list.h whose set is 8. Those of 16 are built in
 * stm/gpustm/gpustm_gpu_set16.cu; gpustm-local's in stm/gpustm/gpustm_local_gpu.cu.
 */
#include "stm/gpustm/gpustm_engines.h"
#include "stm/gpustm/gpustm_gpu_kernel.cuh"

#define GPUSTM_GPU_SET_8 1
#define GPUSTM_GPU_SET_16 0
GPUSTM_GPU_UNIT()
