/*
 * GPU-LMDDA (Abell's thesis, chapter 4): the kernels of Algorithm 12 over the
 * per-element functions of deadlock/lmdda_bits.h, which lists the deviations
 * from the pseudocode; deadlock/rag_gpu.cuh describes the launch structures.
 *
 *   gpu          bit-packed AR, RP and their transposes (section 4.3.2), AG
 *                one count a cell, the thesis's launches: Request_Granted,
 *                Deadlock_Check, Release_Resource, Determine_Release_Type
 *                <<<1,1>>>; Find_Sink_Processes one block a process,
 *                Update_RP_Blocked one block a resource;
 *                Find_Waiting_Processes one block; the transpose of AR one
 *                thread a 32 x 32 tile; InitRP_Reachability and the node
 *                hopping kernels one thread a word of their output. Blocks have at
 *                most RAG_GPU_THREADS threads and loop over what the grid
 *                does not cover, so M and N may exceed 1024 (section 6.2).
 *   gpu-graph    the same kernels, one CUDA graph per event.
 *   gpu-initial  the thesis's first design (section 4.3.1): one int a cell
 *                for AR, RP and the rest, the same kernels and launches.
 * Device memory: AG (4 M N bytes), free units, and bit-packed AR, AR_trans,
 * RP, RP_temp, the transpose scratch (5 M N bits) and CONN (M^2 bits):
 * 4.8 MiB at 1024 x 1024, 1.19 GiB at 16384 x 16384.
 */
#include <stdio.h>
#include <string.h>

extern "C" {
#include "common/error.h"
#include "deadlock/rag.h"
}
#include "deadlock/lmdda_bits.h"
#include "deadlock/rag_gpu.cuh"

typedef struct lmdda_gpu {
	lmdda_dev d;
	rag_gpu g;
	uint32_t *mem; /* every matrix, one allocation */
	uint64_t bytes;
} lmdda_gpu;

/* ---- kernels: a gate, then the per-element functions ---- */

__global__ void k_lm_single(lmdda_dev d, unsigned k)
{
	if (lmdda_gate(d.io, k, 0))
		lmdda_single(&d, k);
}

/* Find_Sink_Processes: an OR reduction of AR's row z per block. */
__global__ void k_lm_sinks(lmdda_dev d)
{
	uint32_t z, w;
	if (!lmdda_gate(d.io, LK_SINKS, 0))
		return;
	for (z = blockIdx.x; z < d.M; z += gridDim.x) {
		uint32_t acc = 0;
		for (w = threadIdx.x; w < d.Nw; w += blockDim.x)
			acc |= lmdda_sinks_word(&d, z, w);
		acc = __syncthreads_or(acc != 0);
		if (threadIdx.x == 0)
			lmdda_sinks_store(&d, z, acc);
	}
}

__global__ void k_lm_rp_blocked(lmdda_dev d)
{
	uint32_t k, w;
	if (!lmdda_gate(d.io, LK_RP_BLOCKED, 0))
		return;
	for (k = blockIdx.x; k < d.N; k += gridDim.x)
		for (w = threadIdx.x; w < d.Mw; w += blockDim.x)
			lmdda_rp_blocked_word(&d, k, w);
}

__global__ void k_lm_waiter(lmdda_dev d)
{
	uint32_t best;
	if (!lmdda_gate(d.io, LK_WAITER, 0))
		return;
	best = rag_block_first_set(lmdda_waiter_row(&d), d.Mw, d.lcpw);
	if (threadIdx.x == 0)
		d.io[LM_WAITER] = best;
}

__global__ void k_lm_transpose(lmdda_dev d, unsigned k)
{
	size_t n = lmdda_transpose_tiles(&d);
	if (!lmdda_gate(d.io, k, 0))
		return;
	RAG_FOR_EACH(x, n)
		lmdda_transpose_tile(&d, k, x);
}

/* Words of the output of a one-thread-a-word kernel. */
static __host__ __device__ size_t lm_words_of(const lmdda_dev *d, unsigned k)
{
	return (size_t)(k == LK_CONNECT_PROCS ? d->Mp : d->Np) * d->Mw;
}

