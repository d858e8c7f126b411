/*
 * workloads/deadlock/rag_oracle.c, rag_gen.c and rag_trace.c: the deadlock-detection
 * reference decider on the thesis's Figure 1.1 and on multi-unit knots, and
 * against Holt's graph reduction on generated streams; the generator's
 * streams; the trace reader and the writers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/test.h"
#include "workloads/deadlock/rag_gen.h"
#include "workloads/deadlock/rag_oracle.h"
#include "workloads/deadlock/rag_trace.h"

static rag_decision ev_apply(rag_oracle *o, uint8_t type, uint32_t p, uint32_t q)
{
	char why[160];

	if (rag_oracle_check(o, type, p, q, why, sizeof(why)) != 0)
		tu_fail(__FILE__, __LINE__, "event %s %u %u not allowed: %s",
			type == RAG_REQUEST ? "request" : "release", p, q, why);
	return rag_oracle_apply(o, type, p, q);
}

static uint8_t outcome_of(rag_oracle *o, uint8_t type, uint32_t p, uint32_t q)
{
	return ev_apply(o, type, p, q).outcome;
}

/* Figure 1.1(a): q0 -> p0, q1 -> p2, q2 -> p0; p1 waits for q0, p2 for q2. */
static void figure_1_1(rag_oracle *o)
{
	rag_oracle_init(o, 3, 3, NULL);
	CHECK_EQ(outcome_of(o, RAG_REQUEST, 0, 0), RAG_GRANTED);
	CHECK_EQ(outcome_of(o, RAG_REQUEST, 2, 1), RAG_GRANTED);
	CHECK_EQ(outcome_of(o, RAG_REQUEST, 0, 2), RAG_GRANTED);
	CHECK_EQ(outcome_of(o, RAG_REQUEST, 1, 0), RAG_BLOCKED);
	/* q2's holder p0 is active, so p2 may wait. */
	CHECK_EQ(outcome_of(o, RAG_REQUEST, 2, 2), RAG_BLOCKED);
}

TEST(rag_oracle_figure_1_1)
{
	rag_oracle o;
	rag_decision d;
	char why[160];

	figure_1_1(&o);
	CHECK_EQ(rag_oracle_holds(&o, 0, 0), 1);
	CHECK_EQ(rag_oracle_holds(&o, 0, 2), 1);
	CHECK_EQ(rag_oracle_holds(&o, 2, 1), 1);
	CHECK_EQ(rag_oracle_holds(&o, 1, 0), 0);
	CHECK_EQ(o.waits_for[0], RAG_NONE);
	CHECK_EQ(o.waits_for[1], 0);
	CHECK_EQ(o.waits_for[2], 2);

	/* p0 -> q1 -> p2 -> q2 -> p0 would close a cycle: refused, nothing changes. */
	CHECK(rag_oracle_would_deadlock(&o, 0, 1));
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 1), RAG_DEADLOCK);
	CHECK_EQ(o.waits_for[0], RAG_NONE);
	CHECK_EQ(o.waiters[1].n, 0);
	CHECK_EQ(o.free_units[1], 0);
	CHECK_EQ(rag_oracle_holds(&o, 2, 1), 1);
	/* A single-unit resource p0 holds itself is a cycle of length two. */
	CHECK(rag_oracle_would_deadlock(&o, 0, 2));

	/* The model forbids these: blocked processes do nothing, releases need a unit. */
	CHECK_EQ_I(rag_oracle_check(&o, RAG_REQUEST, 1, 1, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "process 1 is blocked");
	CHECK_EQ_I(rag_oracle_check(&o, RAG_RELEASE, 2, 1, why, sizeof(why)), -1);
	CHECK_EQ_I(rag_oracle_check(&o, RAG_RELEASE, 0, 1, why, sizeof(why)), -1);
	CHECK_STR_EQ(why, "process 0 holds no unit of resource 1");
	CHECK_EQ_I(rag_oracle_check(&o, RAG_REQUEST, 3, 0, why, sizeof(why)), -1);
	CHECK_EQ_I(rag_oracle_check(&o, RAG_REQUEST, 0, 3, why, sizeof(why)), -1);

	/* Figure 1.1(b): p0 releases q0, which goes to p1. */
	d = ev_apply(&o, RAG_RELEASE, 0, 0);
	CHECK_EQ(d.outcome, RAG_REGRANTED);
	CHECK_EQ(d.to, 1);
	CHECK_EQ(rag_oracle_holds(&o, 1, 0), 1);
	CHECK_EQ(o.waits_for[1], RAG_NONE);
	/* Figure 1.1(c): p0 asks for q0 again and waits for p1, which is active. */
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_BLOCKED);
	d = ev_apply(&o, RAG_RELEASE, 1, 0);
	CHECK_EQ(d.outcome, RAG_REGRANTED);
	CHECK_EQ(d.to, 0);
	d = ev_apply(&o, RAG_RELEASE, 0, 2);
	CHECK_EQ(d.outcome, RAG_REGRANTED);
	CHECK_EQ(d.to, 2);
	d = ev_apply(&o, RAG_RELEASE, 2, 1);
	CHECK_EQ(d.outcome, RAG_RELEASED);
	CHECK_EQ(d.to, RAG_NONE);
	CHECK_EQ(o.free_units[1], 1);
	rag_oracle_free(&o);
}

