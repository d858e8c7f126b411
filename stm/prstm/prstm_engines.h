/* The backends of PR-STM for every workload of workloads/stm/list.h, listed in the engine registry (stm/registry.c). */
#ifndef GB_PRSTM_ENGINES_H
#define GB_PRSTM_ENGINES_H

#include "stm/stm.h"
#include "workloads/stm/list.h"

/*
 * The set capacity of prstm's builds for workloads whose transactions touch more
 * than the 8 words of the others' (skiplist: 2 x --levels; memcached: --ways + 1), in translation
 * units of their own (stm/prstm/prstm_cpu_set16.c, stm/prstm/prstm_gpu_set16.cu), so the other
 * workloads' code stays as it was.
 */
#define PRSTM_WIDE_SET 16
/*
 * And for the workloads of sizes `huge` (graph: the paper's transaction sends to all of a vertex's
 * neighbours), 64 (stm/prstm/prstm_cpu_set64.c; on the GPU the kernels of 32 and 64,
 * stm/prstm/prstm_gpu_set32.cu and stm/prstm/prstm_gpu_set64.cu, beside those of 2 to 16).
 */
#define PRSTM_HUGE_SET 64

/*
 * The most words one read-only transaction of the bank or memcached reads on
 * the builds with the read log (stm/prstm/prstm.h, "Long reads"): 8 bytes a word
 * and thread of device or host memory, which is checked when it is allocated.
 * Their updates fit the capacity of those builds, their `set`: the bank's 8,
 * memcached's 16 (a PUT of the paper's layout writes 14 words).
 */
#define PRSTM_LONG_READS_MAX (1u << 24)

#ifdef __cplusplus
extern "C" {
#endif
/* Each workload's backends: prstm_bank_cpu_ops, prstm_bank_gpu_ops, ... */
#define PRSTM_OPS_DECL(name, set, sizes, long_reads) \
	extern const stm_ops prstm_##name##_cpu_ops; \
	extern const stm_ops prstm_##name##_gpu_ops;
STM_WORKLOADS(PRSTM_OPS_DECL)
#undef PRSTM_OPS_DECL
/* The CPU backends with the read log (stm/prstm/prstm_cpu_long.h), at capacity 8 (the bank) and
 * 16 (memcached), which the workloads with long_reads open when a table's transactions outgrow
 * their sets. */
void *prstm_long_cpu_open(uint32_t wl, const tx_input *in, const stm_params *p);
void *prstm_long16_cpu_open(uint32_t wl, const tx_input *in, const stm_params *p);
#ifdef __cplusplus
}
#endif

#endif
