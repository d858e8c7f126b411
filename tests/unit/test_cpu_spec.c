/*
 * Unit tests of speculation on the host's cores (speculation/cpu_spec.c,
 * speculation/cpu_spec_mem.c, `--compare cpu-spec`): every loop, each
 * dependence kind across and within chunks, the parallel commit's delayed
 * writes and the re-executions' reads, each branch type, the choice
 * between parallel rounds and stretches in order, dense dependences and
 * more threads than cores, each against the sequential loop bit for bit,
 * with the counters each case implies.
 */
#include <stdlib.h>
#include <string.h>

#include "speculation/cpu_spec.h"
#include "tests/unit/spec_check.h"
#include "tests/unit/test.h"
#include "workloads/speculation/spec_loops.h"

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
 * otherwise. Which iterations are misspeculated follows from which chunk
 * writes what, never from timing, so the callers expect exact counts.
 */
static uint64_t two_chunks(const uint32_t set[][3], unsigned nset)
{
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(2);
	spec_figure3_256(&p, set, nset);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.max_assignment, 256);
	CHECK_EQ(r.raw_war, r.reexecuted > 0);
	CHECK_EQ(r.detections, r.reexecuted > 0);
	CHECK_EQ(r.waw, 0);                       /* resolved by the order of the commit, not counted */
	CHECK_EQ(r.wrong_elements, r.reexecuted); /* one write each */
	CHECK_EQ(r.misspeculated, r.reexecuted);
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
	static const uint32_t raw_self[][3] = {{1, 200, 200}};

	CHECK_EQ(two_chunks(NULL, 0), 0);
	/* chunk 1 reads what chunk 0 writes: it alone runs again, whatever it saw */
	CHECK_EQ(two_chunks(raw, 1), 1);
	/* ... and so does the one that read its write through the chunk's log */
	CHECK_EQ(two_chunks(raw_chain, 2), 2);
	/* a RAW inside a chunk is forwarded by the log: nothing to redo */
	CHECK_EQ(two_chunks(raw_within, 2), 0);
	/* WAR and WAW across chunks are resolved by the order of the commit (the later chunk's
	 * write to an element chunk 0 writes is delayed until after chunk 0's) */
	CHECK_EQ(two_chunks(war, 1), 0);
	CHECK_EQ(two_chunks(waw, 1), 0);
	/* reading an element both chunks wrote: the later chunk's own value, forwarded */
	CHECK_EQ(two_chunks(waw_read, 2), 0);
	/* an iteration reading the element it writes, before writing it */
	CHECK_EQ(two_chunks(raw_self, 1), 0);
}

/*
 * Writes after a misspeculated iteration of the same chunk: iteration 200
 * reads what chunk 0 writes and writes element 200, which 210 (valid) writes
 * again; 210's write must land after 200's re-execution (it is delayed), and
 * 220, reading element 200 from 210 through the log, is valid: 210's write
 * ended the taint.
 */
TEST(cpu_spec_writes_after_a_misspeculation)
{
	static const uint32_t waw_after[][3] = {{1, 200, 10}, {0, 210, 200}};
	static const uint32_t read_after[][3] = {{1, 200, 10}, {0, 210, 200}, {1, 220, 200}};
	static const uint32_t read_tainted[][3] = {{1, 200, 10}, {1, 220, 200}, {0, 230, 220}};

	CHECK_EQ(two_chunks(waw_after, 2), 1);
	CHECK_EQ(two_chunks(read_after, 3), 1);
	/* 220 reads what misspeculated 200 wrote: it runs again; 230 then writes what 220 wrote */
	CHECK_EQ(two_chunks(read_tainted, 3), 2);
}

/*
 * ocean over 384 cells, one sweep, on three workers: one round of three
 * chunks of 128 (each iteration relaxes its own cell, neighbours are
 * boundary values). Iteration 200 (chunk 1) reads cell 10, which chunk 0
 * writes, so it runs again; its other neighbour is a cell that a later
 * iteration writes, whose write is committed before that re-execution: the
 * re-execution must read the value the speculative run saw (the cell's
 * value before the round), not the committed one. Once for a writer in a
 * later chunk (300), once for one later in its own chunk (220).
 */
static uint64_t ocean_reexecution(uint32_t later)
{
	enum { N = 384, HALO = N / 4 + 1 };
	uint32_t *idx = calloc(3 * N, sizeof(uint32_t)), A0[N], i;
	float *in = calloc(N + HALO, sizeof(float));
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(3);
	for (i = 0; i < N; i++) {
		idx[i] = i;
		idx[N + i] = N + i % HALO;
		idx[2 * N + i] = N + (i * 7) % HALO;
		A0[i] = sp_f2u(1.0f + (float)i);
		in[i] = 0.5f + (float)(i % 5);
	}
	for (i = 0; i < HALO; i++)
		in[N + i] = 0.25f * (float)i;
	idx[N + 200] = 10;
	idx[2 * N + 200] = later;
	sp_problem_make(&p, spec_loop("ocean"), N, N, idx, 3 * N, in, N + HALO, A0);
	p.args.p[0] = 1;
	p.args.p[1] = N;
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.wrong_elements, r.reexecuted);
	check_counters(&p, &r);
	sp_problem_free(&p);
	free(idx);
	free(in);
	return r.reexecuted;
}

TEST(cpu_spec_reexecution_reads)
{
	CHECK_EQ(ocean_reexecution(300), 1);
	CHECK_EQ(ocean_reexecution(220), 1);
}

