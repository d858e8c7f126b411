/*
 * GPU-LMDDA's per-element work (Abell's thesis, section 4.3, Algorithms
 * 12-21): one word of a row, one tile of a transpose, one single-thread
 * kernel body. deadlock/lmdda_gpu.cu launches them as kernels; the unit
 * tests' CPU driver (tests/unit/rag_gpu_sim.c) runs the same functions over
 * every (block, thread) in launch order. The decisions, and the corrections
 * to the thesis's pseudocode, are those of deadlock/lmdda_cpu.c; the
 * matrices are in the layout of deadlock/rag_bits.h, AG as one count a cell.
 * As in deadlock/osdda_bits.h the event and the verdicts live in device
 * memory (io[]) and every kernel starts with a gate, so the thesis's flow
 * (host reads between kernels) and the graph flow (every kernel, gated on
 * the device) run the same kernels.
 *
 * Beyond Algorithm 12:
 * - Request_Granted decides itself whether a unit is free (free units per
 *   resource, avail[]); the thesis is handed the event as granted.
 * - Line 10's Resource_Request_Blocked <<<M,N>>> is not described anywhere
 *   in the thesis; Deadlock_Check already sets AR, so it is left out.
 * - Find_Sink_Processes writes each process's SP bit both ways (atomicOr or
 *   atomicAnd): the thesis only sets bits, so a process that blocked would
 *   stay a sink.
 * - Find_Waiting_Processes returns the lowest waiting process (the model's
 *   choice, rag_model.h), not only a flag.
 * - Reachability_Computation: Algorithm 21 gives thread (k, h) the test
 *   "does q_k reach some p_z that reaches p_h through a request edge and
 *   RP", rebuilding innertemp (which p_z) in every thread although it does
 *   not depend on k, and scanning all of RP_trans[h] and AR for it: O(N M^2
 *   N / 32) per iteration. The same step here is two sparse bit products,
 *   one thread a word, which visit only set bits:
 *     CONN[z] = OR of RP[g] over the q_g that p_z waits for (AR[z]),
 *     RP_temp[k] = RP[k] | OR of CONN[z] over the p_z in RP[k],
 *   so q_k reaches p_h in RP_temp exactly when Algorithm 21 sets RP[k][h]
 *   (RP_temp starts as RP, see lmdda_cpu.c). The threads of a warp take
 *   consecutive words of one row: they walk the same set bits (broadcast
 *   reads) and read consecutive words of CONN or RP (coalesced), which is
 *   what RP_trans was for in the thesis, so RP is not transposed. Work per
 *   iteration: O((M + N) Mw (Nw or Mw) + the set bits visited x Mw).
 * - An iteration that changes nothing has reached the fixpoint: the later
 *   ones (still at most ceil(log2(min(m, n)))) skip their work on a device
 *   flag, without a host round trip.
 * - Section 6.2: the thesis launches <<<N, M>>>, so M is at most 1024. All
 *   kernels here take at most 256 threads a block and cover rows or words
 *   with more blocks, so M and N are limited by memory only.
 */
#ifndef GB_LMDDA_BITS_H
#define GB_LMDDA_BITS_H

#include "deadlock/rag.h"
#include "deadlock/rag_bits.h"

/* io[]: the event, the verdicts, then one changed flag per iteration. */
enum { LM_TYPE, LM_P, LM_Q, LM_OUTCOME, LM_WAITER, LM_REACH, LM_CHANGED };
#define LM_PENDING 255u

/* The kernels of Algorithm 12, in launch order; the last three run once an iteration. */
enum lmdda_kernel {
	LK_GRANT,        /* Request_Granted <<<1,1>>> (Algorithm 13) */
	LK_SINKS,        /* Find_Sink_Processes <<<M,IPR>>> (Algorithm 14) */
	LK_DLCHECK,      /* Deadlock_Check <<<1,1>>> (Algorithm 15) */
	LK_RP_BLOCKED,   /* Update_RP_Blocked <<<N,IPR>>> (Algorithm 16) */
	LK_RELEASE,      /* Release_Resource <<<1,1>>> (Algorithm 17) */
	LK_AR_TILES,     /* bitMatrixTranspose of AR */
	LK_AR_MOVE,      /* tileTranspose into AR_trans */
	LK_WAITER,       /* Find_Waiting_Processes <<<1,IPR>>> (Algorithm 18) */
	LK_RELEASE_TYPE, /* Determine_Release_Type <<<1,1>>> (Algorithm 19) */
	LK_INIT_RP,      /* InitRP_Reachability (Algorithm 20), one thread a word */
	LK_CONNECT_PROCS, /* Algorithm 21 lines 13-21 for every h: CONN */
	LK_CONNECT_RES,  /* Algorithm 21 lines 24-29: RP_temp */
	LK_RP_COPY,      /* RP = RP_temp */
	LK_COUNT
};
#define LK_FIRST_ITER LK_CONNECT_PROCS

