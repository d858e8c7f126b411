#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/backend.h"
#include "common/device.h"
#include "common/error.h"
#include "common/json.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/registry.h"
#include "common/stop.h"

#define RUN(field) offsetof(gb_run_opts, field)

/* The shared rows; their help says what they count through %s: the spec's unit, or check_unit. */
static const gb_opt_row shared_rows[] = {
	[GB_SHARED_BACKEND] = {
		.name = "backend", .kind = GB_OPT_CHOICE, .metavar = "WHERE", .choices = gb_backend_names,
		.def = "auto", .offset = RUN(backend),
		.help = "where to run (auto: the GPU when one is found); where there is an --impl, it picks the "
			"default one"},
	[GB_SHARED_DEVICE] = {
		.name = "device", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 1023, .offset = RUN(device),
		.help = "the CUDA device to run on (by default the first): its index among those "
			"CUDA_VISIBLE_DEVICES leaves visible, as gpubench info lists them; the report names the card"},
	[GB_SHARED_COMPARE] = {.name = "compare", .kind = GB_OPT_TEXT, .metavar = "LIST", .help = NULL,
			       .offset = RUN(compare)},
	[GB_SHARED_REPS] = {.name = "reps", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 100000, .def = "3",
			    .help = "timed repetitions of the whole %s", .offset = RUN(reps)},
	[GB_SHARED_WARMUP] = {.name = "warmup", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 1000,
			      .def = "0", .help = "untimed repetitions of the whole %s before them",
			      .offset = RUN(warmup)},
	[GB_SHARED_SEED] = {.name = "seed", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = UINT64_MAX,
			    .def = "1", .help = "seed of the generator", .offset = RUN(seed)},
	[GB_SHARED_TIMEOUT] = {
		.name = "timeout", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0.001, .fhi = 864000, .def = "600",
		.help = "stop after S seconds, generation, the oracle and verification included: the repetition "
			"under way is abandoned, the report gives what finished, marked incomplete, and the exit "
			"status is 1; SIGINT and SIGTERM stop a run the same way (a second one ends it at once). "
			"What cannot stop sooner ends the process within a grace of 5 s + S/10 (60 s at most)",
		.offset = RUN(timeout)},
	[GB_SHARED_VERIFY_EVERY] = {.name = "verify-every", .kind = GB_OPT_UINT, .metavar = "K", .lo = 0,
				    .hi = UINT64_MAX, .def = "1", .help = "check every K-th %s against the oracle",
				    .offset = RUN(verify_every)},
	[GB_SHARED_NO_VERIFY] = {.name = "no-verify", .kind = GB_OPT_FLAG,
				 .help = "check nothing; the report says \"verified\": null", .offset = RUN(verify),
				 .set_to = 0},
	[GB_SHARED_JSON] = {.name = "json", .kind = GB_OPT_TEXT, .metavar = "PATH",
			    .help = "write the JSON report to PATH ('-': stdout; docs/report-schema.md)",
			    .offset = RUN(json)},
	[GB_SHARED_QUIET] = {.name = "quiet", .kind = GB_OPT_FLAG, .help = "no summary, notes or progress",
			     .offset = RUN(quiet), .set_to = 1},
};
#define NSHARED (sizeof(shared_rows) / sizeof(shared_rows[0]))
_Static_assert(NSHARED == GB_OPTS_SHARED, "GB_OPTS_SHARED counts the shared rows");

static const gb_opt_row *row_at(const gb_opt_spec *s, size_t i)
{
	return i < s->nrows ? &s->rows[i] : &shared_rows[i - s->nrows];
}

/* Whether row i is one of the subcommand's: its own, or a shared row it has. */
static int has_row(const gb_opt_spec *s, size_t i)
{
	return i < s->nrows || !s->shared || (s->shared & GB_SHARED(i - s->nrows));
}

