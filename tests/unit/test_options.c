/* common/options.c (option rows), gb_help_wrap and gb_speedup_text. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/impl.h"
#include "common/options.h"
#include "common/opts.h"
#include "tests/unit/test.h"

typedef struct demo_opts {
	gb_run_opts run;
	uint64_t size;
	double share;
	const char *name;
	int mode, flag;
} demo_opts;

static const char *const modes[] = {"fast", "slow", NULL};

static const gb_opt_row demo_rows[] = {
	{.name = "size", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = 4096, .def = "64",
	 .offset = offsetof(demo_opts, size), .help = "how many"},
	{.name = "share", .kind = GB_OPT_REAL, .metavar = "F", .flo = 0, .fhi = 1, .def = "0.5",
	 .offset = offsetof(demo_opts, share), .help = "which part"},
	{.name = "name", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = offsetof(demo_opts, name),
	 .help = "a name, with a help sentence long enough that it has to be wrapped at least once "
		 "or twice before it ends"},
	{.name = "mode", .kind = GB_OPT_CHOICE, .metavar = "M", .choices = modes, .def = "slow",
	 .offset = offsetof(demo_opts, mode), .help = "how"},
	{.name = "flag", .kind = GB_OPT_FLAG, .offset = offsetof(demo_opts, flag), .set_to = 1,
	 .help = "a flag"},
};

static const gb_opt_default demo_defaults[] = {{.name = "reps", .def = "7"}, {.name = NULL}};

static const gb_opt_spec demo_spec = {
	.cmd = "demo",
	.intro = "A subcommand for the tests.",
	.rows = demo_rows,
	.nrows = sizeof(demo_rows) / sizeof(demo_rows[0]),
	.defaults = demo_defaults,
	.unit = "thing",
	.check_unit = "piece",
	.compare_help = "others",
	.example = "Example: gpubench demo --size 8",
};

TEST(options_defaults_and_values)
{
	char *argv[] = {"demo", "--size", "128", "--mode", "fast", "--flag", "--seed", "9", "--no-verify",
			"--json", "-", "--share=0.25", NULL};
	unsigned char given[5 + GB_OPTS_SHARED];
	demo_opts o;

	memset(&o, 0, sizeof(o));
	gb_opts_parse(&demo_spec, &o, given, 12, argv);
	CHECK_EQ(o.size, 128);
	CHECK(o.share == 0.25);
	CHECK(o.name == NULL);
	CHECK_EQ(o.mode, 0);
	CHECK_EQ(o.flag, 1);
	CHECK_EQ(o.run.seed, 9);
	CHECK_EQ(o.run.reps, 7);     /* the subcommand's default for a shared row */
	CHECK_EQ(o.run.warmup, 0);
	CHECK(o.run.timeout == 600);
	CHECK_EQ(o.run.verify, 0);
	CHECK_EQ(o.run.verify_every, 0); /* --no-verify checks nothing */
	CHECK_STR_EQ(o.run.json, "-");
	CHECK(given[0] && given[1] && !given[2] && given[3] && given[4]);
	CHECK(gb_opts_given(&demo_spec, given, "seed"));
	CHECK(!gb_opts_given(&demo_spec, given, "reps"));

	{
		char *argv2[] = {"demo", "--verify-every", "0", NULL};
		memset(&o, 0, sizeof(o));
		gb_opts_parse(&demo_spec, &o, NULL, 3, argv2);
		CHECK_EQ(o.size, 64);
		CHECK(o.share == 0.5);
		CHECK_EQ(o.mode, 1);
		CHECK_EQ(o.run.verify, 0); /* --verify-every 0 is --no-verify */
	}
}

/* Every line of text at most 80 columns; returns the number of lines. */
static int lines_fit(const char *text)
{
	int n = 0;
	const char *p = text;
	while (*p) {
		size_t len = strcspn(p, "\n");
		if (len > GB_HELP_COLUMNS)
			return -1;
		n++;
		p += len + (p[len] == '\n');
	}
	return n;
}

TEST(options_help_fits_and_shows_ranges)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	REQUIRE(f != NULL);
	gb_opts_help(f, &demo_spec);
	fclose(f);
	CHECK(lines_fit(buf) > 10);
	CHECK_CONTAINS(buf, "--size N              how many (2..4096, default 64)");
	CHECK_CONTAINS(buf, "--share F             which part (0..1, default 0.5)");
	CHECK_CONTAINS(buf, "--mode M              how (fast|slow, default slow)");
	{
		/* the help wrapped into single spaces: a row's text across its lines */
		char *flat = strdup(buf), *r = flat, *w = flat;
		for (; *r; r++)
			if (!((*r == ' ' || *r == '\n') && w > flat && w[-1] == ' '))
				*w++ = *r == '\n' ? ' ' : *r;
		*w = 0;
		CHECK_CONTAINS(flat, "--reps N timed repetitions of the whole thing (1..100000, default 7)");
		CHECK_CONTAINS(flat, "--verify-every K check every K-th piece against the oracle");
		free(flat);
	}
	CHECK_CONTAINS(buf, "--compare LIST        others");
	free(buf);
}

