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
 *     work; any other keeps one word: the first resource it is blocked on
 *     (pos) and its need there (key), taken from the scanning lane's register.
 *  3. chain <<<1,512>>>: every later iteration inside one resident block,
 *     with work[], the processes' words and the finisher list in shared
 *     memory as far as they fit (else in global memory) and __syncthreads
 *     between steps. Work only grows, so a process whose key still exceeds
 *     work at pos cannot finish and costs one comparison; only the others
 *     (the candidates) have their row scanned further from pos, split over
 *     the block's warps, each scan folding its word into the candidate's slot
 *     with a 64-bit atomicMin. When an iteration has few candidates their
 *     allocation rows are loaded with their need rows into shared memory, so
 *     the one global trip of such an iteration is the row scan. Finishers are
 *     added to work after all candidates of the iteration were checked, so
 *     the iterations are the thesis's iterations, then the request is granted
 *     or rolled back in place. An iteration with one candidate starts a
 *     batch: warp 0 predicts the next few iterations' lone finishers from
 *     the due chunks' margins (batch_plan), the block checks them all in one
 *     pass over their rows and keeps the prefix that held (batch_run), so a
 *     chain of such iterations costs three barriers per batch.
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
 * The scan word (pba_bits.h) of the first index in [from, J) of need where
 * need[j] > work[j], in the PBA_SEG-wide segment that starts at seg;
 * PBA_UNBLOCKED when there is none. With alloc, the lanes also load the
 * segment's allocations with their needs, one trip for both, and store them
 * into stage. Called by a whole warp; all lanes return the same word.
 */