/* InitRP_Reachability, the two halves of Reachability_Computation, the copy back. */
__global__ void k_lm_words(lmdda_dev d, unsigned k, unsigned iter)
{
	size_t n = lm_words_of(&d, k);
	if (!lmdda_gate(d.io, k, iter))
		return;
	switch (k) {
	case LK_INIT_RP:
		RAG_FOR_EACH(x, n)
			lmdda_init_rp_word(&d, x);
		break;
	case LK_CONNECT_PROCS:
		RAG_FOR_EACH(x, n)
			lmdda_connect_procs_word(&d, x);
		break;
	case LK_CONNECT_RES:
		RAG_FOR_EACH(x, n)
			lmdda_connect_res_word(&d, x, iter);
		break;
	default:
		RAG_FOR_EACH(x, n)
			lmdda_rp_copy_word(&d, x);
		break;
	}
}

/* ---- host ---- */

static uint32_t bounded(const rag_gpu *g, uint32_t rows)
{
	return rows < g->max_blocks ? rows : g->max_blocks;
}

static void lm_launch(void *ctx, unsigned k, unsigned iter)
{
	static const char *const names[LK_COUNT] = {
		"Request_Granted", "Find_Sink_Processes", "Deadlock_Check", "Update_RP_Blocked",
		"Release_Resource", "bitMatrixTranspose", "tileTranspose", "Find_Waiting_Processes",
		"Determine_Release_Type", "InitRP_Reachability",
		"Reachability_Computation (processes)", "Reachability_Computation (resources)",
		"RP_temp copy",
	};
	lmdda_gpu *l = (lmdda_gpu *)ctx;
	rag_gpu *g = &l->g;
	const lmdda_dev d = l->d;

	switch (k) {
	case LK_SINKS:
		k_lm_sinks<<<bounded(g, d.M), rag_gpu_row_threads(d.Nw), 0, g->st>>>(d);
		break;
	case LK_RP_BLOCKED:
		k_lm_rp_blocked<<<bounded(g, d.N), rag_gpu_row_threads(d.Mw), 0, g->st>>>(d);
		break;
	case LK_WAITER:
		k_lm_waiter<<<1, rag_gpu_row_threads(d.Mw), 0, g->st>>>(d);
		break;
	case LK_AR_TILES:
	case LK_AR_MOVE:
		k_lm_transpose<<<rag_gpu_blocks(g, lmdda_transpose_tiles(&d)), RAG_GPU_THREADS, 0, g->st>>>(d, k);
		break;
	case LK_INIT_RP:
	case LK_CONNECT_PROCS:
	case LK_CONNECT_RES:
	case LK_RP_COPY:
		k_lm_words<<<rag_gpu_blocks(g, lm_words_of(&d, k)), RAG_GPU_THREADS, 0, g->st>>>(d, k, iter);
		break;
	default:
		k_lm_single<<<1, 1, 0, g->st>>>(d, k);
		break;
	}
	rag_gpu_launched("GPU-LMDDA", names[k]);
}

static const uint32_t *lm_read(void *ctx)
{
	return rag_gpu_read(&((lmdda_gpu *)ctx)->g);
}

static const rag_launch_ops lm_ops = {
	.launch = lm_launch,
	.read = lm_read,
};

static void lm_all(void *ctx, int request)
{
	lmdda_all_kernels(&lm_ops, ctx, request, ((lmdda_gpu *)ctx)->d.hops);
}

