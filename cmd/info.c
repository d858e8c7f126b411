/* gpubench info: devices found, backends and engines compiled in. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/device.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"
#include "common/report.h"
#include "common/version.h"
#include "common/registry.h"

static const gb_opt_wording wording[] = {
	{"json", "also write the same as a JSON document ('-' for stdout)"},
	{"quiet", "no human-readable listing"},
	{NULL, NULL},
};

/* Only the shared --json and --quiet: info runs nothing to repeat, check or compare. */
static const gb_opt_spec spec = {
	.cmd = "info",
	.intro = "Lists the CUDA devices this machine has (name, SMs, memory, clocks, compute capability), the "
		 "backends compiled into this binary and the engines each subcommand offers. Exits 0 even when "
		 "no GPU is present.",
	.shared = GB_SHARED(GB_SHARED_JSON) | GB_SHARED(GB_SHARED_QUIET),
	.wording = wording,
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

static int run(int argc, char **argv)
{
	gb_run_opts o;
	const char *json;
	char why[256] = "";
	int i, n, drv, rt, listing;
	cJSON *root, *devs, *backends, *engines;

	memset(&o, 0, sizeof(o));
	gb_opts_parse(&spec, &o, NULL, argc, argv);
	json = o.json;
	{
		const gb_path_use paths[] = {{.opt = "json", .path = json}};
		gb_paths_check("info", paths, 1);
	}
	listing = !gb_quiet && !(json && gb_path_is_stdout(json)); /* stdout holds only JSON then */

	root = cJSON_CreateObject();
	gb_json_u64(root, "schema_version", GB_SCHEMA_VERSION);
	gb_json_str(root, "gpubench_version", GB_VERSION);
	gb_json_str(root, "git_revision", GB_GIT_REV);
	backends = cJSON_AddArrayToObject(root, "backends");
	cJSON_AddItemToArray(backends, cJSON_CreateString("cpu"));
	if (gb_cuda_compiled())
		cJSON_AddItemToArray(backends, cJSON_CreateString("gpu"));
	gb_json_str(root, "cuda_architectures", gb_cuda_archs());
	gb_cuda_versions(&drv, &rt);
	gb_json_u64(root, "cuda_driver_version", (uint64_t)drv);
	gb_json_u64(root, "cuda_runtime_version", (uint64_t)rt);
	gb_describe_host_cpu(root);

	if (listing) {
		puts(GB_VERSION_LINE);
		printf("backends compiled in: cpu%s\n", gb_cuda_compiled() ? ", gpu" : "");
		if (gb_cuda_compiled())
			printf("CUDA kernels for: %s; driver %d, runtime %d\n", gb_cuda_archs(), drv, rt);
		printf("host CPU: %s, %d logical cores\n",
		       cJSON_GetObjectItem(root, "cpu_model")->valuestring, gb_cpu_count());
	}
	devs = cJSON_AddArrayToObject(root, "devices");
	n = gb_device_count(why, sizeof(why));
	if (n == 0) {
		gb_json_str(root, "no_device_reason", why);
		if (listing)
			printf("devices: none (%s)\n", why);
	}
	for (i = 0; i < n; i++) {
		gb_device_info d;
		cJSON *o;
		char cc[16];
		if (gb_device_query(i, &d) != 0)
			continue;
		o = cJSON_CreateObject();
		snprintf(cc, sizeof(cc), "%d.%d", d.cc_major, d.cc_minor);
		gb_json_u64(o, "index", (uint64_t)i);
		gb_json_str(o, "name", d.name);
		gb_json_str(o, "compute_capability", cc);
		gb_json_u64(o, "sm_count", (uint64_t)d.sm_count);
		gb_json_u64(o, "global_memory_bytes", d.global_mem_bytes);
		gb_json_u64(o, "l2_bytes", d.l2_bytes);
		gb_json_u64(o, "sm_clock_khz", (uint64_t)d.sm_clock_khz);
		gb_json_u64(o, "memory_clock_khz", (uint64_t)d.mem_clock_khz);
		gb_json_u64(o, "memory_bus_bits", (uint64_t)d.mem_bus_bits);
		cJSON_AddItemToArray(devs, o);
		if (listing)
			printf("device %d: %s, compute capability %s, %d SMs, %.1f GiB, L2 %.0f MiB, "
			       "SM clock %d MHz, memory clock %d MHz\n",
			       i, d.name, cc, d.sm_count, d.global_mem_bytes / 1073741824.0,
			       d.l2_bytes / 1048576.0, d.sm_clock_khz / 1000, d.mem_clock_khz / 1000);
	}
	engines = cJSON_AddObjectToObject(root, "engines");
	for (i = 0; gb_commands[i]; i++) {
		const gb_command *c = gb_commands[i];
		char key[64];
		if (c->registry)
			gb_registry_info(c->registry, c->name, cJSON_AddArrayToObject(engines, c->name),
					 listing ? stdout : NULL);
		if (c->workloads) {
			snprintf(key, sizeof(key), "%s_workloads", c->name);
			gb_registry_info(c->workloads, c->name, cJSON_AddArrayToObject(engines, key),
					 listing ? stdout : NULL);
		}
		if (c->baselines) {
			snprintf(key, sizeof(key), "%s_baselines", c->name);
			gb_registry_info(c->baselines, c->name, cJSON_AddArrayToObject(engines, key),
					 listing ? stdout : NULL);
		}
	}
	if (json) {
		gb_report r = {root, NULL, NULL, NULL, NULL};
		if (gb_report_write(&r, json) != 0) {
			cJSON_Delete(root);
			return GB_EXIT_RUNTIME;
		}
	}
	cJSON_Delete(root);
	return 0;
}

const gb_command gb_cmd_info = {
	.name = "info",
	.summary = "devices, backends and engines available",
	.run = run,
	.help = help,
};
