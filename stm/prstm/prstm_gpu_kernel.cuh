/*
 * PR-STM's GPU kernels for one read/write set capacity (stm/prstm/prstm_gpu.cuh
 * says why there are several), one per workload. A translation unit defines
 * PRSTM_MAX_SET and PRSTM_GPU_KERNELS (the prstm_gpu_kernels entry to
 * define), then includes this file once.
 *
 * One CUDA thread per logical thread, each running the shared scheduler
 * (stm/prstm/prstm_sched.h, with the step of the kernel's workload) over its block
 * of the transaction table until done, or in a timed run round after round
 * until the device clock passes the run's end. Per-thread counters are
 * reduced in shared memory and added to the batch totals once per block,
 * after the transactional work (stm/backend/stm_gpu.cuh).
 */
#if !defined(PRSTM_MAX_SET) || !defined(PRSTM_GPU_KERNELS)
#error "define PRSTM_MAX_SET and PRSTM_GPU_KERNELS before including stm/prstm/prstm_gpu_kernel.cuh"
#endif

/*
 * Which workloads this capacity builds. The bank, vacation, kmeans and graph,
 * whose transactions touch at most 8 words, up to capacity 8; memcached, whose
 * GETs read --ways + 1 words (5 and more), from capacity 8 up; the skiplist at
 * every capacity. A build with the read log (PRSTM_LONG_READS, stm/prstm/prstm.h)
 * serves the workloads with read-only transactions longer than any set: the
 * bank's inquiries and memcached's GETs.
 */
#if defined(PRSTM_LONG_READS)
#define PRSTM_GPU_NARROW 0
#define PRSTM_GPU_HAS_BANK 1
#define PRSTM_GPU_HAS_MEMCACHED 1
#define PRSTM_GPU_HAS_SKIPLIST 0
#else
#define PRSTM_GPU_NARROW (PRSTM_MAX_SET <= 8)
#define PRSTM_GPU_HAS_BANK PRSTM_GPU_NARROW
#define PRSTM_GPU_HAS_MEMCACHED (PRSTM_MAX_SET >= 8)
#define PRSTM_GPU_HAS_SKIPLIST 1
#endif

#if PRSTM_GPU_HAS_BANK
#include "stm/prstm/prstm_bank.h"
#endif
#if PRSTM_GPU_NARROW
#include "stm/prstm/prstm_graph.h"
#include "stm/prstm/prstm_kmeans.h"
#include "stm/prstm/prstm_vacation.h"
#endif
#if PRSTM_GPU_HAS_MEMCACHED
#include "stm/prstm/prstm_memcached.h"
#endif
#if PRSTM_GPU_HAS_SKIPLIST
#include "stm/prstm/prstm_skiplist.h"
#endif
#include "stm/prstm/prstm_gpu.cuh"
#include "stm/backend/stm_gpu.cuh"

/* The workloads of the kernels: a constant in each, so each keeps only its own step. */
enum prstm_gpu_workload {
	PRSTM_GPU_BANK,
	PRSTM_GPU_VACATION,
	PRSTM_GPU_SKIPLIST,
	PRSTM_GPU_KMEANS,
	PRSTM_GPU_GRAPH,
	PRSTM_GPU_MEMCACHED
};

static __device__ __forceinline__ uint32_t prstm_step(int workload, prstm_sched *s, const prstm_mem *m,
						      const tx_table *v, const stm_params *p, stm_shared *sh)
{
#if PRSTM_GPU_HAS_MEMCACHED
	if (workload == PRSTM_GPU_MEMCACHED)
		return prstm_memcached_step(s, m, v, p, sh);
#endif
#if PRSTM_GPU_NARROW
	if (workload == PRSTM_GPU_KMEANS)
		return prstm_kmeans_step(s, m, v, p, sh);
	if (workload == PRSTM_GPU_GRAPH)
		return prstm_graph_step(s, m, v, p, sh);
	if (workload == PRSTM_GPU_VACATION)
		return prstm_vacation_step(s, m, v, p, sh);
#endif
#if PRSTM_GPU_HAS_SKIPLIST
	if (workload == PRSTM_GPU_SKIPLIST)
		return prstm_skiplist_step(s, m, v, p, sh);
#endif
#if PRSTM_GPU_HAS_BANK
	return prstm_bank_step(s, m, v, p, sh);
#else
	return s->state = STM_FAILED; /* not built at this capacity: never launched */
#endif
}

/* One kernel's work, for the workload it was built for. */
static __device__ __forceinline__ void prstm_kernel_body(int workload, const prstm_kernel_args *a)
{
	const prstm_mem m = a->m;
	tx_table v = a->v;
	const stm_params p = a->p;
	stm_shared *sh = a->sh;
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	stm_block_counters_clear(sum);
	/* The lanes of a warp step together, one attempt (or wait) each, so a
	 * warp sleeps only when all its running lanes wait: a sleeping lane never
	 * delays a lane of its warp that holds locks or a read set. */
	unsigned live = __ballot_sync(0xFFFFFFFFu, tid < p.threads);
	if (tid < p.threads) {
		prstm_sched s;
		int running = 1;
		prstm_sched_init(&s, tid, &v, &p, a->timeout_ns, a->run_ns, sh, gb_clock_ns());
		for (;;) {
			unsigned wait = 0;
			if (running) {
				running = prstm_step(workload, &s, &m, &v, &p, sh) == STM_RUNNING;
				wait = running && s.wait_ns ? (unsigned)(s.wait_ns < 1000000u ? s.wait_ns : 1000000u) : 0;
			}
			if (!__any_sync(live, running))
				break;
			if (__all_sync(live, !running || wait))
				__nanosleep(__reduce_min_sync(live, running ? wait : 0xFFFFFFFFu));
		}
		stm_counters t = prstm_thread_totals(&s);
		stm_block_counters_add(sum, &t);
	}
	stm_block_counters_flush(sum, a->out);
}

