/*
 * Unit tests of the inspector-executor on the host's cores
 * (speculation/cpu_inspect.c, `--compare cpu-inspect`): the elements each
 * memory loop names ahead against the traces of its body, the iterations a
 * round defers for each kind of conflict, and every memory loop against the
 * sequential loop bit for bit, at several worker counts and densities.
 */
#include <stdlib.h>
#include <string.h>

#include "speculation/cpu_inspect.h"
#include "tests/unit/spec_check.h"
#include "tests/unit/test.h"
#include "workloads/speculation/spec_bodies.h"
#include "workloads/speculation/spec_loops.h"

static sp_config inspect_config(unsigned workers)
{
	sp_config c;
	memset(&c, 0, sizeof(c));
	c.opt = SP_OPT_ALL;
	c.workers = workers;
	return c;
}

static int inspect_runner(const sp_problem *p, const sp_config *c, uint32_t *host, float *scalars,
			  sp_result *r)
{
	(void)scalars; /* a memory loop leaves them alone */
	return sp_cpu_inspect_run(p, c, host, r);
}

/* 1 when element e is in the n accesses acc, with the write bit when write. */
static int named(const uint32_t *acc, uint32_t n, uint32_t e, int write)
{
	uint32_t q;
	for (q = 0; q < n; q++)
		if (acc[q] >> 1 == e && (!write || (acc[q] & 1u)))
			return 1;
	return 0;
}

/* Every iteration of every memory loop: what sp_mem_accesses names is what the body touches,
 * the written elements with their write bit, and nothing else. */
TEST(cpu_inspect_accesses_match_the_traces)
{
	unsigned l, found = 0;
	for (l = 0; sp_loops[l]; l++) {
		const sp_loop *lp = sp_loops[l];
		sp_loop_gen g = {4000, lp->max_density > 0.2 ? 0.2 : lp->max_density, 4, 7};
		sp_problem p;
		uint32_t i, q, *A;
		if (!sp_cpu_inspect_ok(lp))
			continue;
		found++;
		REQUIRE(sp_problem_generate(lp, &g, &p, NULL, 0) == 0);
		A = malloc((size_t)p.args.size * sizeof(uint32_t));
		memcpy(A, p.A0, (size_t)p.args.size * sizeof(uint32_t));
		for (i = 0; i < p.args.n; i++) {
			uint32_t rd[SP_MAX_TRACE], wr[SP_MAX_TRACE], acc[SP_MEM_ACCESSES], n;
			sp_args a = p.args;
			sp_track t = sp_track_sequential();
			a.A = A;
			t.spec = 1;
			t.maxrd = lp->max_reads;
			t.maxwr = lp->max_writes;
			t.rd = rd;
			t.wr = wr;
			n = sp_mem_accesses(&a, i, acc);
			REQUIRE(n <= SP_MEM_ACCESSES);
			sp_body(&a, &t, i);
			CHECK(!t.overflow);
			for (q = 0; q < t.nwr; q++)
				if (!named(acc, n, wr[q], 1))
					tu_fail(__FILE__, __LINE__, "%s iteration %u writes %u, not named as a write",
						lp->head.name, i, wr[q]);
			for (q = 0; q < t.nrd; q++)
				if (!named(acc, n, rd[q], 0))
					tu_fail(__FILE__, __LINE__, "%s iteration %u reads %u, not named", lp->head.name, i,
						rd[q]);
			for (q = 0; q < n; q++) {
				uint32_t e = acc[q] >> 1;
				int w = sp_row_find(wr, t.nwr, e) < t.nwr, r = sp_row_find(rd, t.nrd, e) < t.nrd;
				if ((acc[q] & 1u) ? !w : !r)
					tu_fail(__FILE__, __LINE__, "%s iteration %u: %u named but not %s", lp->head.name,
						i, e, (acc[q] & 1u) ? "written" : "read");
			}
		}
		free(A);
		sp_problem_free(&p);
	}
	CHECK_EQ(found, 4); /* ocean, trfd, fftbench, figure3 */
	CHECK(!sp_cpu_inspect_ok(spec_loop("mdg")));
}

/*
 * figure3 (A[P[i]] = 3 A[Q[i]] + i + 1) over 256 iterations and 512 elements on two
 * workers: one round of two chunks of 128. Iteration i writes element i and reads 256 + i
 * unless a case says otherwise; returns the iterations run in order.
 */
