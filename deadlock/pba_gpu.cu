/*
 * GPU implementations of the parallel banker's algorithm (Abell's thesis,
 * chapter 5). The state (maximum, allocation, need, available) lives on the
 * device; the host hands over one event at a time and waits for its outcome,
 * as the thesis's interactive service does.
 *
 * gpu-thesis: the kernel structure of Algorithms 22-29. Check_Valid_Request,
 * Check_Resource_Availability and Temporary_Allocate_Request are <<<1,J>>>
 * kernels whose verdicts are copied to the host; the H-safety check launches
 * Perform_Safety_Check <<<I,J>>> once per iteration, copies atf[] to the host,
 * scans it there and launches Add_Finished_To_Work <<<1,J>>> for every process
 * able to finish; RollBack_Allocations undoes a denied request. J above 1024
 * is handled by letting each thread of a block take several resources.
 *
 * gpu: the same decisions with no per-iteration launch or host round trip
 * (the limit the thesis names in section 6.2), three launches per request:
 *  1. prepare <<<1,1024>>>: phases 1-3 (valid request, availability,
 *     temporary allocation, work initialisation), verdicts by block votes.
 *  2. first round <<<grid>>>: the first safety iteration, one warp per
 *     process scanning its need row against work 32 resources at a time. A
 *     process covered everywhere is finished and its allocation is added to
 *     work; any other remembers the first resource it is blocked on (pos) and
 *     its need there (key).
 *  3. chain <<<1,1024>>>: every later iteration inside one resident block,
 *     with work[] in shared memory and __syncthreads between steps. Work only
 *     grows, so a process whose key still exceeds work at pos cannot finish
 *     and costs one comparison; only the others (the candidates) have their
 *     row scanned further from pos, split over the block's warps. Finishers
 *     are added to work after all candidates of the iteration were checked, so
 *     the iterations are the thesis's iterations, then the request is granted
 *     or rolled back in place.
 * The host reads one status word per event. The per-element work of both
 * is in deadlock/pba_bits.h, where make test runs it on the CPU.
 */
#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"

extern "C" {
#include "common/timer.h"
#include "deadlock/pba_engine.h"
}
#include "deadlock/pba_bits.h"

#define MAX_BLOCK 1024u

typedef struct gpu_pba {
	pba_dev d;
	int thesis;
	cudaStream_t st;
	cudaEvent_t ev[3];
	uint32_t *h_status;      /* pinned, 4 words */
	int32_t *h_amount;       /* pinned, J */
	uint8_t *h_atf;          /* pinned, I (gpu-thesis) */
	int32_t *h_cont;         /* pinned, 1 (gpu-thesis) */
	int32_t *d_cont;
	uint32_t iterations;
	uint32_t block1;         /* threads of the <<<1,J>>> kernels */
	uint32_t grid_first;     /* blocks of the first-round kernel */
	uint32_t cap;            /* candidate slots of the chain kernel */
	int smem_work;           /* work[] of the chain kernel in shared memory */
	size_t chain_smem;
} gpu_pba;

/* ---------------------------------------------------------------- shared */

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

/* 1 in every thread when p's request is invalid (Check_Valid_Request's vote). */
static __device__ __forceinline__ int pba_block_invalid(const pba_dev &d, uint32_t p)
{
	int bad = 0;
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		bad |= pba_request_invalid(&d, p, j);
	return __syncthreads_or(bad);
}

/* 1 in every thread when the request asks for more than is free (Check_Resource_Availability's vote). */
static __device__ __forceinline__ int pba_block_unavailable(const pba_dev &d)
{
	int bad = 0;
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		bad |= pba_request_unavailable(&d, j);
	return __syncthreads_or(bad);
}

/* Temporary allocation and work initialisation (Algorithm 26). */
static __device__ __forceinline__ void pba_block_temp_allocate(const pba_dev &d, uint32_t p)
{
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_temp_allocate_cell(&d, p, j);
}

/* Phase 5 on a failed safety check (Algorithm 29). */
static __device__ __forceinline__ void pba_block_roll_back(const pba_dev &d, uint32_t p)
{
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_roll_back_cell(&d, p, j);
}

/* ------------------------------------------------------------ gpu-thesis */

/* Algorithm 24: cont = 1 when 0 <= request <= need on every resource. */
__global__ void k_check_valid_request(pba_dev d, uint32_t p, int32_t *cont)
{
	int bad = pba_block_invalid(d, p);
	if (threadIdx.x == 0)
		*cont = !bad;
}

