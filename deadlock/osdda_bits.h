/*
 * GPU-OSDDA's per-element work (Abell's thesis, section 3.3, Algorithms 4-11):
 * one word of a row, one tile of a transpose, one single-thread kernel body.
 * deadlock/osdda_gpu.cu launches them as kernels; the unit tests' CPU driver
 * (tests/unit/rag_gpu_sim.c) runs the same functions over every (block,
 * thread) in launch order. The matrices are those of deadlock/osdda_cpu.c
 * (AG, Sink, Sink_temp, RP: N x M; AR: M x N; RR: N x N; AG_trans, AR_trans
 * for the reductions) in the layout of deadlock/rag_bits.h, so the decisions
 * and the deviations from the thesis's pseudocode are those listed there.
 *
 * The event and the verdicts live in device memory (io[]): every kernel
 * starts with osdda_gate(), which says whether it has work for this event.
 * The thesis's flow (osdda_thesis_flow) launches only the kernels the host
 * has decided on, reading the verdicts back in between as Algorithm 4 does;
 * the graph flow launches all that an event of its type may need (one graph
 * for requests, one for releases) and lets the gates skip the others, so the
 * host waits once per event.
 *
 * Beyond Algorithm 4:
 * - The thesis is handed the event as granted or blocked; here a row
 *   reduction of AG's row q_j (K_HOLDER) decides.
 * - The row reductions return the first set cell, not a sum: for AR_trans's
 *   row q_j that is the lowest waiting process, the one the model regrants.
 * - Row_Reduction's phold gates Request_Blocked when p_i holds something
 *   (Algorithm 4 line 12 has the test inverted).
 * - Sink_temp is a full copy of Sink made before Request_Blocked (K_SINK_COPY).
 */
#ifndef GB_OSDDA_BITS_H
#define GB_OSDDA_BITS_H

#include "deadlock/rag.h"
#include "deadlock/rag_bits.h"

/* io[]: the event, then the verdicts the kernels write. */
enum { OS_TYPE, OS_P, OS_Q, OS_OUTCOME, OS_HOLDER, OS_HELD, OS_WAITER, OS_IO_WORDS };
#define OS_PENDING 255u /* OS_OUTCOME before a kernel decided */

/* The kernels of Algorithm 4, in launch order. */
enum osdda_kernel {
	OK_HOLDER,       /* Row_Reduction of AG[q_j]: is q_j held (extra, see above) */
	OK_GRANT,        /* Request_Granted <<<1,1>>> (Algorithm 5) */
	OK_DLCHECK,      /* DeadlockCheck_Init <<<1,1>>> (Algorithm 6) */
	OK_AG_TILES,     /* BitMatrix_Transpose of AG */
	OK_AG_MOVE,      /* tileTranspose into AG_trans */
	OK_HELD,         /* Row_Reduction of AG_trans[p_i]: does p_i hold anything */
	OK_SINK_COPY,    /* Sink_temp = Sink */
	OK_BLOCKED,      /* Request_Blocked <<<N,IPR>>> (Algorithm 7) */
	OK_RELEASE,      /* Release_Resource <<<1,1>>> (Algorithm 8) */
	OK_AR_TILES,     /* BitMatrix_Transpose of AR */
	OK_AR_MOVE,      /* tileTranspose into AR_trans */
	OK_WAITER,       /* Row_Reduction of AR_trans[q_j]: the lowest waiter p_t */
	OK_SINK_RP,      /* Update_Sink_RP <<<1,1>>> (Algorithm 9) */
	OK_AG_AR,        /* Update_AG_AR <<<1,1>>> (Algorithm 10) */
	OK_REACH,        /* Release_Update_Reachability <<<N,IPR>>> (Algorithm 11) */
	OK_COUNT
};

