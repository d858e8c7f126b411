/*
 * PR-STM's GPU kernels for transactions of at most 16 words, the skiplist's and
 * memcached's (stm/prstm/prstm_gpu.cuh).
 */
#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET PRSTM_WIDE_SET
#define PRSTM_GPU_KERNELS set16
#include "stm/prstm/prstm_gpu_kernel.cuh"
