/*
 * gpustm-local's GPU backend for the workloads whose transactions touch more
 * than 8 words: stm/gpustm/gpustm_gpu_set16.cu with each attempt's log in
 * thread-local memory (GPUSTM_LOCAL_LOGS, stm/gpustm/gpustm.h).
 */
#include "stm/gpustm/gpustm_engines.h"
#define GPUSTM_MAX_SET GPUSTM_WIDE_SET
#define GPUSTM_LOCAL_LOGS 1
#include "stm/gpustm/gpustm_gpu_kernel.cuh"

#define GPUSTM_GPU_SET_8 0
#define GPUSTM_GPU_SET_16 1
GPUSTM_GPU_UNIT()
