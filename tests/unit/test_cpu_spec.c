/*
 * Unit tests of speculation on the host's cores (speculation/cpu_spec.c,
 * `--compare cpu-spec`): every loop, each dependence kind across and within
 * chunks, each branch type, dense dependences and more threads than cores,
 * each against the sequential loop bit for bit, with the counters each case
 * implies.
 */
#include <stdlib.h>
#include <string.h>

#include "speculation/cpu_spec.h"
#include "tests/unit/spec_check.h"
#include "tests/unit/test.h"
#include "workloads/spec_loops.h"

static sp_config cpu_config(unsigned workers)
{
	sp_config c;
	memset(&c, 0, sizeof(c));
	c.opt = SP_OPT_ALL;
	c.threshold = 0.01;
	c.clean_run = 4;
	c.workers = workers;
	return c;
}

/* Run p on the host's cores and sequentially; 1 when both end equal, bit for bit. */
static int cpu_equals_seq(const sp_problem *p, const sp_config *c, sp_result *r)
{
	return spec_matches_seq(sp_cpu_spec_run, p, c, r);
}

/* Counters every run must keep, whatever the loop. */
static void check_counters(const sp_problem *p, const sp_result *r)
{
	CHECK(r->assignments >= 1);
	CHECK(r->iterations_gpu >= p->args.n);
	CHECK(r->min_assignment >= 1 && r->min_assignment <= r->max_assignment);
	CHECK(r->max_assignment <= p->args.n);
	CHECK(r->assignments_misspeculated <= r->assignments);
	CHECK(r->detections <= r->assignments);
	CHECK(r->reexecuted <= r->iterations_gpu);
	CHECK(r->bytes_in == 0 && r->bytes_out == 0);
	CHECK(!r->incomplete);
}

/*
 * figure3 (A[P[i]] = 3 A[Q[i]] + i + 1) over 256 iterations and 512
 * elements: one round (n/m = 512) of two chunks of 128 on two workers.
 * Iteration i writes element i and reads 256 + i unless a case says
 * otherwise. Returns the iterations re-executed: a read of what chunk 0
 * (in place) writes is stale or not depending on which ran first, so the
 * callers bound it.
 */
static uint64_t two_chunks(const uint32_t set[][3], unsigned nset)
{
	uint32_t idx[512], A0[512], i;
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(2);
	for (i = 0; i < 256; i++) {
		idx[i] = i;
		idx[256 + i] = 256 + i;
	}
	for (i = 0; i < nset; i++)
		idx[set[i][0] * 256 + set[i][1]] = set[i][2];
	for (i = 0; i < 512; i++)
		A0[i] = 7 * i + 1;
	sp_problem_make(&p, sp_loop_find("figure3"), 256, 512, idx, 512, NULL, 0, A0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.raw_war, r.reexecuted > 0);
	CHECK_EQ(r.detections, r.reexecuted > 0);
	CHECK_EQ(r.waw, 0);                       /* resolved by the ordered commit, not counted */
	CHECK_EQ(r.wrong_elements, r.reexecuted); /* one write each */
	check_counters(&p, &r);
	sp_problem_free(&p);
	return r.reexecuted;
}

TEST(cpu_spec_dependence_kinds)
{
	/* {0: P / 1: Q, iteration, element} */
	static const uint32_t raw[][3] = {{1, 200, 10}};
	static const uint32_t raw_chain[][3] = {{1, 200, 10}, {1, 201, 200}};
	static const uint32_t raw_within[][3] = {{1, 20, 10}, {1, 210, 200}};
	static const uint32_t war[][3] = {{1, 10, 200}};
	static const uint32_t waw[][3] = {{0, 200, 10}};
	static const uint32_t waw_read[][3] = {{0, 200, 10}, {1, 201, 10}};
	uint64_t n;

	CHECK_EQ(two_chunks(NULL, 0), 0);
	/* chunk 1 reads what chunk 0 writes: if it saw the old value, it alone runs again */
	CHECK(two_chunks(raw, 1) <= 1);
	/* ... and then so does the one that read its speculative value through the view */
	n = two_chunks(raw_chain, 2);
	CHECK(n == 0 || n == 2);
	/* a RAW inside a chunk is forwarded by the view: nothing to redo */
	CHECK_EQ(two_chunks(raw_within, 2), 0);
	/* WAR and WAW across chunks are resolved by the ordered commit */
	CHECK_EQ(two_chunks(war, 1), 0);
	CHECK_EQ(two_chunks(waw, 1), 0);
	/* reading an element both chunks wrote: the later chunk's own value, forwarded */
	CHECK_EQ(two_chunks(waw_read, 2), 0);
}

/* A control-flow loop of 256 iterations with the branch's input set at the given ones. */
static void flagged_cf(sp_problem *p, const char *loop, const uint32_t *at, unsigned nat)
{
	sp_loop_gen g = {256, 0, 0, 3};
	unsigned k;
	REQUIRE(sp_problem_generate(sp_loop_find(loop), &g, p, NULL, 0) == 0);
	for (k = 0; k < nat; k++) {
		if (strcmp(loop, "gothic") == 0)
			p->in[2 * at[k]] = 5e7f;
		else
			p->idx[at[k]] = 1;
	}
}

