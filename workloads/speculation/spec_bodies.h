/*
 * The loop bodies of `gpubench speculate`, one GB_HD function per loop, run
 * by the GPU kernels, by the CPU backend's device phases, by recovery and by
 * the sequential baseline alike. Each stands for a loop of Table 1 of Feng,
 * Gupta and Bhuyan (the originals are not public): docs/speculate.md says
 * which character of the original each reproduces. Inputs are laid out by
 * workloads/speculation/spec_loops.c.
 *
 * Contract of the SP_CF bodies (what lets the runtime use a regular mapping
 * instead of traces): iteration i writes only inside sp_cf_writes(i), writes
 * every element of its first range on every path, reads A only at elements
 * written by earlier iterations, and its marked branches' conditions depend
 * on the inputs and scalars only.
 */
#ifndef GB_SPEC_BODIES_H
#define GB_SPEC_BODIES_H

#include "api/loop_body.h"

enum sp_loop_id {
	SP_OCEAN = 0, SP_TRFD, SP_FFTBENCH, SP_MDG, SP_STRCAT, SP_GOTHIC, SP_ALVINN, SP_CHAIN,
	SP_FIGURE3, SP_NLOOPS
};

/* ocean: a relaxation sweep over cells in permuted order; neighbours are
 * mostly boundary values (read-only inputs, not speculated), a few are cells
 * that nearby iterations update. */
GB_HD float sp_ocean_neighbour(const sp_args *a, sp_track *t, uint32_t e)
{
	return e < a->p[1] ? sp_rdf(a, t, e) : a->in[a->n + e - a->p[1]];
}

GB_HD void sp_ocean(const sp_args *a, sp_track *t, uint32_t i)
{
	const uint32_t *P = a->idx, *Q = a->idx + a->n, *R = a->idx + 2 * a->n;
	float x = sp_rdf(a, t, P[i]);
	float y = sp_ocean_neighbour(a, t, Q[i]);
	float z = sp_ocean_neighbour(a, t, R[i]);
	float v = sp_fadd(sp_fmul(x, 0.5f), sp_fmul(sp_fmul(sp_fadd(y, z), 0.25f), a->in[i]));
	sp_wrf(a, t, P[i], v);
}

/* trfd: each iteration accumulates an integral into an element picked through
 * an index array; one pair of iterations shares an element (a WAW). */
GB_HD void sp_trfd(const sp_args *a, sp_track *t, uint32_t i)
{
	uint32_t w = a->p[0], k, e = a->idx[i];
	const float *x = a->in + (uint64_t)i * w;
	const float *y = a->in + (uint64_t)((i * 7u + 3u) % a->n) * w;
	float acc = 0;
	for (k = 0; k < w; k++)
		acc = sp_fadd(acc, sp_fmul(x[k], y[(k * 5u) % w]));
	sp_wrf(a, t, e, sp_fadd(sp_fmul(sp_rdf(a, t, e), 0.5f), acc));
}

/* fftbench: one radix-2 butterfly stage, butterflies taken in a scrambled order. */
GB_HD void sp_fftbench(const sp_args *a, sp_track *t, uint32_t i)
{
	uint32_t ea = a->idx[2 * i], eb = a->idx[2 * i + 1];
	float x = sp_rdf(a, t, ea), y = sp_rdf(a, t, eb);
	float ty = sp_fmul(y, a->in[i]);
	sp_wrf(a, t, ea, sp_fadd(x, ty));
	sp_wrf(a, t, eb, sp_fsub(x, ty));
}

/* mdg: a molecule's interaction energy over p[0] neighbours (heavy); a rare
 * hot molecule rescales the potential that every later iteration reads. */
GB_HD void sp_mdg(sp_args *a, sp_track *t, uint32_t i)
{
	const float *X = a->in;
	uint32_t k, K = a->p[0];
	float e = a->idx[i] ? 1000.0f : 0.0f;
	for (k = 0; k < K; k++) {
		float d = sp_fsub(X[i], X[(i + k * 13u + 1u) % a->n]);
		e = sp_fadd(e, sp_fdiv(a->s[0], sp_fadd(1.0f, sp_fmul(d, d))));
	}
	if (e > a->s[1] && sp_branch(t, i, a->n)) /* misspeculate(+0:end) */
		a->s[0] = sp_fadd(sp_fmul(a->s[0], 0.5f), 0.25f);
	sp_put(a, t, 2 * i, sp_f2u(e));
	sp_put(a, t, 2 * i + 1, sp_f2u(sp_fmul(e, a->s[0])));
}