static void *lm_open(uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw, int graph)
{
	lmdda_gpu *l = (lmdda_gpu *)gb_xcalloc(1, sizeof(*l), "GPU-LMDDA state");
	lmdda_dev *d = &l->d;
	size_t nm, mn, mm, cells = (size_t)procs * res, words;
	uint32_t *m, *avail, j;
	char what[160];

	lmdda_geometry(d, procs, res, lcpw);
	nm = (size_t)d->Np * d->Mw;
	mn = (size_t)d->Mp * d->Nw;
	mm = (size_t)d->Mp * d->Mw;
	words = cells + res + mn + 3 * nm + mm + d->Mw + (nm > mn ? nm : mn);
	l->bytes = words * sizeof(uint32_t);
	snprintf(what, sizeof(what), "GPU-LMDDA's matrices for %u processes x %u resources (%s)", procs,
		 res, lcpw ? "bit-packed" : "one int a cell");
	rag_gpu_require(l->bytes, what);
	rag_gpu_open(&l->g, lmdda_io_words(d), graph);
	l->mem = m = (uint32_t *)gb_cuda_alloc(l->bytes, what);
	/* on the detector's stream: a non-blocking stream does not wait for the default one */
	GB_CUDA(cudaMemsetAsync(m, 0, l->bytes, l->g.st), "clearing %s", what);
	d->ag = m;
	d->avail = m += cells;
	d->ar = m += res;
	d->ar_t = m += mn;
	d->rp = m += nm;
	d->rp_temp = m += nm;
	d->conn = m += nm;
	d->sp = m += mm;
	d->tile = m += d->Mw;
	d->io = l->g.d_io;
	avail = (uint32_t *)gb_xmalloc((size_t)res * sizeof(uint32_t), "GPU-LMDDA free units");
	for (j = 0; j < res; j++)
		avail[j] = units ? units[j] : 1;
	GB_CUDA(cudaMemcpyAsync(d->avail, avail, (size_t)res * sizeof(uint32_t), cudaMemcpyHostToDevice,
				l->g.st), "uploading the free units of %s", what);
	GB_CUDA(cudaStreamSynchronize(l->g.st), "initialising %s", what);
	free(avail);
	if (graph)
		rag_gpu_capture(&l->g, lm_all, l);
	lmdda_io_event(l->g.h_in, d->hops, RAG_GPU_WARM_UP, 0, 0);
	rag_gpu_warm_up(&l->g, lm_all, l);
	return l;
}

static rag_decision lm_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	lmdda_gpu *l = (lmdda_gpu *)ctx;
	int request = type == RAG_REQUEST;
	lmdda_io_event(l->g.h_in, l->d.hops, type, p, q);
	if (l->g.graph)
		return lmdda_io_decision(rag_gpu_graph_event(&l->g, request));
	rag_gpu_upload(&l->g);
	return lmdda_io_decision(lmdda_thesis_flow(&lm_ops, l, request, l->d.hops));
}

static uint64_t lm_bytes(void *ctx)
{
	return ((lmdda_gpu *)ctx)->bytes;
}

static void lm_close(void *ctx)
{
	lmdda_gpu *l = (lmdda_gpu *)ctx;
	rag_gpu_close(&l->g);
	GB_CUDA(cudaFree(l->mem), "freeing a detector's matrices");
	free(l);
}

static void *open_bits(uint32_t m, uint32_t n, const uint32_t *u)
{
	return lm_open(m, n, u, 5, 0);
}

static void *open_graph(uint32_t m, uint32_t n, const uint32_t *u)
{
	return lm_open(m, n, u, 5, 1);
}

static void *open_initial(uint32_t m, uint32_t n, const uint32_t *u)
{
	return lm_open(m, n, u, 0, 0);
}

extern "C" {
extern const rag_engine rag_engine_lmdda_gpu, rag_engine_lmdda_gpu_graph, rag_engine_lmdda_gpu_initial;

/* Every member is named, NULL ones too: C++ warns of a member left out. */
const rag_engine rag_engine_lmdda_gpu = {
	.head = RAG_LMDDA_GPU_HEAD,
	.algo = "lmdda",
	.open = open_bits,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = lm_apply,
	.bytes = lm_bytes,
	.close = lm_close,
	.apply_stream = NULL,
};

const rag_engine rag_engine_lmdda_gpu_graph = {
	.head = RAG_LMDDA_GPU_GRAPH_HEAD,
	.algo = "lmdda",
	.open = open_graph,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = lm_apply,
	.bytes = lm_bytes,
	.close = lm_close,
	.apply_stream = NULL,
};

const rag_engine rag_engine_lmdda_gpu_initial = {
	.head = RAG_LMDDA_GPU_INITIAL_HEAD,
	.algo = "lmdda",
	.open = open_initial,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = lm_apply,
	.bytes = lm_bytes,
	.close = lm_close,
	.apply_stream = NULL,
};
}
