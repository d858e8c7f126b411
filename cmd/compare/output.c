/* compare's outputs: the text table, the markdown table and the JSON document (docs/compare.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/compare/compare_cmd.h"
#include "common/error.h"
#include "common/json.h"
#include "common/report.h"

const char *compare_pair_label(const pair *p)
{
	if (p->base && p->new_ && strcmp(p->base->rel, p->new_->rel) != 0) {
		static char both[1024];
		snprintf(both, sizeof(both), "%s ~ %s", p->base->rel, p->new_->rel);
		return both;
	}
	return p->base ? p->base->rel : p->new_->rel;
}

static void fmt_num(char *out, size_t len, double v)
{
	if (isfinite(v))
		snprintf(out, len, "%.4g", v);
	else
		snprintf(out, len, "-");
}

static void fmt_pct(char *out, size_t len, double v, int sign)
{
	if (isfinite(v))
		snprintf(out, len, sign ? "%+.1f%%" : "%.1f%%", v);
	else
		snprintf(out, len, "-");
}

static void row_cells(const gb_metric_row *r, char *b, char *n, char *c, char *p, char *t, size_t len)
{
	fmt_num(b, len, r->base);
	fmt_num(n, len, r->newv);
	fmt_pct(c, len, r->change, 1);
	if (isfinite(r->p))
		snprintf(p, len, "%.3f", r->p);
	else
		snprintf(p, len, "-");
	fmt_pct(t, len, r->threshold, 0);
}

static const char *verified_word(const gb_run_report *r)
{
	if (!r->complete)
		return "INCOMPLETE";
	return r->verified == 1 ? "verified" : r->verified == 0 ? "NOT VERIFIED" : "not checked";
}

/* How bad a verdict is, for --sort verdict: a regression first, an unchanged metric last. */
static int severity(enum gb_verdict v)
{
	switch (v) {
	case GB_V_REGRESSION: return 0;
	case GB_V_NOISE: return 1;
	case GB_V_UNTESTED: return 2;
	case GB_V_IMPROVEMENT: return 3;
	default: return 4;
	}
}

/* A table's view of the pairs: which rows it shows, in which order. */
typedef struct view {
	size_t *pairs, npairs; /* pair indices in the order shown */
	size_t **rows;         /* per pair index: its shown rows' indices, in order */
	size_t *nrows;
} view;

/* An index and the key it sorts by; equal keys keep the input's order. */
typedef struct keyed {
	int key;
	size_t idx;
} keyed;

