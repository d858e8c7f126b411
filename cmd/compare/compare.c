/*
 * gpubench compare: two reports, or two folders of reports matched by their
 * configuration, metric by metric, with a Mann-Whitney U test on the
 * per-repetition samples to tell a change from noise (docs/compare.md).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/compare/compare_cmd.h"
#include "common/error.h"
#include "common/json.h"
#include "common/output.h"

/*
 * A comparison written over its base or new report, or into one of their
 * folders, would replace or join what it reads (a baseline lost, or a
 * comparison paired as a report next time): refused before anything is written.
 */
static void refuse_output_over_input(const char *json, const char *input, const char *role, int dir)
{
	if (gb_path_writes_over(json, input, dir))
		gb_die(GB_EXIT_USAGE, "compare: option --json: %s %s the %s %s %s; compare never writes over "
		       "what it reads: write the comparison elsewhere", json, dir ? "is inside" : "is",
		       role, dir ? "folder" : "report", input);
}

static int is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		gb_die(GB_EXIT_USAGE, "compare: cannot open %s: %s", path, strerror(errno));
	return S_ISDIR(st.st_mode);
}

#define AT(field) offsetof(compare_opts, field)

enum { ROW_THRESHOLD, ROW_METRIC, ROW_ALLOW, ROW_MARKDOWN, ROW_SORT, ROW_VERDICT, NROWS };

static const char *const sort_names[] = {[SORT_INPUT] = "input", [SORT_VERDICT] = "verdict", NULL};

static const gb_opt_row rows[NROWS] = {
	[ROW_THRESHOLD] = {.name = "threshold", .kind = GB_OPT_REAL, .metavar = "PCT", .flo = 0, .fhi = 1e6,
			   .offset = AT(threshold),
			   .help = "smallest change that counts: the larger median over the smaller, minus 1 "
				   "(default: per metric 3 robust relative spreads of its samples, at least 5%; "
				   "5% for an A/B session)"},
	[ROW_METRIC] = {.name = "metric", .kind = GB_OPT_TEXTS, .metavar = "NAME", .offset = AT(metric),
			.help = "compare only metrics whose name is NAME, ends in .NAME or matches the glob NAME; "
				"'all' adds the nested ones (phases, per-event times)"},
	[ROW_ALLOW] = {.name = "allow-different-device", .kind = GB_OPT_FLAG, .offset = AT(allow_device),
		       .set_to = 1, .help = "compare reports made on different devices, with a warning row"},
	[ROW_MARKDOWN] = {.name = "markdown", .kind = GB_OPT_FLAG, .offset = AT(markdown), .set_to = 1,
			  .help = "print a markdown table instead of the text one"},
	[ROW_SORT] = {.name = "sort", .kind = GB_OPT_CHOICE, .metavar = "ORDER", .choices = sort_names,
		      .def = "input", .offset = AT(sort),
		      .help = "order of the table's rows: as the reports and metrics come, or the worst verdict "
			      "first (regression, within-noise, untested, improvement, unchanged), the reports "
			      "by their worst row"},
	[ROW_VERDICT] = {.name = "verdict", .kind = GB_OPT_TEXTS, .metavar = "NAME",
			 .offset = AT(verdict),
			 .help = "show only the rows of this verdict: regression, improvement, unchanged, "
				 "within-noise or untested, or a comma list of them; reports not compared are "
				 "always shown, and the summary, the JSON and the exit status count every row"},
};

/* --verdict's names (each value may be a comma list) into the mask of the verdicts shown. */
static unsigned verdict_mask(const gb_opt_texts *t)
{
	unsigned mask = 0, i;
	int v;

	for (i = 0; i < t->n; i++) {
		const char *s = t->v[i];
		while (*s) {
			size_t len = strcspn(s, ",");
			for (v = GB_V_REGRESSION; v <= GB_V_UNTESTED; v++)
				if (strlen(gb_verdict_names[v]) == len && strncmp(s, gb_verdict_names[v], len) == 0)
					break;
			if (v > GB_V_UNTESTED)
				gb_die(GB_EXIT_USAGE, "compare: option --verdict: '%.*s' is no verdict (accepted: "
				       "regression, improvement, unchanged, within-noise, untested)", (int)len, s);
			mask |= 1u << v;
			s += len + (s[len] == ',');
		}
	}
	return mask;
}

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
		 "the two-sided Mann-Whitney U p-value over the per-repetition samples both reports carry, "
		 "each side's cv (stdev over mean), the threshold and a verdict. A change is a regression when "
		 "it is worse, larger than the threshold and beyond noise (p < 0.05). The two sides of one A/B "
		 "session (scripts/bench-suite.sh --ab) get a 5% threshold and p < 0.05 shared over their "
		 "metrics. See docs/compare.md. Exit status: 0 no regression, 1 the JSON could not be "
		 "written, 2 usage error (--json over an input or into its folder, a malformed report) "
		 "or something not compared (a base report or metric missing in NEW), 3 a "
		 "report that did not verify or is incomplete, 4 a regression.",
	.rows = rows,
	.nrows = NROWS,
	.shared = GB_SHARED(GB_SHARED_JSON) | GB_SHARED(GB_SHARED_QUIET),
	.wording = wording,
	.example = "Example: gpubench compare results/baseline-cpu results/local/suite-cpu\n"
		   "         gpubench compare --markdown --sort verdict --verdict regression,within-noise BASE NEW",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}