/* The subcommand's setting of shared row i, or NULL. */
static const gb_opt_default *setting_of(const gb_opt_spec *s, size_t i)
{
	const gb_opt_default *d;
	if (i >= s->nrows)
		for (d = s->defaults; d && d->name; d++)
			if (strcmp(d->name, shared_rows[i - s->nrows].name) == 0)
				return d;
	return NULL;
}

static const char *default_of(const gb_opt_spec *s, size_t i)
{
	const gb_opt_default *d = setting_of(s, i);
	return d && d->def ? d->def : row_at(s, i)->def;
}

static void range_of(const gb_opt_spec *s, size_t i, uint64_t *lo, uint64_t *hi)
{
	const gb_opt_default *d = setting_of(s, i);
	const gb_opt_row *r = row_at(s, i);
	*lo = d && (d->lo || d->hi) ? d->lo : r->lo;
	*hi = d && (d->lo || d->hi) ? d->hi : r->hi;
}

static void store(const gb_opt_spec *s, size_t i, void *dst, const char *text)
{
	const gb_opt_row *r = row_at(s, i);
	char *at = (char *)dst + r->offset;
	uint64_t lo, hi;

	switch (r->kind) {
	case GB_OPT_FLAG:
		*(int *)at = r->set_to;
		break;
	case GB_OPT_UINT:
		range_of(s, i, &lo, &hi);
		*(uint64_t *)at = gb_opt_u64(r->name, text, lo, hi);
		break;
	case GB_OPT_REAL:
		*(double *)at = gb_opt_double(r->name, text, r->flo, r->fhi);
		break;
	case GB_OPT_TEXT:
		*(const char **)at = text;
		break;
	case GB_OPT_CHOICE:
		*(int *)at = gb_opt_choice(r->name, text, r->choices);
		break;
	case GB_OPT_TEXTS: {
		gb_opt_texts *t = (gb_opt_texts *)at;
		if (!*text) {
			char what[32];
			size_t k;
			for (k = 0; r->metavar[k] && k + 1 < sizeof(what); k++)
				what[k] = (char)tolower((unsigned char)r->metavar[k]);
			what[k] = '\0';
			gb_die(GB_EXIT_USAGE, "option --%s: empty %s", r->name, what);
		}
		if (t->n == GB_OPT_TEXTS_MAX)
			gb_die(GB_EXIT_USAGE, "option --%s: at most %d", r->name, GB_OPT_TEXTS_MAX);
		t->v[t->n++] = text;
		break;
	}
	}
}

void gb_opts_defaults(const gb_opt_row *rows, size_t n, void *dst)
{
	const gb_opt_spec spec = {.cmd = "", .rows = rows, .nrows = n};
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].def)
			store(&spec, i, dst, rows[i].def);
}