TEST(rag_oracle_regrants_to_the_lowest_id)
{
	rag_oracle o;
	rag_decision d;

	rag_oracle_init(&o, 4, 1, NULL);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 2, 0), RAG_GRANTED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 3, 0), RAG_BLOCKED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 1, 0), RAG_BLOCKED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_BLOCKED);
	d = ev_apply(&o, RAG_RELEASE, 2, 0);
	CHECK_EQ(d.outcome, RAG_REGRANTED);
	CHECK_EQ(d.to, 0);
	d = ev_apply(&o, RAG_RELEASE, 0, 0);
	CHECK_EQ(d.to, 1);
	d = ev_apply(&o, RAG_RELEASE, 1, 0);
	CHECK_EQ(d.to, 3);
	CHECK_EQ(outcome_of(&o, RAG_RELEASE, 3, 0), RAG_RELEASED);
	rag_oracle_free(&o);
}

/*
 * q0 has 2 units, held by p0 and p2; q1 has 1, held by p1. With p1 waiting
 * for q0, p0 asking for q1 closes the cycle p0 -> q1 -> p1 -> q0 -> p0, but
 * q0 also leads to p2, which is active: no knot, p0 waits. Then p2 asking
 * for q1 leaves every path from q1 in blocked processes: a knot.
 */
TEST(rag_oracle_knot_versus_cycle)
{
	const uint32_t units[2] = {2, 1};
	rag_oracle o;
	rag_decision d;

	rag_oracle_init(&o, 3, 2, units);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_GRANTED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 2, 0), RAG_GRANTED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 1, 1), RAG_GRANTED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 1, 0), RAG_BLOCKED);
	CHECK(!rag_oracle_would_deadlock(&o, 0, 1));
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 1), RAG_BLOCKED);
	CHECK(rag_oracle_would_deadlock(&o, 2, 1));
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 2, 1), RAG_DEADLOCK);
	CHECK_EQ(o.waits_for[2], RAG_NONE);
	/* p2 gives its unit of q0 to p1, which can now finish. */
	d = ev_apply(&o, RAG_RELEASE, 2, 0);
	CHECK_EQ(d.outcome, RAG_REGRANTED);
	CHECK_EQ(d.to, 1);
	CHECK_EQ(rag_oracle_holds(&o, 1, 0), 1);
	rag_oracle_free(&o);

	/* Two units of one resource: waiting for another holder is fine, for oneself not. */
	rag_oracle_init(&o, 2, 1, units);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_GRANTED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_GRANTED);
	CHECK_EQ(rag_oracle_holds(&o, 0, 0), 2);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_DEADLOCK);
	CHECK_EQ(outcome_of(&o, RAG_RELEASE, 0, 0), RAG_RELEASED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 1, 0), RAG_GRANTED);
	CHECK_EQ(outcome_of(&o, RAG_REQUEST, 0, 0), RAG_BLOCKED);
	rag_oracle_free(&o);
}

/*
 * Holt's graph reduction, with p counted as waiting for q: finish every
 * process that is active or whose resource has a free unit, returning what it
 * holds, until nothing changes. The request deadlocks exactly when p is left
 * unfinished (the graph held no deadlock before).
 */
static int reduction_deadlocks(const rag_oracle *o, uint32_t p, uint32_t q)
{
	uint32_t n = o->procs, m = o->res, i, j, *avail = calloc(m, sizeof(uint32_t));
	uint8_t *done = calloc(n, 1);
	int changed = 1, left;

	memcpy(avail, o->free_units, m * sizeof(uint32_t));
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++) {
			uint32_t w = i == p ? q : o->waits_for[i];
			if (done[i] || (w != RAG_NONE && avail[w] == 0))
				continue;
			for (j = 0; j < m; j++)
				avail[j] += rag_oracle_holds(o, i, j);
			done[i] = changed = 1;
		}
	}
	left = !done[p];
	free(avail);
	free(done);
	return left;
}

static rag_gen_config gen_config(uint32_t procs, uint32_t res, uint64_t events, uint32_t lo,
				 uint32_t hi, uint64_t seed)
{
	rag_gen_config c;

	rag_gen_defaults(&c);
	c.procs = procs;
	c.res = res;
	c.events = events;
	c.units_lo = lo;
	c.units_hi = hi;
	c.seed = seed;
	return c;
}

