/* The backends of PR-STM for each workload it runs, listed in the engine registry (stm/registry.c). */
#ifndef GB_PRSTM_ENGINES_H
#define GB_PRSTM_ENGINES_H

#include "stm/stm.h"

/*
 * The set capacity of prstm's builds for workloads whose transactions touch more
 * than the 8 words of the others' (skiplist: 2 x --levels; memcached: --ways + 1), in translation
 * units of their own (stm/prstm/prstm_cpu_set16.c, stm/prstm/prstm_gpu_set16.cu), so the other
 * workloads' code stays as it was.
 */
#define PRSTM_WIDE_SET 16

/*
 * The most words one read-only transaction of the bank or memcached reads on
 * the builds with the read log (stm/prstm/prstm.h, "Long reads"): 8 bytes a word
 * and thread of device or host memory, which is checked when it is allocated.
 * Their updates are at most 8 words, the capacity of those builds.
 */
#define PRSTM_LONG_READS_MAX (1u << 24)

#ifdef __cplusplus
extern "C" {
#endif
extern const stm_ops prstm_bank_cpu_ops;
extern const stm_ops prstm_bank_gpu_ops;
extern const stm_ops prstm_vacation_cpu_ops;
extern const stm_ops prstm_vacation_gpu_ops;
extern const stm_ops prstm_skiplist_cpu_ops;
extern const stm_ops prstm_skiplist_gpu_ops;
extern const stm_ops prstm_kmeans_cpu_ops;
extern const stm_ops prstm_kmeans_gpu_ops;
extern const stm_ops prstm_graph_cpu_ops;
extern const stm_ops prstm_graph_gpu_ops;
extern const stm_ops prstm_memcached_cpu_ops;
extern const stm_ops prstm_memcached_gpu_ops;
/* The CPU backends with the read log (stm/prstm/prstm_cpu_long.c), which the bank's and memcached's open
 * when a table's transactions outgrow their sets. */
void *prstm_bank_long_cpu_open(const tx_input *in, const stm_params *p);
void *prstm_memcached_long_cpu_open(const tx_input *in, const stm_params *p);
#ifdef __cplusplus
}
#endif

#endif
