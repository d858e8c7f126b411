/*
 * The backends of GPU-STM (gpustm, gpustm-local) for every workload of workloads/stm/list.h, listed in
 * the engine registry (stm/registry.c).
 */
#ifndef GB_GPUSTM_ENGINES_H
#define GB_GPUSTM_ENGINES_H

#include "stm/stm.h"
#include "workloads/stm/list.h"

/*
 * The set capacity of gpustm's builds for workloads whose transactions touch more
 * than the 8 words of the others' (skiplist: 2 x --levels; memcached: --ways + 1), in translation
 * units of their own (stm/gpustm/gpustm_cpu_set16.c, stm/gpustm/gpustm_gpu_set16.cu), so the other
 * workloads' code stays as it was.
 */
#define GPUSTM_WIDE_SET 16

#ifdef __cplusplus
extern "C" {
#endif
/*
 * Each workload's backends: gpustm_bank_cpu_ops, gpustm_bank_gpu_ops, ... (gpustm, its logs in global
 * memory), and gpustm_local_bank_cpu_ops, ... (gpustm-local, its logs thread-local): stm/gpustm/gpustm.h.
 */
#define GPUSTM_OPS_DECL(name, set, sizes, long_reads)      \
	extern const stm_ops gpustm_##name##_cpu_ops;       \
	extern const stm_ops gpustm_##name##_gpu_ops;       \
	extern const stm_ops gpustm_local_##name##_cpu_ops; \
	extern const stm_ops gpustm_local_##name##_gpu_ops;
STM_WORKLOADS(GPUSTM_OPS_DECL)
#undef GPUSTM_OPS_DECL
#ifdef __cplusplus
}
#endif

#endif
