/*
 * The LMDDA detectors (deadlock/lmdda_cpu.c) against the reference decider
 * (workloads/deadlock/rag_oracle.c): every decision of random streams at small and
 * odd sizes, with one, two and one to four units per resource; a knot; a
 * cycle that is not a knot; a large system for cpu-bits. The thesis's cpu
 * engine recomputes reachability in O(n^2 m^2 log) after a release, so it
 * runs the smaller sizes only.
 */
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "deadlock/rag.h"
#include "tests/unit/entry.h"
#include "tests/unit/rag_gpu_sim.h"
#include "tests/unit/test.h"
#include "workloads/deadlock/rag_oracle.h"

enum units_mode { UNITS_ONE, UNITS_TWO, UNITS_MIXED, UNITS_MODES };

typedef struct stream_spec {
	uint32_t procs, res;
	int units;       /* enum units_mode */
	uint32_t events;
	uint64_t seed;
} stream_spec;

static const rag_engine *engine(const char *name)
{
	const rag_engine *e = tu_entry("detect", "lmdda", name);
	if (!e || e->head.unavailable)
		tu_fail(__FILE__, __LINE__, "lmdda engine %s is missing", name);
	return e && !e->head.unavailable ? e : NULL;
}

static uint32_t pick(const rag_list *l, gb_rng *r)
{
	return ((const uint32_t *)l->a)[gb_rng_below(r, l->n)];
}

/* A resource for p to request, aimed where requests block and deadlock: one
 * of p's own, one held by a blocked process (waiting chains that may lead
 * back to p), one held by anybody, or any resource. */
static uint32_t pick_request(const rag_oracle *o, uint32_t p, gb_rng *r)
{
	uint64_t roll = gb_rng_below(r, 10);
	uint32_t tries;

	if (roll < 2 && o->held[p].n)
		return pick(&o->held[p], r);
	if (roll < 8)
		for (tries = 0; tries < 8; tries++) {
			uint32_t q = (uint32_t)gb_rng_below(r, o->procs);
			if (o->held[q].n && (roll >= 5 || o->waits_for[q] != RAG_NONE || tries >= 4))
				return pick(&o->held[q], r);
		}
	return (uint32_t)gb_rng_below(r, o->res);
}

/*
 * Drive engine e and the oracle with one random stream: a random active
 * process releases a unit it holds (40%) or requests one, keeping only events
 * the oracle allows. Counts the oracle's outcomes; returns 1 at the first
 * disagreement, which it reports, else 0.
 */
static uint64_t random_stream(const rag_engine *e, const stream_spec *s,
			      uint64_t counts[RAG_NOUTCOMES])
{
	uint32_t *units = calloc(s->res, sizeof(uint32_t)), *act = calloc(s->procs, sizeof(uint32_t));
	uint64_t ev, bad = 0;
	rag_oracle o;
	void *ctx;
	gb_rng r;
	uint32_t j;

	gb_rng_init(&r, s->seed, 1000 * s->procs + s->res);
	for (j = 0; j < s->res; j++)
		units[j] = s->units == UNITS_ONE ? 1 : s->units == UNITS_TWO ? 2 : 1 + (uint32_t)gb_rng_below(&r, 4);
	rag_oracle_init(&o, s->procs, s->res, units);
	ctx = e->open(s->procs, s->res, units);
	for (ev = 0; ev < s->events; ev++) {
		uint32_t nact = 0, p, q, k;
		uint8_t type;
		rag_decision want, got;
		char why[160];

		for (k = 0; k < s->procs; k++)
			if (o.waits_for[k] == RAG_NONE)
				act[nact++] = k;
		if (nact == 0) {
			tu_fail(__FILE__, __LINE__, "%ux%u seed %llu: every process is blocked", s->procs,
				s->res, (unsigned long long)s->seed);
			bad++;
			break;
		}
		p = act[gb_rng_below(&r, nact)];
		if (o.held[p].n && gb_rng_below(&r, 100) < 40) {
			type = RAG_RELEASE;
			q = pick(&o.held[p], &r);
		} else {
			type = RAG_REQUEST;
			q = pick_request(&o, p, &r);
		}
		if (rag_oracle_check(&o, type, p, q, why, sizeof(why)) != 0)
			continue;
		want = rag_oracle_apply(&o, type, p, q);
		got = e->apply(ctx, type, p, q);
		counts[want.outcome]++;
		if (got.outcome != want.outcome || got.to != want.to) {
			tu_fail(__FILE__, __LINE__,
				"lmdda %s %ux%u units %d seed %llu event %llu (%s p%u q%u): "
				"%s to %u, oracle %s to %u", e->head.name, s->procs, s->res, s->units,
				(unsigned long long)s->seed, (unsigned long long)ev,
				type == RAG_REQUEST ? "request" : "release", p, q,
				rag_outcome_name(got.outcome), got.to, rag_outcome_name(want.outcome),
				want.to);
			bad++;
			break; /* the engine's state has left the oracle's */
		}
	}
	e->close(ctx);
	rag_oracle_free(&o);
	free(units);
	free(act);
	return bad;
}

