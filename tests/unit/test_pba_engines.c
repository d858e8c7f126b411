/*
 * Every PBA implementation against the oracle: random streams of small and
 * odd sizes, the worst case, and tight states that make unsafe requests
 * common. Decisions must agree event by event and the final states must be
 * identical.
 */
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "deadlock/pba_engine.h"
#include "tests/unit/test.h"
#include "workloads/pba_gen.h"
#include "workloads/pba_oracle.h"

/* Replay ev through engine e and the oracle; returns the number of disagreements. */
static uint64_t replay(const pba_engine *e, const pba_system *init, const pba_events *ev,
		       uint64_t counts[PBA_NOUTCOMES])
{
	pba_system want, got;
	void *ctx = e->open(init);
	uint64_t i, bad = 0;

	pba_system_init(&want, init->procs, init->res);
	pba_system_init(&got, init->procs, init->res);
	pba_system_copy(&want, init);
	for (i = 0; i < ev->count; i++) {
		double ph[PBA_NPHASES] = {0};
		const int32_t *amt = ev->amount + i * init->res;
		unsigned a = e->apply(ctx, ev->type[i], ev->proc[i], amt, ph);
		unsigned b = pba_oracle_apply(&want, ev->type[i], ev->proc[i], amt);
		bad += a != b;
		if (counts)
			counts[b]++;
	}
	e->fetch(ctx, &got);
	bad += !pba_system_equal(&got, &want);
	e->close(ctx);
	pba_system_free(&want);
	pba_system_free(&got);
	return bad;
}

TEST(pba_engines_agree_with_oracle_on_random_streams)
{
	static const uint32_t sizes[][2] = {{2, 1}, {3, 2}, {5, 3}, {7, 5}, {13, 3}, {31, 7}, {33, 17}, {64, 1}};
	unsigned s, seed, k;
	for (k = 0; pba_engines[k]; k++) {
		if (pba_engines[k]->needs_gpu)
			continue;
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (seed = 1; seed <= 25; seed++) {
				pba_gen_config cfg = {sizes[s][0], sizes[s][1], 300, PBA_RANDOM, seed, 0};
				pba_system init;
				pba_events ev;
				char err[256];
				REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
				CHECK_EQ(replay(pba_engines[k], &init, &ev, NULL), 0u);
				pba_system_free(&init);
				pba_events_free(&ev);
			}
	}
}

/* Tight states: little free, large claims, so many requests are unsafe. */
TEST(pba_engines_agree_with_oracle_on_tight_states)
{
	uint64_t counts[PBA_NOUTCOMES] = {0};
	unsigned k, seed;
	for (k = 0; pba_engines[k]; k++) {
		if (pba_engines[k]->needs_gpu)
			continue;
		memset(counts, 0, sizeof(counts));
		for (seed = 1; seed <= 200; seed++) {
			uint32_t I = 3 + seed % 9, J = 1 + seed % 4, i, j;
			uint64_t e;
			pba_system init;
			pba_events ev;
			gb_rng r;
			gb_rng_init(&r, seed, 99);
			pba_system_init(&init, I, J);
			for (i = 0; i < I; i++)
				for (j = 0; j < J; j++) {
					size_t c = (size_t)i * J + j;
					init.maximum[c] = (int32_t)gb_rng_range(&r, 0, 6);
					init.allocation[c] = (int32_t)gb_rng_below(&r, (uint64_t)init.maximum[c] + 1) / 2;
					init.need[c] = init.maximum[c] - init.allocation[c];
				}
			for (j = 0; j < J; j++)
				init.available[j] = (int32_t)gb_rng_range(&r, 1, 3);
			pba_events_init(&ev, 60, J);
			for (e = 0; e < ev.count; e++) {
				ev.type[e] = gb_rng_below(&r, 3) == 0 ? PBA_RELEASE : PBA_REQUEST;
				ev.proc[e] = (uint32_t)gb_rng_below(&r, I);
				for (j = 0; j < J; j++)
					ev.amount[e * J + j] = (int32_t)gb_rng_below(&r, 3);
			}
			CHECK_EQ(replay(pba_engines[k], &init, &ev, counts), 0u);
			pba_system_free(&init);
			pba_events_free(&ev);
		}
		/* the streams exercise every outcome */
		CHECK(counts[PBA_GRANTED] > 0);
		CHECK(counts[PBA_DENIED_INVALID] > 0);
		CHECK(counts[PBA_DENIED_UNAVAILABLE] > 0);
		CHECK(counts[PBA_DENIED_UNSAFE] > 0);
		CHECK(counts[PBA_RELEASED] > 0);
		CHECK(counts[PBA_RELEASE_INVALID] > 0);
	}
}

TEST(pba_worst_case_needs_all_iterations)
{
	pba_gen_config cfg = {97, 5, 6, PBA_WORST_CASE, 1, 0};
	const pba_engine *thesis = pba_engine_find("cpu");
	pba_system init;
	pba_events ev;
	char err[256];
	uint64_t e;
	void *ctx;

	REQUIRE(thesis != NULL);
	REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
	ctx = thesis->open(&init);
	for (e = 0; e < ev.count; e++) {
		double ph[PBA_NPHASES] = {0};
		unsigned r = thesis->apply(ctx, ev.type[e], ev.proc[e], ev.amount + e * init.res, ph);
		if (ev.type[e] == PBA_REQUEST) {
			CHECK_EQ(r, (unsigned)PBA_GRANTED);
			/* one process finishes per iteration, the last two together */
			CHECK_EQ(thesis->last_iterations(ctx), 96u);
			CHECK(ph[PBA_PHASE_SAFETY] > 0);
		} else {
			CHECK_EQ(r, (unsigned)PBA_RELEASED);
		}
	}
	thesis->close(ctx);
	CHECK_EQ(replay(pba_engine_find("cpu-fast"), &init, &ev, NULL), 0u);
	pba_system_free(&init);
	pba_events_free(&ev);
}

/* unsafe-mix: the share of unsafe requests follows --unsafe-share, every request is valid and available. */
TEST(pba_unsafe_mix_controls_the_unsafe_share)
{
	static const double shares[] = {0, 0.1, 0.5, 0.9};
	unsigned s, k;
	for (s = 0; s < sizeof(shares) / sizeof(shares[0]); s++) {
		pba_gen_config cfg = {400, 48, 1500, PBA_UNSAFE_MIX, 3, shares[s]};
		uint64_t counts[PBA_NOUTCOMES] = {0}, requests;
		pba_system init;
		pba_events ev;
		char err[256];
		double got;
		REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
		CHECK_EQ(replay(pba_engine_find("cpu"), &init, &ev, counts), 0u);
		for (k = 0; pba_engines[k]; k++)
			if (!pba_engines[k]->needs_gpu)
				CHECK_EQ(replay(pba_engines[k], &init, &ev, NULL), 0u);
		CHECK_EQ(counts[PBA_DENIED_INVALID], 0u);
		CHECK_EQ(counts[PBA_DENIED_UNAVAILABLE], 0u);
		CHECK_EQ(counts[PBA_RELEASE_INVALID], 0u);
		/* counts holds the oracle's outcomes of one replay */
		requests = counts[PBA_GRANTED] + counts[PBA_DENIED_UNSAFE];
		REQUIRE(requests > 500);
		got = (double)counts[PBA_DENIED_UNSAFE] / (double)requests;
		CHECK(got > shares[s] - 0.07 && got < shares[s] + 0.07);
		CHECK(counts[PBA_RELEASED] > 100);
		pba_system_free(&init);
		pba_events_free(&ev);
	}
}
