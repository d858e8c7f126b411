/*
 * Mann-Whitney U, two-sided. Without ties and for at most
 * GB_RANKTEST_EXACT_MAX values in all, p comes from the exact null
 * distribution of the rank sum (counted by dynamic programming over subsets
 * of the ranks 1..N); otherwise from the normal approximation with the tie
 * correction of the variance and a continuity correction of 1/2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/ranktest.h"

typedef struct ranked {
	double v;
	int from_a;
} ranked;

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const ranked *)x)->v, b = ((const ranked *)y)->v;
	return (a > b) - (a < b);
}

/* P(U <= u) under the null hypothesis, exactly, for na + nb <= GB_RANKTEST_EXACT_MAX. */
static double exact_cdf(size_t na, size_t nb, double u)
{
	size_t n = na + nb, maxsum = n * (n + 1) / 2, i, k, s;
	double *ways = gb_xcalloc((na + 1) * (maxsum + 1), sizeof(double), "rank-sum table");
	double below = 0, all = 0, base = (double)(na * (na + 1) / 2);

	/* ways[k][s]: k-subsets of the ranks seen so far whose ranks sum to s */
	ways[0] = 1;
	for (i = 1; i <= n; i++)
		for (k = (i < na ? i : na); k >= 1; k--)
			for (s = maxsum; s >= i; s--)
				ways[k * (maxsum + 1) + s] += ways[(k - 1) * (maxsum + 1) + s - i];
	for (s = 0; s <= maxsum; s++) {
		double w = ways[na * (maxsum + 1) + s];
		all += w;
		if ((double)s - base <= u + 1e-9)
			below += w;
	}
	free(ways);
	return below / all;
}

gb_ranktest gb_mann_whitney(const double *a, size_t na, const double *b, size_t nb)
{
	gb_ranktest r = {0, 1, 0};
	size_t n = na + nb, i, j;
	ranked *x;
	double rank_sum_a = 0, ties = 0, mean, var, lo, hi;

	if (na == 0 || nb == 0)
		return r;
	x = gb_xmalloc(n * sizeof(*x), "rank test");
	for (i = 0; i < na; i++)
		x[i] = (ranked){a[i], 1};
	for (i = 0; i < nb; i++)
		x[na + i] = (ranked){b[i], 0};
	qsort(x, n, sizeof(*x), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double avg, t;
		for (j = i + 1; j < n && x[j].v == x[i].v; j++)
			;
		avg = (double)(i + 1 + j) / 2; /* ranks i+1..j share their mean */
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (x[k].from_a)
				rank_sum_a += avg;
	}
	free(x);
	r.u = rank_sum_a - (double)(na * (na + 1)) / 2;
	mean = (double)na * (double)nb / 2;
	if (ties == 0 && n <= GB_RANKTEST_EXACT_MAX) {
		/* the distribution is symmetric about mean: double the smaller tail */
		lo = exact_cdf(na, nb, r.u);
		hi = 1 - exact_cdf(na, nb, r.u - 1);
		r.p = fmin(1, 2 * fmin(lo, hi));
		r.exact = 1;
		return r;
	}
	var = (double)na * (double)nb / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0)
		return r; /* every value equal: no evidence of a difference */
	r.p = fmin(1, erfc(fmax(0, fabs(r.u - mean) - 0.5) / sqrt(var) / sqrt(2.0)));
	return r;
}
