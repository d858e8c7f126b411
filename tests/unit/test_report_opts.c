/* common/report.c (JSON reports) and common/opts.c (option values, exit 2). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/opts.h"
#include "common/report.h"
#include "common/version.h"
#include "tests/unit/test.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Number of directory entries (other than . and ..) and whether any contains ".tmp.". */
static int count_entries(const char *dir, int *tmp_found)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	*tmp_found = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n++;
		if (strstr(e->d_name, ".tmp."))
			*tmp_found = 1;
	}
	closedir(d);
	return n;
}

static cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

TEST(report_roundtrip)
{
	char dir[4200], path[4300];
	char *argv[] = {"stm", "--threads", "4", "--json", "x y.json"};
	const char *blocks[] = {"meta", "device", "config", "results", "verification"};
	gb_report r;
	cJSON *root, *meta, *a, *c, *o;
	char *text;
	double vals[] = {1, 2, 4};
	int i, tmp_found;

	snprintf(dir, sizeof(dir), "%s/report", tu_tmpdir());
	REQUIRE(mkdir(dir, 0700) == 0);
	snprintf(path, sizeof(path), "%s/run.json", dir);

	gb_report_init(&r, "stm", 5, argv);
	gb_report_set_device(&r, GB_BACKEND_CPU, NULL, 3);
	gb_json_u64(r.config, "threads", 4);
	/* 15 significant digits: what cJSON 1.7 prints exactly (see the report below) */
	gb_json_u64(r.results, "big", 999999999999999ull);
	gb_json_u64(r.results, "u32max", UINT32_MAX);
	gb_json_num(r.results, "ratio", 0.25);
	gb_json_num(r.results, "nan", NAN);
	gb_json_num(r.results, "inf", INFINITY);
	gb_json_str(r.results, "nullstr", NULL);
	gb_json_bool(r.verification, "verified", 7);
	gb_json_stats(r.results, "tput", gb_stats_of(vals, 3));
	REQUIRE(gb_report_write(&r, path) == 0);
	gb_report_free(&r);
	CHECK(r.root == NULL);

	CHECK_EQ(count_entries(dir, &tmp_found), 1);
	CHECK(!tmp_found);
	text = slurp(path);
	REQUIRE(text != NULL);
	CHECK(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
	root = cJSON_Parse(text);
	free(text);
	REQUIRE(root != NULL);
	CHECK_EQ(cJSON_GetArraySize(root), 5);
	for (i = 0; i < 5; i++) {
		cJSON *b = cJSON_GetArrayItem(root, i);
		CHECK(cJSON_IsObject(b));
		CHECK_STR_EQ(b ? b->string : NULL, blocks[i]);
	}
	meta = get(root, "meta");
	REQUIRE(cJSON_IsObject(meta));
	CHECK(cJSON_IsNumber(get(meta, "schema_version")));
	CHECK_EQ(get(meta, "schema_version") ? get(meta, "schema_version")->valueint : -1, 1);
	CHECK_STR_EQ(cJSON_GetStringValue(get(meta, "gpubench_version")), GB_VERSION);
	CHECK(cJSON_IsString(get(meta, "git_revision")));
	CHECK(cJSON_IsString(get(meta, "build_flags")));
	CHECK_STR_EQ(cJSON_GetStringValue(get(meta, "subcommand")), "stm");
	CHECK(cJSON_IsTrue(get(meta, "complete")));
	CHECK(cJSON_IsString(get(meta, "host")));
	{
		const char *d = cJSON_GetStringValue(get(meta, "date_utc"));
		CHECK(d && strlen(d) == 20 && d[4] == '-' && d[10] == 'T' && d[19] == 'Z');
	}
	a = get(meta, "argv");
	REQUIRE(cJSON_IsArray(a));
	CHECK_EQ(cJSON_GetArraySize(a), 5);
	for (i = 0; i < 5 && i < cJSON_GetArraySize(a); i++)
		CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetArrayItem(a, i)), argv[i]);

	o = get(root, "device");
	CHECK_STR_EQ(cJSON_GetStringValue(get(o, "backend")), "cpu");
	CHECK(cJSON_IsString(get(o, "cpu_model")));
	CHECK(cJSON_IsNumber(get(o, "cpu_logical_cores")) && get(o, "cpu_logical_cores")->valuedouble >= 1);
	CHECK(cJSON_IsNumber(get(o, "cpu_workers")) && get(o, "cpu_workers")->valuedouble == 3);
	CHECK(cJSON_IsFalse(get(o, "no_gpu_fallback")));
	CHECK(get(o, "name") == NULL); /* no GPU fields on the CPU backend */

	CHECK_EQ(get(get(root, "config"), "threads")->valuedouble, 4);
	c = get(root, "results");
	CHECK(get(c, "big") && get(c, "big")->valuedouble == 999999999999999.0);
	CHECK(get(c, "u32max") && get(c, "u32max")->valuedouble == 4294967295.0);
	CHECK(get(c, "ratio") && get(c, "ratio")->valuedouble == 0.25);
	CHECK(cJSON_IsNull(get(c, "nan")));
	CHECK(cJSON_IsNull(get(c, "inf")));
	CHECK_STR_EQ(cJSON_GetStringValue(get(c, "nullstr")), "");
	CHECK(cJSON_IsTrue(get(get(root, "verification"), "verified")));
	o = get(c, "tput");
	REQUIRE(cJSON_IsObject(o));
	CHECK_EQ(get(o, "n")->valuedouble, 3);
	CHECK(get(o, "min")->valuedouble == 1);
	CHECK(get(o, "median")->valuedouble == 2);
	CHECK(fabs(get(o, "mean")->valuedouble - 7.0 / 3) < 1e-12);
	CHECK(get(o, "max")->valuedouble == 4);
	CHECK(fabs(get(o, "stdev")->valuedouble - sqrt(7.0 / 3)) < 1e-12);
	cJSON_Delete(root);

	/* overwriting an existing report replaces it */
	gb_report_init(&r, "info", 0, NULL);
	REQUIRE(gb_report_write(&r, path) == 0);
	gb_report_free(&r);
	text = slurp(path);
	root = text ? cJSON_Parse(text) : NULL;
	free(text);
	REQUIRE(root != NULL);
	CHECK_STR_EQ(cJSON_GetStringValue(get(get(root, "meta"), "subcommand")), "info");
	CHECK_EQ(cJSON_GetArraySize(get(get(root, "meta"), "argv")), 0);
	cJSON_Delete(root);
	CHECK_EQ(count_entries(dir, &tmp_found), 1);
	CHECK(!tmp_found);
}