/* strcat: append piece i (upper-cased, tagged with the buffer's generation) at
 * its offset; when it does not fit, the buffer doubles, which every later
 * iteration sees. */
GB_HD void sp_strcat(sp_args *a, sp_track *t, uint32_t i)
{
	const uint32_t *len = a->idx, *off = a->idx + a->n, *text = a->idx + 2 * a->n;
	uint32_t gen = (uint32_t)a->s[0], k;
	uint64_t cap = (uint64_t)a->p[0] << gen;
	if ((uint64_t)off[i] + len[i] > cap && sp_branch(t, i, a->n)) /* misspeculate(+0:end) */
		a->s[0] = (float)(++gen);
	for (k = 0; k < len[i]; k++)
		sp_put(a, t, off[i] + k, (text[off[i] + k] - 32u) | (gen << 8));
}

/* gothic: push a particle p[0] steps; one that leaves the domain widens the
 * bound that normalises every later particle. */
GB_HD void sp_gothic(sp_args *a, sp_track *t, uint32_t i)
{
	float x = a->in[2 * i], v = a->in[2 * i + 1], dt = a->s[1];
	uint32_t k;
	for (k = 0; k < a->p[0]; k++) {
		v = sp_fsub(v, sp_fmul(sp_fmul(x, dt), 0.125f));
		x = sp_fadd(x, sp_fmul(v, dt));
	}
	if ((x > a->s[0] || x < -a->s[0]) && sp_branch(t, i, a->n)) /* misspeculate(+0:end) */
		a->s[0] = sp_fadd(a->s[0], 1.0f);
	sp_put(a, t, 2 * i, sp_f2u(sp_fdiv(x, a->s[0])));
	sp_put(a, t, 2 * i + 1, sp_f2u(v));
}

/* alvinn: hidden unit i's activation over p[0] weights reached by a pointer
 * incremented per unit; a flagged unit instead decays the previous unit's
 * output, which this iteration reads. */
GB_HD void sp_alvinn(sp_args *a, sp_track *t, uint32_t i)
{
	uint32_t k, row = a->p[0];
	const float *w = a->in + (uint64_t)i * row, *x = a->in + (uint64_t)a->n * row;
	float sum = 0, out;
	for (k = 0; k < row; k++)
		sum = sp_fadd(sum, sp_fmul(w[k], x[k]));
	out = sp_fdiv(sum, sp_fadd(1.0f, sum < 0 ? -sum : sum));
	if (a->idx[i] && sp_branch(t, i, a->n)) /* misspeculate(+0) */
		out = sp_fmul(sp_u2f(sp_get(a, t, i - 1)), 0.5f);
	sp_put(a, t, i, sp_f2u(out));
}

/* chain (Figure 6(a)): a flagged iteration hands a carry to the next one. */
GB_HD void sp_chain(sp_args *a, sp_track *t, uint32_t i)
{
	float y = sp_fadd(sp_fmul(a->in[i], 0.75f), sp_u2f(sp_get(a, t, 2 * i)));
	sp_put(a, t, 2 * i + 1, sp_f2u(y));
	if (a->idx[i] && sp_branch(t, i, a->n)) /* misspeculate(+1) */
		sp_put(a, t, 2 * i + 2, sp_f2u(sp_fmul(y, 0.5f)));
}

/* figure3: A[P[i]] = f(A[Q[i]]), the loop of Figures 1(a) and 3. */
GB_HD void sp_figure3(const sp_args *a, sp_track *t, uint32_t i)
{
	uint32_t v = sp_rd(a, t, a->idx[a->n + i]);
	sp_wr(a, t, a->idx[i], v * 3u + i + 1u);
}

/* Iteration i of loop a->loop. */
GB_HD void sp_body(sp_args *a, sp_track *t, uint32_t i)
{
	switch (a->loop) {
	case SP_OCEAN: sp_ocean(a, t, i); break;
	case SP_TRFD: sp_trfd(a, t, i); break;
	case SP_FFTBENCH: sp_fftbench(a, t, i); break;
	case SP_MDG: sp_mdg(a, t, i); break;
	case SP_STRCAT: sp_strcat(a, t, i); break;
	case SP_GOTHIC: sp_gothic(a, t, i); break;
	case SP_ALVINN: sp_alvinn(a, t, i); break;
	case SP_CHAIN: sp_chain(a, t, i); break;
	default: sp_figure3(a, t, i); break;
	}
}