typedef struct osdda_dev {
	uint32_t M, N, lcpw;
	uint32_t Mw, Nw;  /* words of a row over processes, over resources */
	uint32_t Mp, Np;  /* rows padded to whole tiles */
	uint32_t *ag, *sink, *sink_temp, *rp; /* Np x Mw */
	uint32_t *ar_t;                       /* Np x Mw: AR transposed */
	uint32_t *ar, *ag_t;                  /* Mp x Nw */
	uint32_t *rr;                         /* Np x Nw */
	uint32_t *tile;                       /* transpose scratch, the larger of the two */
	uint32_t *io;                         /* OS_IO_WORDS */
} osdda_dev;

GB_HD void osdda_geometry(osdda_dev *d, uint32_t M, uint32_t N, uint32_t lcpw)
{
	d->M = M;
	d->N = N;
	d->lcpw = lcpw;
	d->Mw = rb_words(M, lcpw);
	d->Nw = rb_words(N, lcpw);
	d->Mp = d->Mw << lcpw;
	d->Np = d->Nw << lcpw;
}

/* RR starts as the identity (RR[j][j] = 1 by definition); the other matrices start empty. */
GB_HD void osdda_init_rr(const osdda_dev *d, uint32_t j)
{
	rb_set(d->rr, d->Nw, j, j, d->lcpw);
}

/* Words of each matrix, in the order osdda_dev lists them (tile: the larger transpose). */
GB_HD size_t osdda_words_nm(const osdda_dev *d) { return (size_t)d->Np * d->Mw; }
GB_HD size_t osdda_words_mn(const osdda_dev *d) { return (size_t)d->Mp * d->Nw; }
GB_HD size_t osdda_words_nn(const osdda_dev *d) { return (size_t)d->Np * d->Nw; }

GB_HD int osdda_gate(const uint32_t *io, unsigned k)
{
	/* an event of neither type (RAG_GPU_WARM_UP) passes no gate */
	int req = io[OS_TYPE] == RAG_REQUEST, rel = io[OS_TYPE] == RAG_RELEASE;
	int blocked = io[OS_OUTCOME] == RAG_BLOCKED;
	switch (k) {
	case OK_HOLDER:
		return req;
	case OK_GRANT:
		return req && io[OS_HOLDER] == RB_NONE;
	case OK_DLCHECK:
		return req && io[OS_HOLDER] != RB_NONE;
	case OK_AG_TILES:
	case OK_AG_MOVE:
	case OK_HELD:
		return blocked;
	case OK_SINK_COPY:
	case OK_BLOCKED:
		return blocked && io[OS_HELD] != RB_NONE;
	case OK_RELEASE:
	case OK_AR_TILES:
	case OK_AR_MOVE:
	case OK_WAITER:
		return rel;
	case OK_SINK_RP:
		return rel && io[OS_WAITER] == RB_NONE;
	default: /* OK_AG_AR, OK_REACH */
		return rel && io[OS_WAITER] != RB_NONE;
	}
}

/* The <<<1,1>>> kernels: Algorithms 5, 6, 8, 9 and 10. */
GB_HD void osdda_single(const osdda_dev *d, unsigned k)
{
	uint32_t *io = d->io, p = io[OS_P], q = io[OS_Q], t = io[OS_WAITER];
	uint32_t Mw = d->Mw, Nw = d->Nw, l = d->lcpw;

	switch (k) {
	case OK_GRANT:
		rb_set(d->ag, Mw, q, p, l);
		rb_set(d->sink, Mw, q, p, l);
		rb_set(d->rp, Mw, q, p, l);
		io[OS_OUTCOME] = RAG_GRANTED;
		break;
	case OK_DLCHECK:
		if (rb_test(d->sink, Mw, q, p, l)) {
			io[OS_OUTCOME] = RAG_DEADLOCK;
		} else {
			rb_set(d->ar, Nw, p, q, l);
			io[OS_OUTCOME] = RAG_BLOCKED;
		}
		break;
	case OK_RELEASE:
		rb_clear(d->ag, Mw, q, p, l);
		break;
	case OK_SINK_RP:
		rb_clear(d->sink, Mw, q, p, l);
		rb_clear(d->rp, Mw, q, p, l);
		io[OS_OUTCOME] = RAG_RELEASED;
		break;
	case OK_AG_AR:
		rb_set(d->ag, Mw, q, t, l);
		rb_clear(d->ar, Nw, t, q, l);
		io[OS_OUTCOME] = RAG_REGRANTED;
		break;
	default:
		break;
	}
}

