/* The workloads of `gpubench stm`: --workload, --help and `gpubench info` read this table. */
#include <string.h>

#include "workloads/stm/stm_workload.h"

/* In the order of workloads/stm/list.h. */
#define STM_WORKLOAD_ENTRY(name, set, sizes, long_reads) &stm_workload_##name,
const stm_workload *const stm_workloads[] = {STM_WORKLOADS(STM_WORKLOAD_ENTRY) NULL};
