/* PR-STM's GPU kernel for transactions of at most 2 words (stm/prstm_gpu.cuh). */
#define PRSTM_MAX_SET 2
#define PRSTM_GPU_KERNEL prstm_bank_kernel_set2
#define PRSTM_GPU_ENTRY prstm_gpu_kernel_set2
#include "stm/prstm_gpu_kernel.cuh"
