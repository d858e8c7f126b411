/* PR-STM's GPU kernels for transactions of at most 2 words (stm/prstm/prstm_gpu.cuh). */
#define PRSTM_MAX_SET 2
#define PRSTM_GPU_KERNELS set2
#include "stm/prstm/prstm_gpu_kernel.cuh"
