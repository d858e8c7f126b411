/*
 * The loop table of `gpubench speculate` and the seeded generator of each
 * loop's inputs: index arrays that place the cross-iteration dependences the
 * original loop has (Table 1, Figure 10 and section 7.2 of Feng, Gupta and
 * Bhuyan), float inputs, the initial array and scalars. docs/speculate.md
 * describes each loop's shape and why it stands for the original.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/memory.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/speculation/spec_bodies.h"
#include "workloads/speculation/spec_loops.h"

static float unit_float(gb_rng *r)
{
	return (float)(gb_rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

/* Allocate the problem's arrays; every size is in elements. */
static void alloc_problem(sp_problem *p, uint32_t n, uint32_t size, size_t nidx, size_t nin)
{
	p->args.n = n;
	p->args.size = size;
	p->nidx = nidx;
	p->nin = nin;
	p->idx = gb_xcalloc(nidx ? nidx : 1, sizeof(uint32_t), "loop index inputs");
	p->in = gb_xcalloc(nin ? nin : 1, sizeof(float), "loop float inputs");
	p->A0 = gb_xcalloc(size ? size : 1, sizeof(uint32_t), "the speculated array");
	p->args.idx = p->idx;
	p->args.in = p->in;
	p->args.A = p->A0;
}

static void shuffle(uint32_t *v, uint32_t n, gb_rng *r)
{
	uint32_t i;
	for (i = n; i > 1 && !GB_STOP_EVERY(i); i--) {
		uint32_t j = (uint32_t)gb_rng_below(r, i), t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void fill_floats(float *v, size_t n, gb_rng *r)
{
	size_t i;
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		v[i] = unit_float(r);
}

/* ocean: p[0] sweeps over p[1] = n / p[0] cells, each sweep updating every
 * cell once in one permuted order (so any p[1] consecutive iterations write
 * distinct cells); Q and R name boundary values (read-only inputs, a quarter
 * as many as cells, numbered from p[1]), or sometimes a cell an iteration
 * within cells/16 before or after updates. Those dependences thin out as the
 * flow settles: iteration i has one with probability 4 density (1 - 2i/n)
 * in the first half of the loop, none after, density on average. */
static int gen_ocean(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, sweeps = g->work, cells, halo, i, k, dmax, *perm;
	gb_rng r;
	(void)err, (void)errlen;
	if (sweeps > n)
		sweeps = n;
	cells = (n + sweeps - 1) / sweeps;
	halo = cells / 4 + 1;
	dmax = cells / 16 + 1;
	alloc_problem(p, n, cells, 3 * (size_t)n, (size_t)n + halo);
	p->args.p[0] = sweeps;
	p->args.p[1] = cells;
	gb_rng_init(&r, g->seed, 0);
	perm = gb_xmalloc((size_t)cells * sizeof(*perm), "the sweep order");
	for (i = 0; i < cells && !GB_STOP_EVERY(i); i++)
		perm[i] = i;
	shuffle(perm, cells, &r);
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		p->idx[i] = perm[i % cells];
	free(perm);
	for (k = 1; k <= 2; k++)
		for (i = 0; i < n && !GB_STOP_EVERY(i); i++) {
			uint32_t e = cells + (uint32_t)gb_rng_below(&r, halo);
			double early = 4 * g->density * (1 - 2.0 * i / n);
			if (unit_float(&r) < early) {
				int64_t j = (int64_t)i + (int64_t)gb_rng_range(&r, 1, dmax) *
						(gb_rng_below(&r, 2) ? 1 : -1);
				if (j >= 0 && j < n && p->idx[j] != p->idx[i])
					e = p->idx[j];
			}
			p->idx[k * (size_t)n + i] = e;
		}
	fill_floats(p->in, p->nin, &r);
	for (i = 0; i < p->args.size && !GB_STOP_EVERY(i); i++)
		p->A0[i] = sp_f2u(unit_float(&r));
	return 0;
}

/* trfd: P a permutation of the n elements except for max(1, density * n)
 * pairs of iterations that share one (a WAW each); p[0] terms per integral. */
static int gen_trfd(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, w = g->work, i, pairs;
	gb_rng r;
	if (n < 2)
		return gb_errmsg(err, errlen, "trfd needs at least 2 iterations for its WAW pair");
	alloc_problem(p, n, n, n, (size_t)n * w);
	p->args.p[0] = w;
	gb_rng_init(&r, g->seed, 1);
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		p->idx[i] = i;
	shuffle(p->idx, n, &r);
	pairs = (uint32_t)(g->density * n);
	if (pairs < 1)
		pairs = 1;
	for (i = 0; i < pairs && !GB_STOP_EVERY(i); i++) {
		uint32_t a = (uint32_t)gb_rng_below(&r, n), b = (uint32_t)gb_rng_below(&r, n);
		if (a != b)
			p->idx[b] = p->idx[a];
	}
	fill_floats(p->in, p->nin, &r);
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		p->A0[i] = sp_f2u(unit_float(&r));
	return 0;
}

/* fftbench: butterfly i joins elements a and a + h of a stage of span h (the
 * largest power of two dividing n, at most 2^16), butterflies in scrambled
 * order; with probability density the second element is another butterfly's
 * (a runtime dependence). */
static int gen_fftbench(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, h = n & (0u - n), i, *order;
	gb_rng r;
	(void)err, (void)errlen;
	if (h > (1u << 16))
		h = 1u << 16;
	alloc_problem(p, n, 2 * n, 2 * (size_t)n, n);
	gb_rng_init(&r, g->seed, 2);
	order = gb_xmalloc((size_t)n * sizeof(*order), "butterfly order");
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		order[i] = i;
	shuffle(order, n, &r);
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++) {
		uint32_t b = order[i], a = (b / h) * 2 * h + b % h;
		p->idx[2 * i] = a;
		p->idx[2 * i + 1] = a + h;
		if (unit_float(&r) < g->density)
			p->idx[2 * i + 1] = (uint32_t)gb_rng_below(&r, 2 * n);
		if (p->idx[2 * i + 1] == a)
			p->idx[2 * i + 1] = a + h;
	}
	free(order);
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		p->in[i] = unit_float(&r) - 0.5f;
	for (i = 0; i < 2 * n && !GB_STOP_EVERY(i); i++)
		p->A0[i] = sp_f2u(unit_float(&r));
	return 0;
}

/* A 0/1 flag per iteration, set with probability density (never for iteration 0). */
static void fill_flags(uint32_t *v, uint32_t n, double density, gb_rng *r)
{
	uint32_t i;
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++)
		v[i] = i > 0 && unit_float(r) < density;
}

