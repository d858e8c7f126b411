/*
 * PR-STM's GPU backend: the host side of the kernel in stm/prstm_gpu_kernel.cuh.
 * A batch is one launch in which every thread sweeps its block of the
 * transaction table until all of it has committed; a timed run is one launch
 * in which threads sweep round after round until the device clock passes the
 * run's end: no batch tails or launches in between. The lock table, balances
 * and status words live in global memory and are accessed through the PTX
 * loads, stores and atomics of common/port.h (gpu scope, so the non-coherent
 * L1 is bypassed).
 *
 * The kernel is built for set capacities 2, 4 and 8 (stm/prstm_gpu.cuh); this
 * file builds the one for 8 and picks, at open, the smallest that holds every
 * transaction of the table.
 */
#define PRSTM_MAX_SET 8
#define PRSTM_GPU_KERNEL prstm_bank_kernel_set8
#define PRSTM_GPU_ENTRY prstm_gpu_kernel_set8
#include "stm/prstm_gpu_kernel.cuh"

#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"
#include "common/cuda_timer.h"
#include "stm/prstm_engines.h"

extern "C" {
#include "common/device.h"
}

typedef struct gpu_ctx {
	const bank_workload *w;
	const prstm_gpu_kernel *k; /* the kernel of the smallest capacity that fits */
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

/* The smallest kernel whose sets hold the largest transaction of the table. */
static const prstm_gpu_kernel *choose_kernel(const bank_workload *w)
{
	static const prstm_gpu_kernel *const by_capacity[] = {
		&prstm_gpu_kernel_set2, &prstm_gpu_kernel_set4, &prstm_gpu_kernel_set8,
	};
	uint32_t most = 0, k;
	uint64_t i;
	for (i = 0; i < w->ntx; i++)
		if (BANK_NACCT(w->tx[i].meta) > most)
			most = BANK_NACCT(w->tx[i].meta);
	for (k = 0; k + 1 < sizeof(by_capacity) / sizeof(by_capacity[0]); k++)
		if (most <= by_capacity[k]->capacity)
			break;
	return by_capacity[k];
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
	c->k = choose_kernel(w);
	c->p = *p;
	c->nlocks = (w->cfg.accounts + p->hash - 1) / p->hash;
	c->block_size = p->block_size ? p->block_size : choose_block_size(p->threads, dev.sm_count);
	c->cycles_per_ns = dev.sm_clock_khz / 1e6;
	/* A timed run's round gate waits for the slowest thread: every block must
	 * be running, or a waiting one would keep an unscheduled one out. */
	blocks = (p->threads + c->block_size - 1) / c->block_size;
	GB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, c->k->fn, (int)c->block_size, 0),
		"querying the occupancy of %s at %u threads per block", c->k->name, c->block_size);
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
	prstm_kernel_args a;
	void *args[] = {&a};
	uint32_t blocks = (c->p.threads + c->block_size - 1) / c->block_size;
	char what[128];

	memset(&a, 0, sizeof(a));
	a.m.locks = c->d_locks;
	a.m.data = c->d_data;
	a.m.hash = c->p.hash;
	a.v.tx = c->d_tx;
	a.v.extra = c->d_extra;
	a.v.extra_stride = c->w->extra_stride;
	a.v.status = c->d_status;
	a.v.tx_per_thread = c->w->cfg.tx_per_thread;
	a.v.max_tag = c->w->max_tag;
	a.p = c->p;
	a.timeout_ns = timeout_ns;
	a.run_ns = run_ns;
	a.sh = c->d_shared;
	a.out = c->d_counters;

	memset(r, 0, sizeof(*r));
	GB_CUDA(cudaMemset(c->d_status, 0, (size_t)c->w->ntx * 4), "clearing transaction status");
	GB_CUDA(cudaMemset(c->d_shared, 0, sizeof(stm_shared)), "clearing the run's shared words");
	GB_CUDA(cudaMemset(c->d_counters, 0, sizeof(stm_counters)), "clearing counters");
	gb_cuda_timer_start(&c->timer);
	GB_CUDA(cudaLaunchKernel(c->k->fn, dim3(blocks), dim3(c->block_size), args, 0, 0),
		"launching %s with %u blocks of %u threads", c->k->name, blocks, c->block_size);
	snprintf(what, sizeof(what), "%s (%u threads, %llu transactions%s)", c->k->name,
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