int gb_opts_parse(const gb_opt_spec *spec, void *dst, unsigned char *given, int argc, char **argv)
{
	size_t n = spec->nrows + NSHARED, i, nlo = 0;
	struct option *lo = gb_xcalloc(n + 2, sizeof(*lo), "options");
	gb_run_opts *run = dst;
	unsigned char *seen = gb_xcalloc(n, 1, "options");
	int c, first;

	run->verify = 1;
	run->device = GB_DEVICE_UNSET;
	for (i = 0; i < n; i++) {
		const gb_opt_row *r = row_at(spec, i);
		const char *def = default_of(spec, i);
		if (!has_row(spec, i))
			continue;
		if (def)
			store(spec, i, dst, def);
		lo[nlo].name = r->name;
		lo[nlo].has_arg = r->kind == GB_OPT_FLAG ? no_argument : required_argument;
		lo[nlo++].val = 256 + (int)i;
	}
	lo[nlo].name = "help";
	lo[nlo].val = 'h';
	if (given)
		memset(given, 0, n);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (c == 'h') {
			gb_opts_help(stdout, spec);
			exit(0);
		}
		if (c < 256 || c >= 256 + (int)n)
			gb_opt_fail(spec->cmd, c, argv, lo);
		i = (size_t)(c - 256);
		/* one value each: a second would silently replace the first */
		if (seen[i] && row_at(spec, i)->kind != GB_OPT_TEXTS)
			gb_die(GB_EXIT_USAGE, "%s: option --%s is given more than once (only options marked "
			       "repeatable may be; see 'gpubench help %s')", spec->cmd, row_at(spec, i)->name, spec->cmd);
		seen[i] = 1;
		store(spec, i, dst, optarg);
		if (given)
			given[i] = 1;
	}
	first = optind;
	if (!spec->operands)
		gb_opt_no_operands(spec->cmd, argc, argv);
	free(lo);
	if (seen[spec->nrows + GB_SHARED_NO_VERIFY] && seen[spec->nrows + GB_SHARED_VERIFY_EVERY])
		gb_die(GB_EXIT_USAGE, "%s: option --verify-every does not apply with --no-verify, which checks "
		       "nothing", spec->cmd);
	free(seen);
	if (run->quiet)
		gb_quiet = 1;
	if (run->device != GB_DEVICE_UNSET)
		gb_device_select(run->device);
	if (!run->verify)
		run->verify_every = 0;
	if (!run->verify_every)
		run->verify = 0;
	if (has_row(spec, spec->nrows + GB_SHARED_TIMEOUT))
		gb_stop_arm(spec->cmd, run, argc, argv);
	return first;
}

int gb_opts_given(const gb_opt_spec *spec, const unsigned char *given, const char *name)
{
	size_t i;
	for (i = 0; i < spec->nrows + NSHARED; i++)
		if (strcmp(row_at(spec, i)->name, name) == 0)
			return given[i];
	return 0;
}

/*
 * A row's help into text (len bytes): the shared rows' "%s" becomes unit (what
 * a repetition or check is of); every other character, a '%' included, is
 * copied as it is, so a help text is never a format string. Returns the
 * length written.
 */
static size_t help_text(char *text, size_t len, const char *help, const char *unit)
{
	size_t k = 0, u = strlen(unit);

	while (*help && k + 1 < len) {
		if (help[0] == '%' && help[1] == 's') {
			size_t n = u < len - 1 - k ? u : len - 1 - k;
			memcpy(text + k, unit, n);
			k += n;
			help += 2;
		} else {
			text[k++] = *help++;
		}
	}
	text[k] = '\0';
	return k;
}

size_t gb_opts_count(const gb_opt_spec *spec)
{
	return spec->nrows + NSHARED;
}

const gb_opt_row *gb_opts_row(const gb_opt_spec *spec, size_t i)
{
	return row_at(spec, i);
}

