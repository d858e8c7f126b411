/* The host side of the GPU backend every STM engine shares (see stm/backend/stm_gpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cuda_check.h"
#include "stm/backend/stm_gpu.h"

extern "C" {
#include "common/device.h"
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

stm_gpu *stm_gpu_open(const tx_input *in, const stm_params *p, const void *kernel, const char *kernel_name)
{
	stm_gpu *g = (stm_gpu *)calloc(1, sizeof(*g));
	gb_device_info dev;
	int per_sm = 0;
	size_t aux_words = (size_t)in->ntx * in->aux_stride;

	if (!g)
		gb_die(GB_EXIT_RUNTIME, "out of host memory for the GPU backend state");
	if (gb_device_query(gb_device_current(), &dev) != 0)
		gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device %d", gb_device_current());
	g->kernel = kernel;
	g->kernel_name = kernel_name;
	g->in = *in;
	g->capacity = in->ntx;
	g->p = *p;
	g->nlocks = (in->words + p->hash - 1) / p->hash;
	g->block_size = p->block_size ? p->block_size : choose_block_size(p->threads, dev.sm_count);
	g->blocks = (p->threads + g->block_size - 1) / g->block_size;
	g->cycles_per_ns = dev.sm_clock_khz / 1e6;
	/* A timed run's round gate waits for the slowest thread: every block must
	 * be running, or a waiting one would keep an unscheduled one out. */
	GB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)g->block_size, 0),
		"querying the occupancy of %s at %u threads per block", kernel_name, g->block_size);
	if (per_sm == 0) {
		/* a kernel of wide sets (PR-STM's of 64 words: about 192 registers a thread) fits fewer
		 * threads in a block than the device's limit: say so before a launch fails */
		cudaFuncAttributes fa;
		GB_CUDA(cudaFuncGetAttributes(&fa, kernel), "querying the attributes of %s", kernel_name);
		gb_die(GB_EXIT_USAGE, "option --block-size: %s uses %d registers a thread, so a block holds at most %d "
		       "threads on this GPU, not %u (accepted here: 32..%d in steps of 32)", kernel_name, fa.numRegs,
		       fa.maxThreadsPerBlock, g->block_size, fa.maxThreadsPerBlock / 32 * 32);
	}
	g->rounds_ok = (uint64_t)per_sm * (uint64_t)dev.sm_count >= g->blocks;
	g->d_data = (uint32_t *)gb_cuda_alloc((size_t)in->words * 4, "data words");
	g->d_locks = (uint32_t *)gb_cuda_alloc((size_t)g->nlocks * 4, "lock table");
	g->d_status = (uint32_t *)gb_cuda_alloc((size_t)in->ntx * 4, "transaction status");
	g->d_entries = gb_cuda_alloc((size_t)in->ntx * in->entry_size, "transaction table");
	g->d_aux = aux_words ? (uint32_t *)gb_cuda_alloc(aux_words * 4, "transaction table's extra words") : NULL;
	g->d_shared = (stm_shared *)gb_cuda_alloc(sizeof(stm_shared), "run deadlines and counters");
	g->d_counters = (stm_counters *)gb_cuda_alloc(sizeof(stm_counters), "counters");
	GB_CUDA(cudaMemcpy(g->d_entries, in->entries, (size_t)in->ntx * in->entry_size, cudaMemcpyHostToDevice),
		"copying %llu transactions to the device", (unsigned long long)in->ntx);
	if (aux_words)
		GB_CUDA(cudaMemcpy(g->d_aux, in->aux, aux_words * 4, cudaMemcpyHostToDevice),
			"copying the transaction table's extra words to the device");
	gb_cuda_timer_init(&g->timer);
	return g;
}

tx_table stm_gpu_table(const stm_gpu *g)
{
	tx_table v;
	v.entries = g->d_entries;
	v.aux = g->d_aux;
	v.aux_stride = g->in.aux_stride;
	v.status = g->d_status;
	v.tx_per_thread = g->in.tx_per_thread;
	v.max_tag = g->in.max_tag;
	v.ntx = (uint32_t)g->in.ntx;
	v.results = NULL;
	return v;
}