/*
 * Replay a generated stream through the oracle: every event must be allowed
 * when it comes; counts[] gets the outcomes. With `reduce`, every request that
 * finds no free unit is also decided by graph reduction.
 */
static void replay(const rag_gen_config *c, const uint32_t *units, const rag_events *ev,
		   uint64_t *counts, int reduce)
{
	rag_oracle o;
	char why[160];
	uint64_t e, bad = 0, disagree = 0;

	memset(counts, 0, RAG_NOUTCOMES * sizeof(uint64_t));
	rag_oracle_init(&o, c->procs, c->res, units);
	for (e = 0; e < ev->count; e++) {
		uint8_t t = ev->type[e];
		uint32_t p = ev->proc[e], q = ev->res[e];
		rag_decision d;
		int want = -1;

		if (rag_oracle_check(&o, t, p, q, why, sizeof(why)) != 0) {
			if (bad++ == 0)
				tu_fail(__FILE__, __LINE__, "%ux%u seed %llu: event %llu: %s",
					c->procs, c->res, (unsigned long long)c->seed,
					(unsigned long long)e, why);
			continue;
		}
		if (reduce && t == RAG_REQUEST && o.free_units[q] == 0)
			want = reduction_deadlocks(&o, p, q);
		d = rag_oracle_apply(&o, t, p, q);
		if (want >= 0 && want != (d.outcome == RAG_DEADLOCK))
			disagree++;
		counts[d.outcome]++;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(disagree, 0);
	rag_oracle_free(&o);
}

/* A generated stream, checked on the way: the right length and units in range. */
static int generate(const rag_gen_config *c, uint32_t **units, rag_events *ev)
{
	char err[256] = "";
	uint32_t j;

	*units = malloc(c->res * sizeof(uint32_t));
	if (rag_generate(c, *units, ev, err, sizeof(err)) != 0) {
		tu_fail(__FILE__, __LINE__, "rag_generate: %s", err);
		free(*units);
		return -1;
	}
	CHECK_EQ(ev->count, c->events);
	for (j = 0; j < c->res; j++)
		if ((*units)[j] < c->units_lo || (*units)[j] > c->units_hi) {
			CHECK_EQ((*units)[j], c->units_lo);
			break;
		}
	return 0;
}

TEST(rag_oracle_agrees_with_graph_reduction)
{
	static const uint32_t sizes[][4] = {
		{2, 1, 1, 1}, {3, 2, 1, 1}, {6, 4, 1, 1}, {9, 7, 1, 2}, {7, 5, 1, 3}, {12, 5, 2, 3},
	};
	uint64_t counts[RAG_NOUTCOMES], deadlocks = 0, blocked = 0;
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		rag_gen_config c =
			gen_config(sizes[k][0], sizes[k][1], 1500, sizes[k][2], sizes[k][3], k);
		uint32_t *units;
		rag_events ev;

		c.deadlock_share = 0.2;
		if (generate(&c, &units, &ev) != 0)
			continue;
		replay(&c, units, &ev, counts, 1);
		deadlocks += counts[RAG_DEADLOCK];
		blocked += counts[RAG_BLOCKED];
		free(units);
		rag_events_free(&ev);
	}
	/* Both answers must have come up often for the comparison to mean anything. */
	CHECK(deadlocks > 100);
	CHECK(blocked > 100);
}

TEST(rag_gen_streams_are_valid_at_odd_sizes)
{
	static const uint32_t sizes[][4] = {
		{1, 1, 1, 1}, {1, 7, 1, 1}, {7, 1, 1, 1}, {3, 2, 2, 2}, {13, 11, 1, 1},
		{17, 5, 1, 4}, {5, 64, 3, 3}, {100, 3, 1, 65535}, {8192, 8192, 1, 1},
		{333, 1000, 1, 3},
	};
	uint64_t counts[RAG_NOUTCOMES];
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		rag_gen_config c = gen_config(sizes[k][0], sizes[k][1], 20000 / (k + 1) + 1,
					      sizes[k][2], sizes[k][3], 100 + k);
		uint32_t *units;
		rag_events ev;

		if (generate(&c, &units, &ev) != 0)
			continue;
		replay(&c, units, &ev, counts, 0);
		/* One process and one unit: it can only take and give back. */
		if (c.procs == 1 && c.res == 1)
			CHECK_EQ(counts[RAG_GRANTED] + counts[RAG_RELEASED] + counts[RAG_DEADLOCK],
				 c.events);
		free(units);
		rag_events_free(&ev);
	}
}

/*
 * rag_oracle_state_events: from the state at several points of generated
 * streams, grants then blocked requests take an empty system to the same
 * state (free units, holdings, who waits for what), none deadlocking.
 */