size_t gb_opts_row_help(const gb_opt_spec *spec, size_t i, char *text, size_t len)
{
	const gb_opt_row *r = row_at(spec, i);
	const char *def = default_of(spec, i), *help = r->help, *unit;
	const gb_opt_wording *w;
	char listed[768];
	uint64_t lo, hi;
	size_t k;

	if (i >= spec->nrows && strcmp(r->name, "compare") == 0)
		help = spec->compare_help;
	for (w = spec->wording; i >= spec->nrows && w && w->name; w++)
		if (strcmp(w->name, r->name) == 0)
			help = w->help;
	if (!help || !has_row(spec, i))
		return 0;
	if (i >= spec->nrows && strcmp(r->name, "compare") == 0 && spec->compare_from) {
		k = (size_t)snprintf(listed, sizeof(listed), "%s: ", help);
		gb_registry_words(spec->compare_from, listed + k, sizeof(listed) - k);
		help = listed;
	}
	unit = strcmp(r->name, "verify-every") == 0 ? spec->check_unit : spec->unit;
	k = help_text(text, len, help, unit ? unit : "run");
	range_of(spec, i, &lo, &hi);
	if (i >= spec->nrows && strcmp(r->name, "verify-every") == 0 && lo == 0)
		k += (size_t)snprintf(text + k, len - k, "; 0 checks none");
	if (r->kind == GB_OPT_UINT)
		k += (size_t)snprintf(text + k, len - k, " (%" PRIu64 "..%" PRIu64, lo, hi);
	else if (r->kind == GB_OPT_REAL)
		k += (size_t)snprintf(text + k, len - k, " (%g..%g", r->flo, r->fhi);
	else if (r->kind == GB_OPT_TEXTS)
		k += (size_t)snprintf(text + k, len - k, " (repeatable, at most %d", GB_OPT_TEXTS_MAX);
	else if (r->kind == GB_OPT_CHOICE) {
		const char *const *ch;
		for (ch = r->choices; *ch; ch++)
			k += (size_t)snprintf(text + k, len - k, "%s%s", ch == r->choices ? " (" : "|", *ch);
	}
	if (def && r->kind != GB_OPT_FLAG)
		k += (size_t)snprintf(text + k, len - k, "%sdefault %s)", r->kind == GB_OPT_TEXT ? " (" : ", ", def);
	else if (r->kind == GB_OPT_UINT || r->kind == GB_OPT_REAL || r->kind == GB_OPT_CHOICE ||
		 r->kind == GB_OPT_TEXTS)
		k += (size_t)snprintf(text + k, len - k, ")");
	return k < len ? k : len - 1;
}

/* "  --name META" and the help text with its range and default, wrapped at the help column. */
static void help_row(FILE *out, const gb_opt_spec *spec, size_t i)
{
	const gb_opt_row *r = row_at(spec, i);
	char text[1024], line[64];
	int col;

	if (!gb_opts_row_help(spec, i, text, sizeof(text)))
		return;
	snprintf(line, sizeof(line), "  --%s%s%s", r->name, r->metavar ? " " : "", r->metavar ? r->metavar : "");
	col = fprintf(out, "%-24s", line);
	if (strlen(line) >= 24) { /* no room for the space that parts the name from its text */
		fprintf(out, "\n%24s", "");
		col = 24;
	}
	gb_help_wrap(out, col, 24, text);
}

void (*gb_opts_help_hook)(const gb_opt_spec *spec, void *arg);
void *gb_opts_help_hook_arg;

void gb_opts_help(FILE *out, const gb_opt_spec *spec)
{
	size_t i;

	if (gb_opts_help_hook) {
		gb_opts_help_hook(spec, gb_opts_help_hook_arg);
		return;
	}
	fprintf(out, "usage: gpubench %s [options]%s%s\n\n", spec->cmd, spec->operands ? " " : "",
		spec->operands ? spec->operands : "");
	gb_help_wrap(out, 0, 0, spec->intro);
	fputc('\n', out);
	for (i = 0; i < spec->nrows; i++)
		help_row(out, spec, i);
	if (spec->extra_help)
		spec->extra_help(out);
	/* after a blank line, unless the intro's is the last line */
	if (spec->nrows || spec->extra_help)
		fputc('\n', out);
	fputs("Common options (the same meaning in every subcommand that has them):\n", out);
	for (i = spec->nrows; i < spec->nrows + NSHARED; i++)
		help_row(out, spec, i);
	fputs("  -h, --help            this text\n\n", out);
	gb_help_wrap(out, 0, 0, "An option given twice is a usage error (exit 2), but for one marked repeatable; "
		     "an option that does not apply to what the others chose is one too.");
	if (spec->example) {
		fputc('\n', out);
		gb_help_wrap(out, 0, 2, spec->example);
	}
}

void gb_opts_config(cJSON *config, const gb_run_opts *run)
{
	gb_json_u64(config, "reps", run->reps);
	gb_json_u64(config, "warmup", run->warmup);
	gb_json_num(config, "timeout_s", run->timeout);
	gb_json_bool(config, "verify", run->verify);
	gb_json_u64(config, "verify_every", run->verify_every);
}
