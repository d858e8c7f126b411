/*
 * gpu-stream (deadlock/rag_stream.h) on the CPU driver, and cpu-stream: generated
 * streams of both algorithms decided in windows (apply_stream) against the oracle, at
 * odd sizes, several unit counts and deadlock shares; the state kept across
 * windows agrees with one event a window; a state that breaks the model
 * ends its walks instead of looping.
 */
#include <stdlib.h>
#include <string.h>

#include "deadlock/rag_stream.h"
#include "tests/unit/entry.h"
#include "tests/unit/rag_gpu_sim.h"
#include "tests/unit/test.h"
#include "workloads/deadlock/rag_gen.h"
#include "workloads/deadlock/rag_oracle.h"

/* Decide cfg's stream with e in windows and compare with the oracle; counts its outcomes. */
static uint64_t windows_agree(const rag_engine *e, const rag_gen_config *cfg, uint64_t counts[RAG_NOUTCOMES])
{
	uint32_t *units = calloc(cfg->res, sizeof(uint32_t));
	rag_decision *got, want;
	rag_events ev;
	rag_oracle o;
	char err[256];
	uint64_t k, bad = 0;
	void *ctx;
	int lmdda = strcmp(e->algo, "lmdda") == 0;

	if (rag_generate(cfg, units, &ev, err, sizeof(err)) != 0) {
		tu_fail(__FILE__, __LINE__, "%s", err);
		free(units);
		return 1;
	}
	got = calloc(ev.count, sizeof(rag_decision));
	ctx = e->open(cfg->procs, cfg->res, lmdda ? units : NULL);
	e->apply_stream(ctx, &ev, got);
	rag_oracle_init(&o, cfg->procs, cfg->res, units);
	for (k = 0; k < ev.count; k++) {
		want = rag_oracle_apply(&o, ev.type[k], ev.proc[k], ev.res[k]);
		counts[want.outcome]++;
		if ((got[k].outcome != want.outcome || got[k].to != want.to) && bad++ == 0)
			tu_fail(__FILE__, __LINE__,
				"%s %s %ux%u units %u-%u seed %llu event %llu (%s p%u q%u): %s to %u, oracle %s to %u",
				e->algo, e->head.name, cfg->procs, cfg->res, cfg->units_lo, cfg->units_hi,
				(unsigned long long)cfg->seed, (unsigned long long)k,
				ev.type[k] == RAG_REQUEST ? "request" : "release", ev.proc[k], ev.res[k],
				got[k].outcome < RAG_NOUTCOMES ? rag_outcome_name(got[k].outcome) : "corrupt",
				got[k].to, rag_outcome_name(want.outcome), want.to);
	}
	e->close(ctx);
	rag_oracle_free(&o);
	rag_events_free(&ev);
	free(got);
	free(units);
	return bad;
}

TEST(gpu_stream_windows_agree_with_oracle_on_generated_streams)
{
	static const struct {
		uint32_t procs, res, lo, hi;
		double deadlock_share;
	} cases[] = {
		{1, 1, 1, 1, 0.02}, {3, 2, 1, 1, 0.3}, {33, 31, 1, 1, 0.3}, {64, 64, 1, 1, 0.02},
		{200, 50, 1, 1, 0.1}, {50, 200, 1, 1, 0.1}, {3, 2, 1, 3, 0.3}, {33, 31, 2, 2, 0.3},
		{64, 64, 1, 4, 0.02}, {200, 50, 1, 4, 0.1}, {50, 200, 3, 7, 0.1}, {129, 127, 1, 40, 0.2},
	};
	const rag_engine *os[] = {&rag_sim_osdda_gpu_stream, &rag_sim_osdda_gpu_stream_global,
				  tu_entry("detect", "osdda", "cpu-stream")};
	const rag_engine *lm[] = {&rag_sim_lmdda_gpu_stream, &rag_sim_lmdda_gpu_stream_global,
				  tu_entry("detect", "lmdda", "cpu-stream")};
	unsigned c, k, seed;

	REQUIRE(os[2] && lm[2]);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (k = 0; k < 3; k++) {
			uint64_t counts[RAG_NOUTCOMES] = {0};
			for (seed = 1; seed <= 4; seed++) {
				rag_gen_config cfg;
				rag_gen_defaults(&cfg);
				cfg.procs = cases[c].procs;
				cfg.res = cases[c].res;
				cfg.units_lo = cases[c].lo;
				cfg.units_hi = cases[c].hi;
				cfg.deadlock_share = cases[c].deadlock_share;
				cfg.events = 3000;
				cfg.seed = seed;
				CHECK_EQ(windows_agree(cases[c].hi == 1 ? os[k] : lm[k], &cfg, counts), 0u);
			}
			/* the streams reach every outcome where two processes exist */
			if (cases[c].procs > 1)
				for (seed = 0; seed < RAG_NOUTCOMES; seed++)
					if (!counts[seed])
						tu_fail(__FILE__, __LINE__, "%ux%u units %u-%u: no %s outcome",
							cases[c].procs, cases[c].res, cases[c].lo, cases[c].hi,
							rag_outcome_name(seed));
		}
}

