/*
 * The lock-free list on the GPU (Mulder 2015, section 6.1, in CUDA instead of
 * OpenCL): one thread per logical thread of the workload, each running its
 * operations in order with the shared code of structures/semilist.h on a heap
 * image built on the host (structures/list_heap.c) and copied to the device.
 * The kernel's time is measured with CUDA events; copies are outside it.
 *
 *  gpu:      Listing 1's add (traverse to the end), get, Listing 3's delete.
 *  gpu-tail: the tail variant (section 8's future work). At each step the
 *            lanes of a warp that add allocate their nodes, link them in lane
 *            order with shuffles and the lowest lane appends the chain with
 *            one CAS on the last node (sl_tail_append), so the single tail is
 *            contended once per warp rather than once per thread.
 * Per-operation durations are SM clock cycles converted with the device's
 * reported clock, so they are approximate where the clock boosts.
 */
#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"
#include "common/cuda_timer.h"
#include "structures/list_apply.h"

extern "C" {
#include "common/device.h"
#include "structures/list_engine.h"
}

#define BLOCK 256u
#define FULL_MASK 0xFFFFFFFFu

__device__ static void record(uint8_t *outcome, uint32_t *op_ns, uint64_t c, uint8_t got, uint64_t cycles,
			      float cycles_per_ns)
{
	outcome[c] = got;
	op_ns[c] = (uint32_t)((float)cycles / cycles_per_ns);
}

__global__ void k_list_plain(kma_heap h, const uint32_t *ops, uint32_t threads, uint32_t steps,
			     uint8_t *outcome, uint32_t *op_ns, float cycles_per_ns)
{
	uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, i;
	if (t >= threads)
		return;
	for (i = 0; i < steps; i++) {
		uint64_t c = (uint64_t)i * threads + t, c0;
		uint32_t op = ops[c];
		uint8_t got;
		if (op == 0)
			continue;
		c0 = gb_cycles();
		got = list_apply(h, op, 0);
		record(outcome, op_ns, c, got, gb_cycles() - c0, cycles_per_ns);
	}
}

/* Every lane of every warp runs every step (lanes past threads with no-ops), so the warp votes see all 32. */
__global__ void k_list_tail(kma_heap h, const uint32_t *ops, uint32_t threads, uint32_t steps,
			    uint8_t *outcome, uint32_t *op_ns, float cycles_per_ns)
{
	uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u, i;
	for (i = 0; i < steps; i++) {
		uint64_t c = (uint64_t)i * threads + t, c0 = gb_cycles();
		uint32_t op = t < threads ? ops[c] : 0, node = 0, have;
		int add = LIST_OP_OF(op) == LIST_ADD;

		if (add) {
			node = kma_malloc(h, SL_NODE_BYTES);
			if (node)
				gb_st_relaxed_u32(sl_key(h, node), LIST_KEY_OF(op));
		}
		have = __ballot_sync(FULL_MASK, node != 0);
		if (have) {
			uint32_t above = lane == 31 ? 0 : have & (FULL_MASK << (lane + 1));
			uint32_t next = __shfl_sync(FULL_MASK, node, above ? __ffs(above) - 1 : 0);
			uint32_t lo = __ffs(have) - 1, hi = 31 - __clz(have);
			uint32_t first = __shfl_sync(FULL_MASK, node, lo), last = __shfl_sync(FULL_MASK, node, hi);
			if (node) {
				gb_fence(); /* the key before the next word */
				gb_st_relaxed_u32(sl_next(h, node), above ? next : 0);
				gb_fence();
			}
			__syncwarp(FULL_MASK);
			if (lane == lo)
				sl_tail_append(h, first, last);
			__syncwarp(FULL_MASK);
		}
		if (add)
			record(outcome, op_ns, c, node ? LIST_DONE : LIST_NOMEM, gb_cycles() - c0, cycles_per_ns);
		else if (op) {
			uint8_t got;
			c0 = gb_cycles();
			got = list_apply(h, op, 1);
			record(outcome, op_ns, c, got, gb_cycles() - c0, cycles_per_ns);
		}
	}
}

