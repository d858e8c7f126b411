/*
 * PR-STM's GPU kernels for transactions of at most 32 words: graph's, whose
 * paper's transaction sends a vertex's value to all its neighbours (the
 * workloads of sizes `huge`, workloads/stm/list.h; stm/prstm/prstm_gpu.cuh).
 */
#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET 32
#define PRSTM_GPU_KERNELS set32
#include "stm/prstm/prstm_gpu_kernel.cuh"
