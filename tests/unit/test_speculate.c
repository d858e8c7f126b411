/*
 * Unit tests of the speculative runtime (speculation/, workloads/spec_*):
 * the misspeculate clause, the detection and localization steps on the
 * example of Figure 3, each dependence kind and branch type, assignment
 * sizes at their extremes, and every loop under every --opt against the
 * sequential loop, bit for bit, on more host threads than cores.
 */
#include <stdlib.h>
#include <string.h>

#include "speculation/replay.h"
#include "speculation/runtime.h"
#include "tests/unit/spec_check.h"
#include "tests/unit/test.h"
#include "workloads/speculation/spec_loops.h"

static sp_config config(unsigned opt, unsigned workers)
{
	sp_config c;
	memset(&c, 0, sizeof(c));
	c.opt = opt;
	c.threshold = 0.001;
	c.clean_run = 4;
	c.workers = workers;
	return c;
}

static int run_cpu_backend(const sp_problem *p, const sp_config *c, uint32_t *host, float *scalars,
			   sp_result *r)
{
	return sp_run(&sp_backend_cpu, p, c, host, scalars, r);
}

/* Run p speculatively on the CPU backend and sequentially; 1 when both end equal. */
static int spec_equals_seq(const sp_problem *p, const sp_config *c, sp_result *r)
{
	return spec_matches_seq(run_cpu_backend, p, c, r);
}

/* A figure3 instance (A[P[i]] = 3 A[Q[i]] + i + 1) with the given P and Q. */
static void figure3(sp_problem *p, uint32_t n, uint32_t size, const uint32_t *P, const uint32_t *Q)
{
	uint32_t *idx = malloc(2 * n * sizeof(uint32_t)), *A0 = malloc(size * sizeof(uint32_t)), i;
	memcpy(idx, P, n * sizeof(uint32_t));
	memcpy(idx + n, Q, n * sizeof(uint32_t));
	for (i = 0; i < size; i++)
		A0[i] = 100 + i;
	sp_problem_make(p, spec_loop("figure3"), n, size, idx, 2 * n, NULL, 0, A0);
	free(idx);
	free(A0);
}

