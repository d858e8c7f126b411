/*
 * gpubench compare: two reports, or two folders of reports matched by their
 * configuration, metric by metric, with a Mann-Whitney U test on the
 * per-repetition samples to tell a change from noise (docs/compare.md).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"
#include "common/metric_diff.h"
#include "common/report.h"
#include "common/report_read.h"

static int is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		gb_die(GB_EXIT_USAGE, "compare: cannot open %s: %s", path, strerror(errno));
	return S_ISDIR(st.st_mode);
}

typedef struct options {
	gb_run_opts run;     /* first: the shared rows (--json, --quiet) write into it */
	double threshold;    /* percent; < 0: from the noise */
	gb_opt_texts metric;
	int all;             /* --metric all */
	int allow_device, markdown;
} options;

#define AT(field) offsetof(options, field)

enum { ROW_THRESHOLD, ROW_METRIC, ROW_ALLOW, ROW_MARKDOWN, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_THRESHOLD] = {.name = "threshold", .kind = GB_OPT_REAL, .metavar = "PCT", .flo = 0, .fhi = 1e6,
			   .offset = AT(threshold),
			   .help = "smallest change that counts: the larger median over the smaller, minus 1 "
				   "(default per metric: 3 robust relative spreads of its samples, at least 5%)"},
	[ROW_METRIC] = {.name = "metric", .kind = GB_OPT_TEXTS, .metavar = "NAME", .offset = AT(metric),
			.help = "compare only metrics whose name is NAME, ends in .NAME or matches the glob NAME; "
				"'all' adds the nested ones (phases, per-event times)"},
	[ROW_ALLOW] = {.name = "allow-different-device", .kind = GB_OPT_FLAG, .offset = AT(allow_device),
		       .set_to = 1, .help = "compare reports made on different devices, with a warning row"},
	[ROW_MARKDOWN] = {.name = "markdown", .kind = GB_OPT_FLAG, .offset = AT(markdown), .set_to = 1,
			  .help = "print a markdown table instead of the text one"},
};

static const gb_opt_wording wording[] = {
	{"json", "write the comparison as JSON ('-' for stdout)"},
	{"quiet", "no table on stdout"},
	{NULL, NULL},
};