/* The row a reduction kernel reads: its words, its length, the io slot of its result. */
GB_HD const uint32_t *osdda_reduce_row(const osdda_dev *d, unsigned k, uint32_t *words,
				       unsigned *slot)
{
	const uint32_t *io = d->io;
	if (k == OK_HOLDER) {
		*words = d->Mw;
		*slot = OS_HOLDER;
		return d->ag + (size_t)io[OS_Q] * d->Mw;
	}
	if (k == OK_HELD) {
		*words = d->Nw;
		*slot = OS_HELD;
		return d->ag_t + (size_t)io[OS_P] * d->Nw;
	}
	*words = d->Mw;
	*slot = OS_WAITER;
	return d->ar_t + (size_t)io[OS_Q] * d->Mw;
}

/* Source, destination and shape of a transpose kernel (OK_AG_* or OK_AR_*). */
GB_HD void osdda_transpose_args(const osdda_dev *d, unsigned k, const uint32_t **src, uint32_t **dst,
				uint32_t *rows, uint32_t *spitch, uint32_t *dpitch)
{
	if (k == OK_AG_TILES || k == OK_AG_MOVE) {
		*src = d->ag;
		*dst = d->ag_t;
		*rows = d->Np;
		*spitch = d->Mw;
		*dpitch = d->Nw;
	} else {
		*src = d->ar;
		*dst = d->ar_t;
		*rows = d->Mp;
		*spitch = d->Nw;
		*dpitch = d->Mw;
	}
}

/* One tile of a transpose kernel, tile index x in row-major tile order. */
GB_HD void osdda_transpose_tile(const osdda_dev *d, unsigned k, size_t x)
{
	const uint32_t *src;
	uint32_t *dst, rows, sp, dp, tr, tw;
	osdda_transpose_args(d, k, &src, &dst, &rows, &sp, &dp);
	tr = (uint32_t)(x / sp);
	tw = (uint32_t)(x % sp);
	if (k == OK_AG_TILES || k == OK_AR_TILES)
		rb_tile_transpose(src, d->tile, sp, tr, tw, d->lcpw);
	else
		rb_tile_move(d->tile, dst, sp, dp, tr, tw, d->lcpw);
}

GB_HD size_t osdda_transpose_tiles(const osdda_dev *d, unsigned k)
{
	const uint32_t *src;
	uint32_t *dst, rows, sp, dp;
	osdda_transpose_args(d, k, &src, &dst, &rows, &sp, &dp);
	return rb_tiles(rows, sp, d->lcpw);
}

/* Words a row kernel (OK_BLOCKED, OK_REACH) covers in each row. */
GB_HD uint32_t osdda_row_words(const osdda_dev *d)
{
	return d->Mw > d->Nw ? d->Mw : d->Nw;
}

/* Algorithm 7, word w of row k: when p_i was k's sink, k takes q_j's sink, RR and RP. */
GB_HD void osdda_blocked_word(const osdda_dev *d, uint32_t k, uint32_t w)
{
	uint32_t p = d->io[OS_P], q = d->io[OS_Q];
	if (!rb_test(d->sink_temp, d->Mw, k, p, d->lcpw))
		return;
	if (w < d->Mw) {
		size_t x = (size_t)k * d->Mw + w, y = (size_t)q * d->Mw + w;
		d->sink[x] = d->sink[y];
		d->rp[x] |= d->rp[y];
	}
	if (w < d->Nw)
		d->rr[(size_t)k * d->Nw + w] |= d->rr[(size_t)q * d->Nw + w];
}

