/*
 * The OSDDA detectors (deadlock/osdda_cpu.c) against the oracle: every
 * decision of thousands of random single-unit streams built so that requests
 * for held resources and cycle-closing requests are common; the thesis's
 * Figure 1.1 by hand; long waiting chains; multi-unit systems refused; memory.
 */
#include <stdio.h>
#include <string.h>

#include "common/rng.h"
#include "deadlock/rag.h"
#include "tests/unit/entry.h"
#include "tests/unit/rag_gpu_sim.h"
#include "tests/unit/test.h"
#include "workloads/deadlock/rag_oracle.h"

#define MAX_ENGINES 12

/* The CPU engines of algo osdda and the GPU ones' kernels on the CPU driver; returns how many. */
static unsigned osdda_engines(const rag_engine *out[MAX_ENGINES])
{
	unsigned k, n = 0;
	for (k = 0; rag_engines[k]; k++)
		if (strcmp(rag_engines[k]->algo, "osdda") == 0 &&
		    (rag_engines[k]->head.backends & GB_BACKEND_MASK(GB_BACKEND_CPU)) && n < MAX_ENGINES - 5)
			out[n++] = rag_engines[k];
	out[n++] = &rag_sim_osdda_gpu;
	out[n++] = &rag_sim_osdda_gpu_graph;
	out[n++] = &rag_sim_osdda_gpu_initial;
	out[n++] = &rag_sim_osdda_gpu_stream;
	out[n++] = &rag_sim_osdda_gpu_stream_global;
	return n;
}

static uint32_t pick(gb_rng *r, const rag_list *l)
{
	return ((const uint32_t *)l->a)[gb_rng_below(r, l->n)];
}

/*
 * A resource in p's tree, found by walking back along waiting chains: one of
 * p's resources, one of its waiters, one of that process's resources, ...
 * Its sink is p, so p requesting it closes a cycle. RAG_NONE when p holds
 * nothing.
 */
static uint32_t resource_in_tree(const rag_oracle *o, gb_rng *r, uint32_t p)
{
	uint32_t x = p, q = RAG_NONE, steps = (uint32_t)gb_rng_below(r, 6);
	for (;;) {
		if (o->held[x].n == 0)
			return q;
		q = pick(r, &o->held[x]);
		if (steps-- == 0 || o->waiters[q].n == 0)
			return q;
		x = pick(r, &o->waiters[q]);
	}
}

/* A random event the model allows: a random process and action, redrawn until allowed. */
static void random_event(const rag_oracle *o, gb_rng *r, uint8_t *type, uint32_t *p, uint32_t *q)
{
	char why[160];
	do {
		uint32_t h;
		*p = (uint32_t)gb_rng_below(r, o->procs);
		*type = RAG_REQUEST;
		*q = (uint32_t)gb_rng_below(r, o->res);
		switch (gb_rng_below(r, 6)) {
		case 0:
		case 1:
			*type = RAG_RELEASE;
			if (o->held[*p].n)
				*q = pick(r, &o->held[*p]);
			break;
		case 2: /* a resource some process holds, often busy */
			h = (uint32_t)gb_rng_below(r, o->procs);
			if (o->held[h].n)
				*q = pick(r, &o->held[h]);
			break;
		case 3:
		case 4: /* a deadlock candidate */
			h = resource_in_tree(o, r, *p);
			if (h != RAG_NONE)
				*q = h;
			break;
		default: /* uniform */
			break;
		}
	} while (rag_oracle_check(o, *type, *p, *q, why, sizeof(why)) != 0);
}

/*
 * One random stream through every OSDDA engine and the oracle in lockstep;
 * adds the oracle's outcomes to counts and returns the number of decisions
 * that differ (the first is reported).
 */
