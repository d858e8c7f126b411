/*
 * A CPU driver for the GPU detectors' kernels, for the unit tests only: it
 * runs the per-element functions of deadlock/osdda_bits.h and
 * deadlock/lmdda_bits.h over every (block, thread) index in the order the
 * kernels of deadlock/osdda_gpu.cu and deadlock/lmdda_gpu.cu launch them,
 * with the same flows (the thesis's, with host reads between kernels, and
 * the graph's, every kernel gated on the device), so the GPU algorithms'
 * logic is checked against the oracle on a machine without a GPU.
 *
 * Barriers: a block's threads all read their row's test before any writes
 * (Release_Update_Reachability), and a reduction combines every word before
 * its result is stored; serial loops in that order give the same result as
 * any interleaving the kernels allow.
 */
#include <stdlib.h>
#include <string.h>

#include "deadlock/lmdda_bits.h"
#include "deadlock/osdda_bits.h"
#include "deadlock/rag_stream.h"
#include "tests/unit/rag_gpu_sim.h"

/* The simulated detectors run on the CPU, whatever they simulate. */
#define CPU GB_BACKEND_MASK(GB_BACKEND_CPU)

typedef struct sim {
	int lmdda, graph;
	osdda_dev os;
	lmdda_dev lm;
	uint32_t **owned[16];
	unsigned nowned;
} sim;

static uint32_t *sim_alloc(sim *s, uint32_t **slot, size_t words)
{
	*slot = calloc(words ? words : 1, sizeof(uint32_t));
	s->owned[s->nowned++] = slot;
	return *slot;
}

/* The first set cell of a row of words, as the reduction kernels find it. */
static uint32_t row_first(const uint32_t *row, uint32_t words, uint32_t lcpw)
{
	uint32_t w, best = RB_NONE;
	for (w = 0; w < words; w++) {
		uint32_t c = rb_first_in_word(row[w], w, lcpw);
		best = c < best ? c : best;
	}
	return best;
}

static void osdda_launch(void *ctx, unsigned k, unsigned iter)
{
	osdda_dev *d = &((sim *)ctx)->os;
	uint32_t row, w, words;
	unsigned slot;
	size_t x, n;
	(void)iter;

	if (!osdda_gate(d->io, k))
		return;
	switch (k) {
	case OK_HOLDER:
	case OK_HELD:
	case OK_WAITER: {
		const uint32_t *r = osdda_reduce_row(d, k, &words, &slot);
		d->io[slot] = row_first(r, words, d->lcpw);
		break;
	}
	case OK_AG_TILES:
	case OK_AG_MOVE:
	case OK_AR_TILES:
	case OK_AR_MOVE:
		n = osdda_transpose_tiles(d, k);
		for (x = 0; x < n; x++)
			osdda_transpose_tile(d, k, x);
		break;
	case OK_SINK_COPY:
		memcpy(d->sink_temp, d->sink, osdda_words_nm(d) * sizeof(uint32_t));
		break;
	case OK_BLOCKED:
		for (row = 0; row < d->N; row++)
			for (w = 0; w < osdda_row_words(d); w++)
				osdda_blocked_word(d, row, w);
		break;
	case OK_REACH:
		for (row = 0; row < d->N; row++) {
			int test = osdda_reach_test(d, row);
			for (w = 0; w < osdda_row_words(d); w++)
				osdda_reach_word(d, row, w, test);
		}
		break;
	default:
		osdda_single(d, k);
	}
}