static int by_key(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	return x->key != y->key ? (x->key > y->key) - (x->key < y->key) : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sort idx[0..n) by key[] (parallel), stably; tmp holds n entries. */
static void sort_by(size_t *idx, const int *key, size_t n, keyed *tmp)
{
	size_t j;
	for (j = 0; j < n; j++)
		tmp[j] = (keyed){key[j], idx[j]};
	qsort(tmp, n, sizeof(*tmp), by_key);
	for (j = 0; j < n; j++)
		idx[j] = tmp[j].idx;
}

static view make_view(const compare_opts *o, const pair_list *l)
{
	view v;
	size_t i, k, most = l->n;
	int *key;
	keyed *tmp;

	for (i = 0; i < l->n; i++)
		most = l->p[i].nrows > most ? l->p[i].nrows : most;
	key = gb_xmalloc((most ? most : 1) * sizeof(*key), "compare's table");
	tmp = gb_xmalloc((most ? most : 1) * sizeof(*tmp), "compare's table");
	v.pairs = gb_xmalloc((l->n ? l->n : 1) * sizeof(*v.pairs), "compare's table");
	v.rows = gb_xmalloc((l->n ? l->n : 1) * sizeof(*v.rows), "compare's table");
	v.nrows = gb_xmalloc((l->n ? l->n : 1) * sizeof(*v.nrows), "compare's table");
	v.npairs = 0;
	for (i = 0; i < l->n; i++) {
		const pair *q = &l->p[i];
		v.rows[i] = gb_xmalloc((q->nrows ? q->nrows : 1) * sizeof(**v.rows), "compare's table");
		v.nrows[i] = 0;
		for (k = 0; k < q->nrows; k++)
			if (!o->show || (o->show & (1u << q->rows[k].v)))
				v.rows[i][v.nrows[i]++] = k;
		if (o->sort == SORT_VERDICT) {
			for (k = 0; k < v.nrows[i]; k++)
				key[k] = severity(q->rows[v.rows[i][k]].v);
			sort_by(v.rows[i], key, v.nrows[i], tmp);
		}
		/* a pair not compared is always shown: it fails the comparison */
		if (q->status != P_COMPARED || v.nrows[i] || (!o->show && !q->nrows))
			v.pairs[v.npairs++] = i;
	}
	if (o->sort == SORT_VERDICT) {
		/* a pair not compared first, then by its worst shown row */
		for (k = 0; k < v.npairs; k++) {
			const pair *q = &l->p[v.pairs[k]];
			key[k] = q->status != P_COMPARED ? -1 :
				 v.nrows[v.pairs[k]] ? severity(q->rows[v.rows[v.pairs[k]][0]].v) : 5;
		}
		sort_by(v.pairs, key, v.npairs, tmp);
	}
	free(key);
	free(tmp);
	return v;
}

static void free_view(view *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(v->rows[i]);
	free(v->rows);
	free(v->nrows);
	free(v->pairs);
}

void compare_print_text(const compare_opts *o, const pair_list *l)
{
	size_t j, k;
	char b[32], n[32], c[32], p[32], t[32], cb[32], cn[32], dev[384];
	view v = make_view(o, l);

	for (j = 0; j < v.npairs; j++) {
		const pair *q = &l->p[v.pairs[j]];
		const gb_run_report *any = q->base ? q->base : q->new_;
		gb_run_report_device(any, dev, sizeof(dev));
		printf("%s: %s on %s\n", compare_pair_label(q), any->subcommand, dev);
		if (q->status == P_ONLY_BASE || q->status == P_ONLY_NEW) {
			printf("  %s: no report with its configuration in the %s folder\n",
			       compare_pair_status_names[q->status], q->status == P_ONLY_BASE ? "new" : "base");
			continue;
		}
		printf("  base %s %s (%s), new %s %s (%s)\n", gb_json_str_of(q->base->meta, "git_revision"),
		       gb_json_str_of(q->base->meta, "date_utc"), verified_word(q->base),
		       gb_json_str_of(q->new_->meta, "git_revision"), gb_json_str_of(q->new_->meta, "date_utc"),
		       verified_word(q->new_));
		if (q->status == P_NOT_COMPARABLE) {
			printf("  not comparable: %s\n", q->reason);
			continue;
		}
		if (*q->warning)
			printf("  WARNING: %s\n", q->warning);
		if (q->interleaved)
			printf("  interleaved (A/B session %s): a sample per process, the sides alternated\n",
			       gb_json_str_of(cJSON_GetObjectItemCaseSensitive(q->base->meta, "interleaved"),
					      "session"));
		printf("  %-34s %10s %10s %8s %6s %7s %7s %6s  %s\n", "metric", "base", "new", "change", "p",
		       "cv base", "cv new", "thres.", "verdict");
		for (k = 0; k < v.nrows[v.pairs[j]]; k++) {
			const gb_metric_row *r = &q->rows[v.rows[v.pairs[j]][k]];
			row_cells(r, b, n, c, p, t, sizeof(b));
			fmt_pct(cb, sizeof(cb), r->cv_base, 0);
			fmt_pct(cn, sizeof(cn), r->cv_new, 0);
			printf("  %-34s %10s %10s %8s %6s %7s %7s %6s  %s%s%s%s\n", r->name, b, n, c, p, cb, cn, t,
			       r->v == GB_V_REGRESSION ? "REGRESSION" : gb_verdict_names[r->v],
			       r->v == GB_V_UNTESTED ? ": " : "", r->v == GB_V_UNTESTED ? r->why : "",
			       r->noisy ? " (NOISY: cv above the threshold)" : "");
		}
	}
	free_view(&v, l->n);
}

/*
 * The rule compare used, in words, for the summary line and under the
 * markdown table: the threshold, and the p a change had to be under. ab: the
 * interleaved metrics tested (compare_share_alpha).
 */
const char *compare_rule_words(const compare_opts *o, const pair_list *l, size_t ab)
{
	static char text[320];
	size_t i, other = 0, used;

	for (i = 0; i < l->n; i++)
		other += l->p[i].status == P_COMPARED && !l->p[i].interleaved;
	if (o->threshold >= 0)
		used = (size_t)snprintf(text, sizeof(text), "threshold %g%% (--threshold)", o->threshold);
	else if (!ab)
		used = (size_t)snprintf(text, sizeof(text),
					"threshold per metric from its noise (3 robust spreads, at least 5%%)");
	else
		used = (size_t)snprintf(text, sizeof(text), "threshold %g%% on the interleaved (A/B) pairs%s",
					GB_COMPARE_FLOOR, other ? ", from each metric's noise (3 robust spreads, at "
					"least 5%) on the others" : "");
	if (ab > 1)
		snprintf(text + used, sizeof(text) - used, "; beyond noise: p < %.2g (%g over the %zu "
			 "interleaved metrics)%s", GB_COMPARE_ALPHA / (double)ab, GB_COMPARE_ALPHA, ab,
			 other ? ", p < 0.05 on the others" : "");
	else
		snprintf(text + used, sizeof(text) - used, "; beyond noise: p < %g", GB_COMPARE_ALPHA);
	return text;
}

/* The distinct values one side's reports give (device, revision), joined into out; side 0 base, 1 new. */
static void side_values(const pair_list *l, int side, int revision, char *out, size_t len)
{
	char seen[8][384], one[384];
	size_t i, k, n = 0, more = 0, used = 0;

	for (i = 0; i < l->n; i++) {
		const gb_run_report *r = side ? l->p[i].new_ : l->p[i].base;
		if (!r)
			continue;
		if (revision)
			snprintf(one, sizeof(one), "%s", gb_json_str_of(r->meta, "git_revision"));
		else
			gb_run_report_device(r, one, sizeof(one));
		for (k = 0; k < n && strcmp(seen[k], one) != 0; k++)
			;
		if (k < n)
			continue;
		if (n == 8) {
			more++;
			continue;
		}
		memcpy(seen[n++], one, sizeof(one));
	}
	out[0] = '\0';
	for (k = 0; k < n; k++)
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s", k ? ", " : "", seen[k]);
	if (more)
		snprintf(out + used, used < len ? len - used : 0, " and %zu more", more);
}

/* What a reader of the markdown needs before the rows: what was compared, where, at which revisions, in what units. */
static void print_markdown_header(const pair_list *l, const char *base, const char *new_)
{
	char b[3200], n[3200];

	printf("**gpubench compare**: base `%s`, new `%s`\n\n", base, new_);
	puts("| | base | new |");
	puts("| --- | --- | --- |");
	side_values(l, 0, 0, b, sizeof(b));
	side_values(l, 1, 0, n, sizeof(n));
	printf("| devices | %s | %s |\n", b, n);
	side_values(l, 0, 1, b, sizeof(b));
	side_values(l, 1, 1, n, sizeof(n));
	printf("| revisions | %s | %s |\n\n", b, n);
	puts("Units: a metric's unit ends its name: `_seconds` seconds (lower is better), `_per_s` per second "
	     "(higher is better). base and new are medians over the repetitions, change is (new - base) / base, "
	     "p the two-sided Mann-Whitney U p-value of the repetitions, cv each side's coefficient of "
	     "variation, threshold the change a regression must pass.\n");
}

void compare_print_markdown(const compare_opts *o, const pair_list *l, size_t ab, const char *base,
			    const char *new_, const char *summary)
{
	size_t j, k;
	char b[32], n[32], c[32], p[32], t[32], cb[32], cn[32];
	view v = make_view(o, l);

	print_markdown_header(l, base, new_);
	puts("| report | metric | base | new | change | p | cv base | cv new | threshold | verdict |");
	puts("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
	for (j = 0; j < v.npairs; j++) {
		const pair *q = &l->p[v.pairs[j]];
		if (q->status != P_COMPARED) {
			printf("| %s | | | | | | | | | %s%s%s |\n", compare_pair_label(q), compare_pair_status_names[q->status],
			       *q->reason ? ": " : "", q->reason);
			continue;
		}
		if (*q->warning)
			printf("| %s | | | | | | | | | warning: %s |\n", compare_pair_label(q), q->warning);
		for (k = 0; k < v.nrows[v.pairs[j]]; k++) {
			const gb_metric_row *r = &q->rows[v.rows[v.pairs[j]][k]];
			row_cells(r, b, n, c, p, t, sizeof(b));
			fmt_pct(cb, sizeof(cb), r->cv_base, 0);
			fmt_pct(cn, sizeof(cn), r->cv_new, 0);
			printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s%s%s%s |\n", compare_pair_label(q),
			       r->name, b, n, c, p, cb, cn, t, r->v == GB_V_REGRESSION ? "**" : "",
			       gb_verdict_names[r->v], r->v == GB_V_REGRESSION ? "**" : "",
			       r->v == GB_V_UNTESTED ? ": " : "", r->v == GB_V_UNTESTED ? r->why : "",
			       r->noisy ? ", noisy: cv above the threshold" : "");
		}
	}
	free_view(&v, l->n);
	if (o->show || o->sort != SORT_INPUT)
		printf("\n%s%s%s.\n", o->show ? "Only the rows of some verdicts are shown (--verdict)" : "",
		       o->show && o->sort != SORT_INPUT ? "; " : "",
		       o->sort != SORT_INPUT ? "rows sorted worst verdict first (--sort verdict)" : "");
	printf("\nA regression is worse than the threshold and beyond noise (two-sided Mann-Whitney U "
	       "test): %s.\n", compare_rule_words(o, l, ab));
	printf("\n**%s**\n", summary);
}

static void json_report_ref(cJSON *o, const char *key, const gb_run_report *r)
{
	cJSON *x;
	if (!r) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	x = cJSON_AddObjectToObject(o, key);
	gb_json_str(x, "path", r->path);
	gb_json_str(x, "git_revision", gb_json_str_of(r->meta, "git_revision"));
	gb_json_str(x, "date_utc", gb_json_str_of(r->meta, "date_utc"));
	if (r->verified < 0)
		cJSON_AddNullToObject(x, "verified");
	else
		gb_json_bool(x, "verified", r->verified);
	gb_json_bool(x, "complete", r->complete);
	cJSON_AddItemToObject(x, "device", cJSON_Duplicate(r->device, 1));
}

int compare_write_json(const compare_opts *o, const pair_list *l, const tally *t, int argc, char **argv,
		      const char *base, const char *new_)
{
	gb_report rpt;
	cJSON *metrics, *pairs, *counts;
	size_t i, k;
	int status;

	gb_report_init(&rpt, "compare", argc, argv);
	cJSON_DeleteItemFromObjectCaseSensitive(rpt.root, "device");
	gb_json_str(rpt.config, "base", base);
	gb_json_str(rpt.config, "new", new_);
	if (o->threshold >= 0)
		gb_json_num(rpt.config, "threshold_pct", o->threshold);
	else
		cJSON_AddNullToObject(rpt.config, "threshold_pct");
	metrics = cJSON_AddArrayToObject(rpt.config, "metric");
	for (i = 0; i < o->metric.n; i++)
		cJSON_AddItemToArray(metrics, cJSON_CreateString(o->metric.v[i]));
	gb_json_str(rpt.config, "test", "mann-whitney-u");
	gb_json_num(rpt.config, "alpha", GB_COMPARE_ALPHA);
	gb_json_bool(rpt.config, "allow_different_device", o->allow_device);

	pairs = cJSON_AddArrayToObject(rpt.results, "pairs");
	for (i = 0; i < l->n; i++) {
		const pair *q = &l->p[i];
		cJSON *j = cJSON_CreateObject(), *rows;
		cJSON_AddItemToArray(pairs, j);
		gb_json_str(j, "name", compare_pair_label(q));
		gb_json_str(j, "subcommand", (q->base ? q->base : q->new_)->subcommand);
		gb_json_str(j, "status", compare_pair_status_names[q->status]);
		gb_json_str(j, "reason", q->reason);
		gb_json_str(j, "warning", q->warning);
		gb_json_bool(j, "interleaved", q->interleaved);
		json_report_ref(j, "base", q->base);
		json_report_ref(j, "new", q->new_);
		rows = cJSON_AddArrayToObject(j, "metrics");
		for (k = 0; k < q->nrows; k++) {
			const gb_metric_row *r = &q->rows[k];
			cJSON *x = cJSON_CreateObject();
			cJSON_AddItemToArray(rows, x);
			gb_json_str(x, "name", r->name);
			gb_json_str(x, "better", r->dir > 0 ? "higher" : r->dir < 0 ? "lower" : "unknown");
			gb_json_num(x, "base_median", r->base);
			gb_json_num(x, "new_median", r->newv);
			gb_json_u64(x, "base_samples", r->nb);
			gb_json_u64(x, "new_samples", r->nn);
			gb_json_num(x, "change_pct", r->change);
			gb_json_num(x, "p_value", r->p);
			if (r->beyond_noise < 0)
				cJSON_AddNullToObject(x, "beyond_noise");
			else
				gb_json_bool(x, "beyond_noise", r->beyond_noise);
			gb_json_num(x, "base_cv_pct", r->cv_base);
			gb_json_num(x, "new_cv_pct", r->cv_new);
			gb_json_num(x, "threshold_pct", r->threshold);
			gb_json_num(x, "alpha", r->alpha);
			gb_json_bool(x, "noisy", r->noisy);
			gb_json_str(x, "verdict", gb_verdict_names[r->v]);
			gb_json_str(x, "reason", r->why);
		}
	}
	counts = cJSON_AddObjectToObject(rpt.results, "counts");
	gb_json_u64(counts, "pairs_compared", t->compared);
	gb_json_u64(counts, "not_comparable", t->not_comparable);
	gb_json_u64(counts, "only_in_base", t->only_base);
	gb_json_u64(counts, "only_in_new", t->only_new);
	for (k = 0; k <= GB_V_UNTESTED; k++) {
		char key[32];
		snprintf(key, sizeof(key), "%s", gb_verdict_names[k]);
		for (char *c = key; *c; c++)
			if (*c == '-')
				*c = '_';
		gb_json_u64(counts, key, t->verdicts[k]);
	}
	gb_json_bool(rpt.verification, "verified", t->unverified == 0);
	gb_json_u64(rpt.verification, "reports_not_verified", t->unverified);
	gb_json_str(rpt.verification, "method", "every compared report complete and verified");
	status = gb_report_write(&rpt, o->run.json);
	gb_report_free(&rpt);
	return status;
}

/* Metrics whose repetitions vary (cv) more than the threshold: a change of its size can hide there. */
void compare_warn_noisy(const pair_list *l)
{
	size_t i, k, n = 0;
	char names[512] = "";

	for (i = 0; i < l->n; i++)
		for (k = 0; k < l->p[i].nrows; k++) {
			const gb_metric_row *r = &l->p[i].rows[k];
			size_t used = strlen(names);
			if (!r->noisy)
				continue;
			if (n++ < 4)
				snprintf(names + used, sizeof(names) - used, "%s%s %s (cv %.1f%% > %.1f%%)",
					 used ? ", " : "", compare_pair_label(&l->p[i]), r->name,
					 fmax(isfinite(r->cv_base) ? r->cv_base : 0, isfinite(r->cv_new) ? r->cv_new : 0),
					 r->threshold);
		}
	if (n)
		gb_warn("compare: warning: %zu metrics vary between repetitions more than their threshold, so a "
			"change of that size can hide in their noise: %s%s", n, names, n > 4 ? ", ..." : "");
}
