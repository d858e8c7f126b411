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
/*
 * And for the workloads of sizes `huge` (graph: the paper's transaction sends to all of a vertex's
 * neighbours), 64, in units of their own (stm/gpustm/gpustm_cpu_set64.c, gpustm_gpu_set64.cu and
 * their gpustm-local twins): the 16-word unit of such a workload opens them when a table's
 * transactions outgrow its 16 words, so a sparse graph keeps the 16-word code.
 */
#define GPUSTM_HUGE_SET 64

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
/* The 64-word backends of the workloads of sizes `huge`, by workload id (NULL for the others' ids). */
void *gpustm_huge_cpu_open(unsigned workload, const tx_input *in, const stm_params *p);
void *gpustm_local_huge_cpu_open(unsigned workload, const tx_input *in, const stm_params *p);
void *gpustm_huge_gpu_open(unsigned workload, const tx_input *in, const stm_params *p);
void *gpustm_local_huge_gpu_open(unsigned workload, const tx_input *in, const stm_params *p);
#ifdef __cplusplus
}
#endif

#endif