/* `seeds` streams of each size and units mode; every outcome the size allows must occur. */
static void agree_on_sizes(const rag_engine *e, const uint32_t (*sizes)[2], unsigned nsizes,
			   unsigned seeds, uint32_t events)
{
	unsigned z, seed, k;
	int mode;

	for (z = 0; z < nsizes; z++)
		for (mode = 0; mode < UNITS_MODES; mode++) {
			uint64_t counts[RAG_NOUTCOMES] = {0}, bad = 0;
			for (seed = 1; seed <= seeds; seed++) {
				stream_spec s = {sizes[z][0], sizes[z][1], mode, events, seed};
				bad += random_stream(e, &s, counts);
			}
			CHECK_EQ(bad, 0);
			for (k = 0; k < RAG_NOUTCOMES; k++) {
				/* one process never waits: nobody else holds anything */
				int possible = sizes[z][0] > 1 || (k != RAG_BLOCKED && k != RAG_REGRANTED);
				if (possible && counts[k] == 0)
					tu_fail(__FILE__, __LINE__, "lmdda %s %ux%u units %d: no %s outcome",
						e->head.name, sizes[z][0], sizes[z][1], mode, rag_outcome_name(k));
			}
		}
}

TEST(lmdda_cpu_bits_agrees_with_oracle_on_random_streams)
{
	static const uint32_t sizes[][2] = {{1, 1}, {2, 3}, {5, 7}, {7, 5}, {13, 11}, {31, 33},
					    {40, 40}, {65, 63}, {129, 127}};
	const rag_engine *e = engine("cpu-bits");
	REQUIRE(e);
	agree_on_sizes(e, sizes, sizeof(sizes) / sizeof(sizes[0]), 100, 400);
}

TEST(lmdda_cpu_agrees_with_oracle_on_random_streams)
{
	static const uint32_t small[][2] = {{1, 1}, {2, 3}, {5, 7}, {7, 5}, {13, 11}};
	static const uint32_t larger[][2] = {{31, 33}};
	const rag_engine *e = engine("cpu");
	REQUIRE(e);
	agree_on_sizes(e, small, sizeof(small) / sizeof(small[0]), 100, 300);
	agree_on_sizes(e, larger, 1, 2, 200);
}

/*
 * cpu-serial (deadlock/rag_serial.c): the GPU detectors' kernels run serially
 * with Algorithm 21's node hopping, every iteration, at sizes on both sides
 * of 32 (padding, the last word of a row, RP's tiled transpose).
 */
TEST(lmdda_cpu_serial_agrees_with_oracle_on_random_streams)
{
	static const uint32_t small[][2] = {{1, 1}, {2, 3}, {5, 7}, {7, 5}, {13, 11}};
	static const uint32_t odd[][2] = {{31, 33}, {33, 31}, {40, 40}};
	const rag_engine *e = engine("cpu-serial");
	REQUIRE(e);
	agree_on_sizes(e, small, sizeof(small) / sizeof(small[0]), 60, 300);
	agree_on_sizes(e, odd, sizeof(odd) / sizeof(odd[0]), 3, 300);
}

/*
 * The GPU detectors' kernels (deadlock/lmdda_bits.h) run by the CPU driver,
 * bit-packed with both flows and one int a cell: sizes on both sides of 32
 * and of every power of two up to 128, so padding and the last word of a
 * row are exercised.
 */
