/* The Mann-Whitney U test behind gpubench compare (exact tails, ties, symmetry)
 * and the verdict on one metric built on it. */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/metric_diff.h"
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

/* A stats block as reports write it: the median of samples, and the samples. */
static cJSON *stats_block(const double *v, int n)
{
	cJSON *o = cJSON_CreateObject();
	double s[16];
	int i, j;
	memcpy(s, v, (size_t)n * sizeof(double));
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && s[j - 1] > s[j]; j--) {
			double t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	cJSON_AddNumberToObject(o, "n", n);
	cJSON_AddNumberToObject(o, "min", s[0]);
	cJSON_AddNumberToObject(o, "median", n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2);
	cJSON_AddItemToObject(o, "samples", cJSON_CreateDoubleArray(v, n));
	return o;
}

TEST(metric_compare_smallest_p)
{
	CHECK_NEAR(gb_smallest_p(5, 5), 2.0 / 252, 1e-12);
	CHECK_NEAR(gb_smallest_p(3, 3), 0.1, 1e-12);
	CHECK_NEAR(gb_smallest_p(4, 4), 2.0 / 70, 1e-12);
	CHECK_NEAR(gb_smallest_p(1, 1), 1, 0);
}

TEST(metric_compare_halved_rate_weighs_as_doubled_time)
{
	double rate[] = {100, 101, 99, 100.5, 99.5}, half[5], time[5], twice[5];
	cJSON *br, *nr, *bt, *nt;
	gb_compare_rule t90 = {90, 0, GB_COMPARE_ALPHA}, t110 = {110, 0, GB_COMPARE_ALPHA},
			noise = {-1, 0, GB_COMPARE_ALPHA};
	gb_metric_row r;
	int i;
	for (i = 0; i < 5; i++) {
		half[i] = rate[i] / 2;
		time[i] = 1 / rate[i];
		twice[i] = 2 / rate[i];
	}
	br = stats_block(rate, 5);
	nr = stats_block(half, 5);
	bt = stats_block(time, 5);
	nt = stats_block(twice, 5);
	/* halving a rate: -50% but a factor of 2, so a 90% threshold does not hide it */
	r = gb_metric_compare("throughput_tx_per_s", br, nr, &t90);
	CHECK_NEAR(r.change, -50, 1e-9);
	CHECK_EQ(r.dir, 1);
	CHECK(r.beyond_noise == 1);
	CHECK_EQ(r.v, GB_V_REGRESSION);
	r = gb_metric_compare("impls.gpu.stream_seconds", bt, nt, &t90);
	CHECK_NEAR(r.change, 100, 1e-9);
	CHECK_EQ(r.dir, -1);
	CHECK_EQ(r.v, GB_V_REGRESSION);
	/* the same factor the other way is an improvement, and 110% hides both */
	CHECK_EQ(gb_metric_compare("throughput_tx_per_s", nr, br, &t90).v, GB_V_IMPROVEMENT);
	CHECK_EQ(gb_metric_compare("throughput_tx_per_s", br, nr, &t110).v, GB_V_UNCHANGED);
	CHECK_EQ(gb_metric_compare("impls.gpu.stream_seconds", bt, nt, &t110).v, GB_V_UNCHANGED);
	/* the default threshold of steady samples is the 5% floor */
	r = gb_metric_compare("throughput_tx_per_s", br, nr, &noise);
	CHECK_NEAR(r.threshold, 5, 1e-9);
	/* a metric on one side only, and one that is neither a time nor a rate */
	CHECK_EQ(gb_metric_compare("throughput_tx_per_s", br, NULL, &noise).v, GB_V_ONLY_BASE);
	r = gb_metric_compare("abort_rate", br, nr, &noise);
	CHECK_EQ(r.v, GB_V_UNTESTED);
	cJSON_Delete(br);
	cJSON_Delete(nr);
	cJSON_Delete(bt);
	cJSON_Delete(nt);
}

/*
 * Interleaved samples (the A/B mode) carry the drift between processes on
 * both sides, so their default threshold is the 5% floor, not three spreads:
 * a 20% slowdown in samples whose three spreads are 22% is a regression
 * there and unchanged otherwise; and alpha is the rule's.
 */
TEST(metric_compare_interleaved_rule)
{
	double base[] = {100, 110, 90, 105, 95, 102, 98, 108}, slow[8];
	gb_compare_rule spread = {-1, 0, GB_COMPARE_ALPHA}, ab = {-1, 1, GB_COMPARE_ALPHA},
			strict = {-1, 1, 0.0001};
	cJSON *b, *n;
	gb_metric_row r;
	int i;
	for (i = 0; i < 8; i++)
		slow[i] = base[i] * 1.2;
	b = stats_block(base, 8);
	n = stats_block(slow, 8);
	r = gb_metric_compare("loop_seconds", b, n, &spread);
	CHECK(r.threshold > 20);
	CHECK_EQ(r.v, GB_V_UNCHANGED);
	r = gb_metric_compare("loop_seconds", b, n, &ab);
	CHECK_NEAR(r.threshold, 5, 1e-9);
	CHECK(r.p < 0.01);
	CHECK_EQ(r.v, GB_V_REGRESSION);
	CHECK_NEAR(r.alpha, GB_COMPARE_ALPHA, 0);
	r = gb_metric_compare("loop_seconds", b, n, &strict);
	CHECK_EQ(r.v, GB_V_NOISE);
	/* cv: the sample stdev over the mean, in percent */
	CHECK_NEAR(r.cv_base, 100 * 6.6975 / 101, 0.01);
	cJSON_Delete(b);
	cJSON_Delete(n);
}