static void lmdda_launch(void *ctx, unsigned k, unsigned iter)
{
	lmdda_dev *d = &((sim *)ctx)->lm;
	uint32_t row, w;
	size_t x, n = (size_t)d->Np * d->Mw;

	if (!lmdda_gate(d->io, k, iter))
		return;
	switch (k) {
	case LK_SINKS:
		for (row = 0; row < d->M; row++) {
			uint32_t any = 0;
			for (w = 0; w < d->Nw; w++)
				any |= lmdda_sinks_word(d, row, w);
			lmdda_sinks_store(d, row, any);
		}
		break;
	case LK_RP_BLOCKED:
		for (row = 0; row < d->N; row++)
			for (w = 0; w < d->Mw; w++)
				lmdda_rp_blocked_word(d, row, w);
		break;
	case LK_WAITER:
		d->io[LM_WAITER] = row_first(lmdda_waiter_row(d), d->Mw, d->lcpw);
		break;
	case LK_AR_TILES:
	case LK_AR_MOVE:
		for (x = 0; x < lmdda_transpose_tiles(d); x++)
			lmdda_transpose_tile(d, k, x);
		break;
	case LK_INIT_RP:
		for (x = 0; x < n; x++)
			lmdda_init_rp_word(d, x);
		break;
	case LK_CONNECT_PROCS:
		for (x = 0; x < (size_t)d->Mp * d->Mw; x++)
			lmdda_connect_procs_word(d, x);
		break;
	case LK_CONNECT_RES:
		for (x = 0; x < n; x++)
			lmdda_connect_res_word(d, x, iter);
		break;
	case LK_RP_COPY:
		for (x = 0; x < n; x++)
			lmdda_rp_copy_word(d, x);
		break;
	default:
		lmdda_single(d, k);
	}
}

static const uint32_t *osdda_read(void *ctx)
{
	return ((sim *)ctx)->os.io;
}

static const uint32_t *lmdda_read(void *ctx)
{
	return ((sim *)ctx)->lm.io;
}

static const rag_launch_ops osdda_ops = {osdda_launch, osdda_read};
static const rag_launch_ops lmdda_ops = {lmdda_launch, lmdda_read};

/* As the GPU engines do when they open: every kernel of both types on an event no gate passes. */
static void warm_up(sim *s)
{
	int request;
	for (request = 0; request < 2; request++)
		if (s->lmdda) {
			lmdda_io_event(s->lm.io, s->lm.hops, RAG_GPU_WARM_UP, 0, 0);
			lmdda_all_kernels(&lmdda_ops, s, request, s->lm.hops);
		} else {
			osdda_io_event(s->os.io, RAG_GPU_WARM_UP, 0, 0);
			osdda_all_kernels(&osdda_ops, s, request);
		}
}

static void *osdda_open(uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw, int graph)
{
	sim *s = calloc(1, sizeof(*s));
	osdda_dev *d = &s->os;
	size_t nm, mn;
	uint32_t j;

	rag_require_single_unit(res, units);
	s->graph = graph;
	osdda_geometry(d, procs, res, lcpw);
	nm = osdda_words_nm(d);
	mn = osdda_words_mn(d);
	sim_alloc(s, &d->ag, nm);
	sim_alloc(s, &d->sink, nm);
	sim_alloc(s, &d->sink_temp, nm);
	sim_alloc(s, &d->rp, nm);
	sim_alloc(s, &d->ar_t, nm);
	sim_alloc(s, &d->ar, mn);
	sim_alloc(s, &d->ag_t, mn);
	sim_alloc(s, &d->rr, osdda_words_nn(d));
	sim_alloc(s, &d->tile, nm > mn ? nm : mn);
	sim_alloc(s, &d->io, OS_IO_WORDS);
	for (j = 0; j < res; j++)
		osdda_init_rr(d, j);
	warm_up(s);
	return s;
}

static void *lmdda_open(uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw, int graph)
{
	sim *s = calloc(1, sizeof(*s));
	lmdda_dev *d = &s->lm;
	size_t nm, mn;
	uint32_t j;

	s->lmdda = 1;
	s->graph = graph;
	lmdda_geometry(d, procs, res, lcpw);
	nm = (size_t)d->Np * d->Mw;
	mn = (size_t)d->Mp * d->Nw;
	sim_alloc(s, &d->ag, (size_t)procs * res);
	sim_alloc(s, &d->avail, res);
	sim_alloc(s, &d->ar, mn);
	sim_alloc(s, &d->ar_t, nm);
	sim_alloc(s, &d->rp, nm);
	sim_alloc(s, &d->rp_temp, nm);
	sim_alloc(s, &d->conn, (size_t)d->Mp * d->Mw);
	sim_alloc(s, &d->sp, d->Mw);
	sim_alloc(s, &d->tile, nm > mn ? nm : mn);
	sim_alloc(s, &d->io, lmdda_io_words(d));
	for (j = 0; j < res; j++)
		d->avail[j] = units ? units[j] : 1;
	warm_up(s);
	return s;
}