TEST(lmdda_gpu_kernels_agree_with_oracle_on_random_streams)
{
	static const uint32_t small[][2] = {{1, 1}, {2, 3}, {5, 7}, {7, 5}, {13, 11}};
	static const uint32_t odd[][2] = {{31, 33}, {33, 31}, {40, 40}, {65, 63}, {20, 129}};
	const rag_engine *e[] = {&rag_sim_lmdda_gpu, &rag_sim_lmdda_gpu_graph, &rag_sim_lmdda_gpu_initial};
	unsigned k;
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++) {
		agree_on_sizes(e[k], small, sizeof(small) / sizeof(small[0]), 60, 300);
		agree_on_sizes(e[k], odd, sizeof(odd) / sizeof(odd[0]), 6, 400);
	}
}

/* gpu-stream's per-event functions (deadlock/rag_stream.h) on the CPU driver, state in a
 * stand-in for shared memory and in place, a window of one event each; and cpu-stream, the
 * same functions as a CPU detector. */
TEST(lmdda_gpu_stream_agrees_with_oracle_on_random_streams)
{
	static const uint32_t small[][2] = {{1, 1}, {2, 3}, {5, 7}, {7, 5}, {13, 11}};
	static const uint32_t odd[][2] = {{31, 33}, {33, 31}, {40, 40}, {65, 63}, {20, 129}};
	static const uint32_t large[][2] = {{256, 256}, {300, 64}, {64, 300}};
	const rag_engine *e[] = {&rag_sim_lmdda_gpu_stream, &rag_sim_lmdda_gpu_stream_global,
				 engine("cpu-stream")};
	unsigned k;
	REQUIRE(e[2]);
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++) {
		agree_on_sizes(e[k], small, sizeof(small) / sizeof(small[0]), 60, 300);
		agree_on_sizes(e[k], odd, sizeof(odd) / sizeof(odd[0]), 6, 400);
	}
	agree_on_sizes(e[0], large, sizeof(large) / sizeof(large[0]), 1, 20000);
	agree_on_sizes(e[2], large, sizeof(large) / sizeof(large[0]), 3, 20000);
}

/* Long streams at sizes where waiting chains, cycles and affected sets get large. */
TEST(lmdda_cpu_bits_agrees_with_oracle_on_long_streams)
{
	static const uint32_t sizes[][2] = {{256, 256}, {300, 64}, {64, 300}};
	const rag_engine *e = engine("cpu-bits");
	REQUIRE(e);
	agree_on_sizes(e, sizes, sizeof(sizes) / sizeof(sizes[0]), 3, 20000);
}

typedef struct step {
	uint8_t type;
	uint32_t proc, res;
	uint8_t outcome;
	uint32_t to;
} step;

static void replay_steps(const rag_engine *e, const uint32_t *units, uint32_t procs, uint32_t res,
			 const step *steps, unsigned nsteps)
{
	rag_oracle o;
	void *ctx;
	unsigned k;

	if (!e)
		return;
	rag_oracle_init(&o, procs, res, units);
	ctx = e->open(procs, res, units);
	for (k = 0; k < nsteps; k++) {
		const step *s = &steps[k];
		rag_decision want = rag_oracle_apply(&o, s->type, s->proc, s->res);
		rag_decision got = e->apply(ctx, s->type, s->proc, s->res);
		if (got.outcome != s->outcome || got.to != s->to || want.outcome != s->outcome ||
		    want.to != s->to)
			tu_fail(__FILE__, __LINE__, "lmdda %s step %u: %s to %u (oracle %s to %u), want %s to %u",
				e->head.name, k, rag_outcome_name(got.outcome), got.to,
				rag_outcome_name(want.outcome), want.to, rag_outcome_name(s->outcome), s->to);
	}
	e->close(ctx);
	rag_oracle_free(&o);
}

/* The same steps through cpu, cpu-serial, cpu-bits and the GPU kernels on the CPU driver. */
static void replay_on_all(const uint32_t *units, uint32_t procs, uint32_t res, const step *steps,
			  unsigned nsteps)
{
	const rag_engine *e[] = {engine("cpu"), engine("cpu-serial"), engine("cpu-bits"), &rag_sim_lmdda_gpu,
				 &rag_sim_lmdda_gpu_graph, &rag_sim_lmdda_gpu_initial};
	unsigned k;
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++)
		if (e[k])
			replay_steps(e[k], units, procs, res, steps, nsteps);
}

#define REQ(p, q, out) {RAG_REQUEST, p, q, out, RAG_NONE}
#define REL(p, q, out, to) {RAG_RELEASE, p, q, out, to}

