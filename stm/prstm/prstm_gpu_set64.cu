/*
 * PR-STM's GPU kernels for transactions of at most 64 words: graph's, whose
 * paper's transaction sends a vertex's value to all its neighbours (the
 * workloads of sizes `huge`, workloads/stm/list.h; stm/prstm/prstm_gpu.cuh).
 */
#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET 64
#define PRSTM_GPU_KERNELS set64
#include "stm/prstm/prstm_gpu_kernel.cuh"
