/* The workloads of `gpubench stm`: --workload, --help and `gpubench info` read this table. */
#include <string.h>

#include "workloads/stm/stm_workload.h"

const stm_workload *const stm_workloads[] = {&stm_workload_bank, &stm_workload_vacation, &stm_workload_skiplist,
					     &stm_workload_kmeans, &stm_workload_graph, &stm_workload_memcached, NULL};

const stm_workload *stm_workload_find(const char *name)
{
	int i;
	for (i = 0; stm_workloads[i]; i++)
		if (strcmp(stm_workloads[i]->name, name) == 0)
			return stm_workloads[i];
	return NULL;
}