TEST(rag_oracle_state_events_rebuild_the_state)
{
	static const uint32_t sizes[][4] = {{20, 12, 1, 3}, {64, 64, 1, 4}, {7, 40, 2, 5}, {50, 5, 1, 1},
					    {128, 96, 1, 4}};
	uint64_t blocked = 0; /* the blocked requests of every rebuild: some, for the test to mean it */
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		rag_gen_config c = gen_config(sizes[k][0], sizes[k][1], 4 * (sizes[k][0] + sizes[k][1]),
					      sizes[k][2], sizes[k][3], 7 + k);
		uint32_t *units, p, q;
		rag_events ev;
		rag_oracle o;
		uint64_t e, checked = 0;

		REQUIRE(generate(&c, &units, &ev) == 0);
		rag_oracle_init(&o, c.procs, c.res, units);
		for (e = 0; e < ev.count; e++) {
			rag_oracle_apply(&o, ev.type[e], ev.proc[e], ev.res[e]);
			if ((e + 1) % (ev.count / 4) == 0) { /* four points of the stream */
				rag_events built;
				rag_oracle b;
				uint64_t i, waiting = 0;

				rag_oracle_state_events(&o, 3, &built);
				for (p = 0; p < c.procs; p++)
					waiting += o.waits_for[p] != RAG_NONE;
				rag_oracle_init(&b, c.procs, c.res, units);
				for (i = 0; i < built.count; i++) {
					uint8_t want = i < built.count - waiting ? RAG_GRANTED : RAG_BLOCKED;
					CHECK_EQ_I(built.type[i], RAG_REQUEST);
					CHECK_EQ_I(outcome_of(&b, built.type[i], built.proc[i], built.res[i]), want);
				}
				for (q = 0; q < c.res; q++) {
					CHECK_EQ(b.free_units[q], o.free_units[q]);
					CHECK_EQ(b.waiters[q].n, o.waiters[q].n);
					for (p = 0; p < c.procs; p++)
						CHECK_EQ(rag_oracle_holds(&b, p, q), rag_oracle_holds(&o, p, q));
				}
				for (p = 0; p < c.procs; p++)
					CHECK_EQ(b.waits_for[p], o.waits_for[p]);
				checked += built.count;
				blocked += waiting;
				rag_oracle_free(&b);
				rag_events_free(&built);
			}
		}
		CHECK(checked > 0);
		rag_oracle_free(&o);
		free(units);
		rag_events_free(&ev);
	}
	CHECK(blocked > 20);
}

TEST(rag_gen_has_every_outcome)
{
	static const uint32_t ranges[][2] = {{1, 1}, {2, 3}};
	uint64_t counts[RAG_NOUTCOMES];
	size_t k;
	unsigned o;

	for (k = 0; k < 2; k++) {
		rag_gen_config c = gen_config(40, 30, 3000, ranges[k][0], ranges[k][1], 7);
		uint32_t *units, j, seen_lo = 0, seen_hi = 0;
		rag_events ev;

		if (generate(&c, &units, &ev) != 0)
			continue;
		replay(&c, units, &ev, counts, 0);
		for (o = 0; o < RAG_NOUTCOMES; o++)
			if (counts[o] < 5)
				tu_fail(__FILE__, __LINE__, "units %u..%u: only %llu %s",
					c.units_lo, c.units_hi, (unsigned long long)counts[o],
					rag_outcome_name(o));
		/* At most deadlock_share of the requests, and not far below it. */
		CHECK(counts[RAG_DEADLOCK] <= 0.02 * 3000);
		CHECK(counts[RAG_DEADLOCK] >= 10);
		for (j = 0; j < c.res; j++) {
			seen_lo |= units[j] == c.units_lo;
			seen_hi |= units[j] == c.units_hi;
		}
		CHECK(seen_lo && seen_hi);
		free(units);
		rag_events_free(&ev);
	}
}

/*
 * With resources to spare, uniform choices mostly find a free unit; aiming
 * half of the requests at held resources keeps waiting chains and regrants
 * coming (uniform choices alone block about 650 of these 3000 events).
 */
TEST(rag_gen_contends_when_resources_abound)
{
	rag_gen_config c = gen_config(4096, 4096, 3000, 1, 1, 3);
	uint64_t counts[RAG_NOUTCOMES];
	uint32_t *units;
	rag_events ev;

	REQUIRE(generate(&c, &units, &ev) == 0);
	replay(&c, units, &ev, counts, 0);
	CHECK(counts[RAG_BLOCKED] > 1000);
	CHECK(counts[RAG_REGRANTED] > 50);
	free(units);
	rag_events_free(&ev);
}