static uint64_t random_stream(uint32_t procs, uint32_t res, uint64_t events, uint64_t seed,
			      uint64_t counts[RAG_NOUTCOMES])
{
	const rag_engine *e[MAX_ENGINES];
	void *ctx[MAX_ENGINES];
	unsigned n = osdda_engines(e), k;
	uint64_t i, bad = 0;
	rag_oracle o;
	gb_rng r;

	gb_rng_init(&r, seed, procs * 1000003ull + res);
	rag_oracle_init(&o, procs, res, NULL);
	for (k = 0; k < n; k++)
		ctx[k] = e[k]->open(procs, res, NULL);
	for (i = 0; i < events; i++) {
		uint8_t type;
		uint32_t p, q;
		rag_decision want;

		random_event(&o, &r, &type, &p, &q);
		want = rag_oracle_apply(&o, type, p, q);
		counts[want.outcome]++;
		for (k = 0; k < n; k++) {
			rag_decision got = e[k]->apply(ctx[k], type, p, q);
			if (got.outcome == want.outcome && got.to == want.to)
				continue;
			if (bad++ == 0)
				tu_fail(__FILE__, __LINE__,
					"%s/%s, %u x %u, seed %llu, event %llu (%s %u %u): %s to %u, oracle %s to %u",
					e[k]->algo, e[k]->head.name, procs, res, (unsigned long long)seed,
					(unsigned long long)i, type == RAG_REQUEST ? "request" : "release", p, q,
					rag_outcome_name(got.outcome), got.to, rag_outcome_name(want.outcome),
					want.to);
		}
	}
	for (k = 0; k < n; k++)
		e[k]->close(ctx[k]);
	rag_oracle_free(&o);
	return bad;
}

TEST(osdda_engines_agree_with_oracle_on_random_streams)
{
	static const struct {
		uint32_t procs, res, streams, events;
	} sizes[] = {
		{1, 1, 200, 40},   {1, 4, 200, 60},   {4, 1, 200, 60},     {2, 3, 300, 100},
		{3, 2, 300, 100},  {3, 3, 300, 100},  {5, 7, 300, 200},    {7, 5, 300, 200},
		{13, 11, 300, 300}, {31, 33, 200, 500}, {64, 64, 100, 800}, {65, 63, 100, 800},
		{100, 17, 50, 800}, {17, 100, 50, 800},
	};
	const rag_engine *e[MAX_ENGINES];
	uint64_t total[RAG_NOUTCOMES] = {0}, events = 0;
	unsigned s, seed, k;

	REQUIRE(osdda_engines(e) >= 2);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t counts[RAG_NOUTCOMES] = {0};
		for (seed = 1; seed <= sizes[s].streams; seed++)
			CHECK_EQ(random_stream(sizes[s].procs, sizes[s].res, sizes[s].events, seed, counts),
				 0u);
		/* every size meets cycle-closing requests, and regrants where two processes exist */
		CHECK(counts[RAG_DEADLOCK] * 20 > (uint64_t)sizes[s].streams * sizes[s].events);
		if (sizes[s].procs > 1)
			CHECK(counts[RAG_REGRANTED] > 0);
		for (k = 0; k < RAG_NOUTCOMES; k++) {
			total[k] += counts[k];
			events += counts[k];
		}
	}
	for (k = 0; k < RAG_NOUTCOMES; k++)
		if (total[k] * 50 < events)
			tu_fail(__FILE__, __LINE__, "outcome %s: %llu of %llu decisions", rag_outcome_name(k),
				(unsigned long long)total[k], (unsigned long long)events);
}

typedef struct step {
	uint8_t type;
	uint32_t p, q;
	uint8_t outcome;
	uint32_t to;
} step;

#define REQ RAG_REQUEST
#define REL RAG_RELEASE
#define NO RAG_NONE