static uint64_t two_chunks(const uint32_t set[][3], unsigned nset)
{
	sp_problem p;
	sp_result r;
	sp_config c = inspect_config(2);
	spec_figure3_256(&p, set, nset);
	CHECK(spec_matches_seq(inspect_runner, &p, &c, &r));
	CHECK_EQ(r.assignments, 1);
	CHECK_EQ(r.max_assignment, 256);
	CHECK_EQ(r.misspeculated, 0);
	CHECK_EQ(r.iterations_gpu + r.reexecuted, 256);
	sp_problem_free(&p);
	return r.reexecuted;
}

TEST(cpu_inspect_defers_what_conflicts)
{
	static const uint32_t none[][3] = {{0, 0, 0}};
	/* 200 (chunk 1) reads what 10 (chunk 0) writes: both in order */
	static const uint32_t raw[][3] = {{1, 200, 10}};
	/* 20 (chunk 0) reads what 150 (chunk 1) writes: a WAR across chunks, both in order */
	static const uint32_t war[][3] = {{1, 20, 150}};
	/* 30 and 140 write one element: a WAW across chunks */
	static const uint32_t waw[][3] = {{0, 140, 30}};
	/* as raw, and 210 then writes what 200 wrote: it follows 200 into the order */
	static const uint32_t after[][3] = {{1, 200, 10}, {0, 210, 200}};
	/* as raw, and 220 reads what 200 wrote: it follows too */
	static const uint32_t read_after[][3] = {{1, 200, 10}, {1, 220, 200}};
	/* 5 and 200 read element 300 that nobody writes: no conflict */
	static const uint32_t shared_read[][3] = {{1, 5, 300}, {1, 200, 300}};

	CHECK_EQ(two_chunks(none, 0), 0);
	CHECK_EQ(two_chunks(raw, 1), 2);
	CHECK_EQ(two_chunks(war, 1), 2);
	CHECK_EQ(two_chunks(waw, 1), 2);
	CHECK_EQ(two_chunks(after, 2), 3);
	CHECK_EQ(two_chunks(read_after, 2), 3);
	CHECK_EQ(two_chunks(shared_read, 2), 0);
}

/* Every memory loop, two seeds, default and dense dependences, 1 to 7 workers. */
TEST(cpu_inspect_all_memory_loops)
{
	static const unsigned workers[] = {1, 2, 3, 7};
	unsigned l, seed, w, dense;
	for (l = 0; sp_loops[l]; l++)
		for (seed = 1; seed <= 2; seed++)
			for (dense = 0; dense <= 1; dense++)
				for (w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
					const sp_loop *lp = sp_loops[l];
					double d = dense ? (lp->max_density > 0.5 ? 0.5 : lp->max_density)
							 : lp->default_density;
					sp_loop_gen g = {30000, d, 4, seed};
					sp_problem p;
					sp_result r;
					sp_config c = inspect_config(workers[w]);
					if (!sp_cpu_inspect_ok(lp))
						continue;
					if (lp->id == SP_FIGURE3 && d == 0)
						g.density = 1;
					REQUIRE(sp_problem_generate(lp, &g, &p, NULL, 0) == 0);
					if (!spec_matches_seq(inspect_runner, &p, &c, &r))
						tu_fail(__FILE__, __LINE__, "cpu-inspect of %s (seed %u, density %g, %u "
							"workers) differs from the sequential loop", lp->head.name, seed,
							g.density, workers[w]);
					CHECK_EQ(r.iterations_gpu + r.reexecuted, p.args.n);
					CHECK_EQ(r.misspeculated, 0);
					CHECK(r.assignments >= 1 && r.max_assignment <= p.args.n);
					CHECK(!r.incomplete);
					if (workers[w] == 1)
						CHECK_EQ(r.reexecuted, p.args.n); /* nobody to share with */
					sp_problem_free(&p);
				}
}

/* A control-flow loop is refused with a reason, not run. */
TEST(cpu_inspect_refuses_control_flow)
{
	sp_loop_gen g = {1000, 0, 8, 1};
	sp_problem p;
	sp_result r;
	sp_config c = inspect_config(2);
	uint32_t *A;
	REQUIRE(sp_problem_generate(spec_loop("mdg"), &g, &p, NULL, 0) == 0);
	A = malloc((size_t)p.args.size * sizeof(uint32_t));
	CHECK_EQ(sp_cpu_inspect_run(&p, &c, A, &r), -1);
	CHECK(strstr(r.error, "mdg") != NULL);
	free(A);
	sp_problem_free(&p);
}
