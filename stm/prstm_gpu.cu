/*
 * PR-STM's GPU backend: one CUDA thread per logical thread, each running the
 * shared scheduler (stm/prstm_bank.h) over its block of the transaction table
 * until done, or in a timed run round after round until the device clock
 * passes the run's end: one kernel for the whole run, no batch tails or
 * launches in between. The lock table, balances and status words live in global memory
 * and are accessed through the PTX loads, stores and atomics of common/port.h
 * (gpu scope, so the non-coherent L1 is bypassed).
 *
 * Per-thread counters are reduced in shared memory and added to the batch
 * totals once per block, after the transactional work.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"
#include "common/cuda_timer.h"
#include "stm/prstm_bank.h"
#include "stm/prstm_engines.h"

extern "C" {
#include "common/device.h"
}

/* The kernel sums the counters as an array of 64-bit words, in field order. */
#define STM_NCOUNTERS 16
#define STM_PASSES_MAX (offsetof(stm_counters, passes_max) / sizeof(uint64_t)) /* a maximum, not a sum */
static_assert(sizeof(stm_counters) == STM_NCOUNTERS * sizeof(uint64_t), "stm_counters layout");

typedef struct gpu_ctx {
	const bank_workload *w;
	stm_params p;
	uint32_t nlocks;
	uint32_t block_size;
	double cycles_per_ns;
	int rounds_ok; /* every block of the grid can be resident at once */
	uint32_t *d_data, *d_locks, *d_status, *d_extra;
	stm_shared *d_shared;
	bank_entry *d_tx;
	stm_counters *d_counters;
	gb_cuda_timer timer;
} gpu_ctx;

__global__ void prstm_bank_kernel(prstm_mem m, bank_view v, stm_params p, uint64_t timeout_ns,
				  uint64_t run_ns, stm_shared *sh, stm_counters *out)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;

	if (threadIdx.x < STM_NCOUNTERS)
		sum[threadIdx.x] = 0;
	__syncthreads();
	/* The lanes of a warp step together, one attempt (or wait) each, so a
	 * warp sleeps only when all its running lanes wait: a sleeping lane never
	 * delays a lane of its warp that holds locks or a read set. */
	unsigned live = __ballot_sync(0xFFFFFFFFu, tid < p.threads);
	if (tid < p.threads) {
		prstm_sched s;
		int running = 1;
		prstm_sched_init(&s, tid, &v, &p, timeout_ns, run_ns, sh, gb_clock_ns());
		for (;;) {
			unsigned wait = 0;
			if (running) {
				running = prstm_bank_step(&s, &m, &v, &p, sh) == STM_RUNNING;
				wait = running && s.wait_ns ? (unsigned)(s.wait_ns < 1000000u ? s.wait_ns : 1000000u) : 0;
			}
			if (!__any_sync(live, running))
				break;
			if (__all_sync(live, !running || wait))
				__nanosleep(__reduce_min_sync(live, running ? wait : 0xFFFFFFFFu));
		}
		stm_counters t = prstm_thread_totals(&s);
		const uint64_t *w = (const uint64_t *)&t;
		int k;
		for (k = 0; k < STM_NCOUNTERS; k++)
			if (k == STM_PASSES_MAX)
				atomicMax(&sum[k], (unsigned long long)w[k]);
			else if (w[k])
				atomicAdd(&sum[k], (unsigned long long)w[k]);
	}
	__syncthreads();
	if (threadIdx.x < STM_NCOUNTERS && sum[threadIdx.x]) {
		unsigned long long *o = (unsigned long long *)out;
		if (threadIdx.x == STM_PASSES_MAX)
			atomicMax(&o[threadIdx.x], sum[threadIdx.x]);
		else
			atomicAdd(&o[threadIdx.x], sum[threadIdx.x]);
	}
}

static uint32_t choose_block_size(uint32_t threads, int sms)
{
	/* Spread warps over every SM first: at the paper's 6720 threads a block
	 * of 128 would leave most of the machine idle. */
	uint32_t warps = (threads + 31) / 32, per = sms > 0 ? warps / (uint32_t)sms : 1;
	if (per < 1)
		per = 1;
	if (per > 4)
		per = 4;
	return per * 32;
}

