/*
 * A CPU driver for the GPU-PBA kernels, for the unit tests only: it runs the
 * per-element functions of deadlock/pba_bits.h over every element of every
 * (block, thread) in the order the kernels of deadlock/pba_gpu.cu,
 * deadlock/pba_thesis_gpu.cu and deadlock/pba_gpu_common.cu launch them,
 * with the hosts' flows around them, so the GPU engines' decisions are
 * checked against the oracle on a machine without a GPU.
 *
 * Order: between two barriers the kernels' threads touch disjoint elements,
 * or combine through atomics whose result does not depend on their order
 * (work[] sums, the candidates' and finishers' slots, the slots' least
 * words), or only read; the serial loops below are one of the orders the
 * device allows. The small geometries visit the threads of each step in
 * reverse, so the candidate and finisher slots are handed out in another
 * order.
 *
 * The chain kernel's shared memory is one buffer carved by the plan, as on
 * the device (pba_chain_carve): with the planner's choice for an H100, with
 * everything in global memory (small blocks, three slots, two staged rows),
 * and with the words and the finisher list in global memory beside shared
 * work[] and wakes (what the planner picks when the words do not fit). The
 * chain's L2 prefetches change nothing a decision reads and are not run.
 *
 * Uninitialised memory: device memory keeps what the last request left and
 * shared memory starts undefined, so before every event the scratch buffers
 * (work, work0, finish, atf, the words, the chunks' wakes, flist, the status
 * words, the chain's shared memory) are filled with values that would change
 * a decision if they were read before being written.
 */
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "deadlock/pba_bits.h"
#include "tests/unit/pba_gpu_sim.h"

/* The dynamic shared memory of an H100 (227 KiB with the opt-in), less k_chain's own 144 bytes (sm_90). */
#define H100_SMEM (227u * 1024u - 144u)

typedef enum sim_kind { SIM_GPU, SIM_GPU_SMALL, SIM_GPU_GLOBAL_STATE, SIM_THESIS } sim_kind;

typedef struct sim {
	pba_dev d;
	int thesis, reverse;
	uint32_t first_blocks, first_threads; /* gpu: k_first_round's grid */
	uint32_t chain_threads;               /* gpu: k_chain's block */
	int lone;                             /* gpu: k_chain's batches where they fit */
	pba_chain_plan plan;                  /* gpu: k_chain's shared memory */
	uint64_t *smem;                       /* gpu: its stand-in */
	size_t smem_bytes;
	uint32_t iterations;
	uint64_t batches, kept; /* gpu: batches run, and the iterations they kept */
	int32_t (*batch_sum)[PBA_AHEAD]; /* gpu: a batch's sums, per resource (a thread's registers) */
	gb_rng junk;
} sim;

/* The k-th element a step visits of n. */
static uint32_t nth(const sim *s, uint32_t k, uint32_t n)
{
	return s->reverse ? n - 1 - k : k;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();
	return p;
}

static void poison(sim *s)
{
	pba_dev *d = &s->d;
	uint32_t k;
	size_t b;
	gb_rng *r = &s->junk;

	for (k = 0; k < d->J; k++) {
		/* enough to cover any need: a process judged on it would finish */
		d->work[k] = 0x40000000 + (int32_t)gb_rng_below(r, 1000);
		if (d->work0)
			d->work0[k] = 0x40000000 + (int32_t)gb_rng_below(r, 1000);
	}
	for (k = 0; k < d->I; k++) {
		if (d->finish)
			d->finish[k] = (uint8_t)(1 + gb_rng_below(r, 255));
		if (d->atf)
			d->atf[k] = (uint8_t)(1 + gb_rng_below(r, 255));
		if (d->state) {
			/* blocked at a random resource on a need of 0..2: a candidate, or a finisher */
			d->state[k] = gb_rng_below(r, 4) ? pba_block_word((uint32_t)gb_rng_below(r, d->J),
									  (int32_t)gb_rng_below(r, 3))
							 : PBA_UNBLOCKED;
			d->flist[k] = (uint32_t)gb_rng_below(r, d->I);
		}
	}
	/* chunks that would never be looked at */
	for (k = 0; d->wake && k < pba_chunks(d->I); k++)
		d->wake[k] = UINT64_MAX - gb_rng_below(r, 1000);
	/*
	 * Shared memory: words of small numbers, so that a slot, a process's word
	 * or a staged row read before being written looks like a plausible one,
	 * and work[] read from here is large.
	 */
	for (b = 0; b < s->smem_bytes / sizeof(uint64_t); b++)
		s->smem[b] = gb_rng_below(r, 3) ? (uint64_t)gb_rng_below(r, d->I) << 32 | gb_rng_below(r, 3)
						: 0x4000000040000000ull | gb_rng_below(r, d->J);
	for (k = 0; k < 4; k++)
		d->status[k] = 0xdead0000u + k;
}

