#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/json.h"
#include "common/metric_diff.h"
#include "common/ranktest.h"
#include "common/report_read.h"
#include "common/stats.h"

#define THRESHOLD_SPREADS 3.0 /* default threshold: this many robust relative spreads */

const char *const gb_verdict_names[] = {
	[GB_V_REGRESSION] = "regression", [GB_V_IMPROVEMENT] = "improvement", [GB_V_UNCHANGED] = "unchanged",
	[GB_V_NOISE] = "within-noise", [GB_V_UNTESTED] = "untested", [GB_V_ONLY_BASE] = "only-in-base",
	[GB_V_ONLY_NEW] = "only-in-new",
};

static int is_stats(const cJSON *o)
{
	return cJSON_IsObject(o) && cJSON_GetObjectItemCaseSensitive(o, "n") &&
	       cJSON_GetObjectItemCaseSensitive(o, "median") && cJSON_GetObjectItemCaseSensitive(o, "min");
}

void gb_metrics_collect(gb_metric_list *l, const cJSON *node, const char *prefix, int nested)
{
	const cJSON *x;
	char name[192];

	cJSON_ArrayForEach(x, node) {
		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "." : "", x->string);
		if (is_stats(x)) {
			if (l->n == l->cap) {
				l->cap = l->cap ? 2 * l->cap : 32;
				l->m = realloc(l->m, l->cap * sizeof(*l->m));
				if (!l->m)
					gb_die(GB_EXIT_RUNTIME, "out of host memory");
			}
			snprintf(l->m[l->n].name, sizeof(l->m[l->n].name), "%s", name);
			l->m[l->n].stats = x;
			l->m[l->n].nested = nested;
			l->n++;
		} else if (cJSON_IsObject(x)) {
			gb_metrics_collect(l, x, name, 1);
		} else if (cJSON_IsArray(x)) {
			const cJSON *e;
			int i = 0;
			cJSON_ArrayForEach(e, x) {
				char label[224];
				const char *id = gb_json_str_of(e, "impl");
				if (!*id)
					id = gb_json_str_of(e, "name");
				if (*id)
					snprintf(label, sizeof(label), "%s.%s", name, id);
				else
					snprintf(label, sizeof(label), "%s.%d", name, i);
				if (cJSON_IsObject(e))
					gb_metrics_collect(l, e, label, nested);
				i++;
			}
		}
	}
}

const gb_metric *gb_metrics_find(const gb_metric_list *l, const char *name)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->m[i].name, name) == 0)
			return &l->m[i];
	return NULL;
}
/*
 * +1 higher is better (rates), -1 lower is better (times), 0 unknown. The
 * dotted parts of the name are read from the last one back, and the first
 * that is a rate (ends in _per_s) or a time (contains "seconds") decides: a
 * nested metric is named by its block (phase_seconds.scheduling,
 * impls.cpu-bits.event_seconds.granted), its last part only by what it times.
 */
static int direction(const char *name)
{
	size_t end = strlen(name);

	while (end > 0) {
		size_t start = end, len;
		while (start > 0 && name[start - 1] != '.')
			start--;
		len = end - start;
		if (len > 6 && strncmp(name + end - 6, "_per_s", 6) == 0)
			return 1;
		if (memmem(name + start, len, "seconds", 7))
			return -1;
		end = start > 0 ? start - 1 : 0;
	}
	return 0;
}

static size_t samples_of(const cJSON *stats, double **out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(stats, "samples"), *x;
	size_t n = 0;
	*out = NULL;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) == 0)
		return 0;
	*out = gb_xmalloc((size_t)cJSON_GetArraySize(a) * sizeof(double), "samples");
	cJSON_ArrayForEach(x, a) {
		if (cJSON_IsNumber(x) && isfinite(x->valuedouble))
			(*out)[n++] = x->valuedouble;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 1.4826 x the median absolute deviation over |median|: a spread that one outlier does not move. */
static double robust_rel_spread(const double *v, size_t n)
{
	double *t = gb_xmalloc(n * sizeof(*t), "samples"), med, mad;
	size_t i;
	memcpy(t, v, n * sizeof(*t));
	med = median_of(t, n);
	for (i = 0; i < n; i++)
		t[i] = fabs(v[i] - med);
	mad = median_of(t, n);
	free(t);
	return med != 0 ? 1.4826 * mad / fabs(med) : 0;
}

/* 2 / C(na+nb, na): both tails of the one most extreme arrangement. */
double gb_smallest_p(size_t na, size_t nb)
{
	double c = 1;
	size_t i;
	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return fmin(1, 2 / c);
}

static double number_field(const cJSON *stats, const char *key)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(stats, key);
	return cJSON_IsNumber(m) ? m->valuedouble : NAN;
}