static int run(int argc, char **argv)
{
	compare_opts o;
	gb_report_set sb = {0}, sn = {0};
	pair_list l = {0};
	tally t;
	char summary[1024];
	const char *base, *new_;
	size_t i, k, few_reps = 0, missing, tested, ab;
	unsigned m;
	int first, dirs;

	memset(&o, 0, sizeof(o));
	memset(&t, 0, sizeof(t));
	o.threshold = -1;
	first = gb_opts_parse(&spec, &o, NULL, argc, argv);
	for (m = 0; m < o.metric.n; m++)
		o.all |= strcmp(o.metric.v[m], "all") == 0;
	o.show = verdict_mask(&o.verdict);
	if (argc - first != 2)
		gb_die(GB_EXIT_USAGE, "compare: needs two reports or two folders, BASE and NEW, got %d "
		       "(see 'gpubench help compare')", argc - first);
	base = argv[first];
	new_ = argv[first + 1];
	dirs = is_dir(base);
	if (dirs != is_dir(new_))
		gb_die(GB_EXIT_USAGE, "compare: %s and %s must be two reports or two folders", base, new_);
	if (o.run.json && *o.run.json && !gb_path_is_stdout(o.run.json)) {
		refuse_output_over_input(o.run.json, base, "base", dirs);
		refuse_output_over_input(o.run.json, new_, "new", dirs);
	}
	{
		const gb_path_use paths[] = {{"json", o.run.json, 0}};
		gb_paths_check("compare", paths, 1);
	}
	if (o.run.json && gb_path_is_stdout(o.run.json) && !o.run.quiet)
		gb_die(GB_EXIT_USAGE, "compare: --json - and the table would share stdout; add --quiet");
	if (dirs) {
		gb_report_set_scan(&sb, base, strlen(base) + 1);
		gb_report_set_scan(&sn, new_, strlen(new_) + 1);
		if (sb.skipped + sn.skipped)
			gb_note("note: %zu JSON files that are not run reports left out",
				sb.skipped + sn.skipped);
		if (sb.n == 0 || sn.n == 0)
			gb_die(GB_EXIT_USAGE, "compare: no run reports in %s", sb.n == 0 ? base : new_);
		compare_match_sets(&o, &l, &sb, &sn);
	} else {
		const char *sb_slash = strrchr(base, '/'), *sn_slash = strrchr(new_, '/');
		gb_report_set_add(&sb, base, sb_slash ? (size_t)(sb_slash + 1 - base) : 0);
		gb_report_set_add(&sn, new_, sn_slash ? (size_t)(sn_slash + 1 - new_) : 0);
		if (sb.n == 0 || sn.n == 0)
			gb_die(GB_EXIT_USAGE, "compare: %s is not a gpubench run report", sb.n == 0 ? base : new_);
		if (compare_same_config(&sb.r[0], &sn.r[0])) {
			compare_fill_pair(&o, compare_add_pair(&l, &sb.r[0], &sn.r[0], P_COMPARED));
		} else {
			pair *p = compare_add_pair(&l, &sb.r[0], &sn.r[0], P_NOT_COMPARABLE);
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
	if (compare_unmatched_metrics(&o, &l) != 0)
		return GB_EXIT_USAGE;
	ab = compare_share_alpha(&o, &l);
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
			if (q->rows[k].nb && q->rows[k].nn &&
			    gb_smallest_p(q->rows[k].nb, q->rows[k].nn) >= q->rows[k].alpha)
				few_reps++;
		}
		if (*q->warning)
			gb_warn("warning: %s: %s", compare_pair_label(q), q->warning);
	}
	snprintf(summary, sizeof(summary),
		 "compare: %zu pairs compared (%zu regressions, %zu improvements, %zu unchanged, "
		 "%zu within noise, %zu untested), %zu not comparable, %zu only in base, %zu only in new; %s",
		 t.compared, t.verdicts[GB_V_REGRESSION], t.verdicts[GB_V_IMPROVEMENT], t.verdicts[GB_V_UNCHANGED],
		 t.verdicts[GB_V_NOISE], t.verdicts[GB_V_UNTESTED], t.not_comparable, t.only_base, t.only_new,
		 compare_rule_words(&o, &l, ab));
	if (!o.run.quiet) {
		if (o.markdown)
			compare_print_markdown(&o, &l, ab, base, new_, summary);
		else
			compare_print_text(&o, &l);
	}
	if (few_reps)
		gb_note("note: %zu metrics have too few repetitions for the test to tell any change "
			"from noise (4 on each side are enough; an A/B comparison of M metrics needs more "
			"rounds: 6 for up to 20)", few_reps);
	compare_warn_noisy(&l);
	missing = compare_not_compared(&l, &tested);
	gb_note("%s", summary);
	if (o.run.json && compare_write_json(&o, &l, &t, argc, argv, base, new_) != 0)
		return GB_EXIT_RUNTIME;
	if (t.unverified)
		return GB_EXIT_VERIFY;
	if (t.verdicts[GB_V_REGRESSION])
		return GB_EXIT_REGRESSION;
	if (t.compared == 0 || tested == 0) {
		gb_warn("compare: nothing to compare: %s", t.compared == 0 ?
			"no pair of reports with the same configuration" :
			"no metric of the base had samples on both sides and a median to compare");
		return GB_EXIT_USAGE;
	}
	if (missing) {
		gb_warn("compare: %zu of the base's reports or metrics were not compared, so the comparison "
			"cannot pass", missing);
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
