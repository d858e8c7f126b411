/*
 * The backends of JVSTM for each workload it runs, listed in the engine
 * registry (stm/registry.c): jvstm runs the CPU ones only; jvstm-gpu runs
 * the same CPU ones and its GPU kernel (stm/csmv/jvstm_gpu.cu).
 */
#ifndef GB_JVSTM_ENGINES_H
#define GB_JVSTM_ENGINES_H

#include "stm/csmv/csmv_workloads.h"
#include "stm/stm.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Each workload's backends: jvstm_bank_cpu_ops, jvstm_gpu_bank_gpu_ops, ... */
#define JVSTM_OPS_DECL(wl, ahead, ...)                   \
	extern const stm_ops jvstm_##wl##_cpu_ops;       \
	extern const stm_ops jvstm_gpu_##wl##_gpu_ops;
CSMV_WORKLOADS(JVSTM_OPS_DECL, 0)
#undef JVSTM_OPS_DECL
#ifdef __cplusplus
}
#endif

#endif
