/*
 * Seeded pseudo-random numbers: splitmix64 to expand a seed, xoshiro256** for
 * streams. Host and device share the code so a seed reproduces a workload
 * wherever it is generated.
 */
#ifndef GB_RNG_H
#define GB_RNG_H

#include <stdint.h>

#include "common/port.h"

typedef struct gb_rng {
	uint64_t s[4];
} gb_rng;

GB_HD uint64_t gb_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Independent stream number `stream` of the generator seeded with `seed`. */
GB_HD void gb_rng_init(gb_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (0xD1B54A32D192ED03ull * (stream + 1));
	int i;
	for (i = 0; i < 4; i++)
		r->s[i] = gb_splitmix64(&x);
}

GB_HD uint64_t gb_rng_next(gb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/* Uniform in [0, n) without modulo bias (Lemire's multiply-shift with rejection). */
GB_HD uint64_t gb_rng_below(gb_rng *r, uint64_t n)
{
	uint64_t x, lo;
	unsigned __int128 m;
	if (n <= 1)
		return 0;
	x = gb_rng_next(r);
	m = (unsigned __int128)x * n;
	lo = (uint64_t)m;
	if (lo < n) {
		uint64_t threshold = (0 - n) % n;
		while (lo < threshold) {
			x = gb_rng_next(r);
			m = (unsigned __int128)x * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform in [lo, hi]. */
GB_HD uint64_t gb_rng_range(gb_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + gb_rng_below(r, hi - lo + 1);
}

#endif
