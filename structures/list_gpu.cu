/*
 * The lock-free list on the GPU (Mulder 2015, section 6.1, in CUDA instead of
 * OpenCL): one thread per logical thread of the workload, each running its
 * operations in order with the shared code of structures/semilist.h on a heap
 * image built on the host (structures/list_heap.c) and copied to the device.
 * The kernel's time is measured with CUDA events; copies are outside it.
 *
 *  gpu:      Listing 1's add (traverse to the end), get, Listing 3's delete.
 *  gpu-tail: the tail variant (section 8's future work). At each step the
 *            threads of a block that add take their nodes together from the
 *            allocator (contiguous blocks of the current superblocks, one
 *            atomic add per superblock touched; freed blocks when those run
 *            out), link them in thread order and one thread appends the chain
 *            with one CAS on the last node (sl_tail_append). The tail is a
 *            single word every append goes through, one dependent round trip
 *            after another, so it is contended once per block of TAIL_BLOCK
 *            threads rather than once per thread (or per warp: at a million
 *            nodes, 31250 warp appends in a row took longer than the CPU's
 *            serial list).
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

/* Where an operation's outcome, time and walk steps go. */
typedef struct list_out {
	uint8_t *outcome;
	uint32_t *op_ns, *op_steps;
	float cycles_per_ns;
} list_out;

__device__ static void record(const list_out *o, uint64_t c, uint8_t got, uint64_t cycles, uint32_t steps)
{
	o->outcome[c] = got;
	o->op_ns[c] = (uint32_t)((float)cycles / o->cycles_per_ns);
	o->op_steps[c] = steps;
}

__global__ void k_list_plain(kma_heap h, const uint32_t *ops, uint32_t threads, uint32_t steps, list_out o)
{
	uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, i;
	if (t >= threads)
		return;
	for (i = 0; i < steps; i++) {
		uint64_t c = (uint64_t)i * threads + t, c0;
		uint32_t op = ops[c], n = 0;
		uint8_t got;
		if (op == 0)
			continue;
		c0 = gb_cycles();
		got = list_apply(h, op, 0, &n);
		record(&o, c, got, gb_cycles() - c0, n);
	}
}

#define TAIL_BLOCK 1024u
#define TAIL_WARPS (TAIL_BLOCK / 32u)
#define TAIL_SEGS 8u

/*
 * Every thread of every block runs every step (threads past `threads` with
 * no-ops), so the block's barriers see them all. At a step, thread 0 counts
 * the block's adds from the warps' votes, takes that many nodes (contiguous
 * segments first, then a run of freed blocks), each adding thread takes the
 * node of its rank, writes its key and its link to the next rank's node,
 * and thread 0 appends the chain. Gets and deletes follow one by one.
 */
__global__ void __launch_bounds__(TAIL_BLOCK)
k_list_tail(kma_heap h, const uint32_t *ops, uint32_t threads, uint32_t steps, list_out o)
{
	__shared__ uint32_t warp_adds[TAIL_WARPS], warp_base[TAIL_WARPS];
	__shared__ uint32_t seg_first[TAIL_SEGS], seg_rank[TAIL_SEGS + 1];
	__shared__ uint32_t node_of[TAIL_BLOCK];
	__shared__ uint32_t nseg, ncontig, ngot;
	uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u, warp = threadIdx.x / 32u, i;

	for (i = 0; i < steps; i++) {
		uint64_t c = (uint64_t)i * threads + t, c0 = gb_cycles();
		uint32_t op = t < threads ? ops[c] : 0, node = 0, vote, rank = 0;
		int add = LIST_OP_OF(op) == LIST_ADD;

		vote = __ballot_sync(FULL_MASK, add);
		if (lane == 0)
			warp_adds[warp] = __popc(vote);
		__syncthreads();
		if (threadIdx.x == 0) {
			uint32_t total = 0, got = 0, ns = 0, w, k, f;
			for (w = 0; w < TAIL_WARPS; w++) {
				warp_base[w] = total;
				total += warp_adds[w];
			}
			while (got < total && ns < TAIL_SEGS) {
				k = kma_malloc_contig(h, SL_NODE_BYTES, total - got, &f);
				if (k == 0)
					break;
				seg_first[ns] = f;
				seg_rank[ns++] = got;
				got += k;
			}
			seg_rank[ns] = got;
			ncontig = got;
			if (got < total) { /* superblocks used up: freed blocks, or the heap is exhausted */
				k = kma_malloc_run(h, SL_NODE_BYTES, total - got, &f);
				for (w = 0; w < k; w++) {
					node_of[got + w] = f;
					if (w + 1 < k)
						f = gb_ld_relaxed_u32(kma_word(h, f));
				}
				got += k;
			}
			nseg = ns;
			ngot = got;
		}
		__syncthreads();
		if (add) {
			rank = warp_base[warp] + __popc(vote & ((1u << lane) - 1u));
			if (rank < ncontig) {
				uint32_t sgi = 0;
				while (sgi + 1 < nseg && seg_rank[sgi + 1] <= rank)
					sgi++;
				node_of[rank] = seg_first[sgi] + (rank - seg_rank[sgi]) * SL_NODE_BYTES;
			}
		}
		__syncthreads();
		if (add && rank < ngot) {
			node = node_of[rank];
			gb_st_relaxed_u32(sl_key(h, node), LIST_KEY_OF(op));
			gb_fence(); /* the key before the next word */
			gb_st_relaxed_u32(sl_next(h, node), rank + 1 < ngot ? node_of[rank + 1] : SL_LINKING);
			gb_fence();
		}
		__syncthreads();
		if (threadIdx.x == 0 && ngot)
			sl_tail_append(h, node_of[0], node_of[ngot - 1]);
		__syncthreads();
		if (add) {
			record(&o, c, node ? LIST_DONE : LIST_NOMEM, gb_cycles() - c0, 0); /* no walk: the chain */
		} else if (op) {
			uint32_t n = 0;
			uint8_t got_op;
			c0 = gb_cycles();
			got_op = list_apply(h, op, 1, &n);
			record(&o, c, got_op, gb_cycles() - c0, n);
		}
	}
}

