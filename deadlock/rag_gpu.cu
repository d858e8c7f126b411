/* The host side shared by the GPU deadlock detectors: see deadlock/rag_gpu.cuh. */
#include <stdio.h>
#include <string.h>

#include "deadlock/rag_gpu.cuh"

void rag_gpu_require(size_t bytes, const char *what)
{
	size_t free_b = 0, total_b = 0;
	GB_CUDA(cudaMemGetInfo(&free_b, &total_b), "querying device memory");
	if (bytes > free_b)
		gb_die(GB_EXIT_RUNTIME,
		       "%s need %zu bytes (%.3g GiB) of device memory but only %zu (%.3g GiB) of %zu are free",
		       what, bytes, bytes / 1073741824.0, free_b, free_b / 1073741824.0, total_b);
}

void rag_gpu_open(rag_gpu *g, uint32_t io_words, int graph)
{
	size_t bytes = io_words * sizeof(uint32_t);
	int dev, sms;

	memset(g, 0, sizeof(*g));
	g->io_words = io_words;
	g->graph = graph;
	g->d_io = (uint32_t *)gb_cuda_alloc(bytes, "a detector's event words");
	GB_CUDA(cudaMallocHost(&g->h_in, bytes), "allocating pinned host memory");
	GB_CUDA(cudaMallocHost(&g->h_out, bytes), "allocating pinned host memory");
	GB_CUDA(cudaStreamCreateWithFlags(&g->st, cudaStreamNonBlocking), "creating a CUDA stream");
	GB_CUDA(cudaGetDevice(&dev), "querying the CUDA device");
	GB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "querying the device");
	g->max_blocks = (uint32_t)sms * RAG_GPU_MAX_BLOCKS_PER_SM;
}

void rag_gpu_capture(rag_gpu *g, void (*all)(void *ctx, int request), void *ctx)
{
	size_t bytes = g->io_words * sizeof(uint32_t);
	int request;

	for (request = 0; request < 2; request++) {
		cudaGraph_t graph;
		GB_CUDA(cudaStreamBeginCapture(g->st, cudaStreamCaptureModeThreadLocal),
			"capturing a detector's kernels");
		GB_CUDA(cudaMemcpyAsync(g->d_io, g->h_in, bytes, cudaMemcpyHostToDevice, g->st),
			"capturing the event upload");
		all(ctx, request);
		GB_CUDA(cudaMemcpyAsync(g->h_out, g->d_io, bytes, cudaMemcpyDeviceToHost, g->st),
			"capturing the verdicts' download");
		GB_CUDA(cudaStreamEndCapture(g->st, &graph), "capturing a detector's kernels");
		GB_CUDA(cudaGraphInstantiate(&g->exec[request], graph, 0), "instantiating a CUDA graph");
		GB_CUDA(cudaGraphDestroy(graph), "destroying a captured CUDA graph");
	}
}

void rag_gpu_upload(rag_gpu *g)
{
	GB_CUDA(cudaMemcpyAsync(g->d_io, g->h_in, g->io_words * sizeof(uint32_t), cudaMemcpyHostToDevice,
				g->st), "uploading an event");
}

const uint32_t *rag_gpu_graph_event(rag_gpu *g, int request)
{
	GB_CUDA(cudaGraphLaunch(g->exec[request != 0], g->st), "launching a detector's CUDA graph");
	GB_CUDA(cudaStreamSynchronize(g->st), "running a detector's CUDA graph");
	return g->h_out;
}

void rag_gpu_warm_up(rag_gpu *g, void (*all)(void *ctx, int request), void *ctx)
{
	int request;
	rag_gpu_upload(g);
	for (request = 0; request < 2; request++)
		all(ctx, request);
	rag_gpu_read(g);
	for (request = 0; g->graph && request < 2; request++)
		rag_gpu_graph_event(g, request);
}

const uint32_t *rag_gpu_read(rag_gpu *g)
{
	GB_CUDA(cudaMemcpyAsync(g->h_out, g->d_io, g->io_words * sizeof(uint32_t), cudaMemcpyDeviceToHost,
				g->st), "reading a detector's verdicts");
	GB_CUDA(cudaStreamSynchronize(g->st), "running a detector's kernels");
	return g->h_out;
}

void rag_gpu_close(rag_gpu *g)
{
	int k;
	for (k = 0; k < 2; k++)
		if (g->exec[k])
			GB_CUDA(cudaGraphExecDestroy(g->exec[k]), "destroying a CUDA graph");
	GB_CUDA(cudaStreamDestroy(g->st), "destroying a CUDA stream");
	GB_CUDA(cudaFree(g->d_io), "freeing device memory");
	GB_CUDA(cudaFreeHost(g->h_in), "freeing pinned host memory");
	GB_CUDA(cudaFreeHost(g->h_out), "freeing pinned host memory");
}

uint32_t rag_gpu_blocks(const rag_gpu *g, size_t n)
{
	size_t b = (n + RAG_GPU_THREADS - 1) / RAG_GPU_THREADS;
	if (b == 0)
		b = 1;
	return b < g->max_blocks ? (uint32_t)b : g->max_blocks;
}

uint32_t rag_gpu_row_threads(uint32_t words)
{
	uint32_t t = (words + 31u) / 32u * 32u;
	return t < RAG_GPU_THREADS ? t : RAG_GPU_THREADS;
}

void rag_gpu_launched(const char *algo, const char *what)
{
	GB_CUDA(cudaGetLastError(), "launching %s's %s kernel", algo, what);
}
