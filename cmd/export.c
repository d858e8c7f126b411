/*
 * gpubench export: run reports (files, or folders searched for *.json) as
 * one table, CSV or markdown, for every subcommand. A row is one
 * implementation of one report (the --impl or --algo run and each one
 * --compare ran beside it; speculate's run and its baselines): the report's
 * identity, its device and config blocks, the report-level results, then the
 * entry's own results, every field a column named by its path. Stats blocks
 * give their median, min and max; per-repetition samples are left to the
 * JSON. The rows follow the reports in name order, the columns the order
 * they first appear in.
 *
 * The entries are found by the result model's layout (common/report.h): a
 * report whose results carry reps_completed has its first entry in results
 * itself and the others in its one array of entries (stm's compare,
 * speculate's baselines); any other has them all in that array (impls).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "common/error.h"
#include "common/json.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report_read.h"

enum { FMT_CSV, FMT_MARKDOWN, FMT_COLUMNS };
static const char *const format_names[] = {"csv", "markdown", "columns", NULL};

typedef struct options {
	gb_run_opts run;
	int format;
	const char *columns;
	const char *output;
	const char *subcommand;
} options;

#define AT(f) offsetof(options, f)
enum { ROW_FORMAT, ROW_COLUMNS, ROW_OUTPUT, ROW_SUBCOMMAND, NROWS };
static const gb_opt_row rows[NROWS] = {
	[ROW_FORMAT] = {.name = "format", .kind = GB_OPT_CHOICE, .metavar = "F", .choices = format_names, .def = "csv",
			.offset = AT(format),
			.help = "csv: every column; markdown: a table of the columns whose values differ between "
				"rows (stats by their median), those every row shares listed above it; columns: "
				"the column names, one a line"},
	[ROW_COLUMNS] = {.name = "columns", .kind = GB_OPT_TEXT, .metavar = "LIST", .offset = AT(columns),
			 .help = "only these columns, comma-separated, in this order (names as --format columns "
				 "lists them)"},
	[ROW_OUTPUT] = {.name = "output", .kind = GB_OPT_TEXT, .metavar = "PATH", .offset = AT(output),
			.help = "write the table to PATH instead of stdout (atomically, as --json writes a report)"},
	[ROW_SUBCOMMAND] = {.name = "subcommand", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = AT(subcommand),
			    .help = "only the reports of this subcommand (stm, avoid, detect, speculate, list)"},
};

static const gb_opt_wording wording[] = {
	{"quiet", "no note of the files that are not run reports"},
	{NULL, NULL},
};

static const gb_opt_spec spec = {
	.cmd = "export",
	.operands = "PATH...",
	.intro = "Reads run reports, files or folders (searched recursively for *.json; other JSON such as "
		 "info documents and comparisons is skipped), and writes one table: a row per implementation "
		 "of each report (the run, and each one --compare or a baseline ran beside it), its columns "
		 "report, subcommand, git_revision, date_utc, verified, complete, entry (the implementation), "
		 "role (run or compared), device.*, config.*, results.* (what the report measured once for "
		 "every implementation, e.g. detect's decisions), verification.* and the entry's own fields "
		 "(throughput_tx_per_s.median, stream_seconds.min, ...). Reports of several subcommands "
		 "share one table (CSV) or get a section each (markdown).",
	.rows = rows,
	.nrows = NROWS,
	.shared = GB_SHARED(GB_SHARED_QUIET),
	.wording = wording,
	.example = "Example: gpubench export --format markdown results/local/fig7 > fig7.md\n"
		   "Example: gpubench export --columns entry,config.threads,throughput_tx_per_s.median "
		   "run1.json run2.json",
};

/* The table: rows of cells keyed by column, and the columns in order. */
typedef struct table {
	cJSON **rows; /* each an object: column name -> value */
	size_t n, cap;
	char **cols;
	size_t ncols, capcols;
	const char **subcommand; /* of each row */
} table;

