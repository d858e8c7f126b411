/* The backends of GPU-STM for each workload it runs, listed in the engine registry (stm/registry.c). */
#ifndef GB_GPUSTM_ENGINES_H
#define GB_GPUSTM_ENGINES_H

#include "stm/stm.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const stm_ops gpustm_bank_cpu_ops;
extern const stm_ops gpustm_bank_gpu_ops;
extern const stm_ops gpustm_vacation_cpu_ops;
extern const stm_ops gpustm_vacation_gpu_ops;
extern const stm_ops gpustm_kmeans_cpu_ops;
extern const stm_ops gpustm_kmeans_gpu_ops;
extern const stm_ops gpustm_graph_cpu_ops;
extern const stm_ops gpustm_graph_gpu_ops;
#ifdef __cplusplus
}
#endif

#endif