typedef struct lmdda_dev {
	uint32_t M, N, lcpw, hops;
	uint32_t Mw, Nw, Mp, Np;
	uint32_t *ag;            /* N x M: units of q_j granted to p_i */
	uint32_t *avail;         /* N: free units */
	uint32_t *ar;            /* Mp x Nw */
	uint32_t *ar_t;          /* Np x Mw: AR transposed */
	uint32_t *rp, *rp_temp;  /* Np x Mw */
	uint32_t *conn;          /* Mp x Mw: CONN[z][h], p_h reachable from a resource p_z waits for */
	uint32_t *sp;            /* Mw: SP, the active processes */
	uint32_t *tile;          /* transpose scratch */
	uint32_t *io;            /* LM_CHANGED + hops words */
} lmdda_dev;

GB_HD void lmdda_geometry(lmdda_dev *d, uint32_t M, uint32_t N, uint32_t lcpw)
{
	uint32_t least = M < N ? M : N;
	d->M = M;
	d->N = N;
	d->lcpw = lcpw;
	d->Mw = rb_words(M, lcpw);
	d->Nw = rb_words(N, lcpw);
	d->Mp = d->Mw << lcpw;
	d->Np = d->Nw << lcpw;
	for (d->hops = 0; (1ull << d->hops) < least; d->hops++)
		;
}

GB_HD uint32_t lmdda_io_words(const lmdda_dev *d)
{
	return LM_CHANGED + d->hops;
}

GB_HD int lmdda_gate(const uint32_t *io, unsigned k, unsigned iter)
{
	/* an event of neither type (RAG_GPU_WARM_UP) passes no gate */
	int req = io[LM_TYPE] == RAG_REQUEST, rel = io[LM_TYPE] == RAG_RELEASE;
	int pending = io[LM_OUTCOME] == LM_PENDING;
	switch (k) {
	case LK_GRANT:
		return req;
	case LK_SINKS:
	case LK_DLCHECK:
		return req && pending;
	case LK_RP_BLOCKED:
		return io[LM_OUTCOME] == RAG_BLOCKED;
	case LK_RELEASE:
	case LK_AR_TILES:
	case LK_AR_MOVE:
	case LK_WAITER:
	case LK_RELEASE_TYPE:
		return rel;
	case LK_INIT_RP:
		return rel && io[LM_REACH];
	default: /* an iteration: runs until one changed nothing */
		return rel && io[LM_REACH] && (iter == 0 || io[LM_CHANGED + iter - 1]);
	}
}

/* The <<<1,1>>> kernels: Algorithms 13, 15, 17 and 19. */
GB_HD void lmdda_single(const lmdda_dev *d, unsigned k)
{
	uint32_t *io = d->io, i = io[LM_P], j = io[LM_Q], t = io[LM_WAITER], l = d->lcpw;
	size_t held = (size_t)j * d->M + i;
	uint32_t w, likecols = 0;

	switch (k) {
	case LK_GRANT:
		if (d->avail[j] > 0) {
			d->avail[j]--;
			d->ag[held]++;
			rb_set(d->rp, d->Mw, j, i, l);
			io[LM_OUTCOME] = RAG_GRANTED;
		}
		break;
	case LK_DLCHECK:
		for (w = 0; w < d->Mw; w++)
			likecols += (d->sp[w] & d->rp[(size_t)j * d->Mw + w]) == rb_onehot_word(i, w, l);
		if (likecols == d->Mw) {
			io[LM_OUTCOME] = RAG_DEADLOCK;
		} else {
			rb_set(d->ar, d->Nw, i, j, l);
			io[LM_OUTCOME] = RAG_BLOCKED;
		}
		break;
	case LK_RELEASE:
		d->ag[held]--;
		break;
	case LK_RELEASE_TYPE:
		if (t != RB_NONE) {
			rb_clear(d->ar, d->Nw, t, j, l);
			d->ag[(size_t)j * d->M + t]++;
			io[LM_OUTCOME] = RAG_REGRANTED;
			io[LM_REACH] = 1;
		} else {
			d->avail[j]++;
			io[LM_OUTCOME] = RAG_RELEASED;
			io[LM_REACH] = d->ag[held] == 0;
		}
		break;
	default:
		break;
	}
}

