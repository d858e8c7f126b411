/*
 * Pairing the reports of compare's two sides and judging their metrics: by
 * configuration, each pair's rows under its rule (docs/compare.md), the
 * test's alpha shared over the interleaved metrics, and what could not be
 * compared.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/compare/compare_cmd.h"
#include "common/error.h"
#include "common/json.h"

const char *const compare_pair_status_names[] = {
	[P_COMPARED] = "compared", [P_NOT_COMPARABLE] = "not-comparable", [P_ONLY_BASE] = "only-in-base",
	[P_ONLY_NEW] = "only-in-new",
};

/* --metric NAME's match: the whole name, its last part, or a shell glob over the name. */
static int metric_matches(const char *want, const char *name)
{
	const char *last = strrchr(name, '.');
	return strcmp(want, name) == 0 || (last && strcmp(want, last + 1) == 0) || fnmatch(want, name, 0) == 0;
}

static int wanted(const compare_opts *o, const gb_metric *m)
{
	unsigned i;
	if (o->metric.n == 0 || o->all)
		return o->all || !m->nested;
	for (i = 0; i < o->metric.n; i++)
		if (metric_matches(o->metric.v[i], m->name))
			return 1;
	return 0;
}


pair *compare_add_pair(pair_list *l, gb_run_report *b, gb_run_report *n, enum pair_status st)
{
	pair *p;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->p = realloc(l->p, l->cap * sizeof(*l->p));
		if (!l->p)
			gb_die(GB_EXIT_RUNTIME, "out of host memory");
	}
	p = &l->p[l->n++];
	memset(p, 0, sizeof(*p));
	p->base = b;
	p->new_ = n;
	p->status = st;
	if (b)
		b->used = 1;
	if (n)
		n->used = 1;
	return p;
}

int compare_same_config(const gb_run_report *a, const gb_run_report *b)
{
	return strcmp(a->subcommand, b->subcommand) == 0 && cJSON_Compare(a->config, b->config, 1);
}

/*
 * Whether a and b are the two sides of one A/B session of scripts/bench-suite.sh:
 * each sample one process, the processes of both sides alternated.
 */
static int interleaved(const gb_run_report *a, const gb_run_report *b)
{
	const cJSON *ia = cJSON_GetObjectItemCaseSensitive(a->meta, "interleaved"),
		    *ib = cJSON_GetObjectItemCaseSensitive(b->meta, "interleaved");
	const char *sa = gb_json_str_of(ia, "session");
	return *sa && strcmp(sa, gb_json_str_of(ib, "session")) == 0 &&
	       strcmp(gb_json_str_of(ia, "side"), gb_json_str_of(ib, "side")) != 0;
}

/* The rows of a compared pair, under its rule. */
static void fill_rows(const compare_opts *o, pair *p, double alpha)
{
	gb_compare_rule rule = {o->threshold, p->interleaved, alpha};
	size_t i;

	p->nrows = 0;
	for (i = 0; i < p->mb.n; i++)
		if (wanted(o, &p->mb.m[i])) {
			const gb_metric *n = gb_metrics_find(&p->mn, p->mb.m[i].name);
			p->rows[p->nrows++] = gb_metric_compare(p->mb.m[i].name, p->mb.m[i].stats,
								n ? n->stats : NULL, &rule);
		}
	for (i = 0; i < p->mn.n; i++)
		if (wanted(o, &p->mn.m[i]) && !gb_metrics_find(&p->mb, p->mn.m[i].name))
			p->rows[p->nrows++] = gb_metric_compare(p->mn.m[i].name, NULL, p->mn.m[i].stats, &rule);
}

/* Check devices and fill the rows of a pair whose configurations match. */
void compare_fill_pair(const compare_opts *o, pair *p)
{
	char db[384], dn[384];
	size_t cap;

	gb_run_report_device(p->base, db, sizeof(db));
	gb_run_report_device(p->new_, dn, sizeof(dn));
	if (strcmp(db, dn) != 0) {
		if (!o->allow_device)
			gb_die(GB_EXIT_USAGE,
			       "compare: %s ran on %s, %s on %s: timings of different devices are not "
			       "comparable (--allow-different-device compares them anyway)",
			       p->base->path, db, p->new_->path, dn);
		snprintf(p->warning, sizeof(p->warning), "different devices: base %s, new %s", db, dn);
	}
	p->interleaved = interleaved(p->base, p->new_);
	gb_metrics_collect(&p->mb, p->base->results, "", 0);
	gb_metrics_collect(&p->mn, p->new_->results, "", 0);
	cap = p->mb.n + p->mn.n;
	p->rows = gb_xcalloc(cap ? cap : 1, sizeof(gb_metric_row), "comparison rows");
	fill_rows(o, p, GB_COMPARE_ALPHA);
}

static int tested(enum gb_verdict v)
{
	return v == GB_V_REGRESSION || v == GB_V_IMPROVEMENT || v == GB_V_UNCHANGED || v == GB_V_NOISE;
}

