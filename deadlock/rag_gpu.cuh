/*
 * What the GPU deadlock detectors (deadlock/osdda_gpu.cu, lmdda_gpu.cu) share:
 * the event's trip to the device and back, the two launch structures, grid
 * sizes, the memory check, and the block reduction of the thesis's
 * Row_Reduction and Find_Waiting_Processes (sections 3.3.6 and 4.3.6).
 *
 * Launch structures (--impl):
 *  - thesis (gpu, gpu-initial): the host launches the kernels the event needs
 *    and copies the verdicts back between them, as Algorithms 4 and 12 do:
 *    up to 4 host round trips and 7 launches per OSDDA event, and for an
 *    LMDDA release 6 + 3 ceil(log2(min(m, n))) launches.
 *  - graph (gpu-graph): one CUDA graph per event type (request, release),
 *    captured at open: the event's upload, every kernel such an event may
 *    need, the verdicts' download. The kernels' gates (osdda_gate,
 *    lmdda_gate) skip the work the event does not need, so the host launches
 *    one graph and waits once. Chosen over a persistent kernel because the
 *    engine answers one event at a time (the interactive service the thesis
 *    describes): a persistent kernel would have to poll host memory for the
 *    next event and synchronise the whole grid between phases, and any
 *    mistake there hangs the device, while a graph keeps the kernels and
 *    their boundaries as they are. What it does not save: a gated-off
 *    kernel still costs its node's launch on the device.
 * Kernels over rows or words use at most RAG_GPU_THREADS threads a block and
 * at most RAG_GPU_MAX_BLOCKS_PER_SM blocks an SM, looping over the rest, so
 * a gated-off kernel exits quickly and any M, N that fit in memory run
 * (section 6.2).
 */
#ifndef GB_RAG_GPU_CUH
#define GB_RAG_GPU_CUH

#include <stdint.h>

#include "common/cuda_check.h"
#include "deadlock/rag_bits.h"

#define RAG_GPU_THREADS 256u
#define RAG_GPU_MAX_BLOCKS_PER_SM 16u

typedef struct rag_gpu {
	cudaStream_t st;
	uint32_t *d_io, *h_in, *h_out; /* the io words: device, pinned upload, pinned download */
	uint32_t io_words;
	int graph;
	cudaGraphExec_t exec[2];       /* graph: [1] requests, [0] releases */
	uint32_t max_blocks;
} rag_gpu;

/* Exit 1, before allocating, when bytes of device memory are not free. */
void rag_gpu_require(size_t bytes, const char *what);

/* Stream, io words, pinned buffers. */
void rag_gpu_open(rag_gpu *g, uint32_t io_words, int graph);

/* Capture both graphs: all(ctx, request) launches the kernels of one event type. */
void rag_gpu_capture(rag_gpu *g, void (*all)(void *ctx, int request), void *ctx);

/* Run one event whose io words the caller wrote to h_in: upload it (thesis) or run its graph. */
const uint32_t *rag_gpu_graph_event(rag_gpu *g, int request);
void rag_gpu_upload(rag_gpu *g);

/* Before the first event: all(ctx, request) launches every kernel of both event types (and
 * each graph runs once) on a RAG_GPU_WARM_UP event that the caller wrote to h_in, so that
 * module loading and first-launch costs stay out of the timed events. */
void rag_gpu_warm_up(rag_gpu *g, void (*all)(void *ctx, int request), void *ctx);

/* Wait for the device and return the io words (pinned). */
const uint32_t *rag_gpu_read(rag_gpu *g);

void rag_gpu_close(rag_gpu *g);

/* Blocks for n items of one thread each, bounded (the kernels loop over the rest). */
uint32_t rag_gpu_blocks(const rag_gpu *g, size_t n);

/* Threads a block for a row of words words: whole warps, at most RAG_GPU_THREADS. */
uint32_t rag_gpu_row_threads(uint32_t words);

/* Check the launch just made; what names the kernel in the error. */
void rag_gpu_launched(const char *algo, const char *what);

/*
 * The first set cell of a row (RB_NONE when empty), in thread 0: the block
 * reads the row's words in a coalesced sweep, then reduces with warp
 * shuffles and one shared-memory step.
 */
static __device__ __forceinline__ uint32_t rag_block_first_set(const uint32_t *row, uint32_t words,
							       uint32_t lcpw)
{
	__shared__ uint32_t part[32];
	uint32_t best = RB_NONE, w, off, lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
	for (w = threadIdx.x; w < words; w += blockDim.x)
		best = min(best, rb_first_in_word(row[w], w, lcpw));
	for (off = 16; off; off >>= 1)
		best = min(best, __shfl_down_sync(0xffffffffu, best, off));
	if (lane == 0)
		part[warp] = best;
	__syncthreads();
	if (warp == 0) {
		best = lane < (blockDim.x + 31u) / 32u ? part[lane] : RB_NONE;
		for (off = 16; off; off >>= 1)
			best = min(best, __shfl_down_sync(0xffffffffu, best, off));
	}
	return best;
}

/* Grid-stride loop over n items. */
#define RAG_FOR_EACH(var, n) \
	for (size_t var = (size_t)blockIdx.x * blockDim.x + threadIdx.x; var < (n); \
	     var += (size_t)gridDim.x * blockDim.x)

#endif