/* Figure 1.1 (a)-(c), then cycles through the chain it builds, and the lowest waiter first. */
static const step figure_1_1[] = {
	/* (a): q0 -> p0, q1 -> p2, q2 -> p0; p1 waits for q0, p2 for q2 */
	{REQ, 0, 0, RAG_GRANTED, NO},
	{REQ, 2, 1, RAG_GRANTED, NO},
	{REQ, 0, 2, RAG_GRANTED, NO},
	{REQ, 1, 0, RAG_BLOCKED, NO},
	{REQ, 2, 2, RAG_BLOCKED, NO},
	/* p0 -> q1 -> p2 -> q2 -> p0, and p0 asking for its own q0: refused */
	{REQ, 0, 1, RAG_DEADLOCK, NO},
	{REQ, 0, 0, RAG_DEADLOCK, NO},
	/* (b): p0 releases q0, which goes to p1 */
	{REL, 0, 0, RAG_REGRANTED, 1},
	/* (c): p0 requests q0 and blocks: q1 -> p2 -> q2 -> p0 -> q0 -> p1 */
	{REQ, 0, 0, RAG_BLOCKED, NO},
	{REQ, 1, 1, RAG_DEADLOCK, NO},
	{REQ, 1, 2, RAG_DEADLOCK, NO},
	{REQ, 1, 0, RAG_DEADLOCK, NO},
	/* q0 back to p0: the chain from q1 ends at p0 again */
	{REL, 1, 0, RAG_REGRANTED, 0},
	{REQ, 1, 1, RAG_BLOCKED, NO},
	{REQ, 0, 1, RAG_DEADLOCK, NO},
	{REL, 0, 2, RAG_REGRANTED, 2},
	{REL, 0, 0, RAG_RELEASED, NO},
	{REL, 2, 1, RAG_REGRANTED, 1},
	/* p2 waits before p0, but q1 goes to the lowest id */
	{REQ, 2, 1, RAG_BLOCKED, NO},
	{REQ, 0, 1, RAG_BLOCKED, NO},
	{REL, 1, 1, RAG_REGRANTED, 0},
	{REL, 0, 1, RAG_REGRANTED, 2},
	{REL, 2, 1, RAG_RELEASED, NO},
	{REL, 2, 2, RAG_RELEASED, NO},
	{REQ, 1, 2, RAG_GRANTED, NO},
};

TEST(osdda_figure_1_1_by_hand)
{
	const rag_engine *e[MAX_ENGINES];
	unsigned n = osdda_engines(e), k, s;
	rag_oracle o;

	REQUIRE(n >= 2);
	rag_oracle_init(&o, 3, 3, NULL);
	for (s = 0; s < sizeof(figure_1_1) / sizeof(figure_1_1[0]); s++) {
		const step *st = &figure_1_1[s];
		rag_decision d = rag_oracle_apply(&o, st->type, st->p, st->q);
		CHECK_EQ(d.outcome, st->outcome);
		CHECK_EQ(d.to, st->to);
	}
	rag_oracle_free(&o);
	for (k = 0; k < n; k++) {
		void *ctx = e[k]->open(3, 3, NULL);
		for (s = 0; s < sizeof(figure_1_1) / sizeof(figure_1_1[0]); s++) {
			const step *st = &figure_1_1[s];
			rag_decision d = e[k]->apply(ctx, st->type, st->p, st->q);
			if (d.outcome != st->outcome || d.to != st->to)
				tu_fail(__FILE__, __LINE__, "%s, step %u: %s to %u, expected %s to %u",
					e[k]->head.name, s, rag_outcome_name(d.outcome), d.to,
					rag_outcome_name(st->outcome), st->to);
		}
		e[k]->close(ctx);
	}
}

/*
 * One chain q0 -> p0 -> q1 -> p1 -> ... -> q_{len-1} -> p_{len-1}: its end
 * closes a cycle with any of it, anyone else blocks; releases from the end
 * hand each resource down the chain.
 */
static void long_chain(const rag_engine *e, uint32_t size, uint32_t len)
{
	void *ctx = e->open(size, size, NULL);
	uint32_t k, last = len - 1;
	uint64_t bad = 0;
	rag_decision d;

	for (k = 0; k < len; k++)
		bad += e->apply(ctx, RAG_REQUEST, k, k).outcome != RAG_GRANTED;
	for (k = 0; k + 1 < len; k++)
		bad += e->apply(ctx, RAG_REQUEST, k, k + 1).outcome != RAG_BLOCKED;
	CHECK_EQ(bad, 0u);
	for (k = 0; k < len; k += len / 7 + 1)
		CHECK_EQ(e->apply(ctx, RAG_REQUEST, last, k).outcome, RAG_DEADLOCK);
	CHECK_EQ(e->apply(ctx, RAG_REQUEST, last, 0).outcome, RAG_DEADLOCK);
	CHECK_EQ(e->apply(ctx, RAG_REQUEST, size - 1, 0).outcome, RAG_BLOCKED);
	/* p_last lets q_last go to p_{last-1}, which is then the chain's sink */
	d = e->apply(ctx, RAG_RELEASE, last, last);
	CHECK_EQ(d.outcome, RAG_REGRANTED);
	CHECK_EQ(d.to, last - 1);
	CHECK_EQ(e->apply(ctx, RAG_REQUEST, last - 1, 0).outcome, RAG_DEADLOCK);
	CHECK_EQ(e->apply(ctx, RAG_REQUEST, last, 0).outcome, RAG_BLOCKED);
	CHECK_EQ(e->apply(ctx, RAG_REQUEST, last - 1, last).outcome, RAG_DEADLOCK);
	e->close(ctx);
}

