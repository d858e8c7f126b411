/*
 * The backends of CSMV and its ablations for each workload they run, listed
 * in the engine registry (stm/registry.c): one implementation, three engine
 * names (csmv, csmv-nocv, csmv-onlycs; stm/csmv/csmv.h's mode bits).
 */
#ifndef GB_CSMV_ENGINES_H
#define GB_CSMV_ENGINES_H

#include "stm/csmv/csmv_workloads.h"
#include "stm/stm.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Each workload's backends for each engine name: csmv_bank_cpu_ops, csmv_nocv_bank_gpu_ops, ... */
#define CSMV_OPS_DECL(wl, ahead, name, mode)             \
	extern const stm_ops name##_##wl##_cpu_ops;      \
	extern const stm_ops name##_##wl##_gpu_ops;
#define CSMV_OPS_DECL_MODE(name, mode) CSMV_WORKLOADS(CSMV_OPS_DECL, name, mode)
CSMV_MODES(CSMV_OPS_DECL_MODE)
#undef CSMV_OPS_DECL_MODE
#undef CSMV_OPS_DECL
#ifdef __cplusplus
}
#endif

#endif
