/* PR-STM's GPU kernel for transactions of at most 4 words (stm/prstm_gpu.cuh). */
#define PRSTM_MAX_SET 4
#define PRSTM_GPU_KERNEL prstm_bank_kernel_set4
#define PRSTM_GPU_ENTRY prstm_gpu_kernel_set4
#include "stm/prstm_gpu_kernel.cuh"
