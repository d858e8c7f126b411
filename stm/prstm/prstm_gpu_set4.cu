/* PR-STM's GPU kernels for transactions of at most 4 words (stm/prstm/prstm_gpu.cuh). */
#define PRSTM_MAX_SET 4
#define PRSTM_GPU_KERNELS set4
#include "stm/prstm/prstm_gpu_kernel.cuh"