/* One event a window (the state copied in and out around each) and windows of several. */
TEST(gpu_stream_state_survives_windows)
{
	const rag_engine *e[] = {&rag_sim_osdda_gpu_stream, &rag_sim_lmdda_gpu_stream};
	unsigned k;
	for (k = 0; k < 2; k++) {
		rag_gen_config cfg;
		uint32_t *units;
		rag_events ev;
		rag_decision *a, *b;
		char err[256];
		uint64_t i, differ = 0;
		void *x, *y;

		rag_gen_defaults(&cfg);
		cfg.procs = cfg.res = 40;
		cfg.units_lo = 1;
		cfg.units_hi = k ? 3 : 1;
		cfg.events = 2000;
		units = calloc(cfg.res, sizeof(uint32_t));
		REQUIRE(rag_generate(&cfg, units, &ev, err, sizeof(err)) == 0);
		a = calloc(ev.count, sizeof(rag_decision));
		b = calloc(ev.count, sizeof(rag_decision));
		x = e[k]->open(cfg.procs, cfg.res, k ? units : NULL);
		y = e[k]->open(cfg.procs, cfg.res, k ? units : NULL);
		e[k]->apply_stream(x, &ev, a);
		for (i = 0; i < ev.count; i++)
			b[i] = e[k]->apply(y, ev.type[i], ev.proc[i], ev.res[i]);
		for (i = 0; i < ev.count; i++)
			differ += a[i].outcome != b[i].outcome || a[i].to != b[i].to;
		CHECK_EQ(differ, 0u);
		e[k]->close(x);
		e[k]->close(y);
		rag_events_free(&ev);
		free(a);
		free(b);
		free(units);
	}
}

/* A cycle of waiting chains (which the model never makes) ends a walk as RS_CORRUPT, in entries of
 * either width. */
TEST(gpu_stream_bounds_its_walks)
{
	uint32_t words[64], w[2];
	rs_state s;
	rag_decision d;
	int narrow;

	for (narrow = 0; narrow <= 1; narrow++) {
		rs_init(words, 3, 3, 0, NULL, 0, narrow);
		rs_bind(&s, words, 3, 3, 0, 0, narrow);
		rs_st(&s, s.holder, 0, 0);
		rs_st(&s, s.next, 0, 1);
		rs_st(&s, s.next, 1, 0);
		rs_pack(w, RAG_REQUEST, 2, 0);
		CHECK_EQ(rs_event(&s, w[0], w[1]) >> 24, RS_CORRUPT);
		CHECK(!rs_unpack(rs_event(&s, w[0], w[1]), &d));
		/* a release of a unit the process does not hold */
		rs_init(words, 2, 2, 1, (const uint32_t[]){1, 2}, 3, narrow);
		rs_bind(&s, words, 2, 2, 1, 3, narrow);
		CHECK(rs_words(2, 2, 1, 3) <= 64);
		rs_pack(w, RAG_RELEASE, 1, 1);
		CHECK_EQ(rs_event(&s, w[0], w[1]) >> 24, RS_CORRUPT);
	}
}

/* 16-bit entries: which systems take them, RB_NONE through 0xffff, half the words, and the search
 * marks wrapping at 0xffff searches (every mark cleared, the decisions unchanged). */
TEST(gpu_stream_narrow_entries)
{
	uint32_t *words, w[2], k, units[3] = {1, 1, 1};
	rs_state s;
	rag_decision d;

	CHECK(rs_narrow_fits(65534, 65534, 0, 0));
	CHECK(!rs_narrow_fits(65535, 16, 0, 0));
	CHECK(!rs_narrow_fits(16, 65535, 1, 16));
	CHECK(rs_narrow_fits(8192, 8192, 1, 20480));
	CHECK(!rs_narrow_fits(16, 16, 1, 65535));
	CHECK_EQ(rs_entry_words(7, 1), 4);
	CHECK_EQ(rs_entry_words(7, 0), 7);

	/* three processes, three single-unit resources: p0 holds r0, p1 holds r1, p2 holds r2 */
	words = calloc(rs_entry_words(rs_words(3, 3, 1, 3), 1), sizeof(uint32_t));
	rs_init(words, 3, 3, 1, units, 3, 1);
	rs_bind(&s, words, 3, 3, 1, 3, 1);
	CHECK_EQ(rs_ld(&s, s.head, 0), RB_NONE);
	CHECK_EQ(rs_ld_raw(&s, s.off, 3), 3);
	for (k = 0; k < 3; k++) {
		rs_pack(w, RAG_REQUEST, k, k);
		CHECK(rs_unpack(rs_event(&s, w[0], w[1]), &d) && d.outcome == RAG_GRANTED);
	}
	/* p0 waits for r1 (p1 is active: blocked), then the marks are about to wrap */
	rs_st(&s, s.epoch, 0, RS_NARROW_EPOCHS);
	rs_pack(w, RAG_REQUEST, 0, 1);
	CHECK(rs_unpack(rs_event(&s, w[0], w[1]), &d) && d.outcome == RAG_BLOCKED);
	CHECK_EQ(rs_ld_raw(&s, s.epoch, 0), 1);
	CHECK_EQ(rs_ld(&s, s.wait, 0), 1);
	/* p1 waits for r2 (p2 active: blocked); p2 asks for r0: p0 -> r1 -> p1 -> r2 -> p2, a knot */
	rs_pack(w, RAG_REQUEST, 1, 2);
	CHECK(rs_unpack(rs_event(&s, w[0], w[1]), &d) && d.outcome == RAG_BLOCKED);
	rs_pack(w, RAG_REQUEST, 2, 0);
	CHECK(rs_unpack(rs_event(&s, w[0], w[1]), &d) && d.outcome == RAG_DEADLOCK);
	/* p1 releases r1: p0, its waiter, gets it */
	rs_pack(w, RAG_RELEASE, 1, 1);
	CHECK(rs_unpack(rs_event(&s, w[0], w[1]), &d) && d.outcome == RAG_REGRANTED && d.to == 0);
	CHECK_EQ(rs_ld(&s, s.wait, 0), RB_NONE);
	free(words);
}
