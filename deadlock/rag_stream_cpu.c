/*
 * cpu-stream: gpu-stream's per-event functions (deadlock/rag_stream.h) on one
 * CPU core, the state in host memory. It is gpu-stream's CPU backend and the
 * baseline that says what the GPU adds to the same algorithm: the search at
 * blocking requests, holders and sorted waiter lists, decided event by event.
 * Timed like gpu-stream, by the whole stream (apply_stream), with no clock
 * read per event; apply() serves callers that hand over one event at a time.
 * Its state's entries are 16 or 32 bits by gpu-stream's rule (rs_narrow_fits).
 */
#include <stdlib.h>

#include "common/error.h"
#include "deadlock/rag.h"
#include "deadlock/rag_stream.h"

typedef struct cpu_stream {
	rs_state s;
	uint32_t *words;
	size_t nwords;
} cpu_stream;

static void *cs_open(uint32_t procs, uint32_t res, const uint32_t *units, int lmdda)
{
	cpu_stream *c = gb_xcalloc(1, sizeof(*c), "the stream detector");
	uint64_t slots;
	int narrow;

	if (!lmdda)
		rag_require_single_unit(res, units);
	slots = rs_slots(lmdda, res, units);
	if (slots > RS_MAX_SLOTS)
		gb_die(GB_EXIT_RUNTIME, "cpu-stream: %llu units in all do not fit its 32-bit offsets",
		       (unsigned long long)slots);
	narrow = rs_narrow_fits(procs, res, lmdda, (uint32_t)slots);
	c->nwords = rs_entry_words(rs_words(procs, res, lmdda, (uint32_t)slots), narrow);
	c->words = gb_xmalloc(c->nwords * sizeof(uint32_t), "the stream detector's state");
	rs_init(c->words, procs, res, lmdda, units, (uint32_t)slots, narrow);
	rs_bind(&c->s, c->words, procs, res, lmdda, (uint32_t)slots, narrow);
	return c;
}

/* One event on the state, its entry width a constant in each branch so that the compiler folds
 * rs_ld's and rs_st's test of it. */
static inline uint32_t cs_event(const cpu_stream *c, const uint32_t *w)
{
	rs_state s = c->s;
	if (c->s.narrow) {
		s.narrow = 1;
		return rs_event(&s, w[0], w[1]);
	}
	s.narrow = 0;
	return rs_event(&s, w[0], w[1]);
}

static rag_decision cs_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	cpu_stream *c = ctx;
	uint32_t w[2], word;
	rag_decision d;

	rs_pack(w, type, p, q);
	word = cs_event(c, w);
	if (!rs_unpack(word, &d))
		gb_die(GB_EXIT_RUNTIME, "cpu-stream: the state broke the model at %s %u %u (decision word 0x%08x)",
		       type == RAG_REQUEST ? "request" : "release", p, q, word);
	return d;
}

static void cs_apply_stream(void *ctx, const rag_events *ev, rag_decision *out)
{
	uint64_t k;
	for (k = 0; k < ev->count; k++)
		out[k] = cs_apply(ctx, ev->type[k], ev->proc[k], ev->res[k]);
}

static uint64_t cs_bytes(void *ctx)
{
	return ((cpu_stream *)ctx)->nwords * sizeof(uint32_t);
}

static void cs_close(void *ctx)
{
	cpu_stream *c = ctx;
	free(c->words);
	free(c);
}

static void *open_osdda(uint32_t m, uint32_t n, const uint32_t *u)
{
	return cs_open(m, n, u, 0);
}

static void *open_lmdda(uint32_t m, uint32_t n, const uint32_t *u)
{
	return cs_open(m, n, u, 1);
}

const rag_engine rag_engine_osdda_cpu_stream = {
	.head = {.name = "cpu-stream",
		 .summary = "gpu-stream's holders and sink chains on one core, timed by the whole stream",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "osdda",
	.open = open_osdda,
	.apply = cs_apply,
	.bytes = cs_bytes,
	.close = cs_close,
	.apply_stream = cs_apply_stream,
};

const rag_engine rag_engine_lmdda_cpu_stream = {
	.head = {.name = "cpu-stream",
		 .summary = "gpu-stream's unit slots and knot search on one core, timed by the whole stream",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "lmdda",
	.open = open_lmdda,
	.apply = cs_apply,
	.bytes = cs_bytes,
	.close = cs_close,
	.apply_stream = cs_apply_stream,
};