static void *gpu_open(const bank_workload *w, const stm_params *p)
{
	gpu_ctx *c = (gpu_ctx *)calloc(1, sizeof(*c));
	gb_device_info dev;
	int per_sm = 0;
	uint32_t blocks;
	size_t extra_words = (size_t)w->ntx * w->extra_stride;

	if (!c)
		gb_die(GB_EXIT_RUNTIME, "out of host memory for the GPU backend state");
	if (gb_device_query(0, &dev) != 0)
		gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device 0");
	c->w = w;
	c->p = *p;
	c->nlocks = (w->cfg.accounts + p->hash - 1) / p->hash;
	c->block_size = p->block_size ? p->block_size : choose_block_size(p->threads, dev.sm_count);
	c->cycles_per_ns = dev.sm_clock_khz / 1e6;
	/* A timed run's round gate waits for the slowest thread: every block must
	 * be running, or a waiting one would keep an unscheduled one out. */
	blocks = (p->threads + c->block_size - 1) / c->block_size;
	GB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, prstm_bank_kernel,
							      (int)c->block_size, 0),
		"querying the occupancy of prstm_bank_kernel at %u threads per block", c->block_size);
	c->rounds_ok = (uint64_t)per_sm * (uint64_t)dev.sm_count >= blocks;
	c->d_data = (uint32_t *)gb_cuda_alloc((size_t)w->cfg.accounts * 4, "accounts");
	c->d_locks = (uint32_t *)gb_cuda_alloc((size_t)c->nlocks * 4, "lock table");
	c->d_status = (uint32_t *)gb_cuda_alloc((size_t)w->ntx * 4, "transaction status");
	c->d_tx = (bank_entry *)gb_cuda_alloc((size_t)w->ntx * sizeof(bank_entry), "transaction table");
	c->d_extra = extra_words ? (uint32_t *)gb_cuda_alloc(extra_words * 4, "transaction accounts") : NULL;
	c->d_shared = (stm_shared *)gb_cuda_alloc(sizeof(stm_shared), "run deadlines and counters");
	c->d_counters = (stm_counters *)gb_cuda_alloc(sizeof(stm_counters), "counters");
	GB_CUDA(cudaMemcpy(c->d_tx, w->tx, (size_t)w->ntx * sizeof(bank_entry), cudaMemcpyHostToDevice),
		"copying %llu transactions to the device", (unsigned long long)w->ntx);
	if (extra_words)
		GB_CUDA(cudaMemcpy(c->d_extra, w->extra, extra_words * 4, cudaMemcpyHostToDevice),
			"copying transaction accounts to the device");
	gb_cuda_timer_init(&c->timer);
	return c;
}

static void gpu_load(void *vctx, const int32_t *balances)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	GB_CUDA(cudaMemcpy(c->d_data, balances, (size_t)c->w->cfg.accounts * 4, cudaMemcpyHostToDevice),
		"copying %u balances to the device", c->w->cfg.accounts);
	GB_CUDA(cudaMemset(c->d_locks, 0, (size_t)c->nlocks * 4), "clearing %u locks", c->nlocks);
}

static int gpu_rounds_ok(void *vctx)
{
	return ((gpu_ctx *)vctx)->rounds_ok;
}

static void gpu_run(void *vctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	prstm_mem m;
	bank_view v;
	uint32_t blocks = (c->p.threads + c->block_size - 1) / c->block_size;
	char what[128];

	m.locks = c->d_locks;
	m.data = c->d_data;
	m.hash = c->p.hash;
	v.tx = c->d_tx;
	v.extra = c->d_extra;
	v.extra_stride = c->w->extra_stride;
	v.status = c->d_status;
	v.tx_per_thread = c->w->cfg.tx_per_thread;
	v.max_tag = c->w->max_tag;

	memset(r, 0, sizeof(*r));
	GB_CUDA(cudaMemset(c->d_status, 0, (size_t)c->w->ntx * 4), "clearing transaction status");
	GB_CUDA(cudaMemset(c->d_shared, 0, sizeof(stm_shared)), "clearing the run's shared words");
	GB_CUDA(cudaMemset(c->d_counters, 0, sizeof(stm_counters)), "clearing counters");
	gb_cuda_timer_start(&c->timer);
	prstm_bank_kernel<<<blocks, c->block_size>>>(m, v, c->p, timeout_ns, run_ns, c->d_shared,
						     c->d_counters);
	GB_CUDA(cudaGetLastError(), "launching prstm_bank_kernel with %u blocks of %u threads",
		blocks, c->block_size);
	snprintf(what, sizeof(what), "prstm_bank_kernel (%u threads, %llu transactions%s)",
		 c->p.threads, (unsigned long long)c->w->ntx, run_ns ? ", timed run" : "");
	r->seconds = gb_cuda_timer_stop(&c->timer, what);
	GB_CUDA(cudaMemcpy(&r->c, c->d_counters, sizeof(stm_counters), cudaMemcpyDeviceToHost),
		"copying counters from the device");
	r->cycles_per_ns = c->cycles_per_ns;
	r->block_size = c->block_size;
}

static void gpu_fetch(void *vctx, int32_t *balances, uint32_t *status)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	if (balances)
		GB_CUDA(cudaMemcpy(balances, c->d_data, (size_t)c->w->cfg.accounts * 4, cudaMemcpyDeviceToHost),
			"copying balances from the device");
	if (status)
		GB_CUDA(cudaMemcpy(status, c->d_status, (size_t)c->w->ntx * 4, cudaMemcpyDeviceToHost),
			"copying transaction status from the device");
}

static void gpu_close(void *vctx)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	cudaFree(c->d_data);
	cudaFree(c->d_locks);
	cudaFree(c->d_status);
	cudaFree(c->d_tx);
	cudaFree(c->d_extra);
	cudaFree(c->d_shared);
	cudaFree(c->d_counters);
	gb_cuda_timer_destroy(&c->timer);
	free(c);
}

extern "C" const stm_bank_ops prstm_bank_gpu_ops = {
	gpu_open, gpu_load, gpu_run, gpu_rounds_ok, gpu_fetch, gpu_close,
};