/* mdg: positions, hot molecules with probability density; s0 the potential's
 * scale, s1 the energy above which the branch runs. */
static int gen_mdg(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	gb_rng r;
	(void)err, (void)errlen;
	alloc_problem(p, g->iters, 2 * g->iters, g->iters, g->iters);
	p->args.p[0] = g->work;
	gb_rng_init(&r, g->seed, 3);
	fill_flags(p->idx, g->iters, g->density, &r);
	fill_floats(p->in, g->iters, &r);
	p->args.s[0] = 1.0f;
	p->args.s[1] = 500.0f;
	return 0;
}

/* strcat: pieces of 1..8 letters at their prefix-sum offsets; the buffer
 * starts at max(16, density * total) words and doubles when a piece does not fit. */
static int gen_strcat(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, i, k, *len;
	uint64_t total = 0;
	gb_rng r;
	gb_rng_init(&r, g->seed, 4);
	len = gb_xmalloc((size_t)n * sizeof(*len), "piece lengths");
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++) {
		len[i] = (uint32_t)gb_rng_range(&r, 1, 8);
		total += len[i];
	}
	if (total > (1u << 30)) {
		free(len);
		return gb_errmsg(err, errlen, "strcat: %u pieces need more than 2^30 words", n);
	}
	alloc_problem(p, n, (uint32_t)total, 2 * (size_t)n + total, 0);
	total = 0;
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++) {
		p->idx[i] = len[i];
		p->idx[n + i] = (uint32_t)total;
		for (k = 0; k < len[i]; k++)
			p->idx[2 * (size_t)n + total + k] = 'a' + (uint32_t)gb_rng_below(&r, 26);
		total += len[i];
	}
	free(len);
	p->args.p[0] = (uint32_t)fmax(16.0, g->density * (double)total);
	p->args.s[0] = 0.0f;
	return 0;
}

/* gothic: particles in [-1, 1] inside a bound of 10; with probability density
 * one starts far out and escapes. s0 the bound, s1 the time step. */
static int gen_gothic(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, i;
	gb_rng r;
	(void)err, (void)errlen;
	alloc_problem(p, n, 2 * n, 0, 2 * (size_t)n);
	p->args.p[0] = g->work;
	gb_rng_init(&r, g->seed, 5);
	for (i = 0; i < n && !GB_STOP_EVERY(i); i++) {
		p->in[2 * i] = 2 * unit_float(&r) - 1;
		p->in[2 * i + 1] = unit_float(&r) - 0.5f;
		if (i > 0 && unit_float(&r) < g->density)
			p->in[2 * i] = 1e7f * (1 + unit_float(&r));
	}
	p->args.s[0] = 10.0f;
	p->args.s[1] = 0.01f;
	return 0;
}

/* alvinn: p[0] weights per hidden unit, one input vector; units flagged with
 * probability density take the decayed output of the unit before. */