static void *sim_open(const pba_system *st, sim_kind kind)
{
	sim *s = xcalloc(1, sizeof(*s));
	pba_dev *d = &s->d;
	size_t cells = (size_t)st->procs * st->res;

	s->thesis = kind == SIM_THESIS;
	d->I = st->procs;
	d->J = st->res;
	d->maximum = xcalloc(cells, sizeof(int32_t));
	d->allocation = xcalloc(cells, sizeof(int32_t));
	d->need = xcalloc(cells, sizeof(int32_t));
	memcpy(d->maximum, st->maximum, cells * sizeof(int32_t));
	memcpy(d->allocation, st->allocation, cells * sizeof(int32_t));
	memcpy(d->need, st->need, cells * sizeof(int32_t));
	d->available = xcalloc(d->J, sizeof(int32_t));
	memcpy(d->available, st->available, d->J * sizeof(int32_t));
	d->amount = xcalloc(d->J, sizeof(int32_t));
	d->work = xcalloc(d->J, sizeof(int32_t));
	d->status = xcalloc(4, sizeof(uint32_t));
	if (s->thesis) {
		d->finish = xcalloc(d->I, 1);
		d->atf = xcalloc(d->I, 1);
	} else {
		d->work0 = xcalloc(d->J, sizeof(int32_t));
		d->state = xcalloc(d->I, sizeof(uint64_t));
		d->wake = xcalloc(pba_chunks(d->I), sizeof(uint64_t));
		d->flist = xcalloc(d->I, sizeof(uint32_t));
		/* open_gpu's geometry; with small blocks, several elements per thread and warp */
		s->reverse = kind != SIM_GPU;
		s->first_threads = kind == SIM_GPU_SMALL ? 64 : 256;
		s->first_blocks = kind == SIM_GPU_SMALL ? 1 : (d->I + 7) / 8;
		s->chain_threads = kind == SIM_GPU_SMALL ? 64 : 512;
		s->lone = pba_chain_lone_fits(d->I);
		switch (kind) {
		case SIM_GPU:
			pba_chain_plan_for(&s->plan, d->I, d->J, H100_SMEM);
			break;
		case SIM_GPU_SMALL:
			s->plan.cap = d->I < 3 ? d->I : 3;
			s->plan.stage_rows = s->plan.cap < 2 ? s->plan.cap : 2;
			break;
		default:
			s->plan.smem_work = 1;
			s->plan.smem_wake = 1;
			s->plan.cap = d->I;
			s->plan.stage_rows = d->I < PBA_STAGE_MAX ? d->I : PBA_STAGE_MAX;
			break;
		}
		s->smem_bytes = pba_chain_bytes(&s->plan, d->I, d->J);
		s->smem = xcalloc(s->smem_bytes / sizeof(uint64_t) + 1, sizeof(uint64_t));
		s->batch_sum = xcalloc(d->J, sizeof(*s->batch_sum));
	}
	gb_rng_init(&s->junk, 0x5eed + (uint64_t)d->I * 131 + d->J, 7);
	return s;
}

static void *open_gpu(const pba_system *st)
{
	return sim_open(st, SIM_GPU);
}

