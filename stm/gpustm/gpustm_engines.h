/* The backends of GPU-STM for each workload it runs, listed in the engine registry (stm/registry.c). */
#ifndef GB_GPUSTM_ENGINES_H
#define GB_GPUSTM_ENGINES_H

#include "stm/stm.h"

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
extern const stm_ops gpustm_bank_cpu_ops;
extern const stm_ops gpustm_bank_gpu_ops;
extern const stm_ops gpustm_vacation_cpu_ops;
extern const stm_ops gpustm_vacation_gpu_ops;
extern const stm_ops gpustm_skiplist_cpu_ops;
extern const stm_ops gpustm_skiplist_gpu_ops;
extern const stm_ops gpustm_kmeans_cpu_ops;
extern const stm_ops gpustm_kmeans_gpu_ops;
extern const stm_ops gpustm_graph_cpu_ops;
extern const stm_ops gpustm_graph_gpu_ops;
extern const stm_ops gpustm_memcached_cpu_ops;
extern const stm_ops gpustm_memcached_gpu_ops;
#ifdef __cplusplus
}
#endif

#endif