/* Percent: the sample stdev over |mean| of v, or of the block's own fields without samples. */
static double cv_pct(const cJSON *stats, const double *v, size_t n)
{
	double mean = 0, ss = 0;
	size_t i;

	if (n < 2) {
		double sd = number_field(stats, "stdev"), mu = number_field(stats, "mean");
		return n == 0 && number_field(stats, "n") >= 2 && mu != 0 ? 100 * sd / fabs(mu) : NAN;
	}
	for (i = 0; i < n; i++)
		mean += v[i] / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return mean != 0 ? 100 * sqrt(ss / (double)(n - 1)) / fabs(mean) : NAN;
}

/* Why a row of two medians and maybe samples cannot be judged, in words; "" when it can. */
static void untested_reason(gb_metric_row *r)
{
	const char *side = !r->nb && !r->nn ? "either report" : !r->nb ? "the base report" : "the new report";

	if (!isfinite(r->base) || !isfinite(r->newv))
		snprintf(r->why, sizeof(r->why), "the %s report has no median for it",
			 !isfinite(r->base) ? "base" : "new");
	else if (r->base == 0)
		snprintf(r->why, sizeof(r->why), "the base median is 0, so a change has no size");
	else if (r->newv / r->base < 0) /* a new median of 0 is a change of -100%: judged below */
		snprintf(r->why, sizeof(r->why), "the medians have opposite signs");
	else if (r->dir == 0)
		snprintf(r->why, sizeof(r->why),
			 "neither a time nor a rate (its name has no 'seconds' and no '_per_s' end)");
	else if (!r->nb || !r->nn)
		snprintf(r->why, sizeof(r->why),
			 "no per-repetition samples in %s (a block over more than %d values, or a report "
			 "from before samples)", side, GB_STATS_MAX_SAMPLES);
}

gb_metric_row gb_metric_compare(const char *name, const cJSON *bs, const cJSON *ns, const gb_compare_rule *rule)
{
	gb_metric_row r = {.name = name, .base = NAN, .change = NAN, .p = NAN, .threshold = NAN, .newv = NAN,
			   .cv_base = NAN, .cv_new = NAN, .alpha = rule->alpha, .dir = direction(name),
			   .beyond_noise = -1, .v = GB_V_UNTESTED};
	double *sb = NULL, *sn = NULL;

	if (!bs || !ns) {
		r.v = bs ? GB_V_ONLY_BASE : GB_V_ONLY_NEW;
		r.base = bs ? number_field(bs, "median") : NAN;
		r.newv = ns ? number_field(ns, "median") : NAN;
		return r;
	}
	r.base = number_field(bs, "median");
	r.newv = number_field(ns, "median");
	r.nb = samples_of(bs, &sb);
	r.nn = samples_of(ns, &sn);
	r.cv_base = cv_pct(bs, sb, r.nb);
	r.cv_new = cv_pct(ns, sn, r.nn);
	if (isfinite(r.base) && isfinite(r.newv) && r.base != 0)
		r.change = (r.newv - r.base) / fabs(r.base) * 100;
	if (r.nb && r.nn) {
		gb_ranktest t = gb_mann_whitney(sb, r.nb, sn, r.nn);
		r.p = t.p;
		r.beyond_noise = t.p < rule->alpha;
	}
	/*
	 * Samples of one process each hold the drift between processes only when
	 * the sides were interleaved; repetitions of one process do not, so there
	 * the change must also clear their spread.
	 */
	if (rule->threshold >= 0)
		r.threshold = rule->threshold;
	else if (r.nb && r.nn && !rule->interleaved)
		r.threshold = fmax(GB_COMPARE_FLOOR, THRESHOLD_SPREADS * 100 *
							fmax(robust_rel_spread(sb, r.nb), robust_rel_spread(sn, r.nn)));
	else
		r.threshold = GB_COMPARE_FLOOR;
	free(sb);
	free(sn);
	untested_reason(&r);
	if (r.why[0])
		return r;
	if (fabs(log(r.newv / r.base)) <= log1p(r.threshold / 100))
		r.v = GB_V_UNCHANGED; /* on the ratio, so halving a rate weighs as doubling a time */
	else if (!r.beyond_noise)
		r.v = GB_V_NOISE;
	else
		r.v = r.change * r.dir < 0 ? GB_V_REGRESSION : GB_V_IMPROVEMENT;
	r.noisy = r.cv_base > r.threshold || r.cv_new > r.threshold; /* false for NAN */
	return r;
}