static void *open_gpu_small(const pba_system *st)
{
	return sim_open(st, SIM_GPU_SMALL);
}

static void *open_gpu_global_state(const pba_system *st)
{
	return sim_open(st, SIM_GPU_GLOBAL_STATE);
}

static void *open_thesis(const pba_system *st)
{
	return sim_open(st, SIM_THESIS);
}

/* A block vote: 1 when any thread's flag is set. */
static int vote_invalid(const sim *s, uint32_t p)
{
	uint32_t k;
	int bad = 0;
	for (k = 0; k < s->d.J; k++)
		bad |= pba_request_invalid(&s->d, p, nth(s, k, s->d.J));
	return bad;
}

static int vote_unavailable(const sim *s)
{
	uint32_t k;
	int bad = 0;
	for (k = 0; k < s->d.J; k++)
		bad |= pba_request_unavailable(&s->d, nth(s, k, s->d.J));
	return bad;
}

static void temp_allocate(const sim *s, uint32_t p)
{
	uint32_t k;
	for (k = 0; k < s->d.J; k++)
		pba_temp_allocate_cell(&s->d, p, nth(s, k, s->d.J));
}

static void roll_back(const sim *s, uint32_t p)
{
	uint32_t k;
	for (k = 0; k < s->d.J; k++)
		pba_roll_back_cell(&s->d, p, nth(s, k, s->d.J));
}

/* k_release, and pba_gpu_upload around it: the outcome as the host reads it. */
static unsigned release(sim *s, uint32_t p)
{
	const pba_dev *d = &s->d;
	uint32_t k;
	int bad = 0;
	for (k = 0; k < d->J; k++)
		bad |= pba_release_bad(d, p, nth(s, k, d->J));
	if (bad) {
		pba_set_outcome(d, PBA_RELEASE_INVALID);
	} else {
		for (k = 0; k < d->J; k++)
			pba_release_cell(d, p, nth(s, k, d->J));
		pba_set_outcome(d, PBA_RELEASED);
	}
	return d->status[PBA_ST_OUTCOME];
}

/*
 * first_blocked: a warp's 32 lanes load their needs (and, staging, their
 * allocations), compare, store the allocations, then ballot; the lowest lane
 * over wins and its need goes into the word.
 */
static uint64_t warp_first_blocked(const int32_t *need, const int32_t *alloc, int32_t *stage,
				   const int32_t *work, uint32_t J, uint32_t from, uint32_t seg)
{
	int32_t v[32][PBA_SEG_PER_LANE], a[32][PBA_SEG_PER_LANE];
	uint32_t ballot[PBA_SEG_PER_LANE] = {0};
	uint32_t lane, u;
	for (lane = 0; lane < 32; lane++)
		for (u = 0; u < PBA_SEG_PER_LANE; u++) {
			v[lane][u] = pba_scan_load(need, J, from, pba_scan_index(seg, u, lane));
			if (alloc)
				a[lane][u] = pba_scan_load(alloc, J, 0, pba_scan_index(seg, u, lane));
		}
	for (lane = 0; lane < 32; lane++)
		for (u = 0; u < PBA_SEG_PER_LANE; u++) {
			if (pba_scan_over(work, J, from, pba_scan_index(seg, u, lane), v[lane][u]))
				ballot[u] |= 1u << lane;
			if (alloc)
				pba_stage_put(stage, J, pba_scan_index(seg, u, lane), a[lane][u]);
		}
	for (u = 0; u < PBA_SEG_PER_LANE; u++)
		if (ballot[u]) {
			lane = (uint32_t)__builtin_ctz(ballot[u]);
			return pba_block_word(pba_scan_index(seg, u, lane), v[lane][u]);
		}
	return PBA_UNBLOCKED;
}

/* k_prepare <<<1,J>>>. */
static void prepare(sim *s, uint32_t p)
{
	const pba_dev *d = &s->d;
	if (vote_invalid(s, p)) {
		pba_set_outcome(d, PBA_DENIED_INVALID);
		return;
	}
	if (vote_unavailable(s)) {
		pba_set_outcome(d, PBA_DENIED_UNAVAILABLE);
		return;
	}
	temp_allocate(s, p);
	pba_set_pending(d);
}