TEST(cpu_spec_branch_types)
{
	static const uint32_t at[2] = {50, 127}, late[2] = {100, 200};
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(2);

	/* Figure 6(a), (+1): the iterations after the flagged ones redo, 128 across chunks. */
	flagged_cf(&p, "chain", at, 2);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.deferred, 0);
	CHECK_EQ(r.detections, 1);
	check_counters(&p, &r);
	sp_problem_free(&p);

	/* Figure 6(b), (+0): the flagged iterations themselves redo. */
	flagged_cf(&p, "alvinn", at, 2);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.reexecuted, 2);
	check_counters(&p, &r);
	sp_problem_free(&p);

	/* Figure 6(c), (+0:end): the first round ends at 100, which redoes, 101..255 are
	 * deferred; the interval (101) is too short to split, so the coordinator runs the
	 * rest in order, where 200 branches and runs again at once. */
	flagged_cf(&p, "gothic", late, 2);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.deferred, 155);
	CHECK_EQ(r.max_assignment, 256);
	CHECK_EQ(r.min_assignment, 155);
	CHECK_EQ(r.assignments, 2);
	check_counters(&p, &r);
	sp_problem_free(&p);

	/* Both kinds of item: 50 (its statements dropped) and 51 are marked one by one, the
	 * range starts at 55; the rest runs in order, where 127 drops its statements and
	 * starts a range at 132: both run again at once. */
	flagged_cf(&p, "chain", at, 2);
	REQUIRE(sp_clause_parse("(+1,+5:end)", &p.clause, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 5);
	CHECK_EQ(r.deferred, 200);
	CHECK_EQ(r.assignments, 2);
	check_counters(&p, &r);
	sp_problem_free(&p);
}

/* Every loop on 5 workers (more than cores), at a density that gives each dependences. */
TEST(cpu_spec_all_loops)
{
	unsigned i, seed;
	for (i = 0; sp_loops[i]; i++)
		for (seed = 1; seed <= 2; seed++) {
			const sp_loop *l = sp_loops[i];
			sp_loop_gen g = {60000, l->max_density > 0.05 ? 0.05 : l->max_density, 8, seed};
			sp_problem p;
			sp_result r;
			sp_config c = cpu_config(5);
			REQUIRE(sp_problem_generate(l, &g, &p, NULL, 0) == 0);
			if (!cpu_equals_seq(&p, &c, &r))
				tu_fail(__FILE__, __LINE__, "cpu-spec of %s (seed %u) differs from the "
					"sequential loop", l->name, seed);
			check_counters(&p, &r);
			if (l->kind == SP_CF && r.reexecuted == 0)
				tu_fail(__FILE__, __LINE__, "cpu-spec of %s never recovered a branch at "
					"density %g", l->name, g.density);
			if (l->id == SP_OCEAN) /* rounds of n/m iterations write distinct cells */
				CHECK(r.waw == 0);
			sp_problem_free(&p);
		}
}

/* Dense dependences: 16 iterations per element; the rounds shrink, and the result holds. */
TEST(cpu_spec_dense_dependences)
{
	sp_loop_gen g = {200000, 16, 0, 5};
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(4);
	REQUIRE(sp_problem_generate(sp_loop_find("figure3"), &g, &p, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK_EQ(r.max_assignment, 12500); /* n/m: 12500 elements, one written per iteration */
	CHECK(r.reexecuted > 0 && r.raw_war > 0 && r.waw == 0);
	CHECK(r.assignments_misspeculated > 0);
	CHECK(r.min_assignment < r.max_assignment);
	CHECK_EQ(r.wrong_elements, r.reexecuted);
	sp_problem_free(&p);
}

/* 8 workers on fewer cores, every chunk at its largest, many conflicts per round. */
TEST(cpu_spec_more_threads_than_cores)
{
	sp_loop_gen g = {200000, 4, 0, 13};
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(8);
	REQUIRE(sp_problem_generate(sp_loop_find("figure3"), &g, &p, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK_EQ(r.max_assignment, 8 * 4096); /* n/m is 50000; chunks stay at 4096 */
	CHECK(r.reexecuted > 0);
	sp_problem_free(&p);
	g.density = 0.5;
	REQUIRE(sp_problem_generate(sp_loop_find("ocean"), &g, &p, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK(r.reexecuted > 0);
	sp_problem_free(&p);
}

/* trfd's one WAW pair: at most its reader redoes, and one worker runs the loop as it is. */
TEST(cpu_spec_trfd_and_one_worker)
{
	sp_loop_gen g = {100000, 0, 4, 9};
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(3);
	REQUIRE(sp_problem_generate(sp_loop_find("trfd"), &g, &p, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK(r.reexecuted <= 1);
	CHECK_EQ(r.raw_war, r.reexecuted);
	c.workers = 1;
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 0);
	CHECK_EQ(r.detections, 0);
	sp_problem_free(&p);
}
