/*
 * The Mann-Whitney U test (Wilcoxon rank-sum test) of two independent samples:
 * does one tend to be larger than the other? `gpubench compare` uses it to tell
 * a change in timings from repetition noise (docs/compare.md says why this test).
 */
#ifndef GB_RANKTEST_H
#define GB_RANKTEST_H

#include <stddef.h>

/* Samples up to this total size without ties get the exact distribution of U. */
#define GB_RANKTEST_EXACT_MAX 50

typedef struct gb_ranktest {
	double u;       /* U of sample a: pairs (x in a, y in b) with x > y, ties counting 1/2 */
	double p;       /* two-sided p-value; 1 when either sample is empty */
	int exact;      /* 1: p from the exact distribution, 0: normal approximation */
} gb_ranktest;

/* a and b hold na and nb finite values; neither is modified. */
gb_ranktest gb_mann_whitney(const double *a, size_t na, const double *b, size_t nb);

#endif