/* k_first_round: blocks, their warps, a warp's processes; one process is one warp's work. */
static void first_round(sim *s)
{
	const pba_dev *d = &s->d;
	uint32_t warps = s->first_threads / 32u, b, w, lane, i, j, k;

	if (!pba_is_pending(d))
		return;
	for (b = 0; b < s->first_blocks; b++) {
		uint32_t finished = 0;
		for (k = 0; k < warps; k++) {
			w = nth(s, k, warps);
			for (i = b * warps + w; i < d->I; i += s->first_blocks * warps) {
				const int32_t *need = pba_need_row(d, i);
				uint64_t word = PBA_UNBLOCKED;
				uint32_t seg;
				for (seg = 0; seg < d->J && word == PBA_UNBLOCKED; seg += PBA_SEG)
					word = warp_first_blocked(need, NULL, NULL, d->work0, d->J, 0, seg);
				if (word != PBA_UNBLOCKED) {
					pba_first_blocked(d, i, word);
					continue;
				}
				for (lane = 0; lane < 32; lane++)
					for (j = nth(s, lane, 32); j < d->J; j += 32u)
						pba_first_release_cell(d, i, j);
				pba_first_finish(d, i, &finished);
			}
		}
		pba_first_publish(d, finished);
	}
}

/* chain_collect: warps in turn vote which of their chunks are due, then take them a chunk at a time. */
static void chain_collect(const sim *s, const pba_chain_mem *m, uint32_t *ncand, uint64_t grown)
{
	const uint32_t I = s->d.I, J = s->d.J, nwarps = s->chain_threads / 32u, nchunks = pba_chunks(I);
	uint32_t k, x, warp, base, lane;
	for (k = 0; k < nwarps; k++) {
		warp = nth(s, k, nwarps);
		for (base = warp; base < nchunks; base += nwarps * 32u) {
			uint32_t due = 0;
			for (lane = 0; lane < 32; lane++)
				if (pba_chain_due(m, nchunks, base + lane * nwarps, grown))
					due |= 1u << lane;
			while (due) {
				const uint32_t c = base + (uint32_t)__builtin_ctz(due) * nwarps;
				uint32_t least = UINT32_MAX;
				due &= due - 1u;
				for (x = 0; x < 32; x++) {
					const uint32_t i = c * PBA_CHUNK + nth(s, x, 32);
					const uint64_t w = pba_chain_word_at(m, I, i);
					const int32_t at = pba_chain_work_at(m, J, w);
					const uint32_t margin = pba_chain_margin(w, J, at);
					if (pba_chain_is_candidate(w, J, at))
						pba_chain_take(m, s->plan.cap, ncand, i);
					least = margin < least ? margin : least;
				}
				pba_chain_set_wake(m, c, least, grown);
			}
		}
	}
}

/*
 * batch_plan: warp 0's look at an iteration (k_chain's batch_plan): the due
 * chunks in the kernel's order (lane l's chunks l, l + 32, ..., lanes in
 * turn), each process's key in its chunk's slot, then the least keys as the
 * predictions and the next one, with the chunks not due, as the bound.
 */
