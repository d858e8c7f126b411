/*
 * Metrics of a run report and the comparison of one metric between two
 * reports (docs/compare.md): every stats block of `results` is a metric,
 * named by its path; two are compared on their medians, with a Mann-Whitney
 * U test over their samples and a threshold, into a verdict.
 */
#ifndef GB_METRIC_DIFF_H
#define GB_METRIC_DIFF_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define GB_COMPARE_ALPHA 0.05 /* a change is beyond noise when p < this (for a whole A/B comparison) */
#define GB_COMPARE_FLOOR 5.0  /* percent: the smallest default threshold */

typedef struct gb_metric {
	char name[192];
	const cJSON *stats;
	int nested;        /* inside an object of results other than an array element */
} gb_metric;

typedef struct gb_metric_list {
	gb_metric *m;
	size_t n, cap;
} gb_metric_list;

/*
 * Add the stats blocks under node to l, named prefix.key, array entries by
 * their "impl" or "name" (else their index); nested marks those inside an
 * object that is not an array entry. Names point into l, blocks into node.
 */
void gb_metrics_collect(gb_metric_list *l, const cJSON *node, const char *prefix, int nested);
const gb_metric *gb_metrics_find(const gb_metric_list *l, const char *name);

enum gb_verdict {
	GB_V_REGRESSION,  /* worse, beyond the threshold and beyond noise */
	GB_V_IMPROVEMENT, /* better, beyond both */
	GB_V_UNCHANGED,   /* within the threshold */
	GB_V_NOISE,       /* beyond the threshold, not beyond noise */
	GB_V_UNTESTED,    /* no samples, a median of 0, or neither a time nor a rate */
	GB_V_ONLY_BASE,
	GB_V_ONLY_NEW,
};

/* One metric of a pair of reports: medians, change, test and verdict. */
typedef struct gb_metric_row {
	const char *name;
	double base, change, p, threshold; /* NAN where undefined */
	double newv;
	double cv_base, cv_new;            /* percent: stdev over |mean| of each side; NAN under 2 values */
	double alpha;                      /* the rule's */
	int dir, beyond_noise;             /* beyond_noise: -1 not tested */
	int noisy;                         /* a side's cv is above the threshold */
	size_t nb, nn;
	enum gb_verdict v;
	char why[160];                     /* for untested rows, in words */
} gb_metric_row;

extern const char *const gb_verdict_names[];

/* The smallest two-sided p the rank test can give for samples of na and nb values. */
double gb_smallest_p(size_t na, size_t nb);

/*
 * How a metric is judged. threshold is in percent, or < 0 for the default:
 * three robust relative spreads of the samples and at least 5%, or for
 * interleaved samples (the A/B mode: one sample per process, the two sides
 * alternated, so drift between processes is in the samples of both) the 5%
 * alone. A change is beyond noise when the rank test's p < alpha.
 */
typedef struct gb_compare_rule {
	double threshold;
	int interleaved;
	double alpha;
} gb_compare_rule;

/*
 * Compare the stats blocks bs (base) and ns (new) of one metric; either may be
 * NULL (the metric is on one side only).
 */
gb_metric_row gb_metric_compare(const char *name, const cJSON *bs, const cJSON *ns, const gb_compare_rule *rule);

#endif
