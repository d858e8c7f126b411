/* common/registry.c and common/impl.c: one shape for every registry, its lookups, help and info. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/backend.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/registry.h"
#include "common/report.h"
#include "tests/unit/test.h"

/* A registry's entries as an engine folder would define them, in a type of its own. */
typedef struct fake_engine {
	int weight;
	const char *family, *name, *summary;
	int where; /* 0 cpu, 1 gpu, 2 both */
	int built;
} fake_engine;

static const fake_engine cpu_a = {.family = "x", .name = "cpu", .summary = "serial", .where = 0, .built = 1};
static const fake_engine gpu_a = {.family = "x", .name = "gpu", .summary = "on the device", .where = 1, .built = 1};
static const fake_engine cpu_b = {.family = "y", .name = "cpu", .summary = "serial too", .where = 0, .built = 1};
static const fake_engine both_b = {.family = "y", .name = "anywhere-long", .summary = "both", .where = 2, .built = 0};
static const fake_engine *const fakes[] = {&cpu_a, &gpu_a, &cpu_b, &both_b, NULL};

static unsigned fake_backends(const void *e)
{
	static const unsigned on[] = {GB_BACKEND_MASK(GB_BACKEND_CPU), GB_BACKEND_MASK(GB_BACKEND_GPU),
				      GB_BACKEND_MASK(GB_BACKEND_CPU) | GB_BACKEND_MASK(GB_BACKEND_GPU)};
	return on[((const fake_engine *)e)->where];
}

static const char *fake_family(const void *e)
{
	return ((const fake_engine *)e)->family;
}

static const char *fake_unusable(const void *e)
{
	return ((const fake_engine *)e)->built ? NULL : "not compiled in";
}

static void fake_describe(const void *e, cJSON *o)
{
	gb_json_u64(o, "where", (uint64_t)((const fake_engine *)e)->where);
}

static const gb_registry grouped = {
	.what = "detector",
	.picked_by = "--impl, --compare",
	.entries = (const void *const *)fakes,
	.name_at = offsetof(fake_engine, name),
	.summary_at = offsetof(fake_engine, summary),
	.backends = fake_backends,
	.unusable = fake_unusable,
	.group = fake_family,
	.group_key = "family",
	.describe = fake_describe,
	.gpu_default = "gpu",
	.cpu_default = "cpu",
};

static const gb_registry workloads = {
	.what = "loop",
	.picked_by = "--loop",
	.entries = (const void *const *)fakes,
	.name_at = offsetof(fake_engine, name),
	.summary_at = offsetof(fake_engine, summary),
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
	CHECK(!gb_registry_on_gpu(&workloads, &gpu_a)); /* workloads run wherever their engine does */
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
			   "  anywhere-long both [not built]\n");
	free(text);
	text = captured(help_of, &workloads);
	CHECK_STR_EQ(text, "\n"
			   "Loops (--loop):\n"
			   "  cpu           serial\n"
			   "  gpu           on the device\n"
			   "  cpu           serial too\n"
			   "  anywhere-long both\n");
	free(text);
}

TEST(registry_info_one_shape)
{
	cJSON *arr = cJSON_CreateArray(), *e;
	char *text = captured(info_of, &grouped), *json;

	CHECK_STR_EQ(text, "cmd x detector cpu: serial\n"
			   "cmd x detector gpu: on the device\n"
			   "cmd y detector cpu: serial too\n"
			   "cmd y detector anywhere-long (not built): both\n");
	free(text);
	gb_registry_info(&grouped, "cmd", arr, NULL);
	REQUIRE(cJSON_GetArraySize(arr) == 4);
	e = cJSON_GetArrayItem(arr, 3);
	json = cJSON_PrintUnformatted(e);
	CHECK_STR_EQ(json, "{\"family\":\"y\",\"name\":\"anywhere-long\",\"summary\":\"both\","
			   "\"backends\":[\"gpu\",\"cpu\"],\"gpu\":false,\"built\":false,\"where\":2}");
	free(json);
	json = cJSON_PrintUnformatted(cJSON_GetArrayItem(arr, 1));
	CHECK_STR_EQ(json, "{\"family\":\"x\",\"name\":\"gpu\",\"summary\":\"on the device\","
			   "\"backends\":[\"gpu\"],\"gpu\":true,\"built\":true,\"where\":1}");
	free(json);
	cJSON_Delete(arr);
	arr = cJSON_CreateArray();
	gb_registry_info(&workloads, "cmd", arr, NULL);
	json = cJSON_PrintUnformatted(cJSON_GetArrayItem(arr, 0));
	CHECK_STR_EQ(json, "{\"loop\":\"cpu\",\"summary\":\"serial\"}");
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
