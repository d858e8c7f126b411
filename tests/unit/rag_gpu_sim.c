/*
 * A CPU driver for the GPU detectors' kernels, for the unit tests: the serial
 * kernel loops of deadlock/rag_serial.c run the per-element functions of
 * deadlock/osdda_bits.h and deadlock/lmdda_bits.h over every (block, thread)
 * index in the order the kernels of deadlock/osdda_gpu.cu and
 * deadlock/lmdda_gpu.cu launch them, with the same flows (the thesis's, with
 * host reads between kernels, and the graph's, every kernel gated on the
 * device) and LMDDA's node hopping as the GPU detectors do it, so the GPU
 * algorithms' logic is checked against the oracle on a machine without a GPU.
 */
#include <stdlib.h>

#include "deadlock/rag_serial.h"
#include "deadlock/rag_stream.h"
#include "tests/unit/rag_gpu_sim.h"

/* The simulated detectors run on the CPU, whatever they simulate. */
#define CPU GB_BACKEND_MASK(GB_BACKEND_CPU)

#define SIM_OPENERS(algo, lmdda)                                                               \
	static void *algo##_open_bits(uint32_t m, uint32_t n, const uint32_t *u)               \
	{                                                                                      \
		return rag_serial_open(lmdda, m, n, u, 5, RAG_SERIAL_THESIS, 0);               \
	}                                                                                      \
	static void *algo##_open_graph(uint32_t m, uint32_t n, const uint32_t *u)              \
	{                                                                                      \
		return rag_serial_open(lmdda, m, n, u, 5, RAG_SERIAL_GRAPH, 0);                \
	}                                                                                      \
	static void *algo##_open_initial(uint32_t m, uint32_t n, const uint32_t *u)            \
	{                                                                                      \
		return rag_serial_open(lmdda, m, n, u, 0, RAG_SERIAL_THESIS, 0);               \
	}
SIM_OPENERS(osdda, 0)
SIM_OPENERS(lmdda, 1)

#define SIM_ENGINE(var, name_, algo_, opener)                                                   \
	const rag_engine var = {                                                               \
		.head = {.name = name_, .summary = "", .backends = CPU},                       \
		.algo = algo_,                                                                 \
		.open = opener,                                                                \
		.apply = rag_serial_apply,                                                     \
		.bytes = rag_serial_bytes,                                                     \
		.close = rag_serial_close,                                                     \
	}
SIM_ENGINE(rag_sim_osdda_gpu, "gpu (CPU driver)", "osdda", osdda_open_bits);
SIM_ENGINE(rag_sim_osdda_gpu_graph, "gpu-graph (CPU driver)", "osdda", osdda_open_graph);
SIM_ENGINE(rag_sim_osdda_gpu_initial, "gpu-initial (CPU driver)", "osdda", osdda_open_initial);
SIM_ENGINE(rag_sim_lmdda_gpu, "gpu (CPU driver)", "lmdda", lmdda_open_bits);
SIM_ENGINE(rag_sim_lmdda_gpu_graph, "gpu-graph (CPU driver)", "lmdda", lmdda_open_graph);
SIM_ENGINE(rag_sim_lmdda_gpu_initial, "gpu-initial (CPU driver)", "lmdda", lmdda_open_initial);

/*
 * gpu-stream (deadlock/rag_stream.h): k_rs_window's steps in barrier order,
 * each copy loop over every thread. The state sits in a separate buffer
 * standing for shared memory (scribbled over first, as shared memory starts
 * undefined) or is used in place, as the kernel does when it does not fit.
 * Chunks and windows are tiny so that every boundary is crossed: apply()
 * runs a window of one event, apply_stream() windows of SIM_WINDOW. The
 * shared-memory driver takes 16-bit entries where the ids fit, as the kernel
 * does; the in-place one 32-bit entries always, so that both widths run.
 */
#define SIM_WINDOW 5u

typedef struct stream_sim {
	uint32_t M, N, slots, chunk;
	int lmdda, in_shared, narrow;
	size_t words, kept; /* 32-bit words */
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
	rs_bind(&st, base, s->M, s->N, s->lmdda, s->slots, s->narrow);
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
	s->narrow = in_shared && rs_narrow_fits(procs, res, lmdda, s->slots);
	s->words = rs_entry_words(rs_words(procs, res, lmdda, s->slots), s->narrow);
	s->kept = rs_entry_words(rs_words_kept(procs, res, lmdda, s->slots), s->narrow);
	s->state = calloc(s->words, sizeof(uint32_t));
	s->shared = calloc(s->words, sizeof(uint32_t));
	rs_init(s->state, procs, res, lmdda, units, s->slots, s->narrow);
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
	.head = {.name = "gpu-stream, shared, 16-bit entries (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_stream_shared,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
const rag_engine rag_sim_osdda_gpu_stream_global = {
	.head = {.name = "gpu-stream, global, 32-bit entries (CPU driver)", .summary = "", .backends = CPU},
	.algo = "osdda",
	.open = osdda_open_stream_global,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
const rag_engine rag_sim_lmdda_gpu_stream = {
	.head = {.name = "gpu-stream, shared, 16-bit entries (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_stream_shared,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
const rag_engine rag_sim_lmdda_gpu_stream_global = {
	.head = {.name = "gpu-stream, global, 32-bit entries (CPU driver)", .summary = "", .backends = CPU},
	.algo = "lmdda",
	.open = lmdda_open_stream_global,
	.apply = stream_apply,
	.bytes = stream_bytes,
	.close = stream_close,
	.apply_stream = stream_apply_stream,
};