/*
 * Algorithm 11 on row k, whose test in_subtree = RR[k][q_j] every thread of
 * the block read before any of them wrote (the barrier of the kernel): word
 * w of Sink[k] becomes p_t's one-hot word, and thread 0 moves RP and RR.
 */
GB_HD void osdda_reach_word(const osdda_dev *d, uint32_t k, uint32_t w, int in_subtree)
{
	uint32_t p = d->io[OS_P], q = d->io[OS_Q], t = d->io[OS_WAITER], l = d->lcpw;
	if (!in_subtree)
		return;
	if (w < d->Mw)
		d->sink[(size_t)k * d->Mw + w] = rb_onehot_word(t, w, l);
	if (w == 0) {
		rb_clear(d->rp, d->Mw, k, p, l);
		if (rb_test(d->rp, d->Mw, k, t, l))
			rb_clear(d->rr, d->Nw, k, q, l);
		else
			rb_set(d->rp, d->Mw, k, t, l);
	}
}

GB_HD int osdda_reach_test(const osdda_dev *d, uint32_t k)
{
	return rb_test(d->rr, d->Nw, k, d->io[OS_Q], d->lcpw);
}

/* ---- host side: the event in, the decision out, the order of the kernels ---- */

/* The io words of a new event: nothing decided yet. */
static inline void osdda_io_event(uint32_t *io, uint8_t type, uint32_t p, uint32_t q)
{
	io[OS_TYPE] = type;
	io[OS_P] = p;
	io[OS_Q] = q;
	io[OS_OUTCOME] = OS_PENDING;
	io[OS_HOLDER] = io[OS_HELD] = io[OS_WAITER] = RB_NONE;
}

static inline rag_decision osdda_io_decision(const uint32_t *io)
{
	rag_decision d;
	d.outcome = (uint8_t)io[OS_OUTCOME];
	d.to = io[OS_OUTCOME] == RAG_REGRANTED ? io[OS_WAITER] : RAG_NONE;
	return d;
}

/* Algorithm 4: launch what the event needs, reading verdicts between kernels. */
static inline const uint32_t *osdda_thesis_flow(const rag_launch_ops *ops, void *ctx, int request)
{
	const uint32_t *io;
	static const unsigned after_block[] = {OK_AG_TILES, OK_AG_MOVE, OK_HELD};
	static const unsigned release[] = {OK_RELEASE, OK_AR_TILES, OK_AR_MOVE, OK_WAITER};
	unsigned s;

	if (request) {
		ops->launch(ctx, OK_HOLDER, 0);
		io = ops->read(ctx);
		if (io[OS_HOLDER] == RB_NONE) {
			ops->launch(ctx, OK_GRANT, 0);
			return ops->read(ctx);
		}
		ops->launch(ctx, OK_DLCHECK, 0);
		io = ops->read(ctx);
		if (io[OS_OUTCOME] != RAG_BLOCKED)
			return io;
		for (s = 0; s < 3; s++)
			ops->launch(ctx, after_block[s], 0);
		io = ops->read(ctx);
		if (io[OS_HELD] != RB_NONE) {
			ops->launch(ctx, OK_SINK_COPY, 0);
			ops->launch(ctx, OK_BLOCKED, 0);
		}
		return ops->read(ctx);
	}
	for (s = 0; s < 4; s++)
		ops->launch(ctx, release[s], 0);
	io = ops->read(ctx);
	if (io[OS_WAITER] == RB_NONE) {
		ops->launch(ctx, OK_SINK_RP, 0);
	} else {
		ops->launch(ctx, OK_AG_AR, 0);
		ops->launch(ctx, OK_REACH, 0);
	}
	return ops->read(ctx);
}

/* A graph's flow: every kernel an event of this type may need, in order; the gates decide on
 * the device. */
static inline void osdda_all_kernels(const rag_launch_ops *ops, void *ctx, int request)
{
	unsigned k;
	for (k = request ? 0 : OK_RELEASE; k < (request ? OK_RELEASE : OK_COUNT); k++)
		ops->launch(ctx, k, 0);
}

#endif
