/* Summary statistics over repetitions: n, min, median, mean, max, stdev. */
#ifndef GB_STATS_H
#define GB_STATS_H

#include <stddef.h>

/*
 * Up to this many values are kept in a gb_stats as they were measured, so a
 * report can carry the per-repetition samples that `gpubench compare` tests
 * for noise. Repetitions are few (5 by default, 10 for the papers); blocks
 * over many values (per-event times) keep only the summary.
 */
#define GB_STATS_MAX_SAMPLES 64

typedef struct gb_stats {
	size_t n;
	double min, median, mean, max, stdev; /* stdev: sample (n-1); 0 when n < 2 */
	double sample[GB_STATS_MAX_SAMPLES];  /* the values in input order, when n <= the max */
} gb_stats;

gb_stats gb_stats_of(const double *values, size_t n);

/* Whether s kept its values in sample[] (1 <= n <= GB_STATS_MAX_SAMPLES). */
static inline int gb_stats_has_samples(const gb_stats *s)
{
	return s->n >= 1 && s->n <= GB_STATS_MAX_SAMPLES;
}

#endif