/* Algorithm 25: cont = 1 when request <= available on every resource. */
__global__ void k_check_resource_availability(pba_dev d, int32_t *cont)
{
	int bad = pba_block_unavailable(d);
	if (threadIdx.x == 0)
		*cont = !bad;
}

__global__ void k_temporary_allocate_request(pba_dev d, uint32_t p)
{
	pba_block_temp_allocate(d, p);
}

/* Algorithm 27: block i decides whether process i is able to finish now. */
__global__ void k_perform_safety_check(pba_dev d)
{
	uint32_t i = blockIdx.x, j;
	int short_of = 0;
	if (pba_thesis_skips(&d, i))
		return;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		short_of |= pba_thesis_short_of(&d, i, j);
	/* The thesis sums a per-resource flag and compares with J; a block vote says the same. */
	if (!__syncthreads_or(short_of) && threadIdx.x == 0)
		pba_thesis_finish(&d, i);
}

/* Algorithm 28: process i returns what it holds to work. */
__global__ void k_add_finished_to_work(pba_dev d, uint32_t i)
{
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_thesis_add_cell(&d, i, j);
}

__global__ void k_roll_back_allocations(pba_dev d, uint32_t p)
{
	pba_block_roll_back(d, p);
}

/* ------------------------------------------------------------------- gpu */

/* Phases 1-3 in one block; status stays PBA_PENDING when the safety check must run. */
__global__ void k_prepare(pba_dev d, uint32_t p)
{
	if (pba_block_invalid(d, p)) {
		if (threadIdx.x == 0)
			pba_set_outcome(&d, PBA_DENIED_INVALID);
		return;
	}
	if (pba_block_unavailable(d)) {
		if (threadIdx.x == 0)
			pba_set_outcome(&d, PBA_DENIED_UNAVAILABLE);
		return;
	}
	pba_block_temp_allocate(d, p);
	if (threadIdx.x == 0)
		pba_set_pending(&d);
}

/*
 * The first index in [from, J) of row where row[j] > work[j], scanning the
 * PBA_SEG-wide segment that starts at seg; J when there is none. Called by a
 * whole warp; all lanes return the same value.
 */
__device__ uint32_t first_blocked(const int32_t *row, const int32_t *work, uint32_t J,
				  uint32_t from, uint32_t seg)
{
	uint32_t lane = threadIdx.x & 31u, u;
	bool over[PBA_SEG_PER_LANE];
	int32_t v[PBA_SEG_PER_LANE];
#pragma unroll
	for (u = 0; u < PBA_SEG_PER_LANE; u++)
		v[u] = pba_scan_load(row, J, from, pba_scan_index(seg, u, lane));
#pragma unroll
	for (u = 0; u < PBA_SEG_PER_LANE; u++)
		over[u] = pba_scan_over(work, J, from, pba_scan_index(seg, u, lane), v[u]);
#pragma unroll
	for (u = 0; u < PBA_SEG_PER_LANE; u++) {
		uint32_t b = __ballot_sync(0xffffffffu, over[u]);
		if (b)
			return pba_scan_index(seg, u, (uint32_t)(__ffs(b) - 1));
	}
	return J;
}

/* The first safety iteration: one warp per process against work0. */
__global__ void k_first_round(pba_dev d)
{
	__shared__ uint32_t finished;
	uint32_t lane = threadIdx.x & 31u, warps = blockDim.x / 32u;
	uint32_t i, j;

	if (!pba_is_pending(&d))
		return;
	if (threadIdx.x == 0)
		finished = 0;
	__syncthreads();
	for (i = blockIdx.x * warps + threadIdx.x / 32u; i < d.I; i += gridDim.x * warps) {
		const int32_t *need = pba_need_row(&d, i);
		uint32_t at = d.J, seg;
		for (seg = 0; seg < d.J && at == d.J; seg += PBA_SEG)
			at = first_blocked(need, d.work0, d.J, 0, seg);
		if (at < d.J) {
			if (lane == 0)
				pba_first_blocked(&d, i, at);
			continue;
		}
		for (j = lane; j < d.J; j += 32u)
			pba_first_release_cell(&d, i, j);
		if (lane == 0)
			pba_first_finish(&d, i, &finished);
	}
	__syncthreads();
	if (threadIdx.x == 0)
		pba_first_publish(&d, finished);
}

/*
 * Every later iteration in one block. Shared memory: work[J] (when it fits,
 * else the global copy is used), then cand[cap] and minf[cap].
 */