__device__ uint64_t first_blocked(const int32_t *need, const int32_t *alloc, int32_t *stage,
				  const int32_t *work, uint32_t J, uint32_t from, uint32_t seg)
{
	uint32_t lane = threadIdx.x & 31u, u;
	bool over[PBA_SEG_PER_LANE];
	int32_t v[PBA_SEG_PER_LANE], a[PBA_SEG_PER_LANE];
#pragma unroll
	for (u = 0; u < PBA_SEG_PER_LANE; u++)
		v[u] = pba_scan_load(need, J, from, pba_scan_index(seg, u, lane));
	if (alloc) {
#pragma unroll
		for (u = 0; u < PBA_SEG_PER_LANE; u++)
			a[u] = pba_scan_load(alloc, J, 0, pba_scan_index(seg, u, lane));
	}
#pragma unroll
	for (u = 0; u < PBA_SEG_PER_LANE; u++)
		over[u] = pba_scan_over(work, J, from, pba_scan_index(seg, u, lane), v[u]);
	if (alloc) {
#pragma unroll
		for (u = 0; u < PBA_SEG_PER_LANE; u++)
			pba_stage_put(stage, J, pba_scan_index(seg, u, lane), a[u]);
	}
#pragma unroll
	for (u = 0; u < PBA_SEG_PER_LANE; u++) {
		uint32_t b = __ballot_sync(0xffffffffu, over[u]);
		if (b) {
			uint32_t w = (uint32_t)(__ffs(b) - 1);
			return pba_block_word(pba_scan_index(seg, u, w), __shfl_sync(0xffffffffu, v[u], (int)w));
		}
	}
	return PBA_UNBLOCKED;
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
		uint64_t w = PBA_UNBLOCKED;
		uint32_t seg;
		for (seg = 0; seg < d.J && w == PBA_UNBLOCKED; seg += PBA_SEG)
			w = first_blocked(need, NULL, NULL, d.work0, d.J, 0, seg);
		if (w != PBA_UNBLOCKED) {
			if (lane == 0)
				pba_first_blocked(&d, i, w);
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

/* Fetch a row into L2 without waiting for it: one 128-byte line a lane and step. */
static __device__ __forceinline__ void prefetch_row(const int32_t *row, uint32_t J, uint32_t lane)
{
	uint32_t j;
	for (j = lane * 32u; j < J; j += 32u * 32u)
		asm volatile("prefetch.global.L2 [%0];" : : "l"(row + j));
}

/* Chunk c's processes that may be candidates soon (pba_chain_soon): their rows into L2, at most PBA_PREFETCH_MAX. */
static __device__ __forceinline__ void prefetch_soon(const pba_dev &d, uint32_t c, uint32_t margin,
						     uint32_t last_growth, uint32_t lane)
{
	uint32_t soon = __ballot_sync(0xffffffffu, pba_chain_soon(margin, last_growth)), k;
	for (k = 0; k < PBA_PREFETCH_MAX && soon; k++) {
		const uint32_t q = c * PBA_CHUNK + (uint32_t)(__ffs(soon) - 1);
		soon &= soon - 1u;
		prefetch_row(pba_need_row(&d, q), d.J, lane);
		prefetch_row(pba_alloc_row(&d, q), d.J, lane);
	}
}

/*
 * A pass's candidates, from the due chunks only (pba_bits.h); a chunk is a
 * warp's lanes, so PBA_CHUNK is the warp's width. The rows of up to
 * PBA_PREFETCH_MAX processes of a chunk that may be candidates soon are
 * fetched into L2 on the way.
 */
static __device__ __forceinline__ void chain_collect(const pba_dev &d, const pba_chain_mem &m,
						     uint32_t cap, uint32_t *ncand, uint64_t grown,
						     uint32_t last_growth)
{
	const uint32_t I = d.I, J = d.J, lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
	const uint32_t nwarps = blockDim.x / 32u, nchunks = pba_chunks(I);
	uint32_t base;
	for (base = warp; base < nchunks; base += nwarps * 32u) {
		uint32_t due = __ballot_sync(0xffffffffu, pba_chain_due(&m, nchunks, base + lane * nwarps, grown));
		while (due) {
			const uint32_t c = base + (uint32_t)(__ffs(due) - 1) * nwarps, i = c * PBA_CHUNK + lane;
			const uint64_t w = pba_chain_word_at(&m, I, i);
			const int32_t at = pba_chain_work_at(&m, J, w);
			const uint32_t margin = pba_chain_margin(w, J, at);
			uint32_t k;
			due &= due - 1u;
			if (pba_chain_is_candidate(w, J, at))
				pba_chain_take(&m, cap, ncand, i);
			k = __reduce_min_sync(0xffffffffu, margin);
			if (lane == 0)
				pba_chain_set_wake(&m, c, k, grown);
			prefetch_soon(d, c, margin, last_growth, lane);
		}
	}
}

/*
 * Warp 0's look at an iteration (pba_bits.h, "batches"): lane l votes on the
 * wakes of chunks l, l + 32, ... (at most 64 of them, PBA_LONE_I) and notes
 * the least gap of those not due. With at most PBA_LONE_DUE due chunks it
 * looks at each as chain_collect does, each lane keeping its process's key
 * in the chunk's slot; at a second candidate it stops (PBA_BATCH_BLOCK), with
 * none the chain is over (PBA_BATCH_OVER). Otherwise PBA_AHEAD - 1 rounds of
 * one warp minimum take the least keys as the predictions, and the next
 * least key, with the gaps, bounds everyone else (PBA_BATCH_RUN).
 */
static __device__ int batch_plan(const pba_dev &d, const pba_chain_mem &m, pba_batch *bt, uint64_t grown)
{
	const uint32_t I = d.I, J = d.J, lane = threadIdx.x & 31u, nchunks = pba_chunks(I);
	uint32_t ndue, ncand = 0, cand = 0, nd = 0, quiet, k, c, lanes;
	uint64_t mine = 0; /* bit k: chunk lane + 32 k is due */
	uint64_t asleep = UINT64_MAX; /* the least wake of the lane's chunks not due */
	/* slot s's key and chunk, as scalars: an array indexed by nd would live in local memory */
	uint32_t key0 = PBA_NO_KEY, key1 = PBA_NO_KEY, key2 = PBA_NO_KEY, key3 = PBA_NO_KEY;
	uint32_t chunk0 = 0, chunk1 = 0, chunk2 = 0, chunk3 = 0;

	for (k = 0, c = lane; c < nchunks; k++, c += 32u) {
		const uint64_t wk = m.wake[c];
		if (wk <= grown)
			mine |= 1ull << k;
		else
			asleep = min(asleep, wk);
	}
	quiet = pba_batch_gap(asleep, grown);
	ndue = __reduce_add_sync(0xffffffffu, (uint32_t)__popcll(mine));
	if (!pba_chain_lone_takes(ndue, 0))
		return PBA_BATCH_BLOCK;
	for (lanes = __ballot_sync(0xffffffffu, mine != 0); lanes; lanes &= lanes - 1u) {
		const uint32_t l = (uint32_t)(__ffs(lanes) - 1);
		uint64_t due = __shfl_sync(0xffffffffu, mine, (int)l);
		for (; due; due &= due - 1u) {
			const uint32_t ch = (uint32_t)(__ffsll((long long)due) - 1) * 32u + l, i = ch * PBA_CHUNK + lane;
			const uint64_t w = pba_chain_word_at(&m, I, i);
			const int32_t at = pba_chain_work_at(&m, J, w);
			const uint32_t margin = pba_chain_margin(w, J, at);
			const uint32_t b = __ballot_sync(0xffffffffu, pba_chain_is_candidate(w, J, at));
			const uint32_t least = __reduce_min_sync(0xffffffffu, margin);
			if (lane == 0)
				pba_chain_set_wake(&m, ch, least, grown);
			if (b) {
				cand = ch * PBA_CHUNK + (uint32_t)(__ffs(b) - 1);
				ncand += (uint32_t)__popc(b);
				if (!pba_chain_lone_takes(ndue, ncand))
					return PBA_BATCH_BLOCK;
			}
			{
				const uint32_t kk = pba_batch_key(margin, nd, lane);
				key0 = nd == 0 ? kk : key0;
				key1 = nd == 1 ? kk : key1;
				key2 = nd == 2 ? kk : key2;
				key3 = nd == 3 ? kk : key3;
				chunk0 = nd == 0 ? ch : chunk0;
				chunk1 = nd == 1 ? ch : chunk1;
				chunk2 = nd == 2 ? ch : chunk2;
				chunk3 = nd == 3 ? ch : chunk3;
			}
			nd++;
		}
	}
	if (ncand == 0)
		return PBA_BATCH_OVER;
	if (lane == 0)
		pba_batch_begin(bt, cand);
	for (k = 1;; k++) {
		uint32_t least = __reduce_min_sync(0xffffffffu, min(min(key0, key1), min(key2, key3))), slot, at;
		if (least == PBA_NO_KEY || k == PBA_AHEAD) {
			quiet = __reduce_min_sync(0xffffffffu, quiet);
			if (lane == 0)
				bt->bound = min(quiet, pba_batch_key_margin(least));
			break;
		}
		slot = pba_batch_key_slot(least);
		at = slot == 0 ? chunk0 : slot == 1 ? chunk1 : slot == 2 ? chunk2 : chunk3;
		if (lane == pba_batch_key_lane(least)) {
			key0 = slot == 0 ? PBA_NO_KEY : key0;
			key1 = slot == 1 ? PBA_NO_KEY : key1;
			key2 = slot == 2 ? PBA_NO_KEY : key2;
			key3 = slot == 3 ? PBA_NO_KEY : key3;
		}
		if (lane == 0)
			pba_batch_predict(bt, at, least);
	}
	return PBA_BATCH_RUN;
}

/*
 * The block's pass over a batch's rows, every thread its resources, their
 * sums kept in registers (at most PBA_BATCH_KEEP resources a thread, else
 * loaded again to be added); the flags and reaches are folded into the batch
 * per warp. After the barrier every thread takes the same T, adds its
 * resources' share and marks the kept predictions finished. Returns T.
 */
static __device__ uint32_t batch_run(const pba_dev &d, const pba_chain_mem &m, pba_batch *bt)
{
	const uint32_t J = d.J, B = blockDim.x, tid = threadIdx.x, keep = J <= PBA_BATCH_KEEP * B;
	uint32_t short_now = 0, short_before = 0, reach[PBA_AHEAD], e, j, t, T;
	int32_t sum[PBA_BATCH_KEEP][PBA_AHEAD];

#pragma unroll
	for (t = 0; t < PBA_AHEAD; t++)
		reach[t] = 0;
	if (keep)
		pba_batch_cells(&d, &m, bt, tid, B, tid < J ? (J - tid + B - 1) / B : 0, &short_now, &short_before,
				reach, sum);
	else
		for (j = tid; j < J; j += B)
			pba_batch_cells(&d, &m, bt, j, B, 1, &short_now, &short_before, reach, sum);
	short_now = __reduce_or_sync(0xffffffffu, short_now);
	short_before = __reduce_or_sync(0xffffffffu, short_before);
#pragma unroll
	for (t = 0; t < PBA_AHEAD; t++)
		reach[t] = __reduce_max_sync(0xffffffffu, reach[t]);
	if ((tid & 31u) == 0) {
		if (short_now)
			atomicOr(&bt->short_now, short_now);
		if (short_before)
			atomicOr(&bt->short_before, short_before);
#pragma unroll
		for (t = 0; t < PBA_AHEAD; t++)
			if (reach[t])
				atomicMax(&bt->reach[t], reach[t]);
	}
	__syncthreads();
	T = pba_batch_accept(bt);
	if (T == 0)
		return 0;
	if (keep) {
#pragma unroll
		for (e = 0; e < PBA_BATCH_KEEP; e++)
			if (tid + e * B < J)
				pba_batch_add_sum(&m, tid + e * B, sum[e], T);
	} else {
		for (j = tid; j < J; j += B)
			pba_batch_add_cell(&d, &m, bt, T, j);
	}
	for (t = tid; t < T; t += B)
		pba_batch_finish(&m, bt, t);
	return T;
}

/*
 * Every later iteration in one block; the shared memory is that of the plan
 * (pba_chain_carve). An iteration collects candidates into slots from the
 * chunks that may hold one, scans their rows (one warp per slot and
 * segment), and resolves every slot to its least scan word; candidates
 * beyond the slots wait for another pass, which finds exactly them (the
 * others are finished or blocked against the same work[]). Then the
 * finishers' allocations go to work[], and the iteration's largest growth of
 * one entry to `grown`.
 *
 * Barriers: a staging iteration (one pass, at most stage_rows candidates)
 * has three, after collecting, after scanning and after adding: resolving and
 * adding both read the slots' words, so they share a step. Otherwise one more
 * after each pass, for the finisher list and the slots' reuse. The candidate
 * count and the growth alternate between two words each, so resetting one
 * needs no barrier of its own.
 */
/*
 * 512 threads: 16 warps cover an iteration with many candidates as 32 did
 * (measured the same at 8192 x 1024), and a batch's pass over 1024
 * resources keeps each thread's two resources' sums in registers.
 */
#define CHAIN_BLOCK 512u

__global__ void __launch_bounds__(CHAIN_BLOCK, 1) k_chain(pba_dev d, uint32_t p, pba_chain_plan pl)
{
	extern __shared__ uint64_t smem[];
	__shared__ uint32_t ncand[2], nfin, growth[2];
	__shared__ pba_batch bt;
	const uint32_t I = d.I, J = d.J, B = blockDim.x, tid = threadIdx.x;
	const uint32_t warp = tid / 32u, nwarps = B / 32u, nseg = (J + PBA_SEG - 1) / PBA_SEG;
	pba_chain_mem m;
	uint64_t grown = 0;
	uint32_t total, iters = 1, last_growth = 0, i, j, t, b = 0;
	const int lone = pba_chain_lone_fits(I);
	int batched = 0;

	if (!pba_is_pending(&d))
		return;
	pba_chain_carve(&pl, &d, smem, &m);
	if (pl.smem_work)
		for (j = tid; j < J; j += B)
			pba_chain_stage_cell(&d, &m, j);
	if (pl.smem_state)
		for (i = tid; i < I; i += B)
			pba_chain_stage_word(&d, &m, i);
	for (i = tid; i < pba_chunks(I); i += B)
		pba_chain_wake_now(&m, i);
	if (tid == 0)
		ncand[0] = ncand[1] = growth[0] = growth[1] = 0;
	total = pba_first_total(&d);
	__syncthreads();
	while (pba_chain_goes_on(total, I)) {
		uint32_t q, nf, raw, n, most = 0;
		int staged, first = 1;
		if (lone) {
			uint32_t T;
			if (warp == 0) {
				const int r = batch_plan(d, m, &bt, grown);
				if (tid == 0)
					bt.result = (uint32_t)r;
			}
			__syncthreads();
			if (bt.result == PBA_BATCH_OVER) {
				iters++;
				break;
			}
			if (bt.result == PBA_BATCH_RUN) {
				T = batch_run(d, m, &bt);
				if (T == 0) {
					iters++; /* the candidate is blocked further on: this iteration finishes no one */
					break;
				}
				total += T;
				iters += T;
				grown += bt.reach[T - 1];
				last_growth = bt.reach[T - 1] - (T > 1 ? bt.reach[T - 2] : 0);
				batched = 1;
				__syncthreads(); /* work[] and the words before the next look; bt read by all */
				continue;
			}
			/* growth[] alternates with iters' parity, which the batches moved on */
			if (tid == 0 && batched)
				growth[0] = growth[1] = 0;
			batched = 0;
		}
		q = iters & 1u;
		iters++;
		if (tid == 0)
			nfin = 0;
		do {
			chain_collect(d, m, pl.cap, &ncand[b], grown, last_growth);
			__syncthreads();
			raw = ncand[b];
			n = min(raw, pl.cap);
			staged = pba_chain_staged(&pl, raw, first);
			if (tid == 0) {
				ncand[b ^ 1u] = 0;
				if (first)
					growth[q ^ 1u] = 0;
			}
			first = 0;
			b ^= 1u;
			for (t = warp; t < n * nseg; t += nwarps) {
				uint32_t c, seg, from;
				uint64_t w;
				if (!pba_chain_task(&m, nseg, t, &c, &i, &seg, &from) && !staged)
					continue;
				w = first_blocked(pba_need_row(&d, i), staged ? pba_alloc_row(&d, i) : NULL,
						  staged ? pba_chain_stage_row(&m, J, c) : NULL, m.work, J, from, seg);
				if ((tid & 31u) == 0)
					pba_chain_note(&m, c, w);
			}
			__syncthreads();
			for (t = tid; t < n; t += B)
				pba_chain_resolve(&m, staged ? NULL : &nfin, t);
			if (staged)
				break;
			__syncthreads();
		} while (raw > pl.cap);
		if (staged) {
			nf = pba_chain_staged_finishers(&m, n);
			for (j = tid; j < J; j += B)
				most = max(most, pba_chain_add_staged(&m, n, J, j));
		} else {
			nf = nfin;
			for (j = tid; j < J; j += B)
				most = max(most, pba_chain_add_cell(&d, &m, nf, j));
		}
		most = __reduce_max_sync(0xffffffffu, most);
		if ((tid & 31u) == 0 && most)
			atomicMax(&growth[q], most);
		if (nf == 0)
			break;
		total += nf;
		__syncthreads();
		last_growth = growth[q];
		grown += last_growth;
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
	cudaFuncAttributes fa;

	d->work0 = (int32_t *)gb_cuda_alloc(vec, "the PBA work vector");
	d->state = (uint64_t *)gb_cuda_alloc(s->procs * sizeof(uint64_t), "PBA blocking words");
	d->wake = (uint64_t *)gb_cuda_alloc(pba_chunks(s->procs) * sizeof(uint64_t), "PBA chunk wakes");
	d->flist = (uint32_t *)gb_cuda_alloc(s->procs * sizeof(uint32_t), "the PBA finisher list");
	GB_CUDA(cudaGetDevice(&dev), "querying the CUDA device");
	GB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "querying the device");
	GB_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
		"querying the device");
	g->grid_first = (s->procs + 7) / 8;
	if (g->grid_first > (uint32_t)sms * 8)
		g->grid_first = (uint32_t)sms * 8;
	/* what the kernel's own shared variables (counters, the batch) leave */
	GB_CUDA(cudaFuncGetAttributes(&fa, k_chain), "querying the chain kernel");
	pba_chain_plan_for(&g->chain, s->procs, s->res, (size_t)optin - fa.sharedSizeBytes);
	g->chain_smem = pba_chain_bytes(&g->chain, s->procs, s->res);
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
	k_chain<<<1, CHAIN_BLOCK, g->chain_smem, g->st>>>(g->d, p, g->chain);
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

/* Designated initializers in a .cu file (C++17): nvcc accepts them in declaration order, every member named. */
extern "C" {
extern const pba_engine pba_engine_gpu;

const pba_engine pba_engine_gpu = {
	.head = PBA_GPU_HEAD,
	.open = open_gpu,
	.apply = apply_gpu,
	.last_iterations = pba_gpu_last_iterations,
	.fetch = pba_gpu_fetch,
	.close = pba_gpu_close,
};
}
