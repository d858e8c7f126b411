/*
 * PR-STM's GPU kernels with the read log at capacity 16 (stm/prstm/prstm_gpu_long.cu
 * is capacity 8): for the workloads with long_reads whose set is 16, memcached,
 * whose GETs outgrow every set and whose PUT writes 14 words in the paper's
 * layout (workloads/stm/memcached.h). Picked by stm/prstm/prstm_gpu.cu like
 * the capacity-8 ones.
 */
#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET 16
#define PRSTM_LONG_READS 1
#define PRSTM_GPU_KERNELS long16
#include "stm/prstm/prstm_gpu_kernel.cuh"
