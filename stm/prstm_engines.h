/* The backends of PR-STM for each workload it runs, listed in the engine registry (stm/registry.c). */
#ifndef GB_PRSTM_ENGINES_H
#define GB_PRSTM_ENGINES_H

#include "stm/stm.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const stm_ops prstm_bank_cpu_ops;
extern const stm_ops prstm_bank_gpu_ops;
extern const stm_ops prstm_vacation_cpu_ops;
extern const stm_ops prstm_vacation_gpu_ops;
extern const stm_ops prstm_kmeans_cpu_ops;
extern const stm_ops prstm_kmeans_gpu_ops;
extern const stm_ops prstm_graph_cpu_ops;
extern const stm_ops prstm_graph_gpu_ops;
#ifdef __cplusplus
}
#endif

#endif