static void add_col(table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return;
	if (t->ncols == t->capcols) {
		t->capcols = t->capcols ? 2 * t->capcols : 64;
		t->cols = realloc(t->cols, t->capcols * sizeof(*t->cols));
		if (!t->cols)
			gb_die(GB_EXIT_RUNTIME, "out of host memory");
	}
	t->cols[t->ncols] = strdup(name);
	if (!t->cols[t->ncols])
		gb_die(GB_EXIT_RUNTIME, "out of host memory");
	t->ncols++;
}

static void cell(table *t, cJSON *row, const char *col, cJSON *v)
{
	add_col(t, col);
	cJSON_DeleteItemFromObjectCaseSensitive(row, col);
	cJSON_AddItemToObject(row, col, v);
}

static int is_stats(const cJSON *o)
{
	return cJSON_IsObject(o) && cJSON_GetObjectItemCaseSensitive(o, "median") &&
	       cJSON_GetObjectItemCaseSensitive(o, "n");
}

/* An array of strings and numbers as one cell, "a+b"; NULL for any other array. */
static cJSON *joined(const cJSON *a)
{
	char buf[1024] = "";
	size_t used = 0;
	const cJSON *x;

	cJSON_ArrayForEach(x, a) {
		char one[64];
		const char *s = one;
		if (cJSON_IsString(x))
			s = x->valuestring;
		else if (cJSON_IsNumber(x))
			snprintf(one, sizeof(one), "%.15g", x->valuedouble);
		else
			return NULL;
		used += (size_t)snprintf(buf + used, used < sizeof(buf) ? sizeof(buf) - used : 0, "%s%s",
					 used ? "+" : "", s);
	}
	return cJSON_CreateString(buf);
}

/*
 * Every field of o under prefix into row: objects by their paths, stats
 * blocks as .median, .min and .max, arrays of scalars joined, other arrays
 * (entries, samples) left out, skip (may be NULL) not at all.
 */
static void flatten(table *t, cJSON *row, const char *prefix, const cJSON *o, const char *skip)
{
	const cJSON *x;
	char key[512];

	cJSON_ArrayForEach(x, o) {
		if (skip && strcmp(x->string, skip) == 0)
			continue;
		snprintf(key, sizeof(key), "%s%s", prefix, x->string);
		if (is_stats(x)) {
			static const char *const parts[] = {"median", "min", "max"};
			for (int i = 0; i < 3; i++) {
				char k[600];
				snprintf(k, sizeof(k), "%s.%s", key, parts[i]);
				cell(t, row, k, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(x, parts[i]), 1));
			}
		} else if (cJSON_IsObject(x)) {
			strncat(key, ".", sizeof(key) - strlen(key) - 1);
			flatten(t, row, key, x, NULL);
		} else if (cJSON_IsArray(x)) {
			cJSON *j = joined(x);
			if (j)
				cell(t, row, key, j);
		} else {
			cell(t, row, key, cJSON_Duplicate(x, 1));
		}
	}
}

/* The name of an entry object: impl, algo or name. */
static const char *entry_name(const cJSON *e)
{
	static const char *const keys[] = {"impl", "algo", "name"};
	for (int i = 0; i < 3; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, keys[i]);
		if (cJSON_IsString(v))
			return keys[i];
	}
	return NULL;
}

/* results' array of entries (objects with a name), or NULL. */
static const cJSON *entries_of(const cJSON *results)
{
	const cJSON *x;
	cJSON_ArrayForEach(x, results) {
		if (cJSON_IsArray(x) && cJSON_GetArraySize(x) > 0 && cJSON_IsObject(x->child) && entry_name(x->child))
			return x;
	}
	return NULL;
}