TEST(speculate_clause_forms)
{
	sp_clause c;
	char err[128];
	int64_t lo, hi;
	REQUIRE(sp_clause_parse("(-1,+1)", &c, err, sizeof(err)) == 0);
	CHECK_EQ(c.nitems, 2);
	sp_clause_resolve(&c.item[0], 10, 100, &lo, &hi);
	CHECK_EQ_I(lo, 9);
	CHECK_EQ_I(hi, 9);
	sp_clause_resolve(&c.item[1], 10, 100, &lo, &hi);
	CHECK_EQ_I(lo, 11);
	REQUIRE(sp_clause_parse("(+0:+4)", &c, err, sizeof(err)) == 0);
	sp_clause_resolve(&c.item[0], 10, 100, &lo, &hi);
	CHECK_EQ_I(lo, 10);
	CHECK_EQ_I(hi, 14);
	REQUIRE(sp_clause_parse("(10)", &c, err, sizeof(err)) == 0);
	sp_clause_resolve(&c.item[0], 3, 100, &lo, &hi);
	CHECK_EQ_I(lo, 10);
	CHECK_EQ_I(hi, 10);
	CHECK(!sp_clause_all_subsequent(&c));
	CHECK(!sp_clause_only_to_end(&c));
	REQUIRE(sp_clause_parse("(+1:end)", &c, err, sizeof(err)) == 0);
	CHECK(sp_clause_all_subsequent(&c) && !sp_clause_only_to_end(&c));
	REQUIRE(sp_clause_parse("(-1:end,+0:end)", &c, err, sizeof(err)) == 0);
	CHECK(sp_clause_only_to_end(&c));
	REQUIRE(sp_clause_parse("(+0:end)", &c, err, sizeof(err)) == 0);
	CHECK(sp_clause_all_subsequent(&c));
	CHECK(sp_clause_only_to_end(&c));
	sp_clause_resolve(&c.item[0], 3, 100, &lo, &hi);
	CHECK_EQ_I(hi, 99);
	REQUIRE(sp_clause_parse("(2:+3)", &c, err, sizeof(err)) == 0);
	CHECK(!c.item[0].lo_rel && c.item[0].hi_rel);
	CHECK(sp_clause_parse("+1", &c, err, sizeof(err)) != 0);
	CHECK(sp_clause_parse("(+1", &c, err, sizeof(err)) != 0);
	CHECK(sp_clause_parse("(x)", &c, err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "bad iteration");
	CHECK(sp_clause_parse("(+4:+1)", &c, err, sizeof(err)) != 0);
	CHECK(sp_clause_parse("(end)", &c, err, sizeof(err)) != 0);
	CHECK(sp_clause_parse("(1,2,3,4,5)", &c, err, sizeof(err)) != 0);
}

/*
 * Figure 3: iteration 1 writes A[2], which iteration 2 reads (RAW); iterations
 * 2 and 4 both write A[3], iteration 4 reading it too (WAW, and A[3] is not
 * read-only anywhere). The steps run one by one over host arrays.
 */
TEST(speculate_figure3_arrays)
{
	static const uint32_t P[5] = {5, 2, 3, 6, 3}, Q[5] = {1, 0, 2, 4, 3};
	static const uint32_t want_read[8] = {1, 1, 1, 0, 1, 0, 0, 0};
	static const uint32_t want_write[8] = {0, 0, 1, 1, 0, 1, 1, 0};
	uint32_t A[8], rd[5], wr[5], nrd[5], nwr[5], readf[8] = {0}, writec[8] = {0}, minrd[8];
	uint32_t wrongf[8] = {0}, misspec[5] = {0}, counters[SP_NCOUNTERS] = {0}, mlist[5], wlist[8];
	uint32_t i, k, misspec_flags[5] = {0}, sum_write, sum_wc;
	uint32_t sidx[5], sval[5];
	sp_problem p;
	sp_dev d;
	sp_result r;
	sp_config c = config(SP_OPT_ALL, 2);

	figure3(&p, 5, 8, P, Q);
	memcpy(A, p.A0, sizeof(A));
	memset(minrd, 0xFF, sizeof(minrd));
	memset(&d, 0, sizeof(d));
	d.args = p.args;
	d.args.A = A;
	d.kind = SP_MEM;
	d.maxrd = d.maxwr = 1;
	d.count = 5;
	d.rd = rd, d.wr = wr, d.nrd = nrd, d.nwr = nwr;
	d.readf = readf, d.writec = writec, d.minrd = minrd, d.wrongf = wrongf;
	d.misspec = misspec, d.counters = counters, d.mlist = mlist, d.wlist = wlist;
	counters[SP_C_ALL_FROM] = SP_NONE;
	for (k = SP_K_COMPUTE; k <= SP_K_INTERSECT; k++)
		for (i = 0; i < 5; i++)
			sp_kernel_run(&d, k, i);
	for (i = 0; i < 8; i++) {
		CHECK_EQ(readf[i], want_read[i]);
		CHECK_EQ(writec[i] != 0, want_write[i]);
	}
	CHECK_EQ(writec[3], 2); /* WW_A[3]: two iterations write A[3] */
	for (i = 0, sum_write = 0; i < 8; i++)
		sum_write += writec[i] != 0;
	for (i = 0, sum_wc = 0; i < 5; i++)
		sum_wc += nwr[i];
	CHECK_EQ(sum_write, 4); /* sum of Write_A */
	CHECK_EQ(sum_wc, 5);    /* sum of WC_A */
	CHECK_EQ(counters[SP_C_WAW], 1);
	CHECK_EQ(counters[SP_C_CONFLICT], 1);
	for (k = SP_K_MINREAD; k <= SP_K_LOCALIZE; k++)
		for (i = 0; i < 5; i++)
			sp_kernel_run(&d, k, i);
	REQUIRE(counters[SP_C_NMISSPEC] == 2);
	for (i = 0; i < 2; i++)
		misspec_flags[mlist[i]] = 1;
	CHECK(misspec_flags[2] && misspec_flags[4]); /* Misspec = {2, 4} */
	REQUIRE(counters[SP_C_NWRONG] == 1);
	CHECK_EQ(wlist[0], 3);                       /* Wrong_A = {3} */
	for (i = 0; i < 8; i++)
		CHECK_EQ(wrongf[i], i == 3);
	/* The commit gathers what iterations 0, 1 and 3 wrote (A[5], A[2], A[6]), not A[3]. */
	d.sidx = sidx, d.sval = sval;
	for (i = 0; i < 5; i++)
		sp_kernel_run(&d, SP_K_GATHER, i);
	CHECK_EQ(sidx[0], 5);
	CHECK_EQ(sidx[1], 2);
	CHECK_EQ(sidx[2], SP_NONE);
	CHECK_EQ(sidx[3], 6);
	CHECK_EQ(sidx[4], SP_NONE);
	CHECK_EQ(sval[1], A[2]);
	for (i = 0; i < 5; i++)
		sp_kernel_run(&d, SP_K_CLEAR, i);
	for (i = 0; i < 8; i++)
		CHECK(!readf[i] && !writec[i] && !wrongf[i] && minrd[i] == SP_NONE);
	CHECK(!counters[SP_C_WAW] && !counters[SP_C_CONFLICT] && !counters[SP_C_NMISSPEC]);
	CHECK_EQ(counters[SP_C_ALL_FROM], SP_NONE);

	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.wrong_elements, 1);
	CHECK_EQ(r.raw_war, 1);
	CHECK_EQ(r.waw, 1);
	sp_problem_free(&p);
}

