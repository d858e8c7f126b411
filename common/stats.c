#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

gb_stats gb_stats_of(const double *values, size_t n)
{
	gb_stats s;
	double *v, sum = 0, sq = 0;
	size_t i;

	memset(&s, 0, sizeof(s));
	s.n = n;
	if (n == 0)
		return s;
	v = gb_xmalloc(n * sizeof(*v), "statistics");
	memcpy(v, values, n * sizeof(*v));
	if (n <= GB_STATS_MAX_SAMPLES)
		memcpy(s.sample, values, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = (n % 2) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++)
		sum += v[i];
	s.mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (v[i] - s.mean) * (v[i] - s.mean);
	s.stdev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	free(v);
	return s;
}