static cJSON *new_row(table *t, const gb_run_report *r)
{
	cJSON *row = cJSON_CreateObject();
	char dev[384];

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->rows = realloc(t->rows, t->cap * sizeof(*t->rows));
		t->subcommand = realloc(t->subcommand, t->cap * sizeof(*t->subcommand));
		if (!t->rows || !t->subcommand)
			gb_die(GB_EXIT_RUNTIME, "out of host memory");
	}
	t->subcommand[t->n] = r->subcommand;
	t->rows[t->n++] = row;
	cell(t, row, "report", cJSON_CreateString(r->path));
	cell(t, row, "subcommand", cJSON_CreateString(r->subcommand));
	cell(t, row, "git_revision", cJSON_CreateString(gb_json_str_of(r->meta, "git_revision")));
	cell(t, row, "date_utc", cJSON_CreateString(gb_json_str_of(r->meta, "date_utc")));
	cell(t, row, "verified", r->verified < 0 ? cJSON_CreateNull() : cJSON_CreateBool(r->verified));
	cell(t, row, "complete", cJSON_CreateBool(r->complete));
	gb_run_report_device(r, dev, sizeof(dev));
	cell(t, row, "device", cJSON_CreateString(dev));
	cell(t, row, "entry", cJSON_CreateString(""));
	cell(t, row, "role", cJSON_CreateString(""));
	flatten(t, row, "device.", r->device, NULL);
	flatten(t, row, "config.", r->config, NULL);
	return row;
}

/* Add report r's rows: its entries, each with the report's blocks. */
static void add_report(table *t, const gb_run_report *r)
{
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(r->root, "verification");
	const cJSON *arr = entries_of(r->results), *e;
	int first_in_results = cJSON_GetObjectItemCaseSensitive(r->results, "reps_completed") != NULL;
	const char *arr_key = arr ? arr->string : NULL;
	cJSON *row;
	int k = 0;

	if (first_in_results) {
		const cJSON *algo = cJSON_GetObjectItemCaseSensitive(r->config, "algo");
		row = new_row(t, r);
		cell(t, row, "entry", cJSON_CreateString(cJSON_IsString(algo) ? algo->valuestring : r->subcommand));
		cell(t, row, "role", cJSON_CreateString("run"));
		flatten(t, row, "verification.", ver, NULL);
		flatten(t, row, "", r->results, arr_key);
		k = 1;
	}
	cJSON_ArrayForEach(e, arr) {
		const char *nk = entry_name(e);
		row = new_row(t, r);
		cell(t, row, "entry", cJSON_CreateString(cJSON_GetObjectItemCaseSensitive(e, nk)->valuestring));
		cell(t, row, "role", cJSON_CreateString(k++ ? "compared" : "run"));
		if (!first_in_results)
			flatten(t, row, "results.", r->results, arr_key);
		flatten(t, row, "verification.", ver, NULL);
		flatten(t, row, "", e, nk);
	}
	if (!first_in_results && !arr) { /* a report with no entry: one row of what it has */
		row = new_row(t, r);
		flatten(t, row, "verification.", ver, NULL);
		flatten(t, row, "results.", r->results, NULL);
	}
}

