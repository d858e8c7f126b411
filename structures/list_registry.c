/* The list implementation table (--impl). */
#include <string.h>

#include "common/port.h"
#include "common/timer.h"
#include "structures/list_engine.h"

extern const list_engine list_engine_cpu, list_engine_cpu_tail, list_engine_cpu_lockfree,
	list_engine_cpu_lockfree_tail;

#ifdef GB_HAVE_CUDA
extern const list_engine list_engine_gpu, list_engine_gpu_tail;
#else
/* Listed in a CPU-only build too, so --impl gpu says why it cannot run. */
static const list_engine list_engine_gpu = {
	"gpu", "the lock-free list in CUDA (needs a CUDA build)", LIST_ON_GPU, 0, NULL,
};
static const list_engine list_engine_gpu_tail = {
	"gpu-tail", "the tail-pointer list in CUDA, a block's adds as one chain (needs a CUDA build)",
	LIST_ON_GPU, 0, NULL,
};
#endif

#ifdef GB_HAVE_OPENCL
extern const list_engine list_engine_opencl;
#else
static const list_engine list_engine_opencl = {
	"opencl", "the lock-free list as an OpenCL C kernel (needs OpenCL headers and loader at build time)",
	LIST_ON_OPENCL, 0, NULL,
};
#endif

const list_engine *const list_engines[] = {
	&list_engine_gpu, &list_engine_gpu_tail, &list_engine_opencl, &list_engine_cpu,
	&list_engine_cpu_tail, &list_engine_cpu_lockfree, &list_engine_cpu_lockfree_tail, NULL,
};

const list_engine *list_engine_find(const char *name)
{
	int i;
	for (i = 0; list_engines[i]; i++)
		if (strcmp(list_engines[i]->name, name) == 0)
			return list_engines[i];
	return NULL;
}

double list_cycles_per_ns(void)
{
	static double cpn;
	if (cpn == 0) {
		uint64_t t0 = gb_now_ns(), c0 = gb_cycles(), t1;
		do {
			t1 = gb_now_ns();
		} while (t1 - t0 < 10000000ull);
		cpn = (double)(gb_cycles() - c0) / (double)(t1 - t0);
	}
	return cpn;
}