/*
 * q0 has two units, held by p0 and p1; q1 has one, held by p2. p0 waits for
 * q1 and p2 for q0 (a cycle p0 -> q1 -> p2 -> q0 -> p0, but q0 -> p1 is
 * active). When p1 asks for q1 too, every path out of q1 ends in blocked
 * processes: the knot {q0, q1, p0, p1, p2}. Refused; the releases then go on.
 */
TEST(lmdda_knot)
{
	static const uint32_t units[] = {2, 1};
	static const step steps[] = {
		REQ(0, 0, RAG_GRANTED), REQ(1, 0, RAG_GRANTED), REQ(2, 1, RAG_GRANTED),
		REQ(0, 1, RAG_BLOCKED), REQ(2, 0, RAG_BLOCKED), REQ(1, 1, RAG_DEADLOCK),
		REQ(1, 1, RAG_DEADLOCK),
		REL(1, 0, RAG_REGRANTED, 2), /* p2 wakes up holding q0 and q1 */
		REQ(1, 1, RAG_BLOCKED),      /* q1 -> p2, active */
		REL(2, 1, RAG_REGRANTED, 0), /* lowest waiter of q1: p0 before p1 */
		REL(0, 1, RAG_REGRANTED, 1),
		REL(1, 1, RAG_RELEASED, RAG_NONE),
		REQ(1, 1, RAG_GRANTED),
	};
	replay_on_all(units, 3, 2, steps, sizeof(steps) / sizeof(steps[0]));
}

/*
 * Two units of q0, held by p1 and p2; q1 held by p0. p1 waits for q1, then p0
 * asks for q0: p0 -> q0 -> p1 -> q1 -> p0 is a cycle, but q0's other holder
 * p2 is active, so p0 blocks (in a single-unit system a cycle would be a
 * deadlock). Only when p2 waits for q1 too does the knot close.
 */
TEST(lmdda_cycle_without_knot)
{
	static const uint32_t units[] = {2, 1};
	static const step steps[] = {
		REQ(1, 0, RAG_GRANTED), REQ(2, 0, RAG_GRANTED), REQ(0, 1, RAG_GRANTED),
		REQ(1, 1, RAG_BLOCKED), REQ(0, 0, RAG_BLOCKED), REQ(2, 1, RAG_DEADLOCK),
		REL(2, 0, RAG_REGRANTED, 0), /* p0 holds q0 and q1, active again */
		REQ(2, 0, RAG_BLOCKED),
		REQ(0, 0, RAG_DEADLOCK),     /* q0's holders: p0 and p1, which waits for p0's q1 */
		REL(0, 1, RAG_REGRANTED, 1),
		REL(1, 0, RAG_REGRANTED, 2),
		REL(1, 1, RAG_RELEASED, RAG_NONE),
		REL(0, 0, RAG_RELEASED, RAG_NONE),
	};
	replay_on_all(units, 3, 2, steps, sizeof(steps) / sizeof(steps[0]));
}

TEST(lmdda_bytes)
{
	static const uint32_t units[3] = {1, 2, 3};
	const rag_engine *cpu = engine("cpu"), *bits = engine("cpu-bits");
	void *ctx;
	REQUIRE(cpu && bits);

	/* AG int counts, AR, RP, RP_temp, RP_trans bytes per cell; SP, innertemp; free units */
	ctx = cpu->open(100, 3, units);
	CHECK_EQ(cpu->bytes(ctx), 300 * 8 + 2 * 100 + 3 * 4);
	cpu->close(ctx);

	/* no n x m matrix: O(n + m) plus the lists and the grant edge table */
	ctx = bits->open(8192, 8192, NULL);
	CHECK(bits->bytes(ctx) >= 8192ull * 13 * 4);
	CHECK(bits->bytes(ctx) < 1ull << 20);
	bits->close(ctx);
}

/* cpu-bits at the size of the thesis's largest GPU-OSDDA runs. */
TEST(lmdda_cpu_bits_8192)
{
	const rag_engine *e = engine("cpu-bits");
	uint64_t counts[RAG_NOUTCOMES] = {0};
	unsigned k;
	stream_spec s = {8192, 8192, UNITS_MIXED, 20000, 7};
	REQUIRE(e);
	CHECK_EQ(random_stream(e, &s, counts), 0);
	for (k = 0; k < RAG_NOUTCOMES; k++)
		CHECK(counts[k] > 0);
}
