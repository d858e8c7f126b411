/*
 * GPU-OSDDA (Abell's thesis, chapter 3): the kernels of Algorithm 4 over the
 * per-element functions of deadlock/osdda_bits.h, which lists the deviations
 * from the pseudocode; deadlock/rag_gpu.cuh describes the launch structures.
 *
 *   gpu          bit-packed matrices (section 3.3.2), the thesis's launches:
 *                Request_Granted, DeadlockCheck_Init, Release_Resource,
 *                Update_Sink_RP, Update_AG_AR <<<1,1>>>; Request_Blocked and
 *                Release_Update_Reachability one block a row (at most
 *                RAG_GPU_THREADS threads looping over the row's words, rows
 *                beyond the grid looped over); BitMatrix_Transpose and
 *                tileTranspose one thread a 32 x 32 tile; Row_Reduction one
 *                block.
 *   gpu-graph    the same kernels, one CUDA graph per event.
 *   gpu-initial  the thesis's first design (section 3.3.1): one int a cell,
 *                the same kernels and launches.
 * Device memory: Sink_temp, AR_trans, AG_trans and the transpose scratch
 * beside the thesis's AG, AR, Sink, RP and RR: (8 M N + N^2) / 32 words
 * bit-packed (4.5 GiB at 65536 x 65536), 32 times that one int a cell.
 */
#include <stdio.h>
#include <string.h>

extern "C" {
#include "common/error.h"
#include "deadlock/rag.h"
}
#include "deadlock/osdda_bits.h"
#include "deadlock/rag_gpu.cuh"

typedef struct osdda_gpu {
	osdda_dev d;
	rag_gpu g;
	uint32_t *mem; /* every matrix, one allocation */
	uint64_t bytes;
} osdda_gpu;

/* ---- kernels: a gate, then the per-element functions ---- */

__global__ void k_os_single(osdda_dev d, unsigned k)
{
	if (osdda_gate(d.io, k))
		osdda_single(&d, k);
}

__global__ void k_os_reduce(osdda_dev d, unsigned k)
{
	uint32_t words, best;
	unsigned slot;
	const uint32_t *row;
	if (!osdda_gate(d.io, k))
		return;
	row = osdda_reduce_row(&d, k, &words, &slot);
	best = rag_block_first_set(row, words, d.lcpw);
	if (threadIdx.x == 0)
		d.io[slot] = best;
}

__global__ void k_os_transpose(osdda_dev d, unsigned k)
{
	size_t n = osdda_transpose_tiles(&d, k);
	if (!osdda_gate(d.io, k))
		return;
	RAG_FOR_EACH(x, n)
		osdda_transpose_tile(&d, k, x);
}

__global__ void k_os_sink_copy(osdda_dev d)
{
	size_t n = osdda_words_nm(&d);
	if (!osdda_gate(d.io, OK_SINK_COPY))
		return;
	RAG_FOR_EACH(x, n)
		d.sink_temp[x] = d.sink[x];
}

/* Request_Blocked and Release_Update_Reachability: one block a row. */
__global__ void k_os_rows(osdda_dev d, unsigned k)
{
	uint32_t row, w, words = osdda_row_words(&d);
	if (!osdda_gate(d.io, k))
		return;
	for (row = blockIdx.x; row < d.N; row += gridDim.x) {
		if (k == OK_BLOCKED) {
			for (w = threadIdx.x; w < words; w += blockDim.x)
				osdda_blocked_word(&d, row, w);
			continue;
		}
		/* Algorithm 11: every thread reads RR[row][q_j] before thread 0 may clear it */
		int test = osdda_reach_test(&d, row);
		__syncthreads();
		for (w = threadIdx.x; w < words; w += blockDim.x)
			osdda_reach_word(&d, row, w, test);
	}
}

__global__ void k_os_init_rr(osdda_dev d)
{
	RAG_FOR_EACH(j, d.N)
		osdda_init_rr(&d, (uint32_t)j);
}

/* ---- host ---- */

static void os_launch(void *ctx, unsigned k, unsigned iter)
{
	osdda_gpu *o = (osdda_gpu *)ctx;
	rag_gpu *g = &o->g;
	const osdda_dev d = o->d;
	const char *name;
	(void)iter;

	switch (k) {
	case OK_HOLDER:
	case OK_HELD:
	case OK_WAITER:
		k_os_reduce<<<1, rag_gpu_row_threads(k == OK_HELD ? d.Nw : d.Mw), 0, g->st>>>(d, k);
		name = "Row_Reduction";
		break;
	case OK_AG_TILES:
	case OK_AG_MOVE:
	case OK_AR_TILES:
	case OK_AR_MOVE:
		k_os_transpose<<<rag_gpu_blocks(g, osdda_transpose_tiles(&d, k)), RAG_GPU_THREADS, 0,
				 g->st>>>(d, k);
		name = k == OK_AG_TILES || k == OK_AR_TILES ? "BitMatrix_Transpose" : "tileTranspose";
		break;
	case OK_SINK_COPY:
		k_os_sink_copy<<<rag_gpu_blocks(g, osdda_words_nm(&d)), RAG_GPU_THREADS, 0, g->st>>>(d);
		name = "Sink_temp copy";
		break;
	case OK_BLOCKED:
	case OK_REACH:
		k_os_rows<<<d.N < g->max_blocks ? d.N : g->max_blocks,
			    rag_gpu_row_threads(osdda_row_words(&d)), 0, g->st>>>(d, k);
		name = k == OK_BLOCKED ? "Request_Blocked" : "Release_Update_Reachability";
		break;
	default:
		k_os_single<<<1, 1, 0, g->st>>>(d, k);
		name = "single-thread";
		break;
	}
	rag_gpu_launched("GPU-OSDDA", name);
}