static rag_decision sim_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	sim *s = ctx;
	int req = type == RAG_REQUEST;

	if (s->lmdda) {
		lmdda_io_event(s->lm.io, s->lm.hops, type, p, q);
		if (s->graph) {
			lmdda_all_kernels(&lmdda_ops, s, req, s->lm.hops);
			return lmdda_io_decision(s->lm.io);
		}
		return lmdda_io_decision(lmdda_thesis_flow(&lmdda_ops, s, req, s->lm.hops));
	}
	osdda_io_event(s->os.io, type, p, q);
	if (s->graph) {
		osdda_all_kernels(&osdda_ops, s, req);
		return osdda_io_decision(s->os.io);
	}
	return osdda_io_decision(osdda_thesis_flow(&osdda_ops, s, req));
}

static uint64_t sim_bytes(void *ctx)
{
	(void)ctx;
	return 0;
}

static void sim_close(void *ctx)
{
	sim *s = ctx;
	unsigned k;
	for (k = 0; k < s->nowned; k++)
		free(*s->owned[k]);
	free(s);
}

#define SIM_OPENERS(algo)                                                                      \
	static void *algo##_open_bits(uint32_t m, uint32_t n, const uint32_t *u)               \
	{                                                                                      \
		return algo##_open(m, n, u, 5, 0);                                             \
	}                                                                                      \
	static void *algo##_open_graph(uint32_t m, uint32_t n, const uint32_t *u)              \
	{                                                                                      \
		return algo##_open(m, n, u, 5, 1);                                             \
	}                                                                                      \
	static void *algo##_open_initial(uint32_t m, uint32_t n, const uint32_t *u)            \
	{                                                                                      \
		return algo##_open(m, n, u, 0, 0);                                             \
	}
SIM_OPENERS(osdda)
SIM_OPENERS(lmdda)