void stm_gpu_retable(void *ctx, const tx_input *in)
{
	stm_gpu *g = (stm_gpu *)ctx;
	size_t aux_words = (size_t)in->ntx * in->aux_stride;

	if (in->ntx > g->capacity || in->words != g->in.words || in->max_words > g->in.max_words ||
	    in->entry_size != g->in.entry_size || in->aux_stride != g->in.aux_stride)
		gb_die(GB_EXIT_RUNTIME, "stm: a stage's table (%llu entries, %u words per transaction) outgrows "
		       "the one %s was opened with (%llu, %u)", (unsigned long long)in->ntx, in->max_words,
		       g->kernel_name, (unsigned long long)g->capacity, g->in.max_words);
	if (in->ntx)
		GB_CUDA(cudaMemcpy(g->d_entries, in->entries, (size_t)in->ntx * in->entry_size,
				   cudaMemcpyHostToDevice),
			"copying a stage's %llu transactions to the device", (unsigned long long)in->ntx);
	if (aux_words)
		GB_CUDA(cudaMemcpy(g->d_aux, in->aux, aux_words * 4, cudaMemcpyHostToDevice),
			"copying a stage's extra words to the device");
	g->in.ntx = in->ntx;
	g->in.tx_per_thread = in->tx_per_thread;
	g->in.max_tag = in->max_tag;
	g->in.entries = in->entries;
	g->in.aux = in->aux;
}

void stm_gpu_load(void *ctx, const uint32_t *words)
{
	stm_gpu *g = (stm_gpu *)ctx;
	GB_CUDA(cudaMemcpy(g->d_data, words, (size_t)g->in.words * 4, cudaMemcpyHostToDevice),
		"copying %u data words to the device", g->in.words);
	GB_CUDA(cudaMemset(g->d_locks, 0, (size_t)g->nlocks * 4), "clearing %u locks", g->nlocks);
}

int stm_gpu_rounds_ok(void *ctx)
{
	return ((stm_gpu *)ctx)->rounds_ok;
}

void stm_gpu_launch(stm_gpu *g, void **args, uint64_t run_ns, stm_batch_result *r)
{
	char what[128];

	memset(r, 0, sizeof(*r));
	GB_CUDA(cudaMemset(g->d_status, 0, (size_t)g->in.ntx * 4), "clearing transaction status");
	GB_CUDA(cudaMemset(g->d_shared, 0, sizeof(stm_shared)), "clearing the run's shared words");
	GB_CUDA(cudaMemset(g->d_counters, 0, sizeof(stm_counters)), "clearing counters");
	gb_cuda_timer_start(&g->timer);
	GB_CUDA(cudaLaunchKernel(g->kernel, dim3(g->blocks), dim3(g->block_size), args, 0, 0),
		"launching %s with %u blocks of %u threads", g->kernel_name, g->blocks, g->block_size);
	snprintf(what, sizeof(what), "%s (%u threads, %llu transactions%s)", g->kernel_name, g->p.threads,
		 (unsigned long long)g->in.ntx, run_ns ? ", timed run" : "");
	r->seconds = gb_cuda_timer_stop(&g->timer, what);
	GB_CUDA(cudaMemcpy(&r->c, g->d_counters, sizeof(stm_counters), cudaMemcpyDeviceToHost),
		"copying counters from the device");
	r->cycles_per_ns = g->cycles_per_ns;
	r->block_size = g->block_size;
}

void stm_gpu_fetch(void *ctx, uint32_t *words, uint32_t *status)
{
	stm_gpu *g = (stm_gpu *)ctx;
	if (words)
		GB_CUDA(cudaMemcpy(words, g->d_data, (size_t)g->in.words * 4, cudaMemcpyDeviceToHost),
			"copying data words from the device");
	if (status)
		GB_CUDA(cudaMemcpy(status, g->d_status, (size_t)g->in.ntx * 4, cudaMemcpyDeviceToHost),
			"copying transaction status from the device");
}

void stm_gpu_close(void *ctx)
{
	stm_gpu *g = (stm_gpu *)ctx;
	cudaFree(g->d_data);
	cudaFree(g->d_locks);
	cudaFree(g->d_status);
	cudaFree(g->d_entries);
	cudaFree(g->d_aux);
	cudaFree(g->d_shared);
	cudaFree(g->d_counters);
	cudaFree(g->d_engine);
	gb_cuda_timer_destroy(&g->timer);
	free(g);
}
