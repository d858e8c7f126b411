/* The list implementation table (--impl). */
#include "common/port.h"
#include "common/timer.h"
#include "structures/list_engine.h"

extern const list_engine list_engine_cpu, list_engine_cpu_tail, list_engine_cpu_lockfree,
	list_engine_cpu_lockfree_tail;

/* Listed in every build, with the same heads, which say why one cannot run in this one. */
#ifdef GB_HAVE_CUDA
extern const list_engine list_engine_gpu, list_engine_gpu_tail;
#else
static const list_engine list_engine_gpu = {.head = LIST_GPU_HEAD, .platform = LIST_ON_GPU};
static const list_engine list_engine_gpu_tail = {.head = LIST_GPU_TAIL_HEAD, .platform = LIST_ON_GPU, .tail = 1};
#endif

#ifdef GB_HAVE_OPENCL
extern const list_engine list_engine_opencl, list_engine_opencl_cpu;
#else
static const list_engine list_engine_opencl = {.head = LIST_OPENCL_HEAD, .platform = LIST_ON_OPENCL};
static const list_engine list_engine_opencl_cpu = {.head = LIST_OPENCL_CPU_HEAD, .platform = LIST_ON_OPENCL};
#endif

const char *const list_heap_options[] = {"superblocks", "superblock-size", NULL};
const char *const list_threaded_options[] = {"superblocks", "superblock-size", "cpu-workers", NULL};
const char *const list_opencl_options[] = {"superblocks", "superblock-size", "opencl-platform", "opencl-device",
					    NULL};

const list_engine *const list_engines[] = {
	&list_engine_gpu, &list_engine_gpu_tail, &list_engine_opencl, &list_engine_opencl_cpu,
	&list_engine_cpu,
	&list_engine_cpu_tail, &list_engine_cpu_lockfree, &list_engine_cpu_lockfree_tail, NULL,
};

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
