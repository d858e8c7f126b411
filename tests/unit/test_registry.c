/* common/registry.c and common/impl.c: one shape for every registry, its lookups, help and info. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/backend.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/json.h"
#include "common/registry.h"
#include "tests/unit/test.h"

#define CPU GB_BACKEND_MASK(GB_BACKEND_CPU)
#define GPU GB_BACKEND_MASK(GB_BACKEND_GPU)

/* A registry's entries as an engine folder would define them, in a type of its own. */
typedef struct fake_engine {
	gb_entry_head head;
	const char *family;
	int where; /* 0 cpu, 1 gpu, 2 both */
} fake_engine;

static const fake_engine cpu_a = {{"cpu", "serial", CPU, NULL, NULL}, "x", 0};
static const fake_engine gpu_a = {{"gpu", "on the device", GPU, NULL, NULL}, "x", 1};
static const fake_engine cpu_b = {{"cpu", "serial too", CPU, NULL, NULL}, "y", 0};
static const fake_engine both_b = {{"anywhere-long", "both", GPU | CPU, "not compiled in", NULL}, "y", 2};
static const fake_engine *const fakes[] = {&cpu_a, &gpu_a, &cpu_b, &both_b, NULL};

/* Workloads: they run wherever their engine does. */
static const fake_engine loop_a = {{"plain", "no dependence", 0, NULL, NULL}, NULL, 0};
static const fake_engine loop_b = {{"chained-long", "one dependence an iteration", 0, NULL, NULL}, NULL, 0};
static const fake_engine *const loops[] = {&loop_a, &loop_b, NULL};

static const char *fake_family(const void *e)
{
	return ((const fake_engine *)e)->family;
}

static void fake_describe(const void *e, cJSON *o)
{
	gb_json_u64(o, "where", (uint64_t)((const fake_engine *)e)->where);
}

static const gb_registry grouped = {
	.what = "detector",
	.picked_by = "--impl, --compare",
	.entries = (const void *const *)fakes,
	.group = fake_family,
	.group_key = "family",
	.describe = fake_describe,
	.gpu_default = "gpu",
	.cpu_default = "cpu",
};

static const gb_registry workloads = {
	.what = "loop",
	.picked_by = "--loop",
	.entries = (const void *const *)loops,
	.name_key = "loop",
};

static char *captured(void (*fn)(FILE *out, const void *arg), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fn(f, arg);
	fclose(f);
	return text;
}

static void help_of(FILE *out, const void *r)
{
	gb_registry_help(out, r);
}

static void info_of(FILE *out, const void *r)
{
	cJSON *arr = cJSON_CreateArray();
	gb_registry_info(r, "cmd", arr, out);
	cJSON_Delete(arr);
}

TEST(registry_lookup_by_group_and_name)
{
	CHECK(gb_registry_find(&grouped, "x", "cpu") == &cpu_a);
	CHECK(gb_registry_find(&grouped, "y", "cpu") == &cpu_b);
	CHECK(gb_registry_find(&grouped, NULL, "cpu") == &cpu_a);
	CHECK(gb_registry_find(&grouped, "x", "anywhere-long") == NULL);
	CHECK(gb_registry_on_gpu(&grouped, &gpu_a));
	CHECK(!gb_registry_on_gpu(&grouped, &both_b));
	CHECK(!gb_registry_on_gpu(&grouped, &cpu_a));
	CHECK(gb_registry_find(&workloads, NULL, "chained-long") == &loop_b);
	CHECK(!gb_registry_on_gpu(&workloads, &loop_a)); /* workloads run wherever their engine does */
}

static void pick_unknown(void *arg)
{
	(void)arg;
	gb_registry_pick(&grouped, "y", "impl", "gpu");
}

TEST(registry_pick_names_what_is_accepted)
{
	char err[512];

	CHECK_EQ_I(tu_run_child(pick_unknown, NULL, err, sizeof(err)), GB_EXIT_USAGE);
	CHECK_CONTAINS(err, "option --impl: unknown y detector 'gpu' (accepted: cpu|anywhere-long)");
}

TEST(registry_help_lists_each_group_under_its_heading)
{
	char *text = captured(help_of, &grouped);

	CHECK_STR_EQ(text, "\n"
			   "x detectors (--impl, --compare):\n"
			   "  cpu           serial\n"
			   "  gpu           on the device\n"
			   "\n"
			   "y detectors (--impl, --compare):\n"
			   "  cpu           serial too\n"
			   "  anywhere-long both [not built: not compiled in]\n");
	free(text);
	text = captured(help_of, &workloads);
	CHECK_STR_EQ(text, "\n"
			   "Loops (--loop):\n"
			   "  plain        no dependence\n"
			   "  chained-long one dependence an iteration\n");
	free(text);
}