TEST(osdda_long_chains)
{
	const rag_engine *e[MAX_ENGINES];
	unsigned n = osdda_engines(e), k;

	REQUIRE(n >= 2);
	for (k = 0; k < n; k++) {
		long_chain(e[k], 300, 300 - 1);
		/* the full scale for the detectors that keep no matrices */
		if (strcmp(e[k]->head.name, "cpu-bits") == 0 || strcmp(e[k]->head.name, "cpu-stream") == 0)
			long_chain(e[k], 65536, 65536 - 1);
	}
}

static void open_multi_unit(void *arg)
{
	static const uint32_t units[] = {1, 1, 3, 1};
	const rag_engine *e = arg;
	e->open(2, 4, units);
}

TEST(osdda_refuses_multi_unit_systems)
{
	const rag_engine *e[MAX_ENGINES];
	unsigned n = osdda_engines(e), k;
	char err[512];

	REQUIRE(n >= 2);
	for (k = 0; k < n; k++) {
		CHECK_EQ_I(tu_run_child(open_multi_unit, (void *)e[k], err, sizeof(err)), 2);
		CHECK_CONTAINS(err, "resource 2 has 3 units");
	}
}

TEST(osdda_memory)
{
	const rag_engine *cpu = tu_entry("detect", "osdda", "cpu");
	const rag_engine *bits = tu_entry("detect", "osdda", "cpu-bits");
	static const uint32_t ones[] = {1, 1, 1, 1, 1, 1, 1};
	void *ctx;

	REQUIRE(cpu && bits);
	/* AG, AR, Sink, RP: M*N bytes each; RR: N*N */
	ctx = cpu->open(5, 7, ones);
	CHECK_EQ(cpu->bytes(ctx), 4 * 5 * 7 + 7 * 7);
	cpu->close(ctx);
	/* holder and heap root per resource; request, count, heap links and rank per process */
	ctx = bits->open(5, 7, ones);
	CHECK_EQ(bits->bytes(ctx), 8 * 7 + 17 * 5);
	bits->close(ctx);
	ctx = bits->open(65536, 65536, NULL);
	CHECK_EQ(bits->bytes(ctx), 25 * 65536);
	bits->close(ctx);
}

/*
 * host_bytes, the memory check's estimate, is what open() allocates: the
 * matrices bytes() reports (cpu-serial: and its bookkeeping), at odd sizes, for
 * every CPU detector of both algorithms that has one; the others are O(M + N).
 */
TEST(rag_host_bytes_is_what_open_allocates)
{
	static const uint32_t sizes[][2] = {{1, 1}, {5, 7}, {33, 31}, {100, 64}, {257, 1000}};
	unsigned k, s, checked = 0;

	for (k = 0; rag_engines[k]; k++) {
		const rag_engine *e = rag_engines[k];
		if (!e->host_bytes || e->head.unavailable)
			continue;
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			uint32_t m = sizes[s][0], n = sizes[s][1];
			void *ctx = e->open(m, n, NULL);
			uint64_t est = e->host_bytes(m, n), got = e->bytes(ctx);
			if (got > est || est - got > 1024)
				tu_fail(__FILE__, __LINE__, "%s %s at %u x %u: host_bytes %llu, open took %llu",
					e->algo, e->head.name, m, n, (unsigned long long)est, (unsigned long long)got);
			e->close(ctx);
		}
		checked++;
	}
	CHECK_EQ(checked, 4u); /* cpu and cpu-serial of osdda and lmdda */
}
