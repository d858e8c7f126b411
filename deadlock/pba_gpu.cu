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
 *     or rolled back in place. Iterations with one candidate run in warp 0
 *     alone (chain_lone), the other warps waiting at one barrier.
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
 * The one-warp path's row copies: bulk asynchronous copies (the tensor memory
 * accelerator of sm_90) that lane 0 starts, one per row, completing on a
 * shared-memory barrier whose phase flips once per pair of rows. Built for
 * an older CUDA_ARCH, the path reads its rows from global memory instead.
 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define LONE_BULK 1
#else
#define LONE_BULK 0
#endif

#if LONE_BULK
static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void bar_init(uint64_t *bar)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" : : "r"(smem_u32(bar)) : "memory");
	asm volatile("fence.mbarrier_init.release.cluster;" : : : "memory");
}

static __device__ __forceinline__ void bar_wait(uint64_t *bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n\t.reg .pred p;\n\t"
			     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
			     "selp.u32 %0, 1, 0, p;\n\t}"
			     : "=r"(done)
			     : "r"(smem_u32(bar)), "r"(parity)
			     : "memory");
	} while (!done);
}
#else
static __device__ __forceinline__ void bar_init(uint64_t *) {}
static __device__ __forceinline__ void bar_wait(uint64_t *, uint32_t) {}
#endif

/* Slot s of the one-warp path's row copies: process i's need row, then its allocation row. */
static __device__ __forceinline__ int4 *lone_slot(const pba_chain_mem &m, uint32_t J, uint32_t s)
{
	return (int4 *)(m.stage + (size_t)2u * s * J);
}

/* Lane 0 starts the copies of process i's need and allocation rows into slot s. */
static __device__ __forceinline__ void lone_copy(const pba_dev &d, const pba_chain_mem &m, uint64_t *bar, uint32_t i,
						 uint32_t s)
{
#if LONE_BULK
	const uint32_t J = d.J, bytes = J * (uint32_t)sizeof(int32_t);
	const int4 *to = lone_slot(m, J, s);
	if ((threadIdx.x & 31u) != 0)
		return;
	asm volatile("fence.proxy.async.shared::cta;" : : : "memory");
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" : : "r"(smem_u32(bar)), "r"(2u * bytes)
		     : "memory");
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
		     :
		     : "r"(smem_u32(to)), "l"(pba_need_row(&d, i)), "r"(bytes), "r"(smem_u32(bar))
		     : "memory");
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
		     :
		     : "r"(smem_u32((const int32_t *)to + J)), "l"(pba_alloc_row(&d, i)), "r"(bytes), "r"(smem_u32(bar))
		     : "memory");
#else
	(void)d;
	(void)m;
	(void)bar;
	(void)i;
	(void)s;
#endif
}

/* The one-warp path's copies: started and waited for, and the process each slot holds. */
typedef struct lone_copies {
	uint64_t *bar;
	uint32_t started, landed; /* pairs of rows */
	uint32_t slot0, slot1;
} lone_copies;

static __device__ __forceinline__ void lone_land(lone_copies &k)
{
	if (k.landed != k.started) {
		bar_wait(k.bar, k.landed & 1u);
		k.landed = k.started;
	}
}

/*
 * The one-warp path's scan of its one candidate i: the need row from pos and
 * the whole allocation row, from need and alloc (global memory, one trip, or
 * a slot the warp copied them to), 16 bytes a load, lane q taking entries
 * 4q..4q+3 of every 128. When the need is covered everywhere the warp adds
 * the allocation to work[], marks the process finished, sets growth to the
 * largest entry added and returns 1; else it writes the process's new word
 * (its first blocked resource and the need there) and returns 0.
 */