/* Find_Sink_Processes: word w of AR's row z, for the OR reduction of the row. */
GB_HD uint32_t lmdda_sinks_word(const lmdda_dev *d, uint32_t z, uint32_t w)
{
	return d->ar[(size_t)z * d->Nw + w];
}

/* ... and its result: p_z is a sink when its row of AR is empty. */
GB_HD void lmdda_sinks_store(const lmdda_dev *d, uint32_t z, uint32_t row_or)
{
	uint32_t *word = &d->sp[z >> d->lcpw], m = rb_mask(z, d->lcpw);
#if defined(__CUDA_ARCH__)
	if (row_or)
		atomicAnd(word, ~m);
	else
		atomicOr(word, m);
#else
	*word = row_or ? *word & ~m : *word | m;
#endif
}

/* Update_RP_Blocked, word w of row k: resources reaching p_i reach what q_j reaches. */
GB_HD void lmdda_rp_blocked_word(const lmdda_dev *d, uint32_t k, uint32_t w)
{
	uint32_t i = d->io[LM_P], j = d->io[LM_Q];
	if (rb_test(d->rp, d->Mw, k, i, d->lcpw))
		d->rp[(size_t)k * d->Mw + w] |= d->rp[(size_t)j * d->Mw + w];
}

/* Find_Waiting_Processes reduces this row: AR_trans[q_j]. */
GB_HD const uint32_t *lmdda_waiter_row(const lmdda_dev *d)
{
	return d->ar_t + (size_t)d->io[LM_Q] * d->Mw;
}

/* InitRP_Reachability, word x of RP: the grant edges of its 2^lcpw cells. */
GB_HD void lmdda_init_rp_word(const lmdda_dev *d, size_t x)
{
	uint32_t k = (uint32_t)(x / d->Mw), w = (uint32_t)(x % d->Mw), b, word = 0;
	uint32_t cells = 1u << d->lcpw;
	if (k < d->N)
		for (b = 0; b < cells && (w << d->lcpw) + b < d->M; b++)
			if (d->ag[(size_t)k * d->M + (w << d->lcpw) + b])
				word |= RB_TOP >> b;
	d->rp[x] = word;
}

/* Tiles of the transpose of AR (Mp rows of Nw words). */
GB_HD size_t lmdda_transpose_tiles(const lmdda_dev *d)
{
	return rb_tiles(d->Mp, d->Nw, d->lcpw);
}

/* bitMatrixTranspose (LK_AR_TILES) or tileTranspose (LK_AR_MOVE) of tile x of AR. */
GB_HD void lmdda_transpose_tile(const lmdda_dev *d, unsigned k, size_t x)
{
	uint32_t tr = (uint32_t)(x / d->Nw), tw = (uint32_t)(x % d->Nw);
	if (k == LK_AR_TILES)
		rb_tile_transpose(d->ar, d->tile, d->Nw, tr, tw, d->lcpw);
	else
		rb_tile_move(d->tile, d->ar_t, d->Nw, d->Mw, tr, tw, d->lcpw);
}

/*
 * Word w of OR over the rows of m (rows of pitch words) named by the set cells of sel (words
 * long): the sparse product both halves of the node hopping step share.
 */
GB_HD uint32_t lmdda_or_selected(const uint32_t *sel, uint32_t words, const uint32_t *m,
				 uint32_t pitch, uint32_t w, uint32_t lcpw)
{
	uint32_t acc = 0, sw;
	for (sw = 0; sw < words; sw++) {
		uint32_t bits = sel[sw];
		while (bits) {
			uint32_t b = gb_clz_u32(bits);
			bits &= ~(RB_TOP >> b);
			acc |= m[(size_t)((sw << lcpw) + b) * pitch + w];
		}
	}
	return acc;
}