const rag_engine rag_sim_osdda_gpu = {
	.head = {.name = "gpu (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_bits,
	.apply = sim_apply,
	.bytes = sim_bytes,
	.close = sim_close,
};
const rag_engine rag_sim_osdda_gpu_graph = {
	.head = {.name = "gpu-graph (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_graph,
	.apply = sim_apply,
	.bytes = sim_bytes,
	.close = sim_close,
};
const rag_engine rag_sim_osdda_gpu_initial = {
	.head = {.name = "gpu-initial (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_initial,
	.apply = sim_apply,
	.bytes = sim_bytes,
	.close = sim_close,
};
const rag_engine rag_sim_lmdda_gpu = {
	.head = {.name = "gpu (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_bits,
	.apply = sim_apply,
	.bytes = sim_bytes,
	.close = sim_close,
};
const rag_engine rag_sim_lmdda_gpu_graph = {
	.head = {.name = "gpu-graph (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_graph,
	.apply = sim_apply,
	.bytes = sim_bytes,
	.close = sim_close,
};
const rag_engine rag_sim_lmdda_gpu_initial = {
	.head = {.name = "gpu-initial (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_initial,
	.apply = sim_apply,
	.bytes = sim_bytes,
	.close = sim_close,
};

/*
 * gpu-stream (deadlock/rag_stream.h): k_rs_window's steps in barrier order,
 * each copy loop over every thread. The state sits in a separate buffer
 * standing for shared memory (scribbled over first, as shared memory starts
 * undefined) or is used in place, as the kernel does when it does not fit.
 * Chunks and windows are tiny so that every boundary is crossed: apply()
 * runs a window of one event, apply_stream() windows of SIM_WINDOW.
 */
#define SIM_WINDOW 5u

typedef struct stream_sim {
	uint32_t M, N, slots, chunk;
	int lmdda, in_shared;
	size_t words, kept;
	uint32_t *state, *shared;
} stream_sim;

static void stream_window(stream_sim *s, const uint32_t *ev, uint32_t n, uint32_t *dec)
{
	uint32_t *base = s->state, *ev_buf = calloc(2 * s->chunk, sizeof(uint32_t));
	uint32_t *dec_buf = calloc(s->chunk, sizeof(uint32_t)), tid, c;
	rs_state st;
	size_t k;

	if (s->in_shared) {
		base = s->shared;
		for (k = 0; k < s->words; k++)
			base[k] = 0xa5a5a5a5u ^ (uint32_t)k;
		for (tid = 0; tid < RS_THREADS; tid++)
			rs_copy(base, s->state, s->kept, tid, RS_THREADS);
	}
	rs_bind(&st, base, s->M, s->N, s->lmdda, s->slots);
	for (c = 0; c < n; c += s->chunk) {
		uint32_t len = n - c < s->chunk ? n - c : s->chunk;
		for (tid = 0; tid < RS_THREADS; tid++)
			rs_copy(ev_buf, ev + 2 * (size_t)c, 2 * (size_t)len, tid, RS_THREADS);
		rs_decide(&st, ev_buf, len, dec_buf);
		for (tid = 0; tid < RS_THREADS; tid++)
			rs_copy(dec + c, dec_buf, len, tid, RS_THREADS);
	}
	for (tid = 0; s->in_shared && tid < RS_THREADS; tid++)
		rs_copy(s->state, base, s->kept, tid, RS_THREADS);
	free(ev_buf);
	free(dec_buf);
}

static void *stream_open(uint32_t procs, uint32_t res, const uint32_t *units, int lmdda, int in_shared)
{
	stream_sim *s = calloc(1, sizeof(*s));

	if (!lmdda)
		rag_require_single_unit(res, units);
	s->slots = (uint32_t)rs_slots(lmdda, res, units);
	s->M = procs;
	s->N = res;
	s->lmdda = lmdda;
	s->in_shared = in_shared;
	s->chunk = in_shared ? 3 : 2;
	s->words = rs_words(procs, res, lmdda, s->slots);
	s->kept = rs_words_kept(procs, res, lmdda, s->slots);
	s->state = calloc(s->words, sizeof(uint32_t));
	s->shared = calloc(s->words, sizeof(uint32_t));
	rs_init(s->state, procs, res, lmdda, units, s->slots);
	return s;
}

static void stream_decode(const uint32_t *dec, uint32_t n, rag_decision *out)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		if (!rs_unpack(dec[i], &out[i])) {
			out[i].outcome = RAG_NOUTCOMES; /* no oracle outcome: the test reports it */
			out[i].to = RAG_NONE;
		}
}

static rag_decision stream_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	uint32_t ev[2], dec;
	rag_decision d;
	rs_pack(ev, type, p, q);
	stream_window(ctx, ev, 1, &dec);
	stream_decode(&dec, 1, &d);
	return d;
}

static void stream_apply_stream(void *ctx, const rag_events *e, rag_decision *out)
{
	uint32_t ev[2 * SIM_WINDOW], dec[SIM_WINDOW], i, n;
	uint64_t first;
	for (first = 0; first < e->count; first += n) {
		n = e->count - first < SIM_WINDOW ? (uint32_t)(e->count - first) : SIM_WINDOW;
		for (i = 0; i < n; i++)
			rs_pack(ev + 2 * i, e->type[first + i], e->proc[first + i], e->res[first + i]);
		stream_window(ctx, ev, n, dec);
		stream_decode(dec, n, out + first);
	}
}

static uint64_t stream_bytes(void *ctx)
{
	return ((stream_sim *)ctx)->words * sizeof(uint32_t);
}

static void stream_close(void *ctx)
{
	stream_sim *s = ctx;
	free(s->state);
	free(s->shared);
	free(s);
}

#define STREAM_OPENERS(algo, lm)                                                               \
	static void *algo##_open_stream_shared(uint32_t m, uint32_t n, const uint32_t *u)      \
	{                                                                                      \
		return stream_open(m, n, u, lm, 1);                                            \
	}                                                                                      \
	static void *algo##_open_stream_global(uint32_t m, uint32_t n, const uint32_t *u)      \
	{                                                                                      \
		return stream_open(m, n, u, lm, 0);                                            \
	}
STREAM_OPENERS(osdda, 0)
STREAM_OPENERS(lmdda, 1)

const rag_engine rag_sim_osdda_gpu_stream = {
	.head = {.name = "gpu-stream, shared (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_stream_shared,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
const rag_engine rag_sim_osdda_gpu_stream_global = {
	.head = {.name = "gpu-stream, global (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_stream_global,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
const rag_engine rag_sim_lmdda_gpu_stream = {
	.head = {.name = "gpu-stream, shared (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_stream_shared,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
const rag_engine rag_sim_lmdda_gpu_stream_global = {
	.head = {.name = "gpu-stream, global (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_stream_global,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