#define PRSTM_GPU_CAT2(a, b) a##b
#define PRSTM_GPU_CAT(a, b) PRSTM_GPU_CAT2(a, b)
#define PRSTM_GPU_STR2(x) #x
#define PRSTM_GPU_STR(x) PRSTM_GPU_STR2(x)
#define PRSTM_GPU_BANK_KERNEL PRSTM_GPU_CAT(prstm_bank_kernel_, PRSTM_GPU_KERNELS)
#define PRSTM_GPU_VACATION_KERNEL PRSTM_GPU_CAT(prstm_vacation_kernel_, PRSTM_GPU_KERNELS)
#define PRSTM_GPU_SKIPLIST_KERNEL PRSTM_GPU_CAT(prstm_skiplist_kernel_, PRSTM_GPU_KERNELS)
#define PRSTM_GPU_KMEANS_KERNEL PRSTM_GPU_CAT(prstm_kmeans_kernel_, PRSTM_GPU_KERNELS)
#define PRSTM_GPU_GRAPH_KERNEL PRSTM_GPU_CAT(prstm_graph_kernel_, PRSTM_GPU_KERNELS)
#define PRSTM_GPU_MEMCACHED_KERNEL PRSTM_GPU_CAT(prstm_memcached_kernel_, PRSTM_GPU_KERNELS)

#if PRSTM_GPU_HAS_BANK
__global__ void PRSTM_GPU_BANK_KERNEL(prstm_kernel_args a)
{
	prstm_kernel_body(PRSTM_GPU_BANK, &a);
}
#endif

#if PRSTM_GPU_NARROW
__global__ void PRSTM_GPU_VACATION_KERNEL(prstm_kernel_args a)
{
	prstm_kernel_body(PRSTM_GPU_VACATION, &a);
}

__global__ void PRSTM_GPU_KMEANS_KERNEL(prstm_kernel_args a)
{
	prstm_kernel_body(PRSTM_GPU_KMEANS, &a);
}

__global__ void PRSTM_GPU_GRAPH_KERNEL(prstm_kernel_args a)
{
	prstm_kernel_body(PRSTM_GPU_GRAPH, &a);
}
#endif

#if PRSTM_GPU_HAS_SKIPLIST
__global__ void PRSTM_GPU_SKIPLIST_KERNEL(prstm_kernel_args a)
{
	prstm_kernel_body(PRSTM_GPU_SKIPLIST, &a);
}
#endif

#if PRSTM_GPU_HAS_MEMCACHED
__global__ void PRSTM_GPU_MEMCACHED_KERNEL(prstm_kernel_args a)
{
	prstm_kernel_body(PRSTM_GPU_MEMCACHED, &a);
}
#endif

extern const prstm_gpu_kernels PRSTM_GPU_CAT(prstm_gpu_kernels_, PRSTM_GPU_KERNELS) = {
#if PRSTM_GPU_HAS_BANK
	.bank = {.capacity = PRSTM_MAX_SET, .fn = (const void *)PRSTM_GPU_BANK_KERNEL,
		 .name = PRSTM_GPU_STR(PRSTM_GPU_BANK_KERNEL)},
#else
	.bank = {.capacity = PRSTM_MAX_SET, .fn = NULL, .name = NULL},
#endif
#if PRSTM_GPU_NARROW
	.vacation = {.capacity = PRSTM_MAX_SET, .fn = (const void *)PRSTM_GPU_VACATION_KERNEL,
		     .name = PRSTM_GPU_STR(PRSTM_GPU_VACATION_KERNEL)},
#else
	.vacation = {.capacity = PRSTM_MAX_SET, .fn = NULL, .name = NULL},
#endif
#if PRSTM_GPU_HAS_SKIPLIST
	.skiplist = {.capacity = PRSTM_MAX_SET, .fn = (const void *)PRSTM_GPU_SKIPLIST_KERNEL,
		     .name = PRSTM_GPU_STR(PRSTM_GPU_SKIPLIST_KERNEL)},
#else
	.skiplist = {.capacity = PRSTM_MAX_SET, .fn = NULL, .name = NULL},
#endif
#if PRSTM_GPU_NARROW
	.kmeans = {.capacity = PRSTM_MAX_SET, .fn = (const void *)PRSTM_GPU_KMEANS_KERNEL,
		   .name = PRSTM_GPU_STR(PRSTM_GPU_KMEANS_KERNEL)},
	.graph = {.capacity = PRSTM_MAX_SET, .fn = (const void *)PRSTM_GPU_GRAPH_KERNEL,
		  .name = PRSTM_GPU_STR(PRSTM_GPU_GRAPH_KERNEL)},
#else
	.kmeans = {.capacity = PRSTM_MAX_SET, .fn = NULL, .name = NULL},
	.graph = {.capacity = PRSTM_MAX_SET, .fn = NULL, .name = NULL},
#endif
#if PRSTM_GPU_HAS_MEMCACHED
	.memcached = {.capacity = PRSTM_MAX_SET, .fn = (const void *)PRSTM_GPU_MEMCACHED_KERNEL,
		      .name = PRSTM_GPU_STR(PRSTM_GPU_MEMCACHED_KERNEL)},
#else
	.memcached = {.capacity = PRSTM_MAX_SET, .fn = NULL, .name = NULL},
#endif
};