/* CONN word x = (z, hw): the processes reachable from the resources p_z waits for. */
GB_HD void lmdda_connect_procs_word(const lmdda_dev *d, size_t x)
{
	uint32_t z = (uint32_t)(x / d->Mw), hw = (uint32_t)(x % d->Mw);
	d->conn[x] = lmdda_or_selected(d->ar + (size_t)z * d->Nw, d->Nw, d->rp, d->Mw, hw, d->lcpw);
}

/* RP_temp word x = (k, hw): RP[k], and what the processes in RP[k] reach through CONN. */
GB_HD void lmdda_connect_res_word(const lmdda_dev *d, size_t x, unsigned iter)
{
	uint32_t k = (uint32_t)(x / d->Mw), hw = (uint32_t)(x % d->Mw), old = d->rp[x];
	uint32_t word = old | lmdda_or_selected(d->rp + (size_t)k * d->Mw, d->Mw, d->conn, d->Mw, hw,
						d->lcpw);
	d->rp_temp[x] = word;
	if (word != old)
		d->io[LM_CHANGED + iter] = 1; /* every writer stores 1: no atomic needed */
}

GB_HD void lmdda_rp_copy_word(const lmdda_dev *d, size_t x)
{
	d->rp[x] = d->rp_temp[x];
}

/* ---- host side: the event in, the decision out, the order of the kernels ---- */

/* The io words of a new event: nothing decided yet, no iteration run. */
static inline void lmdda_io_event(uint32_t *io, uint32_t hops, uint8_t type, uint32_t p, uint32_t q)
{
	uint32_t s;
	io[LM_TYPE] = type;
	io[LM_P] = p;
	io[LM_Q] = q;
	io[LM_OUTCOME] = LM_PENDING;
	io[LM_WAITER] = RB_NONE;
	io[LM_REACH] = 0;
	for (s = 0; s < hops; s++)
		io[LM_CHANGED + s] = 0;
}

static inline rag_decision lmdda_io_decision(const uint32_t *io)
{
	rag_decision d;
	d.outcome = (uint8_t)io[LM_OUTCOME];
	d.to = io[LM_OUTCOME] == RAG_REGRANTED ? io[LM_WAITER] : RAG_NONE;
	return d;
}

/* Algorithm 12: launch what the event needs, reading verdicts between kernels. */
static inline const uint32_t *lmdda_thesis_flow(const rag_launch_ops *ops, void *ctx, int request,
						uint32_t hops)
{
	static const unsigned release[] = {LK_RELEASE, LK_AR_TILES, LK_AR_MOVE, LK_WAITER,
					   LK_RELEASE_TYPE};
	const uint32_t *io;
	unsigned s, k;

	if (request) {
		ops->launch(ctx, LK_GRANT, 0);
		io = ops->read(ctx);
		if (io[LM_OUTCOME] == RAG_GRANTED)
			return io;
		ops->launch(ctx, LK_SINKS, 0);
		ops->launch(ctx, LK_DLCHECK, 0);
		io = ops->read(ctx);
		if (io[LM_OUTCOME] == RAG_BLOCKED)
			ops->launch(ctx, LK_RP_BLOCKED, 0);
		return ops->read(ctx);
	}
	for (s = 0; s < 5; s++)
		ops->launch(ctx, release[s], 0);
	io = ops->read(ctx);
	if (io[LM_REACH]) {
		ops->launch(ctx, LK_INIT_RP, 0);
		for (s = 0; s < hops; s++)
			for (k = LK_FIRST_ITER; k < LK_COUNT; k++)
				ops->launch(ctx, k, s);
	}
	return ops->read(ctx);
}

/* A graph's flow: every kernel an event of this type may need, in order; the gates decide on
 * the device. */
static inline void lmdda_all_kernels(const rag_launch_ops *ops, void *ctx, int request, uint32_t hops)
{
	unsigned s, k;
	for (k = request ? 0 : LK_RELEASE; k < (request ? LK_RELEASE : LK_FIRST_ITER); k++)
		ops->launch(ctx, k, 0);
	for (s = 0; !request && s < hops; s++)
		for (k = LK_FIRST_ITER; k < LK_COUNT; k++)
			ops->launch(ctx, k, s);
}

#endif