static int gpu_run(const list_workload *w, const list_params *p, list_run *r, int tail, char *err,
		   size_t errlen)
{
	uint64_t cells = (uint64_t)w->steps * w->threads;
	size_t heap_bytes = (size_t)p->sb_count * p->sb_size;
	uint32_t block = tail ? TAIL_BLOCK : BLOCK, grid = (uint32_t)((w->threads + block - 1) / block);
	gb_device_info dev;
	gb_cuda_timer tm;
	kma_heap img, d;
	uint32_t *d_ops;
	list_out o;

	if (gb_device_query(gb_device_current(), &dev) != 0)
		return gb_errmsg(err, errlen, "cannot query CUDA device %d", gb_device_current());
	o.cycles_per_ns = dev.sm_clock_khz > 0 ? dev.sm_clock_khz / 1e6f : 1.0f;
	if (list_heap_build(w, p, tail, &img, err, errlen) != 0)
		return -1;
	d = img;
	d.base = (uint32_t *)gb_cuda_alloc(heap_bytes, "the list heap");
	d_ops = (uint32_t *)gb_cuda_alloc(cells * sizeof(uint32_t), "list operations");
	o.op_ns = (uint32_t *)gb_cuda_alloc(cells * sizeof(uint32_t), "operation times");
	o.op_steps = (uint32_t *)gb_cuda_alloc(cells * sizeof(uint32_t), "operation walk steps");
	o.outcome = (uint8_t *)gb_cuda_alloc(cells, "operation outcomes");
	GB_CUDA(cudaMemcpy(d.base, img.base, heap_bytes, cudaMemcpyHostToDevice), "copying a %zu-byte heap",
		heap_bytes);
	GB_CUDA(cudaMemcpy(d_ops, w->ops, cells * sizeof(uint32_t), cudaMemcpyHostToDevice),
		"copying %llu operations", (unsigned long long)cells);
	GB_CUDA(cudaMemset(o.outcome, 0, cells), "clearing outcomes");
	GB_CUDA(cudaMemset(o.op_ns, 0, cells * sizeof(uint32_t)), "clearing operation times");
	GB_CUDA(cudaMemset(o.op_steps, 0, cells * sizeof(uint32_t)), "clearing operation walk steps");

	/* Warm-up: load the module and wake the device with a launch that does nothing. */
	if (tail)
		k_list_tail<<<grid, TAIL_BLOCK>>>(d, d_ops, w->threads, 0, o);
	else
		k_list_plain<<<grid, BLOCK>>>(d, d_ops, w->threads, 0, o);
	GB_CUDA(cudaDeviceSynchronize(), "warming up the list kernel");

	gb_cuda_timer_init(&tm);
	gb_cuda_timer_start(&tm);
	if (tail)
		k_list_tail<<<grid, TAIL_BLOCK>>>(d, d_ops, w->threads, w->steps, o);
	else
		k_list_plain<<<grid, BLOCK>>>(d, d_ops, w->threads, w->steps, o);
	GB_CUDA(cudaGetLastError(), "launching the list kernel (%u blocks of %u)", grid, block);
	r->seconds = gb_cuda_timer_stop(&tm, "the list kernel");
	gb_cuda_timer_destroy(&tm);

	GB_CUDA(cudaMemcpy(img.base, d.base, heap_bytes, cudaMemcpyDeviceToHost), "copying the heap back");
	GB_CUDA(cudaMemcpy(r->outcome, o.outcome, cells, cudaMemcpyDeviceToHost), "copying outcomes back");
	GB_CUDA(cudaMemcpy(r->op_ns, o.op_ns, cells * sizeof(uint32_t), cudaMemcpyDeviceToHost),
		"copying operation times back");
	GB_CUDA(cudaMemcpy(r->op_steps, o.op_steps, cells * sizeof(uint32_t), cudaMemcpyDeviceToHost),
		"copying operation walk steps back");
	cudaFree(d.base);
	cudaFree(d_ops);
	cudaFree(o.op_ns);
	cudaFree(o.op_steps);
	cudaFree(o.outcome);
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
	.head = LIST_GPU_HEAD,
	.platform = LIST_ON_GPU,
	.run = run_plain,
	.tail = 0,
};

const list_engine list_engine_gpu_tail = {
	.head = LIST_GPU_TAIL_HEAD,
	.platform = LIST_ON_GPU,
	.run = run_tail,
	.tail = 1,
};
}