static int gen_alvinn(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, row = g->work;
	gb_rng r;
	size_t k;
	(void)err, (void)errlen;
	alloc_problem(p, n, n, n, (size_t)n * row + row);
	p->args.p[0] = row;
	gb_rng_init(&r, g->seed, 6);
	fill_flags(p->idx, n, g->density, &r);
	for (k = 0; k < p->nin; k++)
		p->in[k] = unit_float(&r) - 0.5f;
	return 0;
}

/* chain: a carry slot and an output per iteration; flagged iterations (with
 * probability density) hand a carry to the next. */
static int gen_chain(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	gb_rng r;
	(void)err, (void)errlen;
	alloc_problem(p, g->iters, 2 * g->iters + 1, g->iters, g->iters);
	gb_rng_init(&r, g->seed, 7);
	fill_flags(p->idx, g->iters, g->density, &r);
	fill_floats(p->in, g->iters, &r);
	return 0;
}

/* figure3: P and Q uniform over an array of ceil(n / density) elements. */
static int gen_figure3(const sp_loop_gen *g, sp_problem *p, char *err, size_t errlen)
{
	uint32_t n = g->iters, i;
	double size = ceil((double)n / g->density), avail;
	gb_rng r;
	if (size > (double)(1u << 30))
		return gb_errmsg(err, errlen, "figure3: %u iterations at density %g need more than "
				 "2^30 elements", n, g->density);
	/* The array, its copy for the sequential loop and the runtime's state over it (a copy each of
	 * A, Read, Write, Read-min, Wrong, the staging and the committed copy: speculation/backend_cpu.c) hold
	 * about 10 words an element: refuse here what cannot fit, before any of it is generated. */
	avail = (double)gb_host_memory_available();
	if (size * 40.0 > avail)
		return gb_errmsg(err, errlen, "figure3: %u iterations at density %g make an array of %.0f elements, "
				 "about %.3g GB with the runtime's copies of it, more than the %.3g GB of host memory "
				 "available (raise --density or lower --iters)", n, g->density, size, size * 40.0 / 1e9,
				 avail / 1e9);
	if (size < 2)
		size = 2;
	alloc_problem(p, n, (uint32_t)size, 2 * (size_t)n, 0);
	gb_rng_init(&r, g->seed, 8);
	for (i = 0; i < 2 * n && !GB_STOP_EVERY(i); i++)
		p->idx[i] = (uint32_t)gb_rng_below(&r, (uint64_t)size);
	for (i = 0; i < p->args.size && !GB_STOP_EVERY(i); i++)
		p->A0[i] = i;
	return 0;
}