__global__ void __launch_bounds__(MAX_BLOCK) k_chain(pba_dev d, uint32_t p, uint32_t cap,
						      int smem_work)
{
	extern __shared__ uint32_t smem[];
	__shared__ uint32_t ncand, nfin;
	const uint32_t I = d.I, J = d.J, B = blockDim.x, tid = threadIdx.x;
	const uint32_t warp = tid / 32u, nwarps = B / 32u, nseg = (J + PBA_SEG - 1) / PBA_SEG;
	int32_t *work = smem_work ? (int32_t *)smem : d.work;
	uint32_t *cand = smem + (smem_work ? J : 0), *minf = cand + cap;
	uint32_t total, iters = 1, i, j, base;

	if (!pba_is_pending(&d))
		return;
	if (smem_work)
		for (j = tid; j < J; j += B)
			pba_chain_stage_cell(&d, work, j);
	total = pba_first_total(&d);
	__syncthreads();
	while (pba_chain_goes_on(total, I)) {
		uint32_t nf;
		iters++;
		if (tid == 0)
			nfin = 0;
		for (base = 0; base < I; base += cap) {
			uint32_t end = min(I, base + cap), n, t;
			if (tid == 0)
				ncand = 0;
			__syncthreads();
			for (i = base + tid; i < end; i += B)
				pba_chain_collect(&d, work, cand, minf, &ncand, i);
			__syncthreads();
			n = ncand;
			for (t = warp; t < n * nseg; t += nwarps) {
				uint32_t c, seg, at;
				if (!pba_chain_task(&d, cand, nseg, t, &c, &i, &seg))
					continue;
				at = first_blocked(pba_need_row(&d, i), work, J, d.pos[i], seg);
				if ((tid & 31u) == 0)
					pba_chain_note(minf, c, at, J);
			}
			__syncthreads();
			for (t = tid; t < n; t += B)
				pba_chain_resolve(&d, cand, minf, &nfin, t);
			__syncthreads();
		}
		nf = nfin;
		if (nf == 0)
			break;
		for (j = tid; j < J; j += B)
			pba_chain_add_cell(&d, work, nf, j);
		total += nf;
		__syncthreads();
	}
	if (total < I)
		pba_block_roll_back(d, p);
	if (tid == 0)
		pba_chain_verdict(&d, total, iters);
}

/* ------------------------------------------------------------------ host */

static uint32_t round_warp(uint32_t n)
{
	n = n < MAX_BLOCK ? n : MAX_BLOCK;
	return (n + 31u) / 32u * 32u;
}

static void *open_common(const pba_system *s, int thesis)
{
	gpu_pba *g = (gpu_pba *)gb_xcalloc(1, sizeof(*g), "GPU PBA state");
	pba_dev *d = &g->d;
	size_t cells = (size_t)s->procs * s->res, mat = cells * sizeof(int32_t);
	size_t vec = (size_t)s->res * sizeof(int32_t);
	int dev, sms, optin, k;
	uint32_t j, i;

	for (j = 0; j < s->res; j++) {
		int64_t units = s->available[j];
		for (i = 0; i < s->procs; i++)
			units += s->allocation[(size_t)i * s->res + j];
		if (units > INT32_MAX || units < 0)
			gb_die(GB_EXIT_USAGE,
			       "the GPU PBA keeps work[] in 32 bits: resource %u has %lld units in all, "
			       "outside 0..%d", j, (long long)units, INT32_MAX);
	}
	g->thesis = thesis;
	d->I = s->procs;
	d->J = s->res;
	d->maximum = (int32_t *)gb_cuda_alloc(mat, "the PBA maximum matrix");
	d->allocation = (int32_t *)gb_cuda_alloc(mat, "the PBA allocation matrix");
	d->need = (int32_t *)gb_cuda_alloc(mat, "the PBA need matrix");
	d->available = (int32_t *)gb_cuda_alloc(vec, "the PBA available vector");
	d->amount = (int32_t *)gb_cuda_alloc(vec, "a PBA event");
	d->work = (int32_t *)gb_cuda_alloc(vec, "the PBA work vector");
	d->finish = (uint8_t *)gb_cuda_alloc(s->procs, "the PBA finish vector");
	d->status = (uint32_t *)gb_cuda_alloc(4 * sizeof(uint32_t), "the PBA status words");
	if (thesis) {
		d->atf = (uint8_t *)gb_cuda_alloc(s->procs, "the PBA atf vector");
		g->d_cont = (int32_t *)gb_cuda_alloc(sizeof(int32_t), "the PBA cont flag");
		GB_CUDA(cudaMallocHost(&g->h_atf, s->procs), "allocating pinned host memory");
		GB_CUDA(cudaMallocHost(&g->h_cont, sizeof(int32_t)), "allocating pinned host memory");
	} else {
		d->work0 = (int32_t *)gb_cuda_alloc(vec, "the PBA work vector");
		d->pos = (uint32_t *)gb_cuda_alloc(s->procs * sizeof(uint32_t), "PBA scan positions");
		d->key = (int32_t *)gb_cuda_alloc(s->procs * sizeof(int32_t), "PBA blocking needs");
		d->flist = (uint32_t *)gb_cuda_alloc(s->procs * sizeof(uint32_t), "the PBA finisher list");
	}
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
	GB_CUDA(cudaGetDevice(&dev), "querying the CUDA device");
	GB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "querying the device");
	GB_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
		"querying the device");
	g->grid_first = (s->procs + 7) / 8;
	if (g->grid_first > (uint32_t)sms * 8)
		g->grid_first = (uint32_t)sms * 8;
	/* Shared memory of the chain kernel: work[] when it takes at most half, the rest for candidates. */
	optin -= 64; /* the kernel's static counters */
	g->smem_work = vec <= (size_t)optin / 2;
	g->cap = (uint32_t)(((size_t)optin - (g->smem_work ? vec : 0)) / (2 * sizeof(uint32_t)));
	if (g->cap > s->procs)
		g->cap = s->procs;
	g->chain_smem = (g->smem_work ? vec : 0) + (size_t)g->cap * 2 * sizeof(uint32_t);
	if (!thesis)
		GB_CUDA(cudaFuncSetAttribute(k_chain, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)g->chain_smem),
			"reserving %zu bytes of shared memory", g->chain_smem);
	return g;
}