/* A control-flow loop of 256 iterations with the branch's input set at the given ones. */
static void flagged_cf(sp_problem *p, const char *loop, const uint32_t *at, unsigned nat)
{
	sp_loop_gen g = {256, 0, 0, 3};
	unsigned k;
	REQUIRE(sp_problem_generate(spec_loop(loop), &g, p, NULL, 0) == 0);
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

	/* Figure 6(a), (+1): the iterations after the flagged ones redo, 128 across blocks. */
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

	/* Figure 6(c), (+0:end): the first round takes every iteration and ends at 100, which
	 * redoes; what ran past it counts as deferred. After it, in parallel or in order,
	 * 200 redoes once. */
	flagged_cf(&p, "gothic", late, 2);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.max_assignment, 256);
	CHECK(r.assignments >= 2);
	CHECK_EQ(r.misspeculated, r.reexecuted + r.deferred);
	check_counters(&p, &r);
	sp_problem_free(&p);

	/* Both kinds of item: 50 (its statements dropped) and 51 are marked one by one, the
	 * range starts at 55 and redoes; then 127 and 128 redo, and so does 132 where a
	 * parallel round rather than a stretch in order meets that branch. */
	flagged_cf(&p, "chain", at, 2);
	REQUIRE(sp_clause_parse("(+1,+5:end)", &p.clause, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	CHECK(r.reexecuted == 5 || r.reexecuted == 6);
	CHECK(r.assignments >= 2);
	check_counters(&p, &r);
	sp_problem_free(&p);
}

/* The choice between parallel control-flow rounds and stretches in order. */
TEST(cpu_spec_round_choice)
{
	sp_cf_rates q;
	unsigned k, tries = 0;

	memset(&q, 0, sizeof(q));
	CHECK(sp_cf_parallel_pays(&q));       /* nothing measured: try */
	sp_cf_ran_parallel(&q, 1.0, 2.0);     /* slower than the workers run in order */
	for (k = 0; k < SP_CF_PROBE_EVERY - 1; k++)
		CHECK(!sp_cf_parallel_pays(&q));
	CHECK(sp_cf_parallel_pays(&q));       /* the try after SP_CF_PROBE_EVERY stretches */
	sp_cf_ran_parallel(&q, 1.0, 0);
	for (k = 0; k < 2 * SP_CF_PROBE_EVERY; k++)
		tries += sp_cf_parallel_pays(&q);
	CHECK_EQ(tries, 1);                   /* it lost again: twice as long until the next */
	sp_cf_ran_in_order(&q, 0.5);          /* in order measured slower than the last try */
	CHECK(sp_cf_parallel_pays(&q));
	sp_cf_ran_parallel(&q, 3.0, 0);       /* a try starts its average anew */
	CHECK(q.parallel == 3.0);
	for (k = 0; k < 4; k++)
		CHECK(sp_cf_parallel_pays(&q));
	for (k = 0; k < 40; k++) {            /* the spacing of tries stops growing */
		sp_cf_ran_parallel(&q, 0.01, 0);
		while (!sp_cf_parallel_pays(&q))
			;
	}
	CHECK_EQ(q.probe, SP_CF_PROBE_MAX);
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
					"sequential loop", l->head.name, seed);
			check_counters(&p, &r);
			if (l->kind == SP_CF && r.reexecuted == 0)
				tu_fail(__FILE__, __LINE__, "cpu-spec of %s never recovered a branch at "
					"density %g", l->head.name, g.density);
			if (l->id == SP_OCEAN) /* rounds of n/m iterations write distinct cells */
				CHECK(r.waw == 0);
			sp_problem_free(&p);
		}
}

/* Dense dependences: 16 iterations per element; the rounds shrink, and the result holds.
 * Eight workers have room for rounds of n/m iterations (8 x MAX_CHUNK is more). */
TEST(cpu_spec_dense_dependences)
{
	sp_loop_gen g = {200000, 16, 0, 5};
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(8);
	REQUIRE(sp_problem_generate(spec_loop("figure3"), &g, &p, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK_EQ(r.max_assignment, 12500); /* n/m: 12500 elements, one written per iteration */
	CHECK(r.reexecuted > 0 && r.raw_war > 0 && r.waw == 0);
	CHECK(r.assignments_misspeculated > 0);
	CHECK(r.min_assignment < r.max_assignment);
	CHECK_EQ(r.wrong_elements, r.reexecuted);
	sp_problem_free(&p);
}

/* An array above FILTER_EXACT_MAX elements (4M): chunk 0's bitmap and the views' filters
 * hash the elements, and a bit two elements share makes an iteration misspeculated, or a
 * write delayed, that need not be; the result holds all the same. */
TEST(cpu_spec_hashed_filters)
{
	sp_loop_gen g = {50000, 0.01, 0, 17}; /* 5M elements */
	sp_problem p;
	sp_result r;
	sp_config c = cpu_config(4);
	REQUIRE(sp_problem_generate(spec_loop("figure3"), &g, &p, NULL, 0) == 0);
	REQUIRE(p.args.size > (1u << 22));
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK(r.reexecuted > 0);
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
	REQUIRE(sp_problem_generate(spec_loop("figure3"), &g, &p, NULL, 0) == 0);
	CHECK(cpu_equals_seq(&p, &c, &r));
	check_counters(&p, &r);
	CHECK_EQ(r.max_assignment, 8 * 2048); /* n/m is 50000; chunks stay at MAX_CHUNK, 2048 */
	CHECK(r.reexecuted > 0);
	sp_problem_free(&p);
	g.density = 0.5;
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
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
	REQUIRE(sp_problem_generate(spec_loop("trfd"), &g, &p, NULL, 0) == 0);
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