static int batch_plan(const sim *s, const pba_chain_mem *m, pba_batch *bt, uint64_t grown)
{
	const pba_dev *d = &s->d;
	const uint32_t I = d->I, J = d->J, nchunks = pba_chunks(I);
	uint32_t ndue = 0, ncand = 0, cand = 0, nd = 0, quiet = UINT32_MAX, c, l, x, k;
	uint32_t key[PBA_LONE_DUE][32], chunk[PBA_LONE_DUE];

	for (c = 0; c < nchunks; c++) {
		if (pba_chain_due(m, nchunks, c, grown))
			ndue++;
		else {
			const uint32_t g = pba_batch_gap(m->wake[c], grown);
			quiet = g < quiet ? g : quiet;
		}
	}
	if (!pba_chain_lone_takes(ndue, 0))
		return PBA_BATCH_BLOCK;
	for (l = 0; l < 32; l++)
		for (c = l; c < nchunks; c += 32) {
			uint32_t least = UINT32_MAX, nb = 0, firstc = 0;
			if (!pba_chain_due(m, nchunks, c, grown))
				continue;
			for (x = 0; x < 32; x++) {
				const uint32_t i = c * PBA_CHUNK + x;
				const uint64_t w = pba_chain_word_at(m, I, i);
				const int32_t at = pba_chain_work_at(m, J, w);
				const uint32_t margin = pba_chain_margin(w, J, at);
				if (pba_chain_is_candidate(w, J, at) && nb++ == 0)
					firstc = i;
				least = margin < least ? margin : least;
				key[nd][x] = pba_batch_key(margin, nd, x);
			}
			pba_chain_set_wake(m, c, least, grown);
			if (nb) {
				cand = firstc;
				ncand += nb;
				if (!pba_chain_lone_takes(ndue, ncand))
					return PBA_BATCH_BLOCK;
			}
			chunk[nd++] = c;
		}
	if (ncand == 0)
		return PBA_BATCH_OVER;
	pba_batch_begin(bt, cand);
	for (k = 1;; k++) {
		uint32_t least = PBA_NO_KEY, t;
		for (t = 0; t < nd; t++)
			for (x = 0; x < 32; x++)
				least = key[t][x] < least ? key[t][x] : least;
		if (least == PBA_NO_KEY || k == PBA_AHEAD) {
			const uint32_t lm = pba_batch_key_margin(least);
			bt->bound = lm < quiet ? lm : quiet;
			break;
		}
		key[pba_batch_key_slot(least)][pba_batch_key_lane(least)] = PBA_NO_KEY;
		pba_batch_predict(bt, chunk[pba_batch_key_slot(least)], least);
	}
	return PBA_BATCH_RUN;
}

/*
 * batch_run: the block's pass over the predictions' rows, resource after
 * resource, the sums kept where a thread of chain_threads keeps them (else
 * the allocations loaded again), then T and the commit. Returns T.
 */
static uint32_t batch_run(const sim *s, const pba_chain_mem *m, pba_batch *bt)
{
	const pba_dev *d = &s->d;
	const uint32_t J = d->J, keep = J <= PBA_BATCH_KEEP * s->chain_threads;
	uint32_t short_now = 0, short_before = 0, reach[PBA_AHEAD] = {0}, k, t, T;
	int32_t (*sum)[PBA_AHEAD] = s->batch_sum, cell[PBA_BATCH_KEEP][PBA_AHEAD];

	for (k = 0; k < J; k++) {
		const uint32_t j = nth(s, k, J);
		pba_batch_cells(d, m, bt, j, 1, 1, &short_now, &short_before, reach, cell);
		memcpy(sum[j], cell[0], sizeof(sum[j]));
	}
	bt->short_now |= short_now;
	bt->short_before |= short_before;
	for (t = 0; t < PBA_AHEAD; t++)
		bt->reach[t] = reach[t] > bt->reach[t] ? reach[t] : bt->reach[t];
	T = pba_batch_accept(bt);
	for (k = 0; T && k < J; k++) {
		const uint32_t j = nth(s, k, J);
		if (keep)
			pba_batch_add_sum(m, j, sum[j], T);
		else
			pba_batch_add_cell(d, m, bt, T, j);
	}
	for (t = 0; t < T; t++)
		pba_batch_finish(m, bt, nth(s, t, T));
	return T;
}