static const sp_loop loop_ocean = {
	.head = {.name = "ocean", .summary = "irregular memory: cell sweeps, early neighbour dependences"},
	.id = SP_OCEAN,
	.kind = SP_MEM,
	.max_reads = 3,
	.max_writes = 1,
	.default_iters = 1000000,
	.default_density = 0.001,
	.max_density = 1,
	.default_work = 4,
	.max_work = 1024,
	.nospec_ok = 0,
	.writes_whole_array = 0,
	.generate = gen_ocean,
};
static const sp_loop loop_trfd = {
	.head = {.name = "trfd", .summary = "irregular memory: writes only, one WAW pair per execution"},
	.id = SP_TRFD,
	.kind = SP_MEM,
	.max_reads = 1,
	.max_writes = 1,
	.default_iters = 200000,
	.default_density = 0,
	.max_density = 0.1,
	.default_work = 16,
	.max_work = 256,
	.nospec_ok = 0,
	.writes_whole_array = 0,
	.generate = gen_trfd,
};
static const sp_loop loop_fftbench = {
	.head = {.name = "fftbench", .summary = "irregular memory: a scrambled butterfly stage, no dependence"},
	.id = SP_FFTBENCH,
	.kind = SP_MEM,
	.max_reads = 2,
	.max_writes = 2,
	.default_iters = 1000000,
	.default_density = 0,
	.max_density = 1,
	.default_work = 0,
	.max_work = 0,
	.nospec_ok = 1,
	.writes_whole_array = 0,
	.generate = gen_fftbench,
};
static const sp_loop loop_mdg = {
	.head = {.name = "mdg", .summary = "control flow: heavy iterations, rare all-subsequent branch"},
	.id = SP_MDG,
	.kind = SP_CF,
	.clause = "(+0:end)",
	.max_reads = 0,
	.max_writes = 2,
	.default_iters = 100000,
	.default_density = 0.00002,
	.max_density = 1,
	.default_work = 64,
	.max_work = 4096,
	.nospec_ok = 0,
	.writes_whole_array = 1,
	.branch_sets_scalars = 1,
	.reads_no_array = 1,
	.generate = gen_mdg,
};
static const sp_loop loop_strcat = {
	.head = {.name = "strcat", .summary = "control flow: buffer growth at growing intervals"},
	.id = SP_STRCAT,
	.kind = SP_CF,
	.clause = "(+0:end)",
	.max_reads = 0,
	.max_writes = 8,
	.default_iters = 1000000,
	.default_density = 0.0001,
	.max_density = 1,
	.default_work = 0,
	.max_work = 0,
	.nospec_ok = 0,
	.writes_whole_array = 1,
	.branch_sets_scalars = 1,
	.reads_no_array = 1,
	.generate = gen_strcat,
};
static const sp_loop loop_gothic = {
	.head = {.name = "gothic", .summary = "control flow: an escape invalidates all later iterations"},
	.id = SP_GOTHIC,
	.kind = SP_CF,
	.clause = "(+0:end)",
	.max_reads = 0,
	.max_writes = 2,
	.default_iters = 1000000,
	.default_density = 0.0067,
	.max_density = 1,
	.default_work = 16,
	.max_work = 4096,
	.nospec_ok = 0,
	.writes_whole_array = 1,
	.branch_sets_scalars = 1,
	.reads_no_array = 1,
	.generate = gen_gothic,
};
static const sp_loop loop_alvinn = {
	.head = {.name = "alvinn", .summary = "control flow: pointer-increment weights, no misspeculation"},
	.id = SP_ALVINN,
	.kind = SP_CF,
	.clause = "(+0)",
	.max_reads = 0,
	.max_writes = 1,
	.default_iters = 100000,
	.default_density = 0,
	.max_density = 1,
	.default_work = 32,
	.max_work = 4096,
	.nospec_ok = 1,
	.writes_whole_array = 1,
	.generate = gen_alvinn,
};
static const sp_loop loop_chain = {
	.head = {.name = "chain", .summary = "Figure 6(a): a branch writes what the next iteration reads"},
	.id = SP_CHAIN,
	.kind = SP_CF,
	.clause = "(+1)",
	.max_reads = 0,
	.max_writes = 2,
	.default_iters = 1000000,
	.default_density = 0.001,
	.max_density = 1,
	.default_work = 0,
	.max_work = 0,
	.nospec_ok = 0,
	.writes_whole_array = 0,
	.generate = gen_chain,
};
static const sp_loop loop_figure3 = {
	.head = {.name = "figure3", .summary = "Figures 1(a), 3: A[P[i]] = f(A[Q[i]]); density: iters/element"},
	.id = SP_FIGURE3,
	.kind = SP_MEM,
	.max_reads = 1,
	.max_writes = 1,
	.default_iters = 100000,
	.default_density = 0.01,
	.max_density = 16,
	.default_work = 0,
	.max_work = 0,
	.nospec_ok = 0,
	.writes_whole_array = 0,
	.generate = gen_figure3,
};

const sp_loop *const sp_loops[] = {&loop_ocean, &loop_trfd, &loop_fftbench, &loop_mdg,
				   &loop_strcat, &loop_gothic, &loop_alvinn, &loop_chain,
				   &loop_figure3, NULL};

static void problem_init(sp_problem *p, const sp_loop *l)
{
	char err[128];
	memset(p, 0, sizeof(*p));
	p->loop = l;
	p->args.loop = l->id;
	/* The table's clauses are constants: a bad one is a programming error. */
	if (l->clause && sp_clause_parse(l->clause, &p->clause, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "loop %s: %s", l->head.name, err);
}

int sp_problem_generate(const sp_loop *l, const sp_loop_gen *g, sp_problem *p, char *err,
			size_t errlen)
{
	sp_loop_gen gg = *g;
	problem_init(p, l);
	if (!gg.work)
		gg.work = l->default_work;
	if (gg.iters < 1)
		return gb_errmsg(err, errlen, "%s needs at least 1 iteration", l->head.name);
	/* a stop (common/stop.h) cuts a generator's long loops short: what it made is not whole */
	if (l->generate(&gg, p, err, errlen) != 0 || gb_stop_check(err, errlen) != 0) {
		sp_problem_free(p);
		return -1;
	}
	return 0;
}

void sp_problem_make(sp_problem *p, const sp_loop *l, uint32_t n, uint32_t size,
		     const uint32_t *idx, size_t nidx, const float *in, size_t nin,
		     const uint32_t *A0)
{
	problem_init(p, l);
	alloc_problem(p, n, size, nidx, nin);
	if (nidx)
		memcpy(p->idx, idx, nidx * sizeof(*idx));
	if (nin)
		memcpy(p->in, in, nin * sizeof(*in));
	memcpy(p->A0, A0, (size_t)size * sizeof(*A0));
}

void sp_problem_free(sp_problem *p)
{
	free(p->A0);
	free(p->idx);
	free(p->in);
	memset(p, 0, sizeof(*p));
}