static int gpu_run(const list_workload *w, const list_params *p, list_run *r, int tail, char *err,
		   size_t errlen)
{
	uint64_t cells = (uint64_t)w->steps * w->threads;
	size_t heap_bytes = (size_t)p->sb_count * p->sb_size;
	uint32_t grid = (uint32_t)((w->threads + BLOCK - 1) / BLOCK);
	gb_device_info dev;
	gb_cuda_timer tm;
	kma_heap img, d;
	uint32_t *d_ops, *d_ns;
	uint8_t *d_out;
	float cpn;

	if (gb_device_query(0, &dev) != 0)
		return gb_errmsg(err, errlen, "cannot query CUDA device 0");
	cpn = dev.sm_clock_khz > 0 ? dev.sm_clock_khz / 1e6f : 1.0f;
	if (list_heap_build(w, p, tail, &img, err, errlen) != 0)
		return -1;
	d = img;
	d.base = (uint32_t *)gb_cuda_alloc(heap_bytes, "the list heap");
	d_ops = (uint32_t *)gb_cuda_alloc(cells * sizeof(uint32_t), "list operations");
	d_ns = (uint32_t *)gb_cuda_alloc(cells * sizeof(uint32_t), "operation times");
	d_out = (uint8_t *)gb_cuda_alloc(cells, "operation outcomes");
	GB_CUDA(cudaMemcpy(d.base, img.base, heap_bytes, cudaMemcpyHostToDevice), "copying a %zu-byte heap",
		heap_bytes);
	GB_CUDA(cudaMemcpy(d_ops, w->ops, cells * sizeof(uint32_t), cudaMemcpyHostToDevice),
		"copying %llu operations", (unsigned long long)cells);
	GB_CUDA(cudaMemset(d_out, 0, cells), "clearing outcomes");
	GB_CUDA(cudaMemset(d_ns, 0, cells * sizeof(uint32_t)), "clearing operation times");

	/* Warm-up: load the module and wake the device with a launch that does nothing. */
	if (tail)
		k_list_tail<<<grid, BLOCK>>>(d, d_ops, w->threads, 0, d_out, d_ns, cpn);
	else
		k_list_plain<<<grid, BLOCK>>>(d, d_ops, w->threads, 0, d_out, d_ns, cpn);
	GB_CUDA(cudaDeviceSynchronize(), "warming up the list kernel");

	gb_cuda_timer_init(&tm);
	gb_cuda_timer_start(&tm);
	if (tail)
		k_list_tail<<<grid, BLOCK>>>(d, d_ops, w->threads, w->steps, d_out, d_ns, cpn);
	else
		k_list_plain<<<grid, BLOCK>>>(d, d_ops, w->threads, w->steps, d_out, d_ns, cpn);
	GB_CUDA(cudaGetLastError(), "launching the list kernel (%u blocks of %u)", grid, BLOCK);
	r->seconds = gb_cuda_timer_stop(&tm, "the list kernel");
	gb_cuda_timer_destroy(&tm);

	GB_CUDA(cudaMemcpy(img.base, d.base, heap_bytes, cudaMemcpyDeviceToHost), "copying the heap back");
	GB_CUDA(cudaMemcpy(r->outcome, d_out, cells, cudaMemcpyDeviceToHost), "copying outcomes back");
	GB_CUDA(cudaMemcpy(r->op_ns, d_ns, cells * sizeof(uint32_t), cudaMemcpyDeviceToHost),
		"copying operation times back");
	cudaFree(d.base);
	cudaFree(d_ops);
	cudaFree(d_ns);
	cudaFree(d_out);
	list_heap_finish(img, r);
	kma_host_destroy(img);
	return 0;
}

static int run_plain(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	return gpu_run(w, p, r, 0, err, errlen);
}

static int run_tail(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	return gpu_run(w, p, r, 1, err, errlen);
}

extern "C" {
extern const list_engine list_engine_gpu, list_engine_gpu_tail;

const list_engine list_engine_gpu = {
	"gpu", "the lock-free list (Listings 1 and 3) on the KMA-style heap, in CUDA", LIST_ON_GPU, 1,
	run_plain,
};

const list_engine list_engine_gpu_tail = {
	"gpu-tail", "the tail-pointer list in CUDA, a warp's adds appended as one chain", LIST_ON_GPU, 1,
	run_tail,
};
}