TEST(registry_info_one_shape)
{
	cJSON *arr = cJSON_CreateArray(), *e;
	char *text = captured(info_of, &grouped), *json;

	CHECK_STR_EQ(text, "cmd x detector cpu: serial\n"
			   "cmd x detector gpu: on the device\n"
			   "cmd y detector cpu: serial too\n"
			   "cmd y detector anywhere-long (not built: not compiled in): both\n");
	free(text);
	gb_registry_info(&grouped, "cmd", arr, NULL);
	REQUIRE(cJSON_GetArraySize(arr) == 4);
	e = cJSON_GetArrayItem(arr, 3);
	json = cJSON_PrintUnformatted(e);
	CHECK_STR_EQ(json, "{\"family\":\"y\",\"name\":\"anywhere-long\",\"summary\":\"both\","
			   "\"backends\":[\"gpu\",\"cpu\"],\"gpu\":false,\"built\":false,"
			   "\"unavailable\":\"not compiled in\",\"where\":2}");
	free(json);
	json = cJSON_PrintUnformatted(cJSON_GetArrayItem(arr, 1));
	CHECK_STR_EQ(json, "{\"family\":\"x\",\"name\":\"gpu\",\"summary\":\"on the device\","
			   "\"backends\":[\"gpu\"],\"gpu\":true,\"built\":true,\"where\":1}");
	free(json);
	cJSON_Delete(arr);
	arr = cJSON_CreateArray();
	gb_registry_info(&workloads, "cmd", arr, NULL);
	json = cJSON_PrintUnformatted(cJSON_GetArrayItem(arr, 0));
	CHECK_STR_EQ(json, "{\"loop\":\"plain\",\"summary\":\"no dependence\"}");
	free(json);
	cJSON_Delete(arr);
}

TEST(impl_choose_in_a_group)
{
	gb_impl_choice c;

	tu_stderr_off();
	gb_impl_choose(&grouped, "y", NULL, NULL, GB_BACKEND_CPU, &c);
	tu_stderr_on();
	CHECK_EQ(c.n, 1);
	CHECK(c.e[0] == &cpu_b);
	CHECK(!c.gpu);
}

static void choose_unavailable(void *arg)
{
	gb_impl_choice c;
	gb_impl_choose(&grouped, "y", "cpu", arg, GB_BACKEND_AUTO, &c);
}

TEST(impl_choose_refuses_an_unavailable_entry_with_its_reason)
{
	char err[512];

	CHECK_EQ_I(tu_run_child(choose_unavailable, "anywhere-long", err, sizeof(err)), GB_EXIT_USAGE);
	CHECK_CONTAINS(err, "--impl/--compare anywhere-long is not built into this binary: not compiled in");
}

static void compare_unavailable(void *arg)
{
	gb_impl_choice c;
	(void)arg;
	gb_impl_compare(&grouped, "y", "cpu,anywhere-long", &c);
}

TEST(impl_compare_alone_keeps_the_order_given)
{
	gb_impl_choice c;
	char err[512];

	gb_impl_compare(&workloads, NULL, "chained-long,plain", &c);
	REQUIRE(c.n == 2);
	CHECK(c.e[0] == &loop_b);
	CHECK(c.e[1] == &loop_a);
	CHECK(!c.gpu);
	gb_impl_compare(&workloads, NULL, NULL, &c);
	CHECK_EQ(c.n, 0);
	CHECK_EQ_I(tu_run_child(compare_unavailable, NULL, err, sizeof(err)), GB_EXIT_USAGE);
	CHECK_CONTAINS(err, "--compare anywhere-long is not built into this binary: not compiled in");
}

TEST(registry_words_name_each_entry_with_its_summary)
{
	char text[256];

	gb_registry_words(&workloads, text, sizeof(text));
	CHECK_STR_EQ(text, "plain (no dependence), chained-long (one dependence an iteration)");
	gb_registry_words(&grouped, text, sizeof(text));
	CHECK_STR_EQ(text, "cpu (serial), gpu (on the device), cpu (serial too), "
			   "anywhere-long (both; not built: not compiled in)");
	gb_registry_words(&grouped, text, 40);
	CHECK_EQ(strlen(text), 39);
}
