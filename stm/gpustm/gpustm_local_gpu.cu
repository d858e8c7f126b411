/*
 * gpustm-local's GPU backend: stm/gpustm/gpustm_gpu.cu with each attempt's log
 * in thread-local memory (GPUSTM_LOCAL_LOGS, stm/gpustm/gpustm.h), sets of 8
 * words. Those of 16 are built in stm/gpustm/gpustm_local_gpu_set16.cu.
 */
#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_LOCAL_LOGS 1
#include "stm/gpustm/gpustm_gpu_kernel.cuh"

#define GPUSTM_GPU_SET_8 1
#define GPUSTM_GPU_SET_16 0
GPUSTM_GPU_UNIT()