static void *open_gpu(const pba_system *s)
{
	return open_common(s, 0);
}

static void *open_thesis(const pba_system *s)
{
	return open_common(s, 1);
}

static void gpu_close(void *vctx)
{
	gpu_pba *g = (gpu_pba *)vctx;
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
	cudaFree(d->pos);
	cudaFree(d->key);
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

static void gpu_fetch(void *vctx, pba_system *out)
{
	gpu_pba *g = (gpu_pba *)vctx;
	size_t mat = (size_t)g->d.I * g->d.J * sizeof(int32_t), vec = g->d.J * sizeof(int32_t);
	GB_CUDA(cudaMemcpy(out->maximum, g->d.maximum, mat, cudaMemcpyDeviceToHost), "fetching PBA state");
	GB_CUDA(cudaMemcpy(out->allocation, g->d.allocation, mat, cudaMemcpyDeviceToHost), "fetching PBA state");
	GB_CUDA(cudaMemcpy(out->need, g->d.need, mat, cudaMemcpyDeviceToHost), "fetching PBA state");
	GB_CUDA(cudaMemcpy(out->available, g->d.available, vec, cudaMemcpyDeviceToHost), "fetching PBA state");
}

static uint32_t gpu_last_iterations(void *vctx)
{
	return ((gpu_pba *)vctx)->iterations;
}

static void sync_stream(gpu_pba *g, const char *what)
{
	GB_CUDA(cudaStreamSynchronize(g->st), "running %s", what);
}

static double lap(uint64_t *t)
{
	uint64_t now = gb_now_ns();
	double s = (double)(now - *t) / 1e9;
	*t = now;
	return s;
}

static double ev_seconds(gpu_pba *g, int a, int b)
{
	float ms = 0;
	GB_CUDA(cudaEventElapsedTime(&ms, g->ev[a], g->ev[b]), "reading CUDA event time");
	return ms / 1e3;
}

/* Upload the event's amounts; for a release, apply it and return its outcome. */
static unsigned upload(gpu_pba *g, uint8_t type, uint32_t p, const int32_t *amt)
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
	sync_stream(g, "the PBA release kernel");
	return g->h_status[0];
}

static unsigned apply_gpu(void *vctx, uint8_t type, uint32_t p, const int32_t *amt,
			  double ph[PBA_NPHASES])
{
	gpu_pba *g = (gpu_pba *)vctx;
	uint64_t t;
	unsigned r = upload(g, type, p, amt);
	if (r != PBA_PENDING)
		return r;
	t = gb_now_ns();
	GB_CUDA(cudaEventRecord(g->ev[0], g->st), "recording a CUDA event");
	k_prepare<<<1, g->block1, 0, g->st>>>(g->d, p);
	GB_CUDA(cudaEventRecord(g->ev[1], g->st), "recording a CUDA event");
	k_first_round<<<g->grid_first, 256, 0, g->st>>>(g->d);
	k_chain<<<1, MAX_BLOCK, g->chain_smem, g->st>>>(g->d, p, g->cap, g->smem_work);
	GB_CUDA(cudaEventRecord(g->ev[2], g->st), "recording a CUDA event");
	GB_CUDA(cudaMemcpyAsync(g->h_status, g->d.status, 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost,
				g->st), "reading a PBA outcome");
	sync_stream(g, "the PBA request kernels");
	r = g->h_status[PBA_ST_OUTCOME];
	g->iterations = r == PBA_GRANTED || r == PBA_DENIED_UNSAFE ? g->h_status[PBA_ST_ITERATIONS] : 0;
	ph[PBA_PHASE_PREPARE] += ev_seconds(g, 0, 1);
	ph[PBA_PHASE_SAFETY] += ev_seconds(g, 1, 2);
	{
		double wall = lap(&t), dev = ev_seconds(g, 0, 2);
		ph[PBA_PHASE_RESOLVE] += wall > dev ? wall - dev : 0;
	}
	return r;
}

