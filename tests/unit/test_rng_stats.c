/* common/rng.h (seeded xoshiro256**) and common/stats.c (gb_stats_of). */
#include <math.h>
#include <string.h>

#include "common/rng.h"
#include "common/stats.h"
#include "tests/unit/test.h"

TEST(rng_same_seed_same_sequence)
{
	gb_rng a, b;
	int i, same = 1;

	gb_rng_init(&a, 12345, 7);
	gb_rng_init(&b, 12345, 7);
	for (i = 0; i < 10000; i++)
		if (gb_rng_next(&a) != gb_rng_next(&b))
			same = 0;
	CHECK(same);
	/* the state is all there is: copying it copies the future */
	b = a;
	CHECK_EQ(gb_rng_next(&a), gb_rng_next(&b));
}

TEST(rng_known_values)
{
	/* splitmix64's published first outputs for seed 0 (Vigna's reference code) */
	uint64_t x = 0;
	CHECK_EQ(gb_splitmix64(&x), 0xE220A8397B1DCDAFull);
	CHECK_EQ(gb_splitmix64(&x), 0x6E789E6AA1B965F4ull);
	CHECK_EQ(gb_splitmix64(&x), 0x06C45D188009454Full);
	CHECK_EQ(x, 3 * 0x9E3779B97F4A7C15ull);
}

TEST(rng_streams_and_seeds_differ)
{
	gb_rng a, b, c;
	int i, diff_stream = 0, diff_seed = 0, equal_pos = 0;

	gb_rng_init(&a, 1, 0);
	gb_rng_init(&b, 1, 1);
	gb_rng_init(&c, 2, 0);
	for (i = 0; i < 1000; i++) {
		uint64_t x = gb_rng_next(&a), y = gb_rng_next(&b), z = gb_rng_next(&c);
		diff_stream += x != y;
		diff_seed += x != z;
		equal_pos += x == y;
	}
	CHECK_EQ(diff_stream, 1000);
	CHECK_EQ(diff_seed, 1000);
	CHECK_EQ(equal_pos, 0);
	/* the state is never all zero (xoshiro would be stuck) */
	gb_rng_init(&a, 0, 0);
	CHECK(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
}

TEST(rng_below_in_range)
{
	gb_rng r;
	uint64_t ns[] = {2, 3, 7, 10, 1000, 1ull << 32, (1ull << 63) + 12345, UINT64_MAX};
	size_t k;
	int i, bad = 0;

	gb_rng_init(&r, 99, 3);
	CHECK_EQ(gb_rng_below(&r, 0), 0u);
	CHECK_EQ(gb_rng_below(&r, 1), 0u);
	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
		for (i = 0; i < 20000; i++)
			if (gb_rng_below(&r, ns[k]) >= ns[k])
				bad++;
	CHECK_EQ(bad, 0);
	/* gb_rng_range is inclusive on both ends and reaches both */
	{
		int seen_lo = 0, seen_hi = 0;
		bad = 0;
		for (i = 0; i < 10000; i++) {
			uint64_t v = gb_rng_range(&r, 5, 9);
			bad += v < 5 || v > 9;
			seen_lo |= v == 5;
			seen_hi |= v == 9;
		}
		CHECK_EQ(bad, 0);
		CHECK(seen_lo && seen_hi);
		CHECK_EQ(gb_rng_range(&r, 42, 42), 42u);
	}
	/* a large n whose upper half would be missed by a biased generator */
	{
		uint64_t n = (1ull << 63) + (1ull << 62), above = 0;
		for (i = 0; i < 10000; i++)
			above += gb_rng_below(&r, n) >= (1ull << 63);
		/* expected fraction 1/3 */
		CHECK(above > 3000 && above < 3700);
	}
}

TEST(rng_below_roughly_uniform)
{
	gb_rng r;
	uint64_t count[10] = {0};
	double chi2 = 0;
	int i;

	gb_rng_init(&r, 2024, 0);
	for (i = 0; i < 100000; i++)
		count[gb_rng_below(&r, 10)]++;
	for (i = 0; i < 10; i++) {
		double d = (double)count[i] - 10000.0;
		chi2 += d * d / 10000.0;
	}
	/* 9 degrees of freedom: P(chi2 > 40) is about 1e-5 */
	if (!(chi2 < 40))
		tu_fail(__FILE__, __LINE__, "chi-square %.2f over 10 buckets of 100k draws", chi2);

	/* and for a non-divisor of 2^64 with few buckets (rejection path) */
	{
		uint64_t c3[3] = {0};
		for (i = 0; i < 90000; i++)
			c3[gb_rng_below(&r, 3)]++;
		chi2 = 0;
		for (i = 0; i < 3; i++) {
			double d = (double)c3[i] - 30000.0;
			chi2 += d * d / 30000.0;
		}
		CHECK(chi2 < 25);
	}
}

TEST(stats_odd_n)
{
	double v[] = {3, 1, 2};
	gb_stats s = gb_stats_of(v, 3);
	CHECK_EQ(s.n, 3u);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.median, 2, 0);
	CHECK_NEAR(s.mean, 2, 1e-15);
	CHECK_NEAR(s.max, 3, 0);
	CHECK_NEAR(s.stdev, 1, 1e-15);
	/* the input is left as it was */
	CHECK_NEAR(v[0], 3, 0);
	CHECK_NEAR(v[1], 1, 0);
	CHECK_NEAR(v[2], 2, 0);
}