/* One assignment of two iterations over four elements: what each dependence kind does. */
static void dependence_case(const uint32_t P[2], const uint32_t Q[2], uint64_t raw_war, uint64_t waw,
			    uint64_t reexecuted)
{
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_ALL, 1);
	figure3(&p, 2, 4, P, Q);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.raw_war, raw_war);
	CHECK_EQ(r.waw, waw);
	CHECK_EQ(r.reexecuted, reexecuted);
	CHECK_EQ(r.detections, raw_war || waw);
	sp_problem_free(&p);
}

TEST(speculate_dependence_kinds)
{
	static const uint32_t none_P[2] = {0, 1}, none_Q[2] = {2, 3};
	static const uint32_t raw_P[2] = {0, 1}, raw_Q[2] = {2, 0};
	static const uint32_t war_P[2] = {0, 1}, war_Q[2] = {1, 3};
	static const uint32_t waw_P[2] = {2, 2}, waw_Q[2] = {0, 1};
	dependence_case(none_P, none_Q, 0, 0, 0);
	dependence_case(raw_P, raw_Q, 1, 0, 1); /* the reader redoes */
	dependence_case(war_P, war_Q, 1, 0, 2); /* the reader and the later writer redo */
	dependence_case(waw_P, waw_Q, 0, 1, 2); /* both writers redo */
}

/* An SP_CF loop with flags at the given iterations (the branch condition's input). */
static void flagged(sp_problem *p, const char *loop, uint32_t n, const uint32_t *at, unsigned nat)
{
	sp_loop_gen g = {n, 0, 0, 3};
	unsigned k;
	REQUIRE(sp_problem_generate(spec_loop(loop), &g, p, NULL, 0) == 0);
	for (k = 0; k < nat; k++) {
		if (strcmp(loop, "gothic") == 0)
			p->in[2 * at[k]] = 5e7f;
		else
			p->idx[at[k]] = 1;
	}
}

TEST(speculate_branch_types)
{
	static const uint32_t at[2] = {3, 7};
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_ALL, 2);

	/* Figure 6(a), (+1): the iterations after the flagged ones redo, the branch's write is kept. */
	flagged(&p, "chain", 10, at, 2);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.deferred, 0);
	sp_problem_free(&p);

	/* Figure 6(b), (+0): the flagged iterations themselves redo. */
	flagged(&p, "alvinn", 10, at, 2);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.reexecuted, 2);
	sp_problem_free(&p);

	/* Figure 6(c), (+0:end): iteration 3 redoes on the CPU, 4..9 go to the next
	 * assignment, sized by the interval (3 - (-1) = 4): 4..7, where 7 branches,
	 * then 8..9 at the mean interval of 4. */
	flagged(&p, "gothic", 10, at, 2);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.deferred, 6);
	CHECK_EQ(r.assignments, 3);
	CHECK_EQ(r.max_assignment, 10);
	CHECK_EQ(r.min_assignment, 2);
	sp_problem_free(&p);

	/* Items of both kinds in one clause: iterations before the range go through the
	 * Misspec list (3, 4 and 7 here), the range's first (8) is redone, 9..19 deferred. */
	flagged(&p, "chain", 20, at, 2);
	REQUIRE(sp_clause_parse("(+1,+5:end)", &p.clause, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 4);
	CHECK_EQ(r.deferred, 11);
	CHECK_EQ(r.assignments, 3);
	sp_problem_free(&p);

	/* Without localization the whole assignment redoes on the CPU. */
	flagged(&p, "mdg", 10, at, 1);
	c.opt = SP_OPT_NO_MO;
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 10);
	CHECK_EQ(r.assignments, 1);
	sp_problem_free(&p);
}

TEST(speculate_assignment_extremes)
{
	sp_loop_gen g = {300, 0.05, 0, 11};
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_ALL, 2);

	/* Assignments of one iteration: nothing can conflict (4 sweeps of 75 cells). */
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
	c.max_assignment = 1;
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 300);
	CHECK_EQ(r.max_assignment, 1);
	CHECK_EQ(r.reexecuted, 0);
	sp_problem_free(&p);

	/* A loop shorter than one assignment (one sweep of 3 cells): one assignment. */
	g.iters = 3;
	g.work = 1;
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
	c.max_assignment = 0;
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.max_assignment, 3);
	sp_problem_free(&p);
}