static int32_t read_cont(gpu_pba *g, const char *what)
{
	GB_CUDA(cudaMemcpyAsync(g->h_cont, g->d_cont, sizeof(int32_t), cudaMemcpyDeviceToHost, g->st),
		"reading the PBA cont flag");
	sync_stream(g, what);
	return *g->h_cont;
}

static unsigned apply_thesis(void *vctx, uint8_t type, uint32_t p, const int32_t *amt,
			     double ph[PBA_NPHASES])
{
	gpu_pba *g = (gpu_pba *)vctx;
	pba_dev *d = &g->d;
	uint32_t I = d->I, it, i, total = 0;
	uint64_t t;
	unsigned r = upload(g, type, p, amt);
	if (r != PBA_PENDING)
		return r;
	t = gb_now_ns();
	k_check_valid_request<<<1, g->block1, 0, g->st>>>(*d, p, g->d_cont);
	r = read_cont(g, "Check_Valid_Request");
	ph[PBA_PHASE_VALID] += lap(&t);
	if (!r)
		return PBA_DENIED_INVALID;
	k_check_resource_availability<<<1, g->block1, 0, g->st>>>(*d, g->d_cont);
	r = read_cont(g, "Check_Resource_Availability");
	ph[PBA_PHASE_AVAILABLE] += lap(&t);
	if (!r)
		return PBA_DENIED_UNAVAILABLE;
	k_temporary_allocate_request<<<1, g->block1, 0, g->st>>>(*d, p);
	GB_CUDA(cudaMemsetAsync(d->finish, 0, I, g->st), "clearing finish[]");
	GB_CUDA(cudaMemsetAsync(d->atf, 0, I, g->st), "clearing atf[]");
	sync_stream(g, "Temporary_Allocate_Request");
	ph[PBA_PHASE_PREPARE] += lap(&t);

	for (it = 0; it < I; it++) {
		uint32_t found = 0;
		k_perform_safety_check<<<I, g->block1, 0, g->st>>>(*d);
		GB_CUDA(cudaMemcpyAsync(g->h_atf, d->atf, I, cudaMemcpyDeviceToHost, g->st),
			"copying atf[] to the host");
		sync_stream(g, "Perform_Safety_Check");
		for (i = 0; i < I; i++)
			if (g->h_atf[i]) {
				found++;
				k_add_finished_to_work<<<1, g->block1, 0, g->st>>>(*d, i);
			}
		total += found;
		if (total == I || found == 0)
			break;
		GB_CUDA(cudaMemsetAsync(d->atf, 0, I, g->st), "clearing atf[]");
	}
	sync_stream(g, "Add_Finished_To_Work");
	g->iterations = it + (it < I);
	ph[PBA_PHASE_SAFETY] += lap(&t);
	if (total == I)
		return PBA_GRANTED;
	k_roll_back_allocations<<<1, g->block1, 0, g->st>>>(*d, p);
	sync_stream(g, "RollBack_Allocations");
	ph[PBA_PHASE_RESOLVE] += lap(&t);
	return PBA_DENIED_UNSAFE;
}

/* Positional: designated initializers are not standard C++17, which .cu files compile as. */
extern "C" {
extern const pba_engine pba_engine_gpu, pba_engine_gpu_thesis;

const pba_engine pba_engine_gpu = {
	"gpu", "whole safety check on the GPU: 3 launches per request, later iterations in one block",
	1, open_gpu, apply_gpu, gpu_last_iterations, gpu_fetch, gpu_close,
};

const pba_engine pba_engine_gpu_thesis = {
	"gpu-thesis", "the thesis's kernels: one <<<I,J>>> launch and a host scan per safety iteration",
	1, open_thesis, apply_thesis, gpu_last_iterations, gpu_fetch, gpu_close,
};
}
