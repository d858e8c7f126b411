/* The Mann-Whitney U test behind gpubench compare: exact tails, ties, symmetry. */
#include <math.h>

#include "common/ranktest.h"
#include "tests/unit/test.h"

TEST(ranktest_exact_separated_samples)
{
	double a5[] = {1, 2, 3, 4, 5}, b5[] = {6, 7, 8, 9, 10};
	double a3[] = {3, 1, 2}, b3[] = {9, 8, 7};
	gb_ranktest t = gb_mann_whitney(a5, 5, b5, 5);
	CHECK(t.exact);
	CHECK_NEAR(t.u, 0, 0);
	CHECK_NEAR(t.p, 2.0 / 252, 1e-12); /* both tails of one arrangement in C(10,5) */
	t = gb_mann_whitney(b5, 5, a5, 5);
	CHECK_NEAR(t.u, 25, 0);
	CHECK_NEAR(t.p, 2.0 / 252, 1e-12);
	/* three a side can never be told apart at 5% */
	t = gb_mann_whitney(a3, 3, b3, 3);
	CHECK_NEAR(t.p, 2.0 / 20, 1e-12);
}

TEST(ranktest_exact_middle_and_one_swap)
{
	double a[] = {1, 2, 3, 5}, b[] = {4, 6, 7, 8};
	double c[] = {1, 4, 5, 8}, d[] = {2, 3, 6, 7};
	gb_ranktest t = gb_mann_whitney(a, 4, b, 4);
	CHECK_NEAR(t.u, 1, 0);
	CHECK_NEAR(t.p, 4.0 / 70, 1e-12); /* U <= 1: two arrangements of 70, doubled */
	t = gb_mann_whitney(c, 4, d, 4);
	CHECK_NEAR(t.u, 8, 0); /* the mean of U: no evidence either way */
	CHECK_NEAR(t.p, 1, 0);
}

TEST(ranktest_ties_use_the_corrected_normal_approximation)
{
	double a[] = {1, 1, 2, 2}, b[] = {3, 3, 4, 4}, same[] = {5, 5, 5};
	gb_ranktest t = gb_mann_whitney(a, 4, b, 4);
	CHECK(!t.exact);
	CHECK_NEAR(t.u, 0, 0);
	CHECK_NEAR(t.p, 0.026518, 1e-5);
	t = gb_mann_whitney(same, 3, same, 3);
	CHECK_NEAR(t.p, 1, 0);
	t = gb_mann_whitney(a, 4, NULL, 0);
	CHECK_NEAR(t.p, 1, 0);
}

TEST(ranktest_large_samples)
{
	double a[40], b[40];
	gb_ranktest t;
	int i;
	for (i = 0; i < 40; i++) {
		a[i] = i;
		b[i] = 40 + i;
	}
	t = gb_mann_whitney(a, 40, b, 40);
	CHECK(!t.exact);
	CHECK(t.p < 1e-10);
	/* interleaved: the same distribution */
	for (i = 0; i < 40; i++) {
		a[i] = 2 * i;
		b[i] = 2 * i + 1;
	}
	t = gb_mann_whitney(a, 40, b, 40);
	CHECK(t.p > 0.8);
	/* exact and approximate agree roughly where they meet */
	t = gb_mann_whitney(a, 25, b, 25);
	CHECK(t.exact);
	CHECK(t.p > 0.8);
}
