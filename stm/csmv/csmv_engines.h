/*
 * The backends of CSMV and its ablations for each workload they run, listed
 * in the engine registry (stm/registry.c): one implementation, three engine
 * names (csmv, csmv-nocv, csmv-onlycs; stm/csmv/csmv.h's mode bits).
 */
#ifndef GB_CSMV_ENGINES_H
#define GB_CSMV_ENGINES_H

#include "stm/stm.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const stm_ops csmv_bank_cpu_ops;
extern const stm_ops csmv_nocv_bank_cpu_ops;
extern const stm_ops csmv_onlycs_bank_cpu_ops;
extern const stm_ops csmv_bank_gpu_ops;
extern const stm_ops csmv_nocv_bank_gpu_ops;
extern const stm_ops csmv_onlycs_bank_gpu_ops;
extern const stm_ops csmv_memcached_cpu_ops;
extern const stm_ops csmv_nocv_memcached_cpu_ops;
extern const stm_ops csmv_onlycs_memcached_cpu_ops;
extern const stm_ops csmv_memcached_gpu_ops;
extern const stm_ops csmv_nocv_memcached_gpu_ops;
extern const stm_ops csmv_onlycs_memcached_gpu_ops;
#ifdef __cplusplus
}
#endif

#endif