/* A subcommand that narrows a shared row's range: parsing, the message and the help follow it. */
static const gb_opt_default narrow_defaults[] = {
	{.name = "verify-every", .def = "3", .lo = 1, .hi = 9},
	{.name = "warmup", .def = "2"},
	{.name = NULL},
};

static const gb_opt_spec narrow_spec = {
	.cmd = "narrow",
	.intro = "A subcommand whose checks cannot be turned off by --verify-every 0.",
	.rows = demo_rows,
	.nrows = sizeof(demo_rows) / sizeof(demo_rows[0]),
	.defaults = narrow_defaults,
	.check_unit = "piece",
};

static void parse_narrow(void *arg)
{
	char *argv[] = {"narrow", "--verify-every", (char *)arg, NULL};
	demo_opts o;
	memset(&o, 0, sizeof(o));
	gb_opts_parse(&narrow_spec, &o, NULL, 3, argv);
}

static char *help_of(const gb_opt_spec *spec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	gb_opts_help(f, spec);
	fclose(f);
	return buf;
}

TEST(options_shared_row_narrowed_range)
{
	char *argv[] = {"narrow", "--verify-every", "9", NULL}, err[256], *help;
	demo_opts o;

	memset(&o, 0, sizeof(o));
	gb_opts_parse(&narrow_spec, &o, NULL, 1, argv);
	CHECK_EQ(o.run.verify_every, 3); /* the subcommand's default */
	CHECK_EQ(o.run.warmup, 2);
	CHECK_EQ(o.run.reps, 3);         /* not set otherwise: the row's own */
	memset(&o, 0, sizeof(o));
	gb_opts_parse(&narrow_spec, &o, NULL, 3, argv);
	CHECK_EQ(o.run.verify_every, 9);
	CHECK_EQ(o.run.verify, 1);
	CHECK_EQ_I(tu_run_child(parse_narrow, "0", err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "option --verify-every: 0 is out of range (accepted: 1..9)");
	CHECK_EQ_I(tu_run_child(parse_narrow, "10", err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "(accepted: 1..9)");

	help = help_of(&narrow_spec);
	REQUIRE(help != NULL);
	CHECK_CONTAINS(help, "check every K-th piece against the oracle (1..9,");
	CHECK(strstr(help, "0 checks none") == NULL); /* 0 is not accepted here */
	free(help);
	help = help_of(&demo_spec);
	REQUIRE(help != NULL);
	CHECK_CONTAINS(help, "against the oracle; 0 checks none");
	free(help);
}

/* A subcommand with operands, a repeatable row and only two shared rows, worded its own way (compare). */
typedef struct few_opts {
	gb_run_opts run;
	gb_opt_texts tags;
} few_opts;

static const gb_opt_row few_rows[] = {
	{.name = "tag", .kind = GB_OPT_TEXTS, .metavar = "NAME", .offset = offsetof(few_opts, tags),
	 .help = "keep the ones tagged NAME"},
};

static const gb_opt_wording few_wording[] = {{"json", "write the list as JSON"}, {NULL, NULL}};

static const gb_opt_spec few_spec = {
	.cmd = "few",
	.operands = "A B",
	.intro = "A subcommand with operands.",
	.rows = few_rows,
	.nrows = 1,
	.shared = GB_SHARED(GB_SHARED_JSON) | GB_SHARED(GB_SHARED_QUIET),
	.wording = few_wording,
};

static void parse_few(void *arg)
{
	char *argv[] = {"few", (char *)arg, "a", "b", NULL};
	few_opts o;
	memset(&o, 0, sizeof(o));
	gb_opts_parse(&few_spec, &o, NULL, 4, argv);
}

TEST(options_operands_repeated_rows_and_some_shared_rows)
{
	char *argv[] = {"few", "first", "--tag", "x", "--quiet", "--tag=y", "second", "--json", "out.json", NULL};
	char err[256], *help;
	unsigned char given[1 + GB_OPTS_SHARED];
	few_opts o;
	int first, quiet = gb_quiet;

	memset(&o, 0, sizeof(o));
	first = gb_opts_parse(&few_spec, &o, given, 9, argv);
	gb_quiet = quiet;
	REQUIRE(first == 7);              /* getopt moves the operands behind the options */
	CHECK_STR_EQ(argv[first], "first");
	CHECK_STR_EQ(argv[first + 1], "second");
	REQUIRE(o.tags.n == 2);
	CHECK_STR_EQ(o.tags.v[0], "x");
	CHECK_STR_EQ(o.tags.v[1], "y");
	CHECK_EQ(o.run.quiet, 1);
	CHECK_STR_EQ(o.run.json, "out.json");
	CHECK_EQ(o.run.reps, 0);          /* a shared row it does not have gets no default */
	CHECK(gb_opts_given(&few_spec, given, "tag"));

	CHECK_EQ_I(tu_run_child(parse_few, "--reps=2", err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "few: unknown option '--reps=2'");
	CHECK_EQ_I(tu_run_child(parse_few, "--tag=", err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "option --tag: empty name");

	help = help_of(&few_spec);
	REQUIRE(help != NULL);
	CHECK_CONTAINS(help, "usage: gpubench few [options] A B\n");
	CHECK_CONTAINS(help, "--tag NAME            keep the ones tagged NAME (repeatable, at most 32)\n");
	CHECK_CONTAINS(help, "A subcommand with operands.\n\n  --tag");
	CHECK_CONTAINS(help, "--json PATH           write the list as JSON\n");
	CHECK_CONTAINS(help, "--quiet               no summary, notes or progress\n");
	CHECK(strstr(help, "--reps") == NULL && strstr(help, "--compare") == NULL);
	free(help);
}

static void parse_too_many(void *arg)
{
	char *argv[GB_OPT_TEXTS_MAX + 5] = {"few"};
	few_opts o;
	int k;
	(void)arg;
	for (k = 1; k <= GB_OPT_TEXTS_MAX + 1; k++)
		argv[k] = "--tag=t";
	memset(&o, 0, sizeof(o));
	gb_opts_parse(&few_spec, &o, NULL, k, argv);
}

TEST(options_repeated_row_has_a_limit)
{
	char err[256];

	CHECK_EQ_I(tu_run_child(parse_too_many, NULL, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "option --tag: at most 32");
}

TEST(help_wrap_breaks_between_words)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const char text[] = "one two three four five six seven eight nine ten eleven twelve "
				   "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty";

	REQUIRE(f != NULL);
	fputs("  --x N      ", f);
	gb_help_wrap(f, 13, 13, text);
	fclose(f);
	CHECK(lines_fit(buf) == 3);
	CHECK(strstr(buf, " \n") == NULL);            /* no trailing blank */
	CHECK(strstr(buf, "\n             ") != NULL); /* continuation at the indent */
	free(buf);
}

TEST(speedup_text_says_slower_below_one)
{
	char b[64];
	CHECK_STR_EQ(gb_speedup_text(b, sizeof(b), "gpu", 1.0, 2.5), "gpu is 2.5x faster");
	CHECK_STR_EQ(gb_speedup_text(b, sizeof(b), "gpu", 2.0, 1.0), "gpu is 2x slower");
	CHECK_STR_EQ(gb_speedup_text(b, sizeof(b), "gpu", 0, 1.0), "");
}

/* argv of parse_twice: "demo" and the words of a NULL-terminated list */
static void parse_twice(void *arg)
{
	char **words = arg, *argv[8] = {"demo"};
	demo_opts o;
	int n = 1;

	while (words[n - 1] && n < 7) {
		argv[n] = words[n - 1];
		n++;
	}
	memset(&o, 0, sizeof(o));
	gb_opts_parse(&demo_spec, &o, NULL, n, argv);
}

TEST(options_given_twice_are_refused_unless_repeatable)
{
	static char *json[] = {"--json", "a", "--json=b", NULL};
	static char *size[] = {"--size", "8", "--size", "8", NULL};
	static char *flag[] = {"--flag", "--flag", NULL};
	static char *verify[] = {"--no-verify", "--verify-every", "2", NULL};
	char err[256];

	/* the last value silently winning would drop the first */
	CHECK_EQ_I(tu_run_child(parse_twice, json, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "demo: option --json is given more than once (only options marked repeatable may be");
	CHECK_EQ_I(tu_run_child(parse_twice, size, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "option --size is given more than once");
	CHECK_EQ_I(tu_run_child(parse_twice, flag, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "option --flag is given more than once");
	/* --no-verify checks nothing: a --verify-every beside it would be ignored */
	CHECK_EQ_I(tu_run_child(parse_twice, verify, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "demo: option --verify-every does not apply with --no-verify");
}

/* Entries of which only some read an option: the check names the readers and the choice. */
typedef struct scoped_entry {
	gb_entry_head head;
} scoped_entry;

static const char *const heap_opts[] = {"size", NULL};
static const scoped_entry plain = {{"plain", "reads no option", GB_BACKEND_MASK(GB_BACKEND_CPU), NULL, NULL}};
static const scoped_entry heaped = {{"heaped", "reads --size", GB_BACKEND_MASK(GB_BACKEND_CPU), NULL, heap_opts}};
static const scoped_entry *const scoped_entries[] = {&plain, &heaped, NULL};
static const gb_registry scoped = {.what = "implementation", .picked_by = "--impl",
				   .entries = (const void *const *)scoped_entries};

static void check_scope(void *arg)
{
	unsigned char given[5 + GB_OPTS_SHARED] = {0};
	gb_impl_choice c = {.e = {&plain}, .n = 1};

	given[0] = 1; /* --size */
	if (arg)
		c.e[c.n++] = arg;
	gb_impl_check_options(&scoped, &c, &demo_spec, given);
}

TEST(options_read_by_some_entries_only_apply_to_them)
{
	char err[256];

	CHECK_EQ_I(tu_run_child(check_scope, NULL, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "option --size applies only to heaped, not to --impl plain");
	/* one chosen entry reading it is enough */
	CHECK_EQ_I(tu_run_child(check_scope, (void *)&heaped, err, sizeof(err)), 0);
}
