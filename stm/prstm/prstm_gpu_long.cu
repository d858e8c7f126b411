/*
 * PR-STM's GPU kernels with the read log (stm/prstm/prstm.h, "Long reads"): sets of
 * 8 words in registers and the reads past them logged in global memory, for
 * the read-only transactions longer than any set that the CSMV paper runs
 * PR-STM on (the bank's inquiries over every account; memcached's GETs over
 * up to 256 ways run on the capacity-16 build, stm/prstm/prstm_gpu_long16.cu).
 * Picked by stm/prstm/prstm_gpu.cu when a table's transactions outgrow every
 * other capacity built for the workload.
 */
#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET 8
#define PRSTM_LONG_READS 1
#define PRSTM_GPU_KERNELS long
#include "stm/prstm/prstm_gpu_kernel.cuh"