/* A value as text: integers whole, other numbers to digits (0: as many as read back the same), null empty. */
static void text_of(const cJSON *v, int digits, char *buf, size_t len)
{
	if (!v || cJSON_IsNull(v))
		snprintf(buf, len, "%s", "");
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9.007e15)
		snprintf(buf, len, "%.0f", v->valuedouble);
	else if (cJSON_IsNumber(v) && digits)
		snprintf(buf, len, "%.*g", digits, v->valuedouble);
	else if (cJSON_IsNumber(v))
		for (digits = 15; digits <= 17; digits++) { /* the shortest text that reads back the same */
			snprintf(buf, len, "%.*g", digits, v->valuedouble);
			if (strtod(buf, NULL) == v->valuedouble)
				break;
		}
	else
		snprintf(buf, len, "%s", "");
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_csv(FILE *f, const table *t, char **cols, size_t ncols)
{
	char buf[4096];
	size_t i, c;

	for (c = 0; c < ncols; c++) {
		if (c)
			fputc(',', f);
		csv_field(f, cols[c]);
	}
	fputc('\n', f);
	for (i = 0; i < t->n; i++) {
		for (c = 0; c < ncols; c++) {
			text_of(cJSON_GetObjectItemCaseSensitive(t->rows[i], cols[c]), 0, buf, sizeof(buf));
			if (c)
				fputc(',', f);
			csv_field(f, buf);
		}
		fputc('\n', f);
	}
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/* Whether a cell says nothing: missing, null or an empty string. */
static int blank(const cJSON *v)
{
	return !v || cJSON_IsNull(v) || (cJSON_IsString(v) && !*v->valuestring);
}

static int same_values(const table *t, const char *sub, const char *col)
{
	const cJSON *first = NULL;
	int seen = 0;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const cJSON *v;
		if (strcmp(t->subcommand[i], sub) != 0)
			continue;
		v = cJSON_GetObjectItemCaseSensitive(t->rows[i], col);
		if (!seen) {
			first = v;
			seen = 1;
		} else if (!(blank(first) ? blank(v) : !blank(v) && cJSON_Compare(first, v, 1))) {
			return 0;
		}
	}
	return 1;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Whether a column that every row shares is worth a line above the markdown table. */
static int shared_line(const char *col)
{
	return strcmp(col, "subcommand") == 0 || strcmp(col, "git_revision") == 0 || strcmp(col, "device") == 0 ||
	       (strncmp(col, "config.", 7) == 0) || strcmp(col, "device.uuid") == 0 ||
	       strcmp(col, "device.driver_version") == 0 || strcmp(col, "device.cpus_usable") == 0;
}

/* Whether the markdown table shows a column whose values differ (the stats' median, not their range). */
static int table_column(const char *col)
{
	return strcmp(col, "date_utc") != 0 && !has_suffix(col, ".min") && !has_suffix(col, ".max") &&
	       strncmp(col, "device.during_timing.", 21) != 0;
}

static void write_markdown_part(FILE *f, const table *t, const char *sub, char **cols, size_t ncols, int chosen)
{
	char buf[4096];
	size_t i, c, nshow = 0;
	char **show = gb_xcalloc(ncols + 1, sizeof(*show), "columns");

	for (c = 0; c < ncols; c++) {
		if (chosen || strcmp(cols[c], "report") == 0 || strcmp(cols[c], "entry") == 0 ||
		    (!same_values(t, sub, cols[c]) && table_column(cols[c]))) {
			show[nshow++] = cols[c];
			continue;
		}
		if (!shared_line(cols[c]))
			continue;
		for (i = 0; i < t->n && strcmp(t->subcommand[i], sub) != 0; i++)
			;
		text_of(cJSON_GetObjectItemCaseSensitive(t->rows[i], cols[c]), 6, buf, sizeof(buf));
		if (*buf) {
			fprintf(f, "- `%s`: ", cols[c]);
			md_cell(f, buf);
			fputc('\n', f);
		}
	}
	if (!chosen)
		fputc('\n', f);
	fputc('|', f);
	for (c = 0; c < nshow; c++) {
		fputc(' ', f);
		md_cell(f, show[c]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (c = 0; c < nshow; c++) {
		int numeric = 0;
		for (i = 0; i < t->n; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(t->rows[i], show[c]);
			if (strcmp(t->subcommand[i], sub) == 0 && v && !cJSON_IsNull(v)) {
				numeric = cJSON_IsNumber(v);
				break;
			}
		}
		fputs(numeric ? " ---: |" : " --- |", f);
	}
	fputc('\n', f);
	for (i = 0; i < t->n; i++) {
		if (strcmp(t->subcommand[i], sub) != 0)
			continue;
		fputc('|', f);
		for (c = 0; c < nshow; c++) {
			text_of(cJSON_GetObjectItemCaseSensitive(t->rows[i], show[c]), 4, buf, sizeof(buf));
			fputc(' ', f);
			md_cell(f, buf);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	free(show);
}

static void write_markdown(FILE *f, const table *t, char **cols, size_t ncols, int chosen)
{
	const char *subs[16];
	size_t nsubs = 0, i, j;

	for (i = 0; i < t->n; i++) {
		for (j = 0; j < nsubs && strcmp(subs[j], t->subcommand[i]) != 0; j++)
			;
		if (j == nsubs && nsubs < 16)
			subs[nsubs++] = t->subcommand[i];
	}
	for (j = 0; j < nsubs; j++) {
		if (nsubs > 1)
			fprintf(f, "%s## %s\n\n", j ? "\n" : "", subs[j]);
		write_markdown_part(f, t, subs[j], cols, ncols, chosen);
	}
}

/* --columns: the names given, each a column of the table, or exit 2. */
static char **chosen_columns(const table *t, const char *list, size_t *n)
{
	char *names[512], **cols;
	size_t k, c;
	unsigned got = gb_opt_list("columns", list, names, 512);

	for (k = 0; k < got; k++) {
		for (c = 0; c < t->ncols && strcmp(t->cols[c], names[k]) != 0; c++)
			;
		if (c == t->ncols)
			gb_die(GB_EXIT_USAGE, "option --columns: no column '%s' in these reports (gpubench export "
			       "--format columns lists them)", names[k]);
	}
	cols = gb_xcalloc(got, sizeof(*cols), "columns");
	memcpy(cols, names, got * sizeof(*cols));
	*n = got;
	return cols;
}

static int run(int argc, char **argv)
{
	options o;
	gb_report_set set;
	table t;
	char **cols, err[600];
	size_t ncols, i;
	gb_out out;
	FILE *f;
	int first, dir;

	memset(&o, 0, sizeof(o));
	memset(&set, 0, sizeof(set));
	memset(&t, 0, sizeof(t));
	first = gb_opts_parse(&spec, &o, NULL, argc, argv);
	if (first >= argc)
		gb_die(GB_EXIT_USAGE, "export: name at least one report or folder (see gpubench export --help)");
	{
		const gb_path_use paths[] = {{.opt = "output", .path = o.output}};
		gb_paths_check("export", paths, 1);
	}
	for (i = (size_t)first; i < (size_t)argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0)
			gb_die(GB_EXIT_USAGE, "export: cannot read %s: no such file or folder", argv[i]);
		/* the table written over a report it reads would lose the report; one inside a folder
		 * it reads, under a name the scan takes for a report, would be read as one next time */
		dir = S_ISDIR(st.st_mode);
		if (o.output && !gb_path_is_stdout(o.output) && gb_path_writes_over(o.output, argv[i], dir) &&
		    (!dir || gb_report_file_name(strrchr(o.output, '/') ? strrchr(o.output, '/') + 1 : o.output)))
			gb_die(GB_EXIT_USAGE, "export: option --output: %s %s the %s %s it reads; write the "
			       "table elsewhere%s", o.output, dir ? "is inside" : "is", dir ? "folder" : "report",
			       argv[i], dir ? ", or under a name not ending in .json" : "");
		if (S_ISDIR(st.st_mode))
			gb_report_set_scan(&set, argv[i], strlen(argv[i]) + 1);
		else
			gb_report_set_add(&set, argv[i], 0);
	}
	if (set.skipped)
		gb_note("note: export: %zu JSON file%s that %s not run reports skipped", set.skipped,
			set.skipped == 1 ? "" : "s", set.skipped == 1 ? "is" : "are");
	for (i = 0; i < set.n; i++)
		if (!o.subcommand || strcmp(set.r[i].subcommand, o.subcommand) == 0)
			add_report(&t, &set.r[i]);
	if (!t.n)
		gb_die(GB_EXIT_USAGE, "export: no run report%s%s in %s", o.subcommand ? " of " : "",
		       o.subcommand ? o.subcommand : "", argc - first == 1 ? argv[first] : "the paths given");
	if (o.columns) {
		cols = chosen_columns(&t, o.columns, &ncols);
	} else {
		cols = t.cols;
		ncols = t.ncols;
	}
	if (o.output) {
		f = gb_out_open(&out, o.output, err, sizeof(err));
		if (!f)
			gb_die(GB_EXIT_RUNTIME, "export: %s", err);
	} else {
		f = stdout;
	}
	if (o.format == FMT_CSV)
		write_csv(f, &t, cols, ncols);
	else if (o.format == FMT_MARKDOWN)
		write_markdown(f, &t, cols, ncols, o.columns != NULL);
	else
		for (i = 0; i < ncols; i++)
			fprintf(f, "%s\n", cols[i]);
	if (o.output && gb_out_close(&out, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "export: %s", err);
	if (!o.output && fflush(stdout) != 0)
		gb_die(GB_EXIT_RUNTIME, "export: cannot write the table to stdout");
	return 0;
}

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

const gb_command gb_cmd_export = {
	.name = "export",
	.summary = "reports or folders of reports as one CSV or markdown table",
	.run = run,
	.help = help,
};