/*
 * An A/B comparison fails when any of its metrics regresses, so each is tested
 * at GB_COMPARE_ALPHA over their number (Bonferroni): with the two sides
 * interleaved, the whole gate then cries wolf at most that often. Returns the
 * number of interleaved metrics tested.
 */
size_t compare_share_alpha(const compare_opts *o, pair_list *l)
{
	size_t i, k, m = 0;

	for (i = 0; i < l->n; i++)
		for (k = 0; l->p[i].interleaved && k < l->p[i].nrows; k++)
			m += tested(l->p[i].rows[k].v);
	for (i = 0; m > 1 && i < l->n; i++)
		if (l->p[i].interleaved)
			fill_rows(o, &l->p[i], GB_COMPARE_ALPHA / (double)m);
	return m;
}

/* Pair two folders: same relative path and configuration first, then any same configuration. */
void compare_match_sets(const compare_opts *o, pair_list *l, gb_report_set *b, gb_report_set *n)
{
	size_t i, j;

	for (i = 0; i < b->n; i++)
		for (j = 0; j < n->n; j++)
			if (!n->r[j].used && strcmp(b->r[i].rel, n->r[j].rel) == 0 &&
			    compare_same_config(&b->r[i], &n->r[j])) {
				compare_fill_pair(o, compare_add_pair(l, &b->r[i], &n->r[j], P_COMPARED));
				break;
			}
	for (i = 0; i < b->n; i++)
		for (j = 0; j < n->n && !b->r[i].used; j++)
			if (!n->r[j].used && compare_same_config(&b->r[i], &n->r[j]))
				compare_fill_pair(o, compare_add_pair(l, &b->r[i], &n->r[j], P_COMPARED));
	/* a report whose name is in both folders with different configurations is said so */
	for (i = 0; i < b->n; i++)
		for (j = 0; j < n->n && !b->r[i].used; j++)
			if (!n->r[j].used && strcmp(b->r[i].rel, n->r[j].rel) == 0) {
				pair *p = compare_add_pair(l, &b->r[i], &n->r[j], P_NOT_COMPARABLE);
				int count = 0;
				if (strcmp(b->r[i].subcommand, n->r[j].subcommand) != 0)
					snprintf(p->reason, sizeof(p->reason), "subcommand %s vs %s",
						 b->r[i].subcommand, n->r[j].subcommand);
				else
					gb_json_diff(b->r[i].config, n->r[j].config, "config", p->reason,
						  sizeof(p->reason), &count);
				if (count > 3) {
					size_t used = strlen(p->reason);
					snprintf(p->reason + used, sizeof(p->reason) - used, "; %d more", count - 3);
				}
			}
	for (i = 0; i < b->n; i++)
		if (!b->r[i].used)
			compare_add_pair(l, &b->r[i], NULL, P_ONLY_BASE);
	for (j = 0; j < n->n; j++)
		if (!n->r[j].used)
			compare_add_pair(l, NULL, &n->r[j], P_ONLY_NEW);
}

/*
 * Each --metric (but all) must match a metric of a compared pair; otherwise
 * say which and return nonzero. Nothing is compared then (no pair, or only
 * pairs that are not comparable): the verdicts say so, not this.
 */
int compare_unmatched_metrics(const compare_opts *o, const pair_list *l)
{
	size_t i, k;
	unsigned m;
	int any = 0, bad = 0;

	for (i = 0; i < l->n; i++)
		any |= l->p[i].status == P_COMPARED;
	if (!any || o->all)
		return 0;
	for (m = 0; m < o->metric.n; m++) {
		int hit = 0;
		for (i = 0; i < l->n && !hit; i++)
			for (k = 0; k < l->p[i].nrows && !hit; k++)
				hit = metric_matches(o->metric.v[m], l->p[i].rows[k].name);
		if (!hit) {
			gb_warn("compare: option --metric: %s matches no metric of the compared reports "
				"('gpubench compare --metric all' lists them)", o->metric.v[m]);
			bad = 1;
		}
	}
	return bad;
}

/*
 * What the gate could not judge, each said on stderr: a base report without a
 * report of its configuration in NEW, a pair that is not comparable, a base
 * metric that the new report lacks. A gate that passed them by would pass
 * what it never saw. Returns their number; *ntested counts the rows judged.
 */
size_t compare_not_compared(const pair_list *l, size_t *ntested)
{
	size_t i, k, missing = 0;

	*ntested = 0;
	for (i = 0; i < l->n; i++) {
		const pair *q = &l->p[i];
		if (q->status == P_ONLY_BASE) {
			gb_warn("compare: %s: no report in the new folder has its subcommand and configuration "
				"(did that run fail, or was it left out?)", q->base->rel);
			missing++;
		} else if (q->status == P_NOT_COMPARABLE) {
			gb_warn("compare: %s: not comparable: %s", compare_pair_label(q), q->reason);
			missing++;
		}
		for (k = 0; k < q->nrows; k++) {
			enum gb_verdict v = q->rows[k].v;
			if (v == GB_V_ONLY_BASE) {
				gb_warn("compare: %s: metric %s is not in the new report", compare_pair_label(q),
					q->rows[k].name);
				missing++;
			}
			*ntested += tested(v);
		}
	}
	return missing;
}
