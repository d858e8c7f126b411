/* The STM engine table: --algo validation, --help and `gpubench info` all read it. */
#include <string.h>

#include "stm/prstm_engines.h"
#include "stm/stm.h"

#ifdef GB_HAVE_CUDA
#define GPU_OPS(x) (&(x))
#else
#define GPU_OPS(x) NULL
#endif

static const stm_engine prstm = {
	"prstm",
	"PR-STM: priority-rule lock stealing with the semantic contention manager (Shen et al. 2020)",
	GPU_OPS(prstm_bank_gpu_ops),
	&prstm_bank_cpu_ops,
};

const stm_engine *const stm_engines[] = {&prstm, NULL};

const stm_engine *stm_engine_find(const char *name)
{
	int i;
	for (i = 0; stm_engines[i]; i++)
		if (strcmp(stm_engines[i]->name, name) == 0)
			return stm_engines[i];
	return NULL;
}