TEST(report_unwritable_path)
{
	char dir[4200], path[4300];
	gb_report r;
	int tmp_found;

	snprintf(dir, sizeof(dir), "%s/unwritable", tu_tmpdir());
	REQUIRE(mkdir(dir, 0700) == 0);
	gb_report_init(&r, "stm", 0, NULL);

	/* a directory that does not exist */
	snprintf(path, sizeof(path), "%s/no/such/dir/run.json", dir);
	tu_stderr_off();
	CHECK_EQ_I(gb_report_write(&r, path), -1);
	tu_stderr_on();
	CHECK_EQ(count_entries(dir, &tmp_found), 0);

	/* the path is a directory: the temporary file is written, the rename
	 * fails, and the temporary file must be gone again */
	snprintf(path, sizeof(path), "%s/adir", dir);
	REQUIRE(mkdir(path, 0700) == 0);
	tu_stderr_off();
	CHECK_EQ_I(gb_report_write(&r, path), -1);
	tu_stderr_on();
	CHECK_EQ(count_entries(dir, &tmp_found), 1); /* adir only */
	CHECK(!tmp_found);

	/* a file in the way of a directory component */
	snprintf(path, sizeof(path), "%s/file", dir);
	{
		FILE *f = fopen(path, "w");
		REQUIRE(f != NULL);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/file/run.json", dir);
	tu_stderr_off();
	CHECK_EQ_I(gb_report_write(&r, path), -1);
	tu_stderr_on();
	CHECK_EQ(count_entries(dir, &tmp_found), 2);
	CHECK(!tmp_found);
	gb_report_free(&r);
}

/* ---- option parsing: bad values exit 2 ---- */

typedef struct opt_case {
	int kind; /* 0 u64, 1 u32, 2 double, 3 choice */
	const char *text;
	uint64_t lo, hi;
	double dlo, dhi;
} opt_case;

static const char *const choices[] = {"red", "green", "blue", NULL};

static void parse_child(void *arg)
{
	const opt_case *c = arg;
	switch (c->kind) {
	case 0:
		(void)gb_opt_u64("frobs", c->text, c->lo, c->hi);
		break;
	case 1:
		(void)gb_opt_u32("frobs", c->text, (uint32_t)c->lo, (uint32_t)c->hi);
		break;
	case 2:
		(void)gb_opt_double("frobs", c->text, c->dlo, c->dhi);
		break;
	default:
		(void)gb_opt_choice("colour", c->text, choices);
		break;
	}
	/* returned: the value was accepted */
	_exit(0);
}

static void expect_exit2(int line, int kind, const char *text, uint64_t lo, uint64_t hi,
			 double dlo, double dhi, const char *range)
{
	opt_case c = {kind, text, lo, hi, dlo, dhi};
	char err[1024];
	int rc = tu_run_child(parse_child, &c, err, sizeof(err));
	if (rc != 2)
		tu_fail(__FILE__, line, "value '%s' (kind %d): exit %d, expected 2 (stderr: %s)", text,
			kind, rc, err);
	if (!strstr(err, kind == 3 ? "--colour" : "--frobs"))
		tu_fail(__FILE__, line, "value '%s': message does not name the option: %s", text, err);
	if (range && !strstr(err, range))
		tu_fail(__FILE__, line, "value '%s': message lacks the range '%s': %s", text, range, err);
	if (strncmp(err, "gpubench: ", 10) != 0)
		tu_fail(__FILE__, line, "value '%s': message not prefixed 'gpubench: ': %s", text, err);
}

#define BAD_U64(text, lo, hi, range) expect_exit2(__LINE__, 0, text, lo, hi, 0, 0, range)
#define BAD_U32(text, lo, hi, range) expect_exit2(__LINE__, 1, text, lo, hi, 0, 0, range)
#define BAD_DBL(text, lo, hi, range) expect_exit2(__LINE__, 2, text, 0, 0, lo, hi, range)

TEST(opts_u64_rejects_bad_input)
{
	BAD_U64("abc", 0, 100, "0..100");
	BAD_U64("", 0, 100, "0..100");
	BAD_U64("   ", 0, 100, "0..100");
	BAD_U64("-1", 0, 100, "0..100");
	BAD_U64("-0", 0, 100, "0..100");
	BAD_U64("+5", 0, 100, "0..100");
	BAD_U64("12x", 0, 100, "0..100");
	BAD_U64("12 ", 0, 100, "0..100");
	BAD_U64("1e3", 0, 100000, "0..100000");
	BAD_U64("0x10", 0, 100, "0..100");
	BAD_U64("3.5", 0, 100, "0..100");
	BAD_U64("99999999999999999999999", 0, UINT64_MAX, "0..18446744073709551615");
	BAD_U64("18446744073709551616", 0, UINT64_MAX, "0..18446744073709551615");
	BAD_U64("101", 0, 100, "0..100");
	BAD_U64("0", 1, 100, "1..100");
	BAD_U64("4", 5, 9, "5..9");
}

TEST(opts_u32_rejects_bad_input)
{
	BAD_U32("abc", 1, 1024, "1..1024");
	BAD_U32("", 1, 1024, "1..1024");
	BAD_U32("-1", 1, 1024, "1..1024");
	BAD_U32("12x", 1, 1024, "1..1024");
	BAD_U32("99999999999999999999999", 1, 1024, "1..1024");
	BAD_U32("1025", 1, 1024, "1..1024");
	BAD_U32("0", 1, 1024, "1..1024");
	/* above 32 bits must not wrap into range */
	BAD_U32("4294967296", 0, UINT32_MAX, "0..4294967295");
	BAD_U32("4294967297", 0, 100, "0..100");
}

TEST(opts_double_rejects_bad_input)
{
	BAD_DBL("abc", 0, 10, "0..10");
	BAD_DBL("", 0, 10, "0..10");
	BAD_DBL("1.5x", 0, 10, "0..10");
	BAD_DBL("-1", 0, 10, "0..10");
	BAD_DBL("10.5", 0, 10, "0..10");
	BAD_DBL("nan", 0, 10, "0..10");
	BAD_DBL("inf", 0, 10, "0..10");
	BAD_DBL("1e400", 0, 10, "0..10");
	BAD_DBL("0x10", 0, 100, "0..100"); /* a hex float: the integer options take decimals only too */
	BAD_DBL("0X1p2", 0, 100, "0..100");
	BAD_DBL("0.0001", 0.001, 10, "0.001..10");
}

TEST(opts_choice_rejects_unknown)
{
	opt_case c = {3, "purple", 0, 0, 0, 0};
	char err[1024];
	CHECK_EQ_I(tu_run_child(parse_child, &c, err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "--colour");
	CHECK_CONTAINS(err, "purple");
	CHECK_CONTAINS(err, "red|green|blue");
	c.text = "";
	CHECK_EQ_I(tu_run_child(parse_child, &c, err, sizeof(err)), 2);
	c.text = "RED";
	CHECK_EQ_I(tu_run_child(parse_child, &c, err, sizeof(err)), 2);
}

TEST(opts_valid_values_exact)
{
	opt_case c = {0, "42", 0, 100, 0, 0};
	char err[256];

	CHECK_EQ(gb_opt_u64("x", "0", 0, 10), 0u);
	CHECK_EQ(gb_opt_u64("x", "10", 0, 10), 10u);
	CHECK_EQ(gb_opt_u64("x", "007", 0, 10), 7u);
	CHECK_EQ(gb_opt_u64("x", "18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
	CHECK_EQ(gb_opt_u64("x", "9007199254740993", 0, UINT64_MAX), 9007199254740993ull);
	CHECK_EQ(gb_opt_u32("x", "4294967295", 0, UINT32_MAX), 4294967295u);
	CHECK_EQ(gb_opt_u32("x", "32", 0, 1024), 32u);
	CHECK_EQ(gb_opt_u32("x", "1", 1, 1), 1u);
	CHECK(gb_opt_double("x", "0.001", 0.001, 10) == 0.001);
	CHECK(gb_opt_double("x", "2.5", 0, 10) == 2.5);
	CHECK(gb_opt_double("x", "1e1", 0, 10) == 10);
	CHECK(gb_opt_double("x", "0", 0, 10) == 0);
	CHECK_EQ_I(gb_opt_choice("c", "red", choices), 0);
	CHECK_EQ_I(gb_opt_choice("c", "blue", choices), 2);
	/* a valid value does not exit */
	CHECK_EQ_I(tu_run_child(parse_child, &c, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "");
}

static void list_child(void *arg)
{
	char *names[2];
	(void)gb_opt_list("impls", arg, names, 2);
	_exit(0);
}

TEST(opts_list_splits_and_rejects)
{
	char *names[3], err[1024];
	CHECK_EQ(gb_opt_list("impls", "cpu", names, 3), 1u);
	CHECK_STR_EQ(names[0], "cpu");
	free(names[0]);
	CHECK_EQ(gb_opt_list("impls", "gpu,cpu,cpu-fast", names, 3), 3u);
	CHECK_STR_EQ(names[0], "gpu");
	CHECK_STR_EQ(names[1], "cpu");
	CHECK_STR_EQ(names[2], "cpu-fast");
	free(names[0]);
	/* empty names and too many names exit 2 naming the option */
	CHECK_EQ_I(tu_run_child(list_child, "a,,b", err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "--impls");
	CHECK_EQ_I(tu_run_child(list_child, ",a", err, sizeof(err)), 2);
	CHECK_EQ_I(tu_run_child(list_child, "a,", err, sizeof(err)), 2);
	CHECK_EQ_I(tu_run_child(list_child, "", err, sizeof(err)), 2);
	CHECK_EQ_I(tu_run_child(list_child, "a,b,c", err, sizeof(err)), 2);
	CHECK_CONTAINS(err, "at most 2");
	CHECK_EQ_I(tu_run_child(list_child, "a,b", err, sizeof(err)), 0);
}