/* k_chain <<<1,chain_threads>>>: every step between two barriers as one loop. */
static void chain(sim *s, uint32_t p)
{
	const pba_dev *d = &s->d;
	const pba_chain_plan *pl = &s->plan;
	const uint32_t I = d->I, J = d->J, nseg = (J + PBA_SEG - 1) / PBA_SEG;
	pba_chain_mem m;
	uint64_t grown = 0;
	uint32_t total, iters = 1, i, k, t, ncand, nfin;
	pba_batch bt;

	if (!pba_is_pending(d))
		return;
	/* shared memory starts undefined: what a plan leaves unset must not be read */
	memset(&bt, 0xa5, sizeof(bt));
	pba_chain_carve(pl, d, s->smem, &m);
	if (pl->smem_work)
		for (k = 0; k < J; k++)
			pba_chain_stage_cell(d, &m, nth(s, k, J));
	if (pl->smem_state)
		for (k = 0; k < I; k++)
			pba_chain_stage_word(d, &m, nth(s, k, I));
	for (k = 0; k < pba_chunks(I); k++)
		pba_chain_wake_now(&m, nth(s, k, pba_chunks(I)));
	total = pba_first_total(d);
	while (pba_chain_goes_on(total, I)) {
		uint32_t nf, raw, n, most = 0, add;
		int staged, first = 1;
		if (s->lone) {
			const int r = batch_plan(s, &m, &bt, grown);
			uint32_t T;
			if (r == PBA_BATCH_OVER) {
				iters++;
				break;
			}
			if (r == PBA_BATCH_RUN) {
				T = batch_run(s, &m, &bt);
				s->batches++;
				s->kept += T;
				if (T == 0) {
					iters++;
					break;
				}
				total += T;
				iters += T;
				grown += bt.reach[T - 1];
				continue;
			}
		}
		iters++;
		nfin = 0;
		do {
			ncand = 0;
			chain_collect(s, &m, &ncand, grown);
			raw = ncand;
			n = raw < pl->cap ? raw : pl->cap;
			staged = pba_chain_staged(pl, raw, first);
			first = 0;
			for (k = 0; k < n * nseg; k++) {
				uint32_t c, seg, from;
				uint64_t w;
				t = nth(s, k, n * nseg);
				if (!pba_chain_task(&m, nseg, t, &c, &i, &seg, &from) && !staged)
					continue;
				w = warp_first_blocked(pba_need_row(d, i), staged ? pba_alloc_row(d, i) : NULL,
						       staged ? pba_chain_stage_row(&m, J, c) : NULL, m.work, J, from,
						       seg);
				pba_chain_note(&m, c, w);
			}
			for (k = 0; k < n; k++)
				pba_chain_resolve(&m, staged ? NULL : &nfin, nth(s, k, n));
		} while (raw > pl->cap);
		if (staged)
			nf = pba_chain_staged_finishers(&m, n);
		else
			nf = nfin;
		for (k = 0; k < J; k++) {
			if (staged)
				add = pba_chain_add_staged(&m, n, J, nth(s, k, J));
			else
				add = pba_chain_add_cell(d, &m, nf, nth(s, k, J));
			most = add > most ? add : most;
		}
		if (nf == 0)
			break;
		total += nf;
		grown += most;
	}
	if (total < I)
		roll_back(s, p);
	pba_chain_verdict(d, total, iters);
}

/* apply_gpu: upload, then k_prepare, k_first_round and k_chain, then the status read. */
static unsigned apply_gpu(sim *s, uint32_t p)
{
	unsigned r;
	prepare(s, p);
	first_round(s);
	chain(s, p);
	r = s->d.status[PBA_ST_OUTCOME];
	s->iterations = r == PBA_GRANTED || r == PBA_DENIED_UNSAFE ? s->d.status[PBA_ST_ITERATIONS] : 0;
	return r;
}