TEST(stats_even_n)
{
	double v[] = {10, 4, 1, 3, 2, 7};
	gb_stats s = gb_stats_of(v, 6);
	/* sorted 1 2 3 4 7 10: median (3+4)/2, mean 27/6 */
	double mean = 27.0 / 6.0, sq = 0;
	int i;
	for (i = 0; i < 6; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	CHECK_EQ(s.n, 6u);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 10, 0);
	CHECK_NEAR(s.median, 3.5, 0);
	CHECK_NEAR(s.mean, 4.5, 1e-12);
	CHECK_NEAR(s.stdev, sqrt(sq / 5), 1e-12);
	CHECK_NEAR(s.stdev, sqrt(57.5 / 5), 1e-12);

	{
		double w[] = {4, 1, 3, 2};
		gb_stats t = gb_stats_of(w, 4);
		CHECK_NEAR(t.median, 2.5, 0);
		CHECK_NEAR(t.mean, 2.5, 0);
		CHECK_NEAR(t.stdev, sqrt(5.0 / 3.0), 1e-12);
	}
	{
		double w[] = {5, 5};
		gb_stats t = gb_stats_of(w, 2);
		CHECK_NEAR(t.median, 5, 0);
		CHECK_NEAR(t.stdev, 0, 0);
	}
}

TEST(stats_single_and_empty)
{
	double v[] = {7.25};
	gb_stats s = gb_stats_of(v, 1);
	CHECK_EQ(s.n, 1u);
	CHECK_NEAR(s.min, 7.25, 0);
	CHECK_NEAR(s.median, 7.25, 0);
	CHECK_NEAR(s.mean, 7.25, 0);
	CHECK_NEAR(s.max, 7.25, 0);
	CHECK_NEAR(s.stdev, 0, 0);

	s = gb_stats_of(NULL, 0);
	CHECK_EQ(s.n, 0u);
	CHECK_NEAR(s.mean, 0, 0);
	CHECK_NEAR(s.stdev, 0, 0);
}

TEST(stats_negative_and_large)
{
	double v[] = {-1e9, 1e9, 0, -5, 5};
	gb_stats s = gb_stats_of(v, 5);
	CHECK_NEAR(s.min, -1e9, 0);
	CHECK_NEAR(s.max, 1e9, 0);
	CHECK_NEAR(s.median, 0, 0);
	CHECK_NEAR(s.mean, 0, 1e-6);
	CHECK_NEAR(s.stdev, sqrt((2e18 + 50) / 4), 1);
}

TEST(stats_keeps_samples_in_order)
{
	double v[GB_STATS_MAX_SAMPLES + 1];
	gb_stats s;
	size_t i;

	for (i = 0; i <= GB_STATS_MAX_SAMPLES; i++)
		v[i] = (double)((i * 7) % 13);
	s = gb_stats_of(v, 5);
	CHECK(gb_stats_has_samples(&s));
	for (i = 0; i < 5; i++)
		CHECK_NEAR(s.sample[i], v[i], 0);
	s = gb_stats_of(v, GB_STATS_MAX_SAMPLES);
	CHECK(gb_stats_has_samples(&s));
	CHECK_NEAR(s.sample[GB_STATS_MAX_SAMPLES - 1], v[GB_STATS_MAX_SAMPLES - 1], 0);
	s = gb_stats_of(v, GB_STATS_MAX_SAMPLES + 1);
	CHECK(!gb_stats_has_samples(&s));
	s = gb_stats_of(NULL, 0);
	CHECK(!gb_stats_has_samples(&s));
}