/* Dense dependences: 16 iterations per element, every assignment of 64 misspeculates. */
TEST(speculate_dense_dependences)
{
	sp_loop_gen g = {4096, 16, 0, 5};
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_NO_SCHED, 3);
	REQUIRE(sp_problem_generate(spec_loop("figure3"), &g, &p, NULL, 0) == 0);
	c.max_assignment = 64;
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 64);
	CHECK_EQ(r.assignments_misspeculated, 64);
	CHECK(r.reexecuted > 4096 / 4);
	/* no-sched ignores n/m: assignments above it, and every one misspeculates. */
	c.max_assignment = 1024;
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 4);
	CHECK_EQ(r.max_assignment, 1024);
	CHECK_EQ(r.assignments_misspeculated, 4);
	sp_problem_free(&p);
	/* With the policy, the assignments shrink until they stop misspeculating. */
	c = config(SP_OPT_ALL, 3);
	REQUIRE(sp_problem_generate(spec_loop("figure3"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.max_assignment, 256); /* n/m: 256 elements, one written per iteration */
	CHECK(r.min_assignment < 16);
	sp_problem_free(&p);
}

/* Every loop under every --opt, on 5 threads (more than cores), at a density
 * that makes each misspeculate: the speculative result equals the sequential one. */
TEST(speculate_all_loops_all_opts)
{
	unsigned i, o;
	for (i = 0; sp_loops[i]; i++)
		for (o = 0; o < SP_NOPTS; o++) {
			const sp_loop *l = sp_loops[i];
			sp_loop_gen g = {6000, l->max_density > 0.05 ? 0.05 : l->max_density, 8, 7 + o};
			sp_problem p;
			sp_result r;
			sp_config c = config(o, 5);
			REQUIRE(sp_problem_generate(l, &g, &p, NULL, 0) == 0);
			if (!spec_equals_seq(&p, &c, &r))
				tu_fail(__FILE__, __LINE__, "%s --opt %s differs from the sequential loop",
					l->head.name, sp_opt_names[o]);
			if (r.reexecuted == 0 && l->id != SP_FFTBENCH)
				tu_fail(__FILE__, __LINE__, "%s --opt %s never misspeculated at density %g",
					l->head.name, sp_opt_names[o], g.density);
			CHECK(r.iterations_gpu >= 6000);
			sp_problem_free(&p);
		}
}

/* fftbench and alvinn at density 0: no misspeculation, and the unchecked run agrees. */
TEST(speculate_nospec_loops)
{
	const char *names[2] = {"fftbench", "alvinn"};
	unsigned k;
	for (k = 0; k < 2; k++) {
		sp_loop_gen g = {5000, 0, 0, 2};
		sp_problem p;
		sp_result r;
		sp_config c = config(SP_OPT_ALL, 3);
		uint32_t *a, *b;
		float s[SP_NSCALARS];
		REQUIRE(sp_problem_generate(spec_loop(names[k]), &g, &p, NULL, 0) == 0);
		CHECK(spec_equals_seq(&p, &c, &r));
		CHECK_EQ(r.reexecuted, 0);
		CHECK_EQ(r.detections, 0);
		a = malloc(p.args.size * 4);
		b = malloc(p.args.size * 4);
		memcpy(a, p.A0, p.args.size * 4);
		memcpy(b, p.A0, p.args.size * 4);
		memcpy(s, p.args.s, sizeof(s));
		sp_run_nospec(&sp_backend_cpu, &p, &c, a, &r);
		sp_run_sequential(&p, b, s, 0, p.args.n);
		CHECK(memcmp(a, b, p.args.size * 4) == 0);
		free(a);
		free(b);
		sp_problem_free(&p);
	}
}

/* trfd: one WAW pair, so exactly two iterations redo whatever the schedule. */
TEST(speculate_trfd_one_pair)
{
	sp_loop_gen g = {20000, 0, 4, 9};
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_ALL, 2);
	REQUIRE(sp_problem_generate(spec_loop("trfd"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.reexecuted, 2);
	CHECK_EQ(r.waw, 1);
	CHECK_EQ(r.raw_war, 0);
	CHECK_EQ(r.wrong_elements, 1);
	sp_problem_free(&p);
}

/* High contention on the threaded path: assignments of 8192 iterations (above the
 * CPU backend's inline limit) on 8 threads, 4 iterations per element. */
TEST(speculate_contention_threads)
{
	sp_loop_gen g = {40000, 4, 0, 13};
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_NO_SCHED, 8);
	c.max_assignment = 8192;
	REQUIRE(sp_problem_generate(spec_loop("figure3"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 5);
	CHECK_EQ(r.assignments_misspeculated, 5);
	CHECK(r.reexecuted > 40000 / 2 && r.reexecuted < 40000);
	CHECK_EQ(r.raw_war, 5);
	CHECK_EQ(r.waw, 5);
	sp_problem_free(&p);
	g.iters = 200000;
	g.density = 0.5;
	c = config(SP_OPT_ALL, 8);
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK(r.reexecuted > 0 && r.assignments > 1);
	sp_problem_free(&p);
}

/*
 * Device-decided rounds take the decisions host-decided assignments would:
 * the same loop under (+0:end) (rounds) and under (+0:end,+1000000), whose
 * second item names no iteration of any assignment here but keeps the host
 * deciding, gives the same schedule and counters, under the paper's schedule
 * and the wide one alike; under the paper's the rounds copy less.
 */
TEST(speculate_device_rounds_decide_as_the_host)
{
	static const char *const loops[] = {"gothic", "strcat", "mdg"};
	unsigned k;
	for (k = 0; k < 6; k++) {
		sp_loop_gen g = {20000, 0.01, 0, 9};
		sp_problem p;
		sp_result dev, host;
		sp_config c = config(SP_OPT_ALL, 3);
		c.schedule = k < 3 ? SP_SCHED_PAPER : SP_SCHED_WIDE;
		REQUIRE(sp_problem_generate(spec_loop(loops[k % 3]), &g, &p, NULL, 0) == 0);
		REQUIRE(sp_clause_only_to_end(&p.clause));
		CHECK(spec_equals_seq(&p, &c, &dev));
		REQUIRE(sp_clause_parse("(+0:end,+1000000)", &p.clause, NULL, 0) == 0);
		CHECK(!sp_clause_only_to_end(&p.clause));
		CHECK(spec_equals_seq(&p, &c, &host));
		CHECK(dev.reexecuted > 1);
		CHECK_EQ(dev.assignments, host.assignments);
		CHECK_EQ(dev.assignments_misspeculated, host.assignments_misspeculated);
		CHECK_EQ(dev.iterations_gpu, host.iterations_gpu);
		CHECK_EQ(dev.misspeculated, host.misspeculated);
		CHECK_EQ(dev.reexecuted, host.reexecuted);
		CHECK_EQ(dev.deferred, host.deferred);
		CHECK_EQ(dev.wrong_elements, host.wrong_elements);
		CHECK_EQ(dev.detections, host.detections);
		CHECK_EQ(dev.min_assignment, host.min_assignment);
		CHECK_EQ(dev.max_assignment, host.max_assignment);
		/* The wide schedule's fewer assignments leave the host little more to copy than the
		 * spans; the rounds add each batch's state (strcat: 332 bytes more than the host). */
		if (c.schedule == SP_SCHED_PAPER)
			CHECK(dev.bytes_out < host.bytes_out);
		else
			CHECK(dev.bytes_out < host.bytes_out + host.bytes_out / 100);
		sp_problem_free(&p);
	}
}

/*
 * The wide schedule: the interval after a branch is at least the floor, a full
 * assignment without a branch doubles the size (within cap) and a short one
 * (the loop's end) does not; the paper's schedule does neither. On gothic
 * (a branch every 100 iterations) and strcat (intervals that double) it takes
 * fewer assignments for the same branches and result, and its shortest is
 * longer than the paper's.
 */
TEST(speculate_wide_schedule)
{
	static const char *const loops[] = {"gothic", "strcat"};
	int64_t last = -1;
	uint64_t sum = 0, n = 0;
	unsigned k;
	CHECK_EQ(sp_sched_interval(&last, &sum, &n, 99, SP_SCHED_FLOOR, 1u << 20), SP_SCHED_FLOOR);
	CHECK_EQ(sp_sched_interval(&last, &sum, &n, 4099, SP_SCHED_FLOOR, 1u << 20), 2050);
	last = -1, sum = n = 0;
	CHECK_EQ(sp_sched_interval(&last, &sum, &n, 99, 0, 1u << 20), 100);
	CHECK_EQ(sp_sched_interval(&last, &sum, &n, 99, SP_SCHED_FLOOR, 300), 300);
	CHECK_EQ(sp_sched_clean(600, 600, 1, 1000), 1000);
	CHECK_EQ(sp_sched_clean(400, 400, 1, 1000), 800);
	CHECK_EQ(sp_sched_clean(400, 399, 1, 1000), 400);
	CHECK_EQ(sp_sched_clean(400, 400, 0, 1000), 400);
	for (k = 0; k < 2; k++) {
		sp_loop_gen g = {200000, k ? 0.0001 : 0.01, 0, 5};
		sp_problem p;
		sp_result paper, wide;
		sp_config c = config(SP_OPT_ALL, 2);
		REQUIRE(sp_problem_generate(spec_loop(loops[k]), &g, &p, NULL, 0) == 0);
		CHECK(spec_equals_seq(&p, &c, &paper));
		c.schedule = SP_SCHED_WIDE;
		CHECK(spec_equals_seq(&p, &c, &wide));
		CHECK_EQ(wide.reexecuted, paper.reexecuted);
		CHECK(wide.reexecuted > 10);
		CHECK(wide.assignments * 4 < paper.assignments * 3);
		CHECK(paper.min_assignment < SP_SCHED_FLOOR);
		CHECK(wide.min_assignment > paper.min_assignment);
		sp_problem_free(&p);
	}
}

/*
 * In-place recovery: a round's first branching iteration keeps what its own
 * branch did (mdg, strcat and gothic under (+0:end)) instead of being
 * re-executed, with the same result and counters as re-execution, which the
 * same loops get when they do not declare their branch scalar-only or when
 * the clause names an earlier iteration too.
 */
TEST(speculate_rounds_recover_in_place)
{
	static const char *const loops[] = {"gothic", "strcat", "mdg"};
	unsigned k;
	CHECK(sp_clause_from_self(&(sp_clause){0}) == 0);
	for (k = 0; k < 3; k++) {
		sp_loop again = *spec_loop(loops[k]);
		sp_loop_gen g = {30000, k == 1 ? 0.0001 : 0.01, 0, 7};
		sp_problem p;
		sp_result in, re;
		sp_config c = config(SP_OPT_ALL, 2);
		c.schedule = SP_SCHED_WIDE;
		CHECK(again.branch_sets_scalars);
		REQUIRE(sp_problem_generate(spec_loop(loops[k]), &g, &p, NULL, 0) == 0);
		CHECK(sp_clause_from_self(&p.clause));
		CHECK(spec_equals_seq(&p, &c, &in));
		again.branch_sets_scalars = 0;
		p.loop = &again;
		CHECK(spec_equals_seq(&p, &c, &re));
		CHECK(in.reexecuted > 10);
		CHECK_EQ(in.assignments, re.assignments);
		CHECK_EQ(in.reexecuted, re.reexecuted);
		CHECK_EQ(in.deferred, re.deferred);
		CHECK_EQ(in.wrong_elements, re.wrong_elements);
		p.loop = spec_loop(loops[k]);
		REQUIRE(sp_clause_parse("(-1:end)", &p.clause, NULL, 0) == 0);
		CHECK(!sp_clause_from_self(&p.clause));
		CHECK(spec_equals_seq(&p, &c, &re));
		sp_problem_free(&p);
	}
}

/* p under the wide schedule, then the lookahead (c->schedule ends there): each the sequential
 * loop's result, the same iterations re-executed, the lookahead in no more rounds. */
static void wide_and_lookahead(const sp_problem *p, sp_config *c, sp_result *wide, sp_result *la)
{
	c->schedule = SP_SCHED_WIDE;
	CHECK(spec_equals_seq(p, c, wide));
	c->schedule = SP_SCHED_LOOKAHEAD;
	CHECK(spec_equals_seq(p, c, la));
	CHECK_EQ(la->reexecuted, wide->reexecuted);
	CHECK(la->assignments <= wide->assignments);
}

/*
 * The lookahead: rounds of gothic (a scalar that grows by one at each branch) also run on the
 * scalars predicted after their first branch and keep that hypothesis's iterations up to its
 * own first branch when the prediction holds, so gothic takes far fewer rounds for the same
 * branches and result; mdg's branch halves its scalar towards 0.5 (no constant step until
 * it gets there) and strcat's rounds are mostly wide: the same result, never more rounds;
 * under (-1:end) the lookahead is off.
 */
TEST(speculate_rounds_lookahead)
{
	static const double densities[] = {0.001, 0.0067, 0.05, 0.5};
	unsigned k, seed;
	for (k = 0; k < 4; k++)
		for (seed = 1; seed <= 3; seed++) {
			sp_loop_gen g = {40000, densities[k], 0, seed};
			sp_problem p;
			sp_result wide, la;
			sp_config c = config(SP_OPT_ALL, 2);
			REQUIRE(sp_problem_generate(spec_loop("gothic"), &g, &p, NULL, 0) == 0);
			wide_and_lookahead(&p, &c, &wide, &la);
			CHECK(la.assignments_misspeculated <= la.assignments);
			if (k == 1)
				CHECK(la.assignments * 3 < wide.assignments * 2);
			REQUIRE(sp_clause_parse("(-1:end)", &p.clause, NULL, 0) == 0);
			CHECK(spec_equals_seq(&p, &c, &la));
			sp_problem_free(&p);
		}
	for (k = 0; k < 2; k++) {
		sp_loop_gen g = {30000, k ? 0.0001 : 0.01, 0, 4};
		sp_problem p;
		sp_result wide, la;
		sp_config c = config(SP_OPT_ALL, 2);
		REQUIRE(sp_problem_generate(spec_loop(k ? "strcat" : "mdg"), &g, &p, NULL, 0) == 0);
		wide_and_lookahead(&p, &c, &wide, &la);
		sp_problem_free(&p);
	}
}

/*
 * A loop that declares it writes its whole array: its iterations' first ranges
 * cover A exactly (so the runtime need not copy the array in), and a loop that
 * declares so falsely is caught by verification, since the array the runtime
 * did not copy in holds no value of the run.
 */
TEST(speculate_whole_array_writers)
{
	unsigned i;
	for (i = 0; sp_loops[i]; i++) {
		const sp_loop *l = sp_loops[i];
		sp_loop_gen g = {5000, l->default_density, 0, 3};
		sp_problem p;
		uint32_t *seen, it, k, e;
		if (!l->writes_whole_array)
			continue;
		CHECK_EQ(l->kind, SP_CF);
		REQUIRE(sp_problem_generate(l, &g, &p, NULL, 0) == 0);
		seen = calloc(p.args.size, sizeof(uint32_t));
		for (it = 0; it < p.args.n; it++) {
			uint32_t lo[2], hi[2];
			sp_cf_writes(&p.args, it, lo, hi);
			for (e = lo[0]; e < hi[0]; e++) {
				REQUIRE(e < p.args.size);
				seen[e]++;
			}
		}
		for (k = e = 0; e < p.args.size; e++)
			k += seen[e] == 1;
		if (k != p.args.size)
			tu_fail(__FILE__, __LINE__, "%s: %u of %u elements in exactly one first range",
				l->head.name, k, p.args.size);
		free(seen);
		sp_problem_free(&p);
	}
	{
		sp_loop fake = *spec_loop("chain"); /* its carries are outside its first ranges */
		sp_loop_gen g = {2000, 0.01, 0, 5};
		sp_problem p;
		sp_result r;
		sp_config c = config(SP_OPT_ALL, 2);
		REQUIRE(sp_problem_generate(spec_loop("chain"), &g, &p, NULL, 0) == 0);
		CHECK(spec_equals_seq(&p, &c, &r));
		fake.writes_whole_array = 1;
		p.loop = &fake;
		CHECK(!spec_equals_seq(&p, &c, &r));
		sp_problem_free(&p);
	}
}

/*
 * Device-decided rounds on both kernels: strcat's first round is the whole
 * loop (wide), the short rounds after its first branch run in one block, and
 * its growing intervals hand them back to wide rounds; the counters are those
 * of host-decided assignments, and the copy back is of the spans finished.
 */
TEST(speculate_rounds_both_kernels)
{
	sp_loop_gen g = {200000, 0.0001, 0, 1};
	sp_problem p;
	sp_result dev, host;
	sp_config c = config(SP_OPT_ALL, 2);
	REQUIRE(sp_problem_generate(spec_loop("strcat"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &dev));
	CHECK(dev.max_assignment > SP_ROUND_MAX && dev.min_assignment <= SP_ROUND_MAX);
	REQUIRE(sp_clause_parse("(+0:end,+1000000)", &p.clause, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &host));
	CHECK_EQ(dev.assignments, host.assignments);
	CHECK_EQ(dev.reexecuted, host.reexecuted);
	CHECK_EQ(dev.deferred, host.deferred);
	CHECK_EQ(dev.wrong_elements, host.wrong_elements);
	/* In: the counters and each batch's state (no array: strcat writes all of it). Out: each
	 * batch's state and the spans the batches finished, which are the whole array. */
	CHECK((dev.bytes_in - 4 * SP_NCOUNTERS) % (4 * SP_ROUND_WORDS) == 0);
	CHECK_EQ(dev.bytes_out - 4 * (uint64_t)p.args.size, dev.bytes_in - 4 * SP_NCOUNTERS);
	sp_problem_free(&p);
}

/*
 * A memory loop kept on the device, recovery by dependence levels: ocean in
 * one assignment (no-sched) has every iteration misspeculated (each cell has
 * four writers), replayed in a few levels of many iterations each, which
 * the CPU backend runs on its threads; and a short ocean whose levels run in
 * one step, backwards within a level.
 */
TEST(speculate_replay_levels)
{
	sp_loop_gen g = {40000, 0.01, 4, 3};
	sp_problem p;
	sp_result r;
	sp_config c = config(SP_OPT_NO_SCHED, 5);
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.reexecuted, 40000);
	CHECK_EQ(r.wrong_elements, 10000);
	/* no copy of the array but the last: in, the array, counters, the plan; out, counters
	 * x3 (check, localization, the replay's check), the rows, the array */
	CHECK_EQ(r.bytes_out, 4 * (3 * (uint64_t)SP_NCOUNTERS + 40000ull * SP_ROW_WORDS(3, 1) + 10000));
	sp_problem_free(&p);
	c = config(SP_OPT_ALL, 3);
	g.iters = 4000;
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
	CHECK(spec_equals_seq(&p, &c, &r));
	CHECK(r.reexecuted > 0);
	sp_problem_free(&p);
}

/* A re-execution that touches an element outside its traced rows sets SP_C_UNSTABLE. */
TEST(speculate_replay_checks_its_traces)
{
	static const uint32_t P[2] = {0, 1}, Q[2] = {2, 3};
	uint32_t A[4], counters[SP_NCOUNTERS] = {0};
	uint32_t rows[2 * SP_ROW_WORDS(1, 1)] = {0, 1, 1, 2, 0, /* iteration 0: reads 2, writes 0 */
						  1, 1, 1, 2, 1}; /* iteration 1 reads 3, not 2 */
	sp_problem p;
	sp_dev d;
	figure3(&p, 2, 4, P, Q);
	memcpy(A, p.A0, sizeof(A));
	memset(&d, 0, sizeof(d));
	d.args = p.args;
	d.args.A = A;
	d.kind = SP_MEM;
	d.maxrd = d.maxwr = 1;
	d.counters = counters;
	d.rows = rows;
	sp_replay_row(&d, 0);
	CHECK_EQ(counters[SP_C_UNSTABLE], 0);
	CHECK_EQ(A[0], 3 * A[2] + 1);
	sp_replay_row(&d, 1);
	CHECK_EQ(counters[SP_C_UNSTABLE], 1);
	sp_problem_free(&p);
}

/*
 * The inputs a loop says its iterations read are all they read: iterations
 * i0..i1-1 run on inputs changed everywhere else compute what they compute on
 * the real ones (ocean, whose first assignment's inputs are copied before the
 * rest).
 */
TEST(speculate_inputs_read_spans)
{
	static const uint32_t ranges[3][2] = {{0, 2500}, {2500, 10000}, {4321, 4322}};
	sp_loop_gen g = {10000, 0.01, 4, 6};
	sp_problem p;
	unsigned r;
	REQUIRE(sp_problem_generate(spec_loop("ocean"), &g, &p, NULL, 0) == 0);
	for (r = 0; r < 3; r++) {
		sp_input_span s[SP_MAX_INPUT_SPANS];
		uint32_t ns = sp_inputs_read(&p.args, ranges[r][0], ranges[r][1], s), k;
		uint32_t *idx = malloc(p.nidx * sizeof(uint32_t)), *a = malloc(p.args.size * 4);
		uint32_t *b = malloc(p.args.size * 4);
		float *in = malloc(p.nin * sizeof(float)), sa[SP_NSCALARS], sb[SP_NSCALARS];
		size_t j;
		sp_problem q = p;
		REQUIRE(ns > 0 && ns <= SP_MAX_INPUT_SPANS);
		for (j = 0; j < p.nidx; j++) /* another cell, in range */
			idx[j] = (p.idx[j] + 1) % p.args.size;
		for (j = 0; j < p.nin; j++)
			in[j] = p.in[j] + 1.0f;
		for (k = 0; k < ns; k++) {
			REQUIRE(s[k].hi <= (s[k].in_floats ? p.nin : p.nidx));
			for (j = s[k].lo; j < s[k].hi; j++) {
				if (s[k].in_floats)
					in[j] = p.in[j];
				else
					idx[j] = p.idx[j];
			}
		}
		q.args.idx = idx;
		q.args.in = in;
		memcpy(a, p.A0, p.args.size * 4);
		memcpy(b, p.A0, p.args.size * 4);
		memcpy(sa, p.args.s, sizeof(sa));
		memcpy(sb, p.args.s, sizeof(sb));
		sp_run_sequential(&p, a, sa, ranges[r][0], ranges[r][1]);
		sp_run_sequential(&q, b, sb, ranges[r][0], ranges[r][1]);
		CHECK(memcmp(a, b, p.args.size * 4) == 0);
		free(idx);
		free(in);
		free(a);
		free(b);
	}
	sp_problem_free(&p);
}

/*
 * The replay plan's levels, rows given out of loop order: 11 reads what 10
 * wrote (RAW), 13 writes what 10 read (WAR), 14 writes what 11 wrote (WAW),
 * 12 touches nothing of theirs.
 */
TEST(speculate_replay_plan_levels)
{
	/* iteration, reads, writes, the element read (SP_NONE: none), the element written */
	static const uint32_t rows[5 * 5] = {
		14, 0, 1, SP_NONE, 3, /* row 0 */
		11, 1, 1, 2, 3,       /* row 1 */
		12, 1, 1, 5, 6,       /* row 2 */
		10, 1, 1, 1, 2,       /* row 3 */
		13, 1, 1, 7, 1,       /* row 4 */
	};
	static const uint32_t want[] = {3, 0, 2, 4, 5, 3, 2, 1, 4, 0};
	uint32_t plan[SP_PLAN_WORDS(5)], words, k;
	sp_planner pl;
	sp_planner_init(&pl, 5, 8, 2);
	words = sp_replay_plan(&pl, rows, 1, 1, 10, 5, 5, plan);
	REQUIRE(words == sizeof(want) / sizeof(want[0]));
	for (k = 0; k < words; k++) /* 3 levels at 0, 2, 4, 5: rows of 10 and 12, 11 and 13, 14 */
		CHECK_EQ(plan[k], want[k]);
	sp_planner_free(&pl);
}