static const uint32_t *os_read(void *ctx)
{
	return rag_gpu_read(&((osdda_gpu *)ctx)->g);
}

static const rag_launch_ops os_ops = {
	.launch = os_launch,
	.read = os_read,
};

static void os_all(void *ctx, int request)
{
	osdda_all_kernels(&os_ops, ctx, request);
}

static void *os_open(uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw, int graph)
{
	osdda_gpu *o = (osdda_gpu *)gb_xcalloc(1, sizeof(*o), "GPU-OSDDA state");
	osdda_dev *d = &o->d;
	size_t nm, mn, nn, words;
	uint32_t *m;
	char what[160];

	rag_require_single_unit(res, units);
	osdda_geometry(d, procs, res, lcpw);
	nm = osdda_words_nm(d);
	mn = osdda_words_mn(d);
	nn = osdda_words_nn(d);
	words = 5 * nm + 2 * mn + nn + (nm > mn ? nm : mn);
	o->bytes = words * sizeof(uint32_t);
	snprintf(what, sizeof(what), "GPU-OSDDA's matrices for %u processes x %u resources (%s)", procs,
		 res, lcpw ? "bit-packed" : "one int a cell");
	rag_gpu_require(o->bytes, what);
	rag_gpu_open(&o->g, OS_IO_WORDS, graph);
	o->mem = m = (uint32_t *)gb_cuda_alloc(o->bytes, what);
	/* on the detector's stream: a non-blocking stream does not wait for the default one */
	GB_CUDA(cudaMemsetAsync(m, 0, o->bytes, o->g.st), "clearing %s", what);
	d->ag = m;
	d->sink = m += nm;
	d->sink_temp = m += nm;
	d->rp = m += nm;
	d->ar_t = m += nm;
	d->ar = m += nm;
	d->ag_t = m += mn;
	d->rr = m += mn;
	d->tile = m += nn;
	d->io = o->g.d_io;
	k_os_init_rr<<<rag_gpu_blocks(&o->g, res), RAG_GPU_THREADS, 0, o->g.st>>>(*d);
	rag_gpu_launched("GPU-OSDDA", "RR initialisation");
	GB_CUDA(cudaStreamSynchronize(o->g.st), "initialising %s", what);
	if (graph)
		rag_gpu_capture(&o->g, os_all, o);
	osdda_io_event(o->g.h_in, RAG_GPU_WARM_UP, 0, 0);
	rag_gpu_warm_up(&o->g, os_all, o);
	return o;
}

static rag_decision os_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	osdda_gpu *o = (osdda_gpu *)ctx;
	int request = type == RAG_REQUEST;
	osdda_io_event(o->g.h_in, type, p, q);
	if (o->g.graph)
		return osdda_io_decision(rag_gpu_graph_event(&o->g, request));
	rag_gpu_upload(&o->g);
	return osdda_io_decision(osdda_thesis_flow(&os_ops, o, request));
}

static uint64_t os_bytes(void *ctx)
{
	return ((osdda_gpu *)ctx)->bytes;
}

static void os_close(void *ctx)
{
	osdda_gpu *o = (osdda_gpu *)ctx;
	rag_gpu_close(&o->g);
	GB_CUDA(cudaFree(o->mem), "freeing a detector's matrices");
	free(o);
}

static void *open_bits(uint32_t m, uint32_t n, const uint32_t *u)
{
	return os_open(m, n, u, 5, 0);
}

static void *open_graph(uint32_t m, uint32_t n, const uint32_t *u)
{
	return os_open(m, n, u, 5, 1);
}

static void *open_initial(uint32_t m, uint32_t n, const uint32_t *u)
{
	return os_open(m, n, u, 0, 0);
}

extern "C" {
extern const rag_engine rag_engine_osdda_gpu, rag_engine_osdda_gpu_graph, rag_engine_osdda_gpu_initial;

/* Every member is named, NULL ones too: C++ warns of a member left out. */
const rag_engine rag_engine_osdda_gpu = {
	.head = RAG_OSDDA_GPU_HEAD,
	.algo = "osdda",
	.open = open_bits,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = os_apply,
	.bytes = os_bytes,
	.close = os_close,
	.apply_stream = NULL,
};

const rag_engine rag_engine_osdda_gpu_graph = {
	.head = RAG_OSDDA_GPU_GRAPH_HEAD,
	.algo = "osdda",
	.open = open_graph,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = os_apply,
	.bytes = os_bytes,
	.close = os_close,
	.apply_stream = NULL,
};

const rag_engine rag_engine_osdda_gpu_initial = {
	.head = RAG_OSDDA_GPU_INITIAL_HEAD,
	.algo = "osdda",
	.open = open_initial,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = os_apply,
	.bytes = os_bytes,
	.close = os_close,
	.apply_stream = NULL,
};
}