/* --json and --quiet of the shared rows: a comparison has no repetitions, checks or backend of its own. */
static const gb_opt_spec spec = {
	.cmd = "compare",
	.operands = "BASE NEW",
	.intro = "Compares two reports, or every report of folder BASE with the report of folder NEW that has "
		 "the same subcommand and configuration. One row per metric: base and new medians, the change, "
		 "the two-sided Mann-Whitney U p-value over the per-repetition samples both reports carry, and "
		 "a verdict. A change is a regression when it is worse, larger than the threshold and beyond "
		 "noise (p < 0.05). See docs/compare.md. Exit status: 0 no regression, 1 the JSON could not be "
		 "written, 2 usage error or nothing comparable, 3 a report that did not verify or is "
		 "incomplete, 4 a regression.",
	.rows = rows,
	.nrows = NROWS,
	.shared = GB_SHARED(GB_SHARED_JSON) | GB_SHARED(GB_SHARED_QUIET),
	.wording = wording,
	.example = "Example: gpubench compare results/baseline-cpu results/local/suite-cpu",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

/* --metric NAME's match: the whole name, its last part, or a shell glob over the name. */
static int metric_matches(const char *want, const char *name)
{
	const char *last = strrchr(name, '.');
	return strcmp(want, name) == 0 || (last && strcmp(want, last + 1) == 0) || fnmatch(want, name, 0) == 0;
}

static int wanted(const options *o, const gb_metric *m)
{
	unsigned i;
	if (o->metric.n == 0 || o->all)
		return o->all || !m->nested;
	for (i = 0; i < o->metric.n; i++)
		if (metric_matches(o->metric.v[i], m->name))
			return 1;
	return 0;
}


/* -------------------------------------------------------------------- pairs */

enum pair_status { P_COMPARED, P_NOT_COMPARABLE, P_ONLY_BASE, P_ONLY_NEW };
static const char *const pair_status_names[] = {
	[P_COMPARED] = "compared", [P_NOT_COMPARABLE] = "not-comparable", [P_ONLY_BASE] = "only-in-base",
	[P_ONLY_NEW] = "only-in-new",
};

typedef struct pair {
	gb_run_report *base, *new_;
	enum pair_status status;
	char reason[768];   /* why not comparable */
	char warning[832];  /* compared anyway */
	gb_metric_list mb, mn;
	gb_metric_row *rows;
	size_t nrows;
} pair;

typedef struct pair_list {
	pair *p;
	size_t n, cap;
} pair_list;

static pair *add_pair(pair_list *l, gb_run_report *b, gb_run_report *n, enum pair_status st)
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

static int same_config(const gb_run_report *a, const gb_run_report *b)
{
	return strcmp(a->subcommand, b->subcommand) == 0 && cJSON_Compare(a->config, b->config, 1);
}

/* Check devices and fill the rows of a pair whose configurations match. */
static void compare_pair(const options *o, pair *p)
{
	char db[384], dn[384];
	size_t i, cap;

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
	gb_metrics_collect(&p->mb, p->base->results, "", 0);
	gb_metrics_collect(&p->mn, p->new_->results, "", 0);
	cap = p->mb.n + p->mn.n;
	p->rows = gb_xcalloc(cap ? cap : 1, sizeof(gb_metric_row), "comparison rows");
	for (i = 0; i < p->mb.n; i++)
		if (wanted(o, &p->mb.m[i])) {
			const gb_metric *n = gb_metrics_find(&p->mn, p->mb.m[i].name);
			p->rows[p->nrows++] = gb_metric_compare(p->mb.m[i].name, p->mb.m[i].stats,
								n ? n->stats : NULL, o->threshold);
		}
	for (i = 0; i < p->mn.n; i++)
		if (wanted(o, &p->mn.m[i]) && !gb_metrics_find(&p->mb, p->mn.m[i].name))
			p->rows[p->nrows++] = gb_metric_compare(p->mn.m[i].name, NULL, p->mn.m[i].stats,
								o->threshold);
}

/* Pair two folders: same relative path and configuration first, then any same configuration. */
static void match_sets(const options *o, pair_list *l, gb_report_set *b, gb_report_set *n)
{
	size_t i, j;

	for (i = 0; i < b->n; i++)
		for (j = 0; j < n->n; j++)
			if (!n->r[j].used && strcmp(b->r[i].rel, n->r[j].rel) == 0 &&
			    same_config(&b->r[i], &n->r[j])) {
				compare_pair(o, add_pair(l, &b->r[i], &n->r[j], P_COMPARED));
				break;
			}
	for (i = 0; i < b->n; i++)
		for (j = 0; j < n->n && !b->r[i].used; j++)
			if (!n->r[j].used && same_config(&b->r[i], &n->r[j]))
				compare_pair(o, add_pair(l, &b->r[i], &n->r[j], P_COMPARED));
	/* a report whose name is in both folders with different configurations is said so */
	for (i = 0; i < b->n; i++)
		for (j = 0; j < n->n && !b->r[i].used; j++)
			if (!n->r[j].used && strcmp(b->r[i].rel, n->r[j].rel) == 0) {
				pair *p = add_pair(l, &b->r[i], &n->r[j], P_NOT_COMPARABLE);
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
			add_pair(l, &b->r[i], NULL, P_ONLY_BASE);
	for (j = 0; j < n->n; j++)
		if (!n->r[j].used)
			add_pair(l, NULL, &n->r[j], P_ONLY_NEW);
}

/* ------------------------------------------------------------------ output */

static const char *pair_label(const pair *p)
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

static void print_text(const pair_list *l)
{
	size_t i, k;
	char b[32], n[32], c[32], p[32], t[32], dev[384];

	for (i = 0; i < l->n; i++) {
		const pair *q = &l->p[i];
		const gb_run_report *any = q->base ? q->base : q->new_;
		gb_run_report_device(any, dev, sizeof(dev));
		printf("%s: %s on %s\n", pair_label(q), any->subcommand, dev);
		if (q->status == P_ONLY_BASE || q->status == P_ONLY_NEW) {
			printf("  %s: no report with its configuration in the %s folder\n",
			       pair_status_names[q->status], q->status == P_ONLY_BASE ? "new" : "base");
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
		printf("  %-34s %10s %10s %8s %6s %6s  %s\n", "metric", "base", "new", "change", "p",
		       "thres.", "verdict");
		for (k = 0; k < q->nrows; k++) {
			const gb_metric_row *r = &q->rows[k];
			row_cells(r, b, n, c, p, t, sizeof(b));
			printf("  %-34s %10s %10s %8s %6s %6s  %s%s%s\n", r->name, b, n, c, p, t,
			       r->v == GB_V_REGRESSION ? "REGRESSION" : gb_verdict_names[r->v],
			       r->v == GB_V_UNTESTED ? ": " : "", r->v == GB_V_UNTESTED ? r->why : "");
		}
	}
}

static void print_markdown(const pair_list *l)
{
	size_t i, k;
	char b[32], n[32], c[32], p[32], t[32];

	puts("| report | metric | base | new | change | p | threshold | verdict |");
	puts("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
	for (i = 0; i < l->n; i++) {
		const pair *q = &l->p[i];
		if (q->status != P_COMPARED) {
			printf("| %s | | | | | | | %s%s%s |\n", pair_label(q), pair_status_names[q->status],
			       *q->reason ? ": " : "", q->reason);
			continue;
		}
		if (*q->warning)
			printf("| %s | | | | | | | warning: %s |\n", pair_label(q), q->warning);
		for (k = 0; k < q->nrows; k++) {
			const gb_metric_row *r = &q->rows[k];
			row_cells(r, b, n, c, p, t, sizeof(b));
			printf("| %s | %s | %s | %s | %s | %s | %s | %s%s%s%s%s |\n", pair_label(q), r->name,
			       b, n, c, p, t, r->v == GB_V_REGRESSION ? "**" : "", gb_verdict_names[r->v],
			       r->v == GB_V_REGRESSION ? "**" : "", r->v == GB_V_UNTESTED ? ": " : "",
			       r->v == GB_V_UNTESTED ? r->why : "");
		}
	}
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

typedef struct tally {
	size_t compared, not_comparable, only_base, only_new, unverified;
	size_t verdicts[GB_V_ONLY_NEW + 1];
} tally;

static int write_json(const options *o, const pair_list *l, const tally *t, int argc, char **argv,
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
		gb_json_str(j, "name", pair_label(q));
		gb_json_str(j, "subcommand", (q->base ? q->base : q->new_)->subcommand);
		gb_json_str(j, "status", pair_status_names[q->status]);
		gb_json_str(j, "reason", q->reason);
		gb_json_str(j, "warning", q->warning);
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
			gb_json_num(x, "threshold_pct", r->threshold);
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

/*
 * Each --metric (but all) must match a metric of a compared pair; otherwise
 * say which and return nonzero. Nothing is compared then (no pair, or only
 * pairs that are not comparable): the verdicts say so, not this.
 */
static int unmatched_metrics(const options *o, const pair_list *l)
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

/* --------------------------------------------------------------------- run */

static int run(int argc, char **argv)
{
	options o;
	gb_report_set sb = {0}, sn = {0};
	pair_list l = {0};
	tally t;
	const char *base, *new_;
	size_t i, k, few_reps = 0;
	unsigned m;
	int first, dirs;

	memset(&o, 0, sizeof(o));
	memset(&t, 0, sizeof(t));
	o.threshold = -1;
	first = gb_opts_parse(&spec, &o, NULL, argc, argv);
	for (m = 0; m < o.metric.n; m++)
		o.all |= strcmp(o.metric.v[m], "all") == 0;
	if (argc - first != 2)
		gb_die(GB_EXIT_USAGE, "compare: needs two reports or two folders, BASE and NEW, got %d "
		       "(see 'gpubench help compare')", argc - first);
	{
		const gb_path_use paths[] = {{"json", o.run.json, 0}};
		gb_paths_check("compare", paths, 1);
	}
	if (o.run.json && gb_path_is_stdout(o.run.json) && !o.run.quiet)
		gb_die(GB_EXIT_USAGE, "compare: --json - and the table would share stdout; add --quiet");
	base = argv[first];
	new_ = argv[first + 1];
	dirs = is_dir(base);
	if (dirs != is_dir(new_))
		gb_die(GB_EXIT_USAGE, "compare: %s and %s must be two reports or two folders", base, new_);
	if (dirs) {
		gb_report_set_scan(&sb, base, strlen(base) + 1);
		gb_report_set_scan(&sn, new_, strlen(new_) + 1);
		if (sb.skipped + sn.skipped)
			gb_note("note: %zu JSON files that are not run reports left out",
				sb.skipped + sn.skipped);
		if (sb.n == 0 || sn.n == 0)
			gb_die(GB_EXIT_USAGE, "compare: no run reports in %s", sb.n == 0 ? base : new_);
		match_sets(&o, &l, &sb, &sn);
	} else {
		const char *sb_slash = strrchr(base, '/'), *sn_slash = strrchr(new_, '/');
		gb_report_set_add(&sb, base, sb_slash ? (size_t)(sb_slash + 1 - base) : 0);
		gb_report_set_add(&sn, new_, sn_slash ? (size_t)(sn_slash + 1 - new_) : 0);
		if (sb.n == 0 || sn.n == 0)
			gb_die(GB_EXIT_USAGE, "compare: %s is not a gpubench run report", sb.n == 0 ? base : new_);
		if (same_config(&sb.r[0], &sn.r[0])) {
			compare_pair(&o, add_pair(&l, &sb.r[0], &sn.r[0], P_COMPARED));
		} else {
			pair *p = add_pair(&l, &sb.r[0], &sn.r[0], P_NOT_COMPARABLE);
			int count = 0;
			if (strcmp(sb.r[0].subcommand, sn.r[0].subcommand) != 0)
				snprintf(p->reason, sizeof(p->reason), "subcommand %s vs %s", sb.r[0].subcommand,
					 sn.r[0].subcommand);
			else
				gb_json_diff(sb.r[0].config, sn.r[0].config, "config", p->reason, sizeof(p->reason),
					  &count);
		}
	}

	/* A --metric that names nothing of the compared reports would turn a CI gate off unseen. */
	if (unmatched_metrics(&o, &l) != 0)
		return GB_EXIT_USAGE;
	for (i = 0; i < l.n; i++) {
		const pair *q = &l.p[i];
		const gb_run_report *side[2] = {q->base, q->new_};
		int s;
		t.compared += q->status == P_COMPARED;
		t.not_comparable += q->status == P_NOT_COMPARABLE;
		t.only_base += q->status == P_ONLY_BASE;
		t.only_new += q->status == P_ONLY_NEW;
		for (s = 0; s < 2; s++)
			if (side[s] && (side[s]->verified == 0 || !side[s]->complete)) {
				t.unverified++;
				gb_warn("%s %s", side[s]->path,
					side[s]->complete ? "did not verify" : "is incomplete (--timeout)");
			}
		for (k = 0; k < q->nrows; k++) {
			t.verdicts[q->rows[k].v]++;
			if (q->rows[k].nb && q->rows[k].nn && gb_smallest_p(q->rows[k].nb, q->rows[k].nn) >= GB_COMPARE_ALPHA)
				few_reps++;
		}
		if (*q->warning)
			gb_warn("warning: %s: %s", pair_label(q), q->warning);
	}
	if (!o.run.quiet) {
		if (o.markdown)
			print_markdown(&l);
		else
			print_text(&l);
	}
	if (few_reps)
		gb_note("note: %zu metrics have too few repetitions for the test to tell any change "
			"from noise (4 on each side are enough)", few_reps);
	gb_note("compare: %zu pairs compared (%zu regressions, %zu improvements, %zu unchanged, "
		"%zu within noise, %zu untested), %zu not comparable, %zu only in base, %zu only in new",
		t.compared, t.verdicts[GB_V_REGRESSION], t.verdicts[GB_V_IMPROVEMENT], t.verdicts[GB_V_UNCHANGED],
		t.verdicts[GB_V_NOISE], t.verdicts[GB_V_UNTESTED], t.not_comparable, t.only_base, t.only_new);
	if (o.run.json && write_json(&o, &l, &t, argc, argv, base, new_) != 0)
		return GB_EXIT_RUNTIME;
	if (t.unverified)
		return GB_EXIT_VERIFY;
	if (t.verdicts[GB_V_REGRESSION])
		return GB_EXIT_REGRESSION;
	if (t.compared == 0) {
		gb_warn("compare: nothing to compare: no pair of reports with the same configuration");
		return GB_EXIT_USAGE;
	}
	return GB_EXIT_OK;
}

const gb_command gb_cmd_compare = {
	.name = "compare",
	.summary = "compare two reports or folders of reports; exit 4 on a regression",
	.run = run,
	.help = help,
};
