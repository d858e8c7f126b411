/*
 * The state, uploads and releases of both GPU-PBA engines (Abell's thesis,
 * chapter 5); see deadlock/pba_gpu.cuh.
 */
#include <stdlib.h>
#include <string.h>

#include "deadlock/pba_gpu.cuh"

/* Release: refused unchanged when any amount is negative or above what is held. */
__global__ void k_release(pba_dev d, uint32_t p)
{
	int bad = 0;
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		bad |= pba_release_bad(&d, p, j);
	if (__syncthreads_or(bad)) {
		if (threadIdx.x == 0)
			pba_set_outcome(&d, PBA_RELEASE_INVALID);
		return;
	}
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_release_cell(&d, p, j);
	if (threadIdx.x == 0)
		pba_set_outcome(&d, PBA_RELEASED);
}

static uint32_t round_warp(uint32_t n)
{
	n = n < MAX_BLOCK ? n : MAX_BLOCK;
	return (n + 31u) / 32u * 32u;
}

pba_gpu *pba_gpu_open(const pba_system *s)
{
	pba_gpu *g = (pba_gpu *)gb_xcalloc(1, sizeof(*g), "GPU PBA state");
	pba_dev *d = &g->d;
	size_t cells = (size_t)s->procs * s->res, mat = cells * sizeof(int32_t);
	size_t vec = (size_t)s->res * sizeof(int32_t);
	uint32_t j, i;
	int k;

	for (j = 0; j < s->res; j++) {
		int64_t units = s->available[j];
		for (i = 0; i < s->procs; i++)
			units += s->allocation[(size_t)i * s->res + j];
		if (units > INT32_MAX || units < 0)
			gb_die(GB_EXIT_USAGE,
			       "the GPU PBA keeps work[] in 32 bits: resource %u has %lld units in all, "
			       "outside 0..%d", j, (long long)units, INT32_MAX);
	}
	d->I = s->procs;
	d->J = s->res;
	d->maximum = (int32_t *)gb_cuda_alloc(mat, "the PBA maximum matrix");
	d->allocation = (int32_t *)gb_cuda_alloc(mat, "the PBA allocation matrix");
	d->need = (int32_t *)gb_cuda_alloc(mat, "the PBA need matrix");
	d->available = (int32_t *)gb_cuda_alloc(vec, "the PBA available vector");
	d->amount = (int32_t *)gb_cuda_alloc(vec, "a PBA event");
	d->work = (int32_t *)gb_cuda_alloc(vec, "the PBA work vector");
	d->status = (uint32_t *)gb_cuda_alloc(4 * sizeof(uint32_t), "the PBA status words");
	GB_CUDA(cudaMallocHost(&g->h_status, 4 * sizeof(uint32_t)), "allocating pinned host memory");
	GB_CUDA(cudaMallocHost(&g->h_amount, vec), "allocating pinned host memory");
	GB_CUDA(cudaStreamCreateWithFlags(&g->st, cudaStreamNonBlocking), "creating a CUDA stream");
	for (k = 0; k < 3; k++)
		GB_CUDA(cudaEventCreate(&g->ev[k]), "creating a CUDA event");
	GB_CUDA(cudaMemcpy(d->maximum, s->maximum, mat, cudaMemcpyHostToDevice), "uploading PBA state");
	GB_CUDA(cudaMemcpy(d->allocation, s->allocation, mat, cudaMemcpyHostToDevice), "uploading PBA state");
	GB_CUDA(cudaMemcpy(d->need, s->need, mat, cudaMemcpyHostToDevice), "uploading PBA state");
	GB_CUDA(cudaMemcpy(d->available, s->available, vec, cudaMemcpyHostToDevice), "uploading PBA state");
	g->block1 = round_warp(s->res);
	return g;
}

void pba_gpu_close(void *vctx)
{
	pba_gpu *g = (pba_gpu *)vctx;
	pba_dev *d = &g->d;
	int k;
	cudaFree(d->maximum);
	cudaFree(d->allocation);
	cudaFree(d->need);
	cudaFree(d->available);
	cudaFree(d->amount);
	cudaFree(d->work);
	cudaFree(d->work0);
	cudaFree(d->finish);
	cudaFree(d->atf);
	cudaFree(d->state);
	cudaFree(d->wake);
	cudaFree(d->flist);
	cudaFree(d->status);
	cudaFree(g->d_cont);
	cudaFreeHost(g->h_status);
	cudaFreeHost(g->h_amount);
	cudaFreeHost(g->h_atf);
	cudaFreeHost(g->h_cont);
	for (k = 0; k < 3; k++)
		cudaEventDestroy(g->ev[k]);
	cudaStreamDestroy(g->st);
	free(g);
}

void pba_gpu_fetch(void *vctx, pba_system *out)
{
	pba_gpu *g = (pba_gpu *)vctx;
	size_t mat = (size_t)g->d.I * g->d.J * sizeof(int32_t), vec = g->d.J * sizeof(int32_t);
	GB_CUDA(cudaMemcpy(out->maximum, g->d.maximum, mat, cudaMemcpyDeviceToHost), "fetching PBA state");
	GB_CUDA(cudaMemcpy(out->allocation, g->d.allocation, mat, cudaMemcpyDeviceToHost), "fetching PBA state");
	GB_CUDA(cudaMemcpy(out->need, g->d.need, mat, cudaMemcpyDeviceToHost), "fetching PBA state");
	GB_CUDA(cudaMemcpy(out->available, g->d.available, vec, cudaMemcpyDeviceToHost), "fetching PBA state");
}

uint32_t pba_gpu_last_iterations(void *vctx)
{
	return ((pba_gpu *)vctx)->iterations;
}

void pba_gpu_sync(pba_gpu *g, const char *what)
{
	GB_CUDA(cudaStreamSynchronize(g->st), "running %s", what);
}

double pba_gpu_lap(uint64_t *t)
{
	uint64_t now = gb_now_ns();
	double s = (double)(now - *t) / 1e9;
	*t = now;
	return s;
}

unsigned pba_gpu_upload(pba_gpu *g, uint8_t type, uint32_t p, const int32_t *amt)
{
	size_t vec = g->d.J * sizeof(int32_t);
	g->iterations = 0;
	memcpy(g->h_amount, amt, vec);
	GB_CUDA(cudaMemcpyAsync(g->d.amount, g->h_amount, vec, cudaMemcpyHostToDevice, g->st),
		"uploading a PBA event");
	if (type != PBA_RELEASE)
		return PBA_PENDING;
	k_release<<<1, g->block1, 0, g->st>>>(g->d, p);
	GB_CUDA(cudaMemcpyAsync(g->h_status, g->d.status, sizeof(uint32_t), cudaMemcpyDeviceToHost,
				g->st), "reading a PBA outcome");
	pba_gpu_sync(g, "the PBA release kernel");
	return g->h_status[0];
}
