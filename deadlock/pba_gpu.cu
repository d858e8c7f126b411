/*
 * gpu: the parallel banker's algorithm (Abell's thesis, chapter 5) with the
 * decisions of Algorithms 22-29 but no per-iteration launch or host round
 * trip (the limit the thesis names in section 6.2): three launches per
 * request.
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
 * The host reads one status word per event. The per-element work is in
 * deadlock/pba_bits.h, what both GPU engines share in deadlock/pba_gpu.cuh.
 */
#include "deadlock/pba_gpu.cuh"

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

static void *open_gpu(const pba_system *s)
{
	pba_gpu *g = pba_gpu_open(s);
	pba_dev *d = &g->d;
	size_t vec = (size_t)s->res * sizeof(int32_t);
	int dev, sms, optin;

	d->work0 = (int32_t *)gb_cuda_alloc(vec, "the PBA work vector");
	d->pos = (uint32_t *)gb_cuda_alloc(s->procs * sizeof(uint32_t), "PBA scan positions");
	d->key = (int32_t *)gb_cuda_alloc(s->procs * sizeof(int32_t), "PBA blocking needs");
	d->flist = (uint32_t *)gb_cuda_alloc(s->procs * sizeof(uint32_t), "the PBA finisher list");
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
	GB_CUDA(cudaFuncSetAttribute(k_chain, cudaFuncAttributeMaxDynamicSharedMemorySize,
				     (int)g->chain_smem),
		"reserving %zu bytes of shared memory", g->chain_smem);
	return g;
}

static double ev_seconds(pba_gpu *g, int a, int b)
{
	float ms = 0;
	GB_CUDA(cudaEventElapsedTime(&ms, g->ev[a], g->ev[b]), "reading CUDA event time");
	return ms / 1e3;
}

static unsigned apply_gpu(void *vctx, uint8_t type, uint32_t p, const int32_t *amt,
			  double ph[PBA_NPHASES])
{
	pba_gpu *g = (pba_gpu *)vctx;
	uint64_t t;
	unsigned r = pba_gpu_upload(g, type, p, amt);
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
	pba_gpu_sync(g, "the PBA request kernels");
	r = g->h_status[PBA_ST_OUTCOME];
	g->iterations = r == PBA_GRANTED || r == PBA_DENIED_UNSAFE ? g->h_status[PBA_ST_ITERATIONS] : 0;
	ph[PBA_PHASE_PREPARE] += ev_seconds(g, 0, 1);
	ph[PBA_PHASE_SAFETY] += ev_seconds(g, 1, 2);
	{
		double wall = pba_gpu_lap(&t), dev = ev_seconds(g, 0, 2);
		ph[PBA_PHASE_RESOLVE] += wall > dev ? wall - dev : 0;
	}
	return r;
}

/* Positional: designated initializers are not standard C++17, which .cu files compile as. */
extern "C" {
extern const pba_engine pba_engine_gpu;

const pba_engine pba_engine_gpu = {
	.name = "gpu",
	.summary = "whole safety check on the GPU: 3 launches per request, later iterations in one block",
	.needs_gpu = 1,
	.open = open_gpu,
	.apply = apply_gpu,
	.last_iterations = pba_gpu_last_iterations,
	.fetch = pba_gpu_fetch,
	.close = pba_gpu_close,
};
}
