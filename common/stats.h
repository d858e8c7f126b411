/* Summary statistics over repetitions: n, min, median, mean, max, stdev. */
#ifndef GB_STATS_H
#define GB_STATS_H

#include <stddef.h>

typedef struct gb_stats {
	size_t n;
	double min, median, mean, max, stdev; /* stdev: sample (n-1); 0 when n < 2 */
} gb_stats;

gb_stats gb_stats_of(const double *values, size_t n);

#endif
