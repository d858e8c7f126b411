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
 * Which workloads this capacity builds (workloads/stm/list.h, their `sizes`):
 * narrow ones (at most 8 words) up to capacity 8, wide ones (5 words and more)
 * at 8 and 16, any at 2 to 16, huge at every capacity (2 to 64). A build with the read log
 * (PRSTM_LONG_READS, stm/prstm/prstm.h) serves the workloads whose read-only
 * transactions may be longer than any set (`long_reads`), at the capacity of their
 * `set` (the bank 8, memcached 16: its PUT writes 14 words in the paper's layout).
 * PRSTM_GPU_BUILDS(set, sizes, long_reads) is 1 for a workload built here.
 */
#if defined(PRSTM_LONG_READS)
/* a build with the read log serves the workloads with long_reads whose set is its capacity */
#define PRSTM_GPU_LOG 1
#define PRSTM_GPU_BUILDS(set, sizes, long_reads) \
	GB_STM_CAT(GB_STM_CAT(PRSTM_GPU_LONG_, long_reads), GB_STM_CAT(_, set))
#define PRSTM_GPU_LONG_0_8 0
#define PRSTM_GPU_LONG_0_16 0
#if PRSTM_MAX_SET == 8
#define PRSTM_GPU_LONG_1_8 1
#define PRSTM_GPU_LONG_1_16 0
#elif PRSTM_MAX_SET == 16
#define PRSTM_GPU_LONG_1_8 0
#define PRSTM_GPU_LONG_1_16 1
#else
#error "PR-STM's builds with the read log are of capacity 8 or 16"
#endif
#else
#define PRSTM_GPU_LOG 0
#define PRSTM_GPU_BUILDS(set, sizes, long_reads) GB_STM_CAT(PRSTM_GPU_SIZES_, sizes)
#define PRSTM_GPU_SIZES_huge 1
#if PRSTM_MAX_SET <= 16
#define PRSTM_GPU_SIZES_any 1
#else
#define PRSTM_GPU_SIZES_any 0
#endif
#if PRSTM_MAX_SET <= 8
#define PRSTM_GPU_SIZES_narrow 1
#else
#define PRSTM_GPU_SIZES_narrow 0
#endif
#if PRSTM_MAX_SET >= 8 && PRSTM_MAX_SET <= 16
#define PRSTM_GPU_SIZES_wide 1
#else
#define PRSTM_GPU_SIZES_wide 0
#endif
#endif

#include "stm/prstm/prstm_step.h"
#include "stm/prstm/prstm_gpu.cuh"
#include "stm/backend/stm_gpu.cuh"

/* One kernel's work, for the workload it was built for. */
static __device__ __forceinline__ void prstm_kernel_body(uint32_t workload, const prstm_kernel_args *a)
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
		uint64_t t0 = gb_cycles();
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
		t.cycles_thread = gb_cycles() - t0; /* the lane's loop, its warp's waits included */
		stm_block_counters_add(sum, &t);
	}
	stm_block_counters_flush(sum, a->out);
}

#define PRSTM_GPU_STR2(x) #x
#define PRSTM_GPU_STR(x) PRSTM_GPU_STR2(x)
/* The kernel of workload `name` at this capacity: prstm_bank_kernel_set8, ... */
#define PRSTM_GPU_KERNEL(name) GB_STM_CAT(prstm_##name##_kernel_, PRSTM_GPU_KERNELS)

#define PRSTM_GPU_DEFINE(name, set, sizes, long_reads)                          \
	GB_STM_IF(PRSTM_GPU_BUILDS(set, sizes, long_reads))(                         \
		__global__ void PRSTM_GPU_KERNEL(name)(prstm_kernel_args a)     \
		{ prstm_kernel_body(STM_WORKLOAD_##name, &a); })
STM_WORKLOADS(PRSTM_GPU_DEFINE)
#undef PRSTM_GPU_DEFINE

/* The kernels by workload, in the list's order; those not built here have no function. */
#define PRSTM_GPU_ENTRY_1(name)                                                  \
	{PRSTM_MAX_SET, PRSTM_GPU_LOG, (const void *)PRSTM_GPU_KERNEL(name), PRSTM_GPU_STR(PRSTM_GPU_KERNEL(name))},
#define PRSTM_GPU_ENTRY_0(name) {PRSTM_MAX_SET, PRSTM_GPU_LOG, NULL, NULL},
#define PRSTM_GPU_ENTRY(name, set, sizes, long_reads) \
	GB_STM_CAT(PRSTM_GPU_ENTRY_, PRSTM_GPU_BUILDS(set, sizes, long_reads))(name)
extern const prstm_gpu_kernel GB_STM_CAT(prstm_gpu_kernels_, PRSTM_GPU_KERNELS)[STM_NWORKLOADS] = {
	STM_WORKLOADS(PRSTM_GPU_ENTRY)
};