static int same_stream(const rag_events *a, const rag_events *b)
{
	return a->count == b->count && !memcmp(a->type, b->type, a->count) &&
	       !memcmp(a->proc, b->proc, a->count * sizeof(uint32_t)) &&
	       !memcmp(a->res, b->res, a->count * sizeof(uint32_t));
}

TEST(rag_gen_is_reproducible)
{
	rag_gen_config c = gen_config(40, 30, 3000, 1, 4, 42);
	uint32_t *u1, *u2, *u3;
	rag_events e1, e2, e3;

	REQUIRE(generate(&c, &u1, &e1) == 0);
	REQUIRE(generate(&c, &u2, &e2) == 0);
	c.seed = 43;
	REQUIRE(generate(&c, &u3, &e3) == 0);
	CHECK(same_stream(&e1, &e2));
	CHECK(memcmp(u1, u2, 30 * sizeof(uint32_t)) == 0);
	CHECK(!same_stream(&e1, &e3));
	CHECK(memcmp(u1, u3, 30 * sizeof(uint32_t)) != 0);
	free(u1);
	free(u2);
	free(u3);
	rag_events_free(&e1);
	rag_events_free(&e2);
	rag_events_free(&e3);
}

TEST(rag_gen_shares)
{
	static const uint32_t ranges[][2] = {{1, 1}, {2, 3}, {1, 5}};
	uint64_t counts[RAG_NOUTCOMES];
	size_t k;

	for (k = 0; k < 3; k++) {
		rag_gen_config c = gen_config(40, 30, 3000, ranges[k][0], ranges[k][1], k);
		uint32_t *units;
		rag_events ev;
		uint64_t e, releases = 0;

		/* No deadlocks wanted: none made, though blocking is common. */
		c.deadlock_share = 0;
		REQUIRE(generate(&c, &units, &ev) == 0);
		replay(&c, units, &ev, counts, 0);
		CHECK_EQ(counts[RAG_DEADLOCK], 0);
		CHECK(counts[RAG_BLOCKED] > 100);
		free(units);
		rag_events_free(&ev);

		/* Every request that can deadlock does. */
		c.deadlock_share = 1;
		REQUIRE(generate(&c, &units, &ev) == 0);
		replay(&c, units, &ev, counts, 0);
		CHECK(counts[RAG_DEADLOCK] > 300);
		free(units);
		rag_events_free(&ev);

		/* No releases wanted: only those that replace a request that would deadlock. */
		c.deadlock_share = 0;
		c.release_share = 0;
		REQUIRE(generate(&c, &units, &ev) == 0);
		replay(&c, units, &ev, counts, 0);
		for (e = 0; e < ev.count; e++)
			releases += ev.type[e] == RAG_RELEASE;
		CHECK(releases < ev.count / 2);
		CHECK_EQ(counts[RAG_DEADLOCK], 0);
		free(units);
		rag_events_free(&ev);
	}
}