#if !defined(__CUDA_ARCH__)
/*
 * The elements of A that iteration i of an SP_MEM loop accesses, from its
 * inputs alone (the contract of a memory loop), without running it: each
 * as element << 1, | 1 when the iteration writes it (a read and a write of
 * one element count as a write). Returns how many (at most SP_MEM_ACCESSES;
 * an element may come twice), or SP_NO_ACCESSES for a loop that has no
 * such function. The inspector of `--compare cpu-inspect`
 * (speculation/cpu_inspect.c) relies on it; the unit tests hold it to the
 * traces of the bodies above, iteration by iteration.
 */
#define SP_MEM_ACCESSES 4u
#define SP_NO_ACCESSES UINT32_MAX
static inline uint32_t sp_mem_accesses(const sp_args *a, uint32_t i, uint32_t acc[SP_MEM_ACCESSES])
{
	uint32_t n = 0, k, e;
	switch (a->loop) {
	case SP_OCEAN:
		acc[n++] = a->idx[i] << 1 | 1u;
		for (k = 1; k <= 2; k++) {
			e = a->idx[(size_t)k * a->n + i];
			if (e < a->p[1])
				acc[n++] = e << 1;
		}
		return n;
	case SP_TRFD:
		acc[0] = a->idx[i] << 1 | 1u;
		return 1;
	case SP_FFTBENCH:
		acc[0] = a->idx[2 * i] << 1 | 1u;
		acc[1] = a->idx[2 * i + 1] << 1 | 1u;
		return 2;
	case SP_FIGURE3:
		acc[0] = a->idx[i] << 1 | 1u;
		acc[1] = a->idx[a->n + i] << 1;
		return 2;
	default:
		return SP_NO_ACCESSES;
	}
}
#endif

/*
 * The regular mapping of an SP_CF loop (section 3.2): the elements iteration i
 * writes, as at most two ranges [lo[k], hi[k]); returns how many. Consecutive
 * iterations write adjacent ranges, so an assignment writes one contiguous span.
 */
GB_HD uint32_t sp_cf_writes(const sp_args *a, uint32_t i, uint32_t lo[2], uint32_t hi[2])
{
	switch (a->loop) {
	case SP_STRCAT:
		lo[0] = a->idx[a->n + i];
		hi[0] = lo[0] + a->idx[i];
		return 1;
	case SP_ALVINN:
		lo[0] = i;
		hi[0] = i + 1;
		return 1;
	case SP_CHAIN: /* its output, then the carry its branch may write */
		lo[0] = 2 * i + 1;
		hi[0] = 2 * i + 2;
		lo[1] = 2 * i + 2;
		hi[1] = 2 * i + 3;
		return 2;
	default: /* mdg, gothic: two words per iteration */
		lo[0] = 2 * i;
		hi[0] = 2 * i + 2;
		return 1;
	}
}

/* A span of read-only input words: [lo, hi) of idx (in_floats 0) or of in (1). */
typedef struct sp_input_span {
	uint32_t in_floats;
	uint64_t lo, hi;
} sp_input_span;

#define SP_MAX_INPUT_SPANS 5

/*
 * The read-only inputs iterations i0..i1-1 read, as at most SP_MAX_INPUT_SPANS
 * spans; 0 when the loop does not say (its iterations may read any of them),
 * and the runtime then copies all of them before the first assignment. Where
 * a loop says, the runtime copies what the first assignment reads first and
 * the rest while that assignment runs (ocean: its first assignment reads a
 * quarter of the index arrays).
 */
GB_HD uint32_t sp_inputs_read(const sp_args *a, uint32_t i0, uint32_t i1, sp_input_span s[])
{
	uint32_t k;
	switch (a->loop) {
	case SP_OCEAN: /* P, Q, R and the cell factors by iteration, the boundary values whole */
		for (k = 0; k < 3; k++) {
			s[k].in_floats = 0;
			s[k].lo = (uint64_t)k * a->n + i0;
			s[k].hi = (uint64_t)k * a->n + i1;
		}
		s[3].in_floats = s[4].in_floats = 1;
		s[3].lo = i0;
		s[3].hi = i1;
		s[4].lo = a->n;
		s[4].hi = (uint64_t)a->n + a->p[1] / 4 + 1;
		return 5;
	default:
		return 0;
	}
}

#endif
