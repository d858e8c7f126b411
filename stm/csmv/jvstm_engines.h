/*
 * The backends of JVSTM for each workload it runs, listed in the engine
 * registry (stm/registry.c): jvstm runs the CPU ones only; jvstm-gpu runs
 * the same CPU ones and its GPU kernel (stm/csmv/jvstm_gpu.cu).
 */
#ifndef GB_JVSTM_ENGINES_H
#define GB_JVSTM_ENGINES_H

#include "stm/stm.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const stm_ops jvstm_bank_cpu_ops;
extern const stm_ops jvstm_memcached_cpu_ops;
extern const stm_ops jvstm_gpu_bank_gpu_ops;
extern const stm_ops jvstm_gpu_memcached_gpu_ops;
#ifdef __cplusplus
}
#endif

#endif