template <uint32_t NG>
static __device__ __forceinline__ int lone_scan_add(const pba_dev &d, const pba_chain_mem &m, uint32_t i,
						    const int4 *need, const int4 *alloc, uint32_t &growth)
{
	const uint32_t J = d.J, lane = threadIdx.x & 31u, nq = NG ? NG * 32u : J / 4u;
	int4 *work = (int4 *)m.work;
	const uint32_t from = pba_block_pos(m.state[i]);
	int4 v[(NG ? NG : PBA_LONE_J / 128u)], a[(NG ? NG : PBA_LONE_J / 128u)];
	uint32_t u, over = 0, most = 0;

#pragma unroll
	for (u = 0; u < (NG ? NG : PBA_LONE_J / 128u); u++) {
		const uint32_t q = u * 32u + lane;
		v[u] = (NG || q < nq) ? need[q] : make_int4(0, 0, 0, 0);
		a[u] = (NG || q < nq) ? alloc[q] : make_int4(0, 0, 0, 0);
	}
	if (from == 0) {
#pragma unroll
		for (u = 0; u < (NG ? NG : PBA_LONE_J / 128u); u++) {
			const uint32_t q = u * 32u + lane;
			if ((NG || q < nq)) {
				const int4 w = work[q];
				over |= (uint32_t)(v[u].x > w.x) | (uint32_t)(v[u].y > w.y) | (uint32_t)(v[u].z > w.z) |
					(uint32_t)(v[u].w > w.w);
			}
		}
	} else {
#pragma unroll
		for (u = 0; u < (NG ? NG : PBA_LONE_J / 128u); u++) {
			const uint32_t q = u * 32u + lane, j = 4u * q;
			if ((NG || q < nq)) {
				const int4 w = work[q];
				over |= (uint32_t)(v[u].x > w.x && j >= from) | (uint32_t)(v[u].y > w.y && j + 1u >= from) |
					(uint32_t)(v[u].z > w.z && j + 2u >= from) |
					(uint32_t)(v[u].w > w.w && j + 3u >= from);
			}
		}
	}
	if (__any_sync(0xffffffffu, over)) {
		/* the first resource over, from each lane's first, and the need there */
		uint32_t first = UINT32_MAX, e, f;
		int32_t key = 0;
#pragma unroll
		for (u = (NG ? NG : PBA_LONE_J / 128u); u-- > 0;) {
			const uint32_t q = u * 32u + lane;
			const int32_t vv[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
			if ((NG || q < nq)) {
				const int4 w = work[q];
				const int32_t ww[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
				for (e = 4; e-- > 0;)
					if (vv[e] > ww[e] && 4u * q + e >= from) {
						first = 4u * q + e;
						key = vv[e];
					}
			}
		}
		f = __reduce_min_sync(0xffffffffu, first);
		key = __shfl_sync(0xffffffffu, key, (int)((f / 4u) % 32u));
		__syncwarp(); /* every lane has read the word (from) before lane 0 replaces it */
		if (lane == 0)
			m.state[i] = pba_block_word(f, key);
		return 0;
	}
#pragma unroll
	for (u = 0; u < (NG ? NG : PBA_LONE_J / 128u); u++) {
		const uint32_t q = u * 32u + lane;
		if ((NG || q < nq)) {
			int4 w = work[q];
			w.x += a[u].x;
			w.y += a[u].y;
			w.z += a[u].z;
			w.w += a[u].w;
			work[q] = w;
			most = max(most, max(max((uint32_t)a[u].x, (uint32_t)a[u].y), max((uint32_t)a[u].z, (uint32_t)a[u].w)));
		}
	}
	__syncwarp(); /* every lane has read the word (from) before lane 0 replaces it */
	if (lane == 0)
		m.state[i] = PBA_UNBLOCKED;
	growth = __reduce_max_sync(0xffffffffu, most);
	return 1;
}

/*
 * The scan for J a whole number of 128-resource groups (the thesis's 256, 512
 * and 1024 resources) compiled for that number, so that no load or
 * comparison checks the row's end; any other J checks it.
 */
static __device__ __forceinline__ int lone_scan(const pba_dev &d, const pba_chain_mem &m, uint32_t i,
						const int4 *need, const int4 *alloc, uint32_t &growth)
{
	switch (d.J) {
	case 256:
		return lone_scan_add<2>(d, m, i, need, alloc, growth);
	case 512:
		return lone_scan_add<4>(d, m, i, need, alloc, growth);
	case 1024:
		return lone_scan_add<8>(d, m, i, need, alloc, growth);
	default:
		return lone_scan_add<0>(d, m, i, need, alloc, growth);
	}
}

/*
 * The one-warp path (pba_bits.h): warp 0 runs iterations alone while they
 * have at most PBA_LONE_DUE due chunks and one candidate. Returns 1 when the
 * chain is over (everyone finished, or an iteration finished no one), 0 when
 * it hands the iteration it was collecting to the block. Counts, growth and
 * the words change only for iterations it completes. Lane l looks after the
 * wakes of chunks l, l + 32, ... (at most 32 of them, PBA_LONE_I).
 */
static __device__ __forceinline__ int lone_iterations(const pba_dev &d, const pba_chain_mem &m, lone_copies *cp,
						       uint32_t &total, uint32_t &iters, uint64_t &grown,
						       uint32_t &last_growth)
{
	const uint32_t I = d.I, J = d.J, lane = threadIdx.x & 31u, nchunks = pba_chunks(I);

	while (pba_chain_goes_on(total, I)) {
		uint32_t mine = 0, ndue, ncand = 0, cand = 0, next = UINT32_MAX, next_key = UINT32_MAX, k, c;
		uint32_t lanes;
		int hit = -1;

		for (k = 0, c = lane; c < nchunks; k++, c += 32u)
			mine |= (uint32_t)pba_chain_due(&m, nchunks, c, grown) << k;
		ndue = __reduce_add_sync(0xffffffffu, (uint32_t)__popc(mine));
		if (!pba_chain_lone_takes(ndue, 0))
			return 0;
		for (lanes = __ballot_sync(0xffffffffu, mine != 0); lanes; lanes &= lanes - 1u) {
			const uint32_t l = (uint32_t)(__ffs(lanes) - 1);
			uint32_t due = __shfl_sync(0xffffffffu, mine, (int)l);
			for (; due; due &= due - 1u) {
				const uint32_t ch = (uint32_t)(__ffs(due) - 1) * 32u + l, i = ch * PBA_CHUNK + lane;
				const uint64_t w = pba_chain_word_at(&m, I, i);
				const int32_t at = pba_chain_work_at(&m, J, w);
				const uint32_t margin = pba_chain_margin(w, J, at);
				const uint32_t b = __ballot_sync(0xffffffffu, pba_chain_is_candidate(w, J, at));
				const uint32_t least = __reduce_min_sync(0xffffffffu, margin);
				const uint32_t nk = __reduce_min_sync(0xffffffffu, pba_chain_next_key(margin));
				if (lane == 0)
					pba_chain_set_wake(&m, ch, least, grown);
				if (b) {
					cand = ch * PBA_CHUNK + (uint32_t)(__ffs(b) - 1);
					ncand += (uint32_t)__popc(b);
					if (!pba_chain_lone_takes(ndue, ncand))
						return 0;
				}
				if (nk < next_key) {
					next_key = nk;
					next = ch * PBA_CHUNK +
					       (uint32_t)(__ffs(__ballot_sync(0xffffffffu, pba_chain_next_key(margin) == nk)) - 1);
				}
			}
		}
		iters++;
		if (ncand == 0)
			return 1;
		if (cp) {
			/* the last copy has landed, and the slot not holding cand takes next's rows */
			lone_land(*cp);
			hit = cp->slot0 == cand ? 0 : cp->slot1 == cand ? 1 : -1;
			if (next != UINT32_MAX && next != cp->slot0 && next != cp->slot1) {
				const uint32_t s = hit == 0 ? 1u : 0u;
				lone_copy(d, m, cp->bar, next, s);
				cp->started++;
				if (s)
					cp->slot1 = next;
				else
					cp->slot0 = next;
			}
		}
		if (!lone_scan(d, m, cand,
				   hit >= 0 ? lone_slot(m, J, (uint32_t)hit) : (const int4 *)pba_need_row(&d, cand),
				   hit >= 0 ? lone_slot(m, J, (uint32_t)hit) + J / 4u : (const int4 *)pba_alloc_row(&d, cand),
				   last_growth))
			return 1; /* blocked further on: this iteration finishes no one */
		grown += last_growth;
		total++;
		__syncwarp();
	}
	return 1;
}

/*
 * ... and no copy may land after the warp hands the staged rows back to the
 * block, whose staging passes write them; the slots hold nothing then.
 */
static __device__ int chain_lone(const pba_dev &d, const pba_chain_mem &m, lone_copies *cp, uint32_t &total,
				 uint32_t &iters, uint64_t &grown, uint32_t &last_growth)
{
	const int over = lone_iterations(d, m, cp, total, iters, grown, last_growth);
	if (cp) {
		lone_land(*cp);
		cp->slot0 = cp->slot1 = UINT32_MAX;
	}
	return over;
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
 * (measured the same at 8192 x 1024), and leave warp 0 the registers for a
 * candidate's two rows on the one-warp path.
 */
#define CHAIN_BLOCK 512u

__global__ void __launch_bounds__(CHAIN_BLOCK) k_chain(pba_dev d, uint32_t p, pba_chain_plan pl)
{
	extern __shared__ uint64_t smem[];
	__shared__ uint32_t ncand[2], nfin, growth[2], lone_out[4];
	__shared__ uint64_t lone_grown, lone_bar;
	const uint32_t I = d.I, J = d.J, B = blockDim.x, tid = threadIdx.x;
	const uint32_t warp = tid / 32u, nwarps = B / 32u, nseg = (J + PBA_SEG - 1) / PBA_SEG;
	pba_chain_mem m;
	uint64_t grown = 0;
	uint32_t total, iters = 1, last_growth = 0, i, j, t, b = 0;
	const int lone = pba_chain_lone_fits(I, J);
	lone_copies copies = {&lone_bar, 0, 0, UINT32_MAX, UINT32_MAX};

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
	if (tid == 0) {
		ncand[0] = ncand[1] = growth[0] = growth[1] = 0;
		if (lone && LONE_BULK && pba_chain_lone_cache(&pl))
			bar_init(&lone_bar);
	}
	total = pba_first_total(&d);
	__syncthreads();
	while (pba_chain_goes_on(total, I)) {
		uint32_t q, nf, raw, n, most = 0;
		int staged, first = 1;
		if (lone) {
			const uint32_t before = iters;
			if (warp == 0) {
				const int over = chain_lone(d, m, LONE_BULK && pba_chain_lone_cache(&pl) ? &copies : NULL, total, iters,
							    grown, last_growth);
				if (tid == 0) {
					lone_out[0] = total;
					lone_out[1] = iters;
					lone_out[2] = last_growth;
					lone_out[3] = (uint32_t)over;
					lone_grown = grown;
				}
			}
			__syncthreads();
			total = lone_out[0];
			iters = lone_out[1];
			last_growth = lone_out[2];
			grown = lone_grown;
			if (lone_out[3])
				break;
			/* growth[] alternates with iters' parity, which the lone iterations moved on */
			if (tid == 0 && iters != before)
				growth[0] = growth[1] = 0;
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
	/* 64 bytes are left for the kernel's static counters. */
	pba_chain_plan_for(&g->chain, s->procs, s->res, (size_t)optin - 64);
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