/* apply_thesis: the host's flow, with k_perform_safety_check one block per process. */
static unsigned apply_thesis(sim *s, uint32_t p)
{
	const pba_dev *d = &s->d;
	uint32_t I = d->I, J = d->J, it, i, k, total = 0;

	if (vote_invalid(s, p))
		return PBA_DENIED_INVALID;
	if (vote_unavailable(s))
		return PBA_DENIED_UNAVAILABLE;
	temp_allocate(s, p);
	memset(d->finish, 0, I);
	memset(d->atf, 0, I);
	for (it = 0; it < I; it++) {
		uint32_t found = 0;
		for (i = 0; i < I; i++) {
			int short_of = 0;
			if (pba_thesis_skips(d, i))
				continue;
			for (k = 0; k < J; k++)
				short_of |= pba_thesis_short_of(d, i, nth(s, k, J));
			if (!short_of)
				pba_thesis_finish(d, i);
		}
		for (i = 0; i < I; i++)
			if (d->atf[i]) {
				found++;
				for (k = 0; k < J; k++)
					pba_thesis_add_cell(d, i, nth(s, k, J));
			}
		total += found;
		if (total == I || found == 0)
			break;
		memset(d->atf, 0, I);
	}
	s->iterations = it + (it < I);
	if (total == I)
		return PBA_GRANTED;
	roll_back(s, p);
	return PBA_DENIED_UNSAFE;
}

static unsigned sim_apply(void *ctx, uint8_t type, uint32_t p, const int32_t *amt,
			  double ph[PBA_NPHASES])
{
	sim *s = ctx;
	(void)ph;
	poison(s);
	s->iterations = 0;
	memcpy(s->d.amount, amt, s->d.J * sizeof(int32_t));
	if (type == PBA_RELEASE)
		return release(s, p);
	return s->thesis ? apply_thesis(s, p) : apply_gpu(s, p);
}

void pba_sim_batch_counts(void *ctx, uint64_t *batches, uint64_t *kept)
{
	const sim *s = ctx;
	*batches = s->batches;
	*kept = s->kept;
}

static uint32_t sim_last_iterations(void *ctx)
{
	return ((sim *)ctx)->iterations;
}

static void sim_fetch(void *ctx, pba_system *out)
{
	const pba_dev *d = &((sim *)ctx)->d;
	size_t cells = (size_t)d->I * d->J * sizeof(int32_t);
	memcpy(out->maximum, d->maximum, cells);
	memcpy(out->allocation, d->allocation, cells);
	memcpy(out->need, d->need, cells);
	memcpy(out->available, d->available, d->J * sizeof(int32_t));
}

static void sim_close(void *ctx)
{
	sim *s = ctx;
	pba_dev *d = &s->d;
	free(d->maximum);
	free(d->allocation);
	free(d->need);
	free(d->available);
	free(d->amount);
	free(d->work);
	free(d->work0);
	free(d->finish);
	free(d->atf);
	free(d->state);
	free(d->wake);
	free(d->flist);
	free(d->status);
	free(s->smem);
	free(s->batch_sum);
	free(s);
}

const pba_engine pba_sim_gpu = {
	.head = {.name = "gpu (CPU driver)",
		 .summary = "gpu's kernels in its launch geometry",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.open = open_gpu,
	.apply = sim_apply,
	.last_iterations = sim_last_iterations,
	.fetch = sim_fetch,
	.close = sim_close,
};

const pba_engine pba_sim_gpu_small = {
	.head = {.name = "gpu, small blocks (CPU driver)",
		 .summary = "gpu's kernels with 64-thread blocks, 3 candidate slots, 2 staged rows, all in global memory",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.open = open_gpu_small,
	.apply = sim_apply,
	.last_iterations = sim_last_iterations,
	.fetch = sim_fetch,
	.close = sim_close,
};

const pba_engine pba_sim_gpu_global_state = {
	.head = {.name = "gpu, words in global memory (CPU driver)",
		 .summary = "gpu's kernels with the processes' words and the finisher list in global memory",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.open = open_gpu_global_state,
	.apply = sim_apply,
	.last_iterations = sim_last_iterations,
	.fetch = sim_fetch,
	.close = sim_close,
};

const pba_engine pba_sim_gpu_thesis = {
	.head = {.name = "gpu-thesis (CPU driver)",
		 .summary = "gpu-thesis's kernels and host scan",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.open = open_thesis,
	.apply = sim_apply,
	.last_iterations = sim_last_iterations,
	.fetch = sim_fetch,
	.close = sim_close,
};