TEST(rag_gen_rejects_bad_configs)
{
	rag_gen_config c;
	uint32_t units[4];
	rag_events ev;
	char err[256];
	struct {
		int field;
		double value;
		const char *says;
	} cases[] = {
		{0, 0, "processes"}, {0, (1u << 20) + 1, "processes"}, {1, 0, "resources"},
		{2, 0, "units"},      {3, 65536, "units"},          {4, -0.1, "release share"},
		{4, 1.5, "release share"}, {5, NAN, "deadlock share"}, {5, 2, "deadlock share"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		c = gen_config(4, 4, 10, 1, 1, 1);
		switch (cases[k].field) {
		case 0: c.procs = (uint32_t)cases[k].value; break;
		case 1: c.res = (uint32_t)cases[k].value; break;
		case 2: c.units_lo = (uint32_t)cases[k].value; break;
		case 3: c.units_hi = (uint32_t)cases[k].value; break;
		case 4: c.release_share = cases[k].value; break;
		default: c.deadlock_share = cases[k].value; break;
		}
		err[0] = '\0';
		CHECK_EQ_I(rag_generate(&c, units, &ev, err, sizeof(err)), -1);
		CHECK_CONTAINS(err, cases[k].says);
	}
	c = gen_config(4, 4, 10, 3, 2, 1);
	CHECK_EQ_I(rag_generate(&c, units, &ev, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "3..2");
}

static const char *tmp_path(const char *name)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", tu_tmpdir(), name);
	return path;
}

static const char *write_text(const char *name, const char *text, size_t len)
{
	const char *path = tmp_path(name);
	FILE *f = fopen(path, "w");

	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
	return path;
}

static const char *write_trace(const char *name, const char *text)
{
	return write_text(name, text, strlen(text));
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t got = f ? fread(buf, 1, cap - 1, f) : 0;

	if (f)
		fclose(f);
	buf[got] = '\0';
}

TEST(rag_trace_round_trip)
{
	static const uint32_t ranges[][2] = {{1, 1}, {3, 3}, {1, 4}, {65535, 65535}};
	size_t k;

	for (k = 0; k < 4; k++) {
		rag_gen_config c = gen_config(37, 23, 2000, ranges[k][0], ranges[k][1], 5 + k);
		const char *path = tmp_path("round.trace");
		uint32_t *units, *back_units = NULL, procs = 0, res = 0;
		rag_events ev, back;
		char err[256] = "";

		REQUIRE(generate(&c, &units, &ev) == 0);
		REQUIRE(rag_trace_write(path, c.procs, c.res, units, &ev, err, sizeof(err)) == 0);
		if (rag_trace_read(path, &procs, &res, &back_units, &back, err, sizeof(err)) != 0) {
			tu_fail(__FILE__, __LINE__, "reading back: %s", err);
		} else {
			CHECK_EQ(procs, 37);
			CHECK_EQ(res, 23);
			CHECK(memcmp(units, back_units, 23 * sizeof(uint32_t)) == 0);
			CHECK(same_stream(&ev, &back));
			free(back_units);
			rag_events_free(&back);
		}
		free(units);
		rag_events_free(&ev);
	}
	CHECK_EQ_I(rag_trace_write("/nonexistent/dir/t", 1, 1, NULL, &(rag_events){0}, NULL, 0),
		   -1);
}

/* The examples of docs/detect-trace.md and the decisions gpubench writes for them. */
static const char doc_single[] =
	"# Figure 1.1 of Abell's thesis: 3 processes, 3 single-unit resources\n"
	"processes 3\n"
	"resources 3\n"
	"\n"
	"request 0 0        # granted: q0 -> p0\n"
	"request 2 1        # granted: q1 -> p2\n"
	"request 0 2        # granted: q2 -> p0\n"
	"request 1 0        # blocked: p1 waits for q0\n"
	"request 2 2        # blocked: p2 waits for q2, held by p0, which is active\n"
	"request 0 1        # deadlock: p0 -> q1 -> p2 -> q2 -> p0 would be a cycle\n"
	"release 0 0        # regranted to p1 (Figure 1.1(b))\n"
	"request 0 0        # blocked: q0 is p1's now (Figure 1.1(c))\n"
	"release 1 0        # regranted to p0\n"
	"release 0 2        # regranted to p2\n"
	"release 2 1        # released: nobody waits for q1\n";

static const char doc_single_decisions[] = "0 request 0 0 granted\n"
					   "1 request 2 1 granted\n"
					   "2 request 0 2 granted\n"
					   "3 request 1 0 blocked\n"
					   "4 request 2 2 blocked\n"
					   "5 request 0 1 deadlock\n"
					   "6 release 0 0 regranted 1\n"
					   "7 request 0 0 blocked\n"
					   "8 release 1 0 regranted 0\n"
					   "9 release 0 2 regranted 2\n"
					   "10 release 2 1 released\n";

static const char doc_multi[] =
	"# a knot and a cycle that is not one\n"
	"processes 3\n"
	"resources 2\n"
	"units 2            # every resource: 2 units\n"
	"units 1 1          # but q1 has 1\n"
	"\n"
	"request 0 0        # granted\n"
	"request 2 0        # granted: both units of q0 are taken\n"
	"request 1 1        # granted\n"
	"request 1 0        # blocked: p1 waits for q0\n"
	"request 0 1        # blocked: a cycle p0 -> q1 -> p1 -> q0 -> p0, but q0 -> p2 is active\n"
	"request 2 1        # deadlock: every path from q1 would end in a blocked process\n"
	"release 2 0        # regranted to p1\n";

static const char doc_multi_decisions[] = "0 request 0 0 granted\n"
					  "1 request 2 0 granted\n"
					  "2 request 1 1 granted\n"
					  "3 request 1 0 blocked\n"
					  "4 request 0 1 blocked\n"
					  "5 request 2 1 deadlock\n"
					  "6 release 2 0 regranted 1\n";

static void check_doc_example(const char *text, const char *want, uint32_t nres,
			      const uint32_t *want_units)
{
	const char *path = write_trace("doc.trace", text);
	uint32_t procs, res, *units;
	rag_events ev;
	rag_decision d[16];
	rag_oracle o;
	char err[256] = "", got[1024], out[512];
	uint64_t e;

	snprintf(out, sizeof(out), "%s/decisions.txt", tu_tmpdir());

	if (rag_trace_read(path, &procs, &res, &units, &ev, err, sizeof(err)) != 0) {
		tu_fail(__FILE__, __LINE__, "%s", err);
		return;
	}
	CHECK_EQ(procs, 3);
	CHECK_EQ(res, nres);
	CHECK(memcmp(units, want_units, nres * sizeof(uint32_t)) == 0);
	CHECK(ev.count <= 16);
	rag_oracle_init(&o, procs, res, units);
	for (e = 0; e < ev.count && e < 16; e++)
		d[e] = rag_oracle_apply(&o, ev.type[e], ev.proc[e], ev.res[e]);
	CHECK_EQ_I(rag_decisions_write(out, &ev, d, err, sizeof(err)), 0);
	slurp(out, got, sizeof(got));
	CHECK_STR_EQ(got, want);
	CHECK_EQ_I(rag_decisions_write("/nonexistent/dir/decisions", &ev, d, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "/nonexistent/dir/decisions");
	rag_oracle_free(&o);
	free(units);
	rag_events_free(&ev);
}

TEST(rag_trace_doc_examples_and_decisions)
{
	const uint32_t ones[3] = {1, 1, 1}, multi[2] = {2, 1};

	check_doc_example(doc_single, doc_single_decisions, 3, ones);
	check_doc_example(doc_multi, doc_multi_decisions, 2, multi);
}

TEST(rag_trace_lenient_spacing_and_empty_streams)
{
	const char *path = write_trace("crlf.trace", "\t resources  4 # four\r\n"
						       "processes 2\r\n  \r\nunits 3 2\r\n"
						       "request\t1 3\r\n");
	uint32_t procs, res, *units;
	rag_events ev;
	char err[256] = "";

	REQUIRE(rag_trace_read(path, &procs, &res, &units, &ev, err, sizeof(err)) == 0);
	CHECK_EQ(procs, 2);
	CHECK_EQ(res, 4);
	CHECK_EQ(units[0], 1);
	CHECK_EQ(units[3], 2);
	REQUIRE(ev.count == 1);
	CHECK_EQ(ev.type[0], RAG_REQUEST);
	CHECK_EQ(ev.proc[0], 1);
	CHECK_EQ(ev.res[0], 3);
	free(units);
	rag_events_free(&ev);

	/* Headers only: no stream to run, refused as --events 0 is. */
	path = write_trace("empty.trace", "processes 1\nresources 1\n");
	CHECK(rag_trace_read(path, &procs, &res, &units, &ev, err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "empty.trace: no events: a trace needs at least one request or release");
	/* A deadlocking request leaves the process active:
	 * p1's request for q0 deadlocks and is refused: p1 is still active and may release. */
	path = write_trace("refused.trace", "processes 2\nresources 2\nrequest 0 0\nrequest 1 1\n"
					    "request 0 1\nrequest 1 0\nrelease 1 1\n");
	REQUIRE(rag_trace_read(path, &procs, &res, &units, &ev, err, sizeof(err)) == 0);
	CHECK_EQ(ev.count, 5);
	free(units);
	rag_events_free(&ev);
}

struct bad_case {
	const char *text, *line, *reason;
};

TEST(rag_trace_errors)
{
	static const char head[] = "processes 2\nresources 2\n";
	static const struct bad_case cases[] = {
		{"processes 3\nresources 2\nprocesses 3\n", ":3: ",
		 "duplicate 'processes' line (first on line 1)"},
		{"processes\n", ":1: ", "wrong count"},
		{"processes 3 4\n", ":1: ", "wrong count"},
		{"processes 0\n", ":1: ", "between 1 and 1048576"},
		{"processes 1048577\n", ":1: ", "between 1 and 1048576"},
		{"resources 99999999999999999999999\n", ":1: ", "between 1 and 1048576"},
		{"processes x\n", ":1: ", "not a non-negative integer"},
		{"processes -1\n", ":1: ", "not a non-negative integer"},
		{"resources 2\nrequest 0 0\n", ":2: ",
		 "missing header: 'request' before the 'processes'"},
		{"# c\n\nprocesses 2\nunits 2\n", ":4: ",
		 "missing header: 'units' before the 'resources'"},
		{"processes 2\n", ":1: ",
		 "missing header: end of trace without a 'resources' line"},
		{"", ": empty file: ", "missing header: end of trace without a 'processes' line"},
		{"processes 2\nresources 2\nfrobnicate 1\n", ":3: ",
		 "unknown keyword 'frobnicate'"},
	};
	static const struct bad_case events[] = {
		{"units 0\n", ":3: ", "units must be between 1 and 65535, got 0"},
		{"units 65536\n", ":3: ", "between 1 and 65535"},
		{"units 1 0\n", ":3: ", "units must be between 1 and 65535, got 0"},
		{"units 2 1\n", ":3: ", "resource 2 out of range (0..1)"},
		{"units x 1\n", ":3: ", "not a non-negative integer"},
		{"units 0 1\n# ok\nunits 0 2\n", ":5: ", "units of resource 0 given twice"},
		{"units 2\nunits 3\n", ":4: ", "duplicate 'units U' line (first on line 3)"},
		{"units 0 2\nunits 3\n", ":4: ", "would override"},
		{"units 1 2 3\n", ":3: ", "wrong count"},
		{"units\n", ":3: ", "wrong count"},
		{"request 0 0\nunits 2\n", ":4: ", "'units' after the first event"},
		{"request 2 0\n", ":3: ", "process 2 out of range (0..1)"},
		{"request 0 2\n", ":3: ", "resource 2 out of range (0..1)"},
		{"request 99999999999999999999 0\n", ":3: ", "out of range"},
		{"request 0 x\n", ":3: ", "resource id 'x' is not a non-negative integer"},
		{"request 0\n", ":3: ", "wrong count"},
		{"release 0 0 0\n", ":3: ", "wrong count"},
		{"release 0 1\n", ":3: ", "process 0 holds no unit of resource 1"},
		{"request 0 0\nrequest 1 0\nrequest 1 1\n", ":5: ",
		 "process 1 is blocked waiting for resource 0: it cannot request"},
		{"request 0 0\nrequest 1 0\nrelease 1 0\n", ":5: ", "it cannot release"},
		/* The refused second request gave p0 no second unit. */
		{"request 0 0\nrequest 0 0\nrelease 0 0\nrelease 0 0\n", ":6: ",
		 "process 0 holds no unit of resource 0"},
		{"request 0 0\nrelease 0 0\nrelease 0 0\n", ":5: ",
		 "process 0 holds no unit of resource 0"},
	};
	const size_t ncases = sizeof(cases) / sizeof(cases[0]);
	char text[512], err[512];
	uint32_t procs, res, *units;
	rag_events ev;
	size_t k;

	/* cases[] are whole traces; events[] follow the valid header in head[]. */
	for (k = 0; k < ncases + sizeof(events) / sizeof(events[0]); k++) {
		const struct bad_case *c = k < ncases ? &cases[k] : &events[k - ncases];
		const char *path;
		int rc;

		snprintf(text, sizeof(text), "%s%s", k < ncases ? "" : head, c->text);
		path = write_trace("bad.trace", text);
		err[0] = '\0';
		rc = rag_trace_read(path, &procs, &res, &units, &ev, err, sizeof(err));
		CHECK_EQ_I(rc, -1);
		if (rc == 0) {
			fprintf(stderr, "  case %zu was accepted\n", k);
			free(units);
			rag_events_free(&ev);
			continue;
		}
		CHECK_CONTAINS(err, path);
		CHECK_CONTAINS(err, c->line);
		CHECK_CONTAINS(err, c->reason);
	}
	{
		static const char nul[] = "processes 2\nresources 2\nrequest 0\0 1\n";
		const char *path = write_text("nul.trace", nul, sizeof(nul) - 1);

		CHECK_EQ_I(rag_trace_read(path, &procs, &res, &units, &ev, err, sizeof(err)), -1);
		CHECK_CONTAINS(err, ":3: malformed line: it holds a NUL byte");
	}
	CHECK_EQ_I(rag_trace_read("/nonexistent/trace", &procs, &res, &units, &ev, err,
				  sizeof(err)),
		   -1);
	CHECK_CONTAINS(err, "/nonexistent/trace");
}

/* In a child: the trace on standard input. */
static void stdin_child(void *arg)
{
	uint32_t procs, res, *units;
	rag_events ev;
	char err[512];

	if (!freopen((const char *)arg, "r", stdin))
		exit(10);
	if (rag_trace_read("-", &procs, &res, &units, &ev, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(11);
	}
	exit(procs == 3 && res == 2 && units[0] == 2 && ev.count == 7 && ev.proc[1] == 2 ? 0 : 12);
}

static void stdin_bad_child(void *arg)
{
	uint32_t procs, res, *units;
	rag_events ev;
	char err[512];

	if (!freopen((const char *)arg, "r", stdin))
		exit(10);
	if (rag_trace_read("-", &procs, &res, &units, &ev, err, sizeof(err)) == 0)
		exit(11);
	fprintf(stderr, "%s\n", err);
	exit(0);
}

TEST(rag_trace_stdin)
{
	static char good[512], bad[512];
	char err[1024];

	snprintf(good, sizeof(good), "%s", write_trace("stdin.trace", doc_multi));
	CHECK_EQ_I(tu_run_child(stdin_child, good, err, sizeof(err)), 0);
	snprintf(bad, sizeof(bad), "%s",
		 write_trace("stdin_bad.trace", "processes 1\nresources 1\nrelease 0 0\n"));
	CHECK_EQ_I(tu_run_child(stdin_bad_child, bad, err, sizeof(err)), 0);
	CHECK_CONTAINS(err, "<stdin>:3: process 0 holds no unit of resource 0");
}
