/* gpubench info: devices found, backends and engines compiled in. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/cpus.h"
#include "common/device.h"
#include "common/error.h"
#include "common/nvml.h"
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
	.intro = "Lists the CUDA devices this process sees (name, UUID, PCI bus id, SMs, memory, compute "
		 "capability, clocks now and why they are below their highest), the NVIDIA driver's version, "
		 "CUDA_VISIBLE_DEVICES, the CPUs this process may use, the backends compiled into this binary and "
		 "the engines each subcommand offers, each with what it runs. Exits 0 even when no GPU is present.",
	.shared = GB_SHARED(GB_SHARED_JSON) | GB_SHARED(GB_SHARED_QUIET),
	.wording = wording,
};

/* The cgroup quota in words, for the host line. */
static const char *quota_words(const gb_cpu_limits *c, char *buf, size_t len)
{
	if (c->quota > 0)
		snprintf(buf, len, "cgroup quota %.2f CPUs", c->quota);
	else
		snprintf(buf, len, "no cgroup CPU quota");
	return buf;
}

/*
 * What NVML says of the device with this UUID now: clocks, highest clocks and
 * why they are lower, into o's "nvml" (null without NVML) and, listing, a line.
 */
static void device_now(cJSON *o, const char *uuid, int listing)
{
	void *dev = gb_nvml_device(uuid);
	unsigned sm, mem, max_sm, max_mem, k, i;
	uint64_t reasons = 0;
	const char *names[16];
	cJSON *x, *r;

	if (!dev || gb_nvml_clocks(dev, &sm, &mem) != 0) {
		cJSON_AddNullToObject(o, "nvml");
		return;
	}
	if (gb_nvml_max_clocks(dev, &max_sm, &max_mem) != 0)
		max_sm = max_mem = 0;
	gb_nvml_reasons(dev, &reasons);
	x = cJSON_AddObjectToObject(o, "nvml");
	gb_json_u64(x, "sm_clock_mhz", sm);
	gb_json_u64(x, "memory_clock_mhz", mem);
	gb_json_u64(x, "max_sm_clock_mhz", max_sm);
	gb_json_u64(x, "max_memory_clock_mhz", max_mem);
	r = cJSON_AddArrayToObject(x, "clock_reasons");
	k = gb_nvml_reason_names(reasons, names, 16);
	for (i = 0; i < k; i++)
		cJSON_AddItemToArray(r, cJSON_CreateString(names[i]));
	gb_json_bool(x, "throttled", (reasons & GB_NVML_THROTTLING) != 0);
	if (!listing)
		return;
	printf("  now: SM %u MHz, memory %u MHz (highest %u, %u); clock reasons:", sm, mem, max_sm, max_mem);
	for (i = 0; i < k; i++)
		printf("%s %s", i ? "," : "", names[i]);
	printf("%s%s\n", k ? "" : " none", reasons & GB_NVML_THROTTLING ? " (THROTTLED)" : "");
}

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

static int run(int argc, char **argv)
{
	gb_run_opts o;
	const char *json, *vis;
	char why[256] = "", driver[96] = "", quota[64];
	int i, n, drv, rt, listing, nvml;
	gb_cpu_limits cpus;
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

	gb_cpu_limits_get(&cpus);
	nvml = gb_nvml_open(why, sizeof(why));
	if (nvml && gb_nvml_driver_version(driver, sizeof(driver)) == 0) {
		gb_json_str(root, "driver_version", driver);
	} else {
		cJSON_AddNullToObject(root, "driver_version");
		gb_json_str(root, "nvml_error", nvml ? "nvmlSystemGetDriverVersion failed" : why);
	}
	gb_json_visible_devices(root);
	vis = getenv("CUDA_VISIBLE_DEVICES");
	if (listing) {
		puts(GB_VERSION_LINE);
		printf("backends compiled in: cpu%s\n", gb_cuda_compiled() ? ", gpu" : "");
		if (gb_cuda_compiled())
			printf("CUDA kernels for: %s; driver %d, runtime %d\n", gb_cuda_archs(), drv, rt);
		if (nvml && *driver)
			printf("NVIDIA driver: %s (NVML)\n", driver);
		else
			printf("NVIDIA driver: unknown (%s)\n", nvml ? "nvmlSystemGetDriverVersion failed" : why);
		if (vis)
			printf("CUDA_VISIBLE_DEVICES=%s\n", vis);
		printf("host CPU: %s, %d logical cores; this process may use %d (affinity %s, %s)\n",
		       cJSON_GetObjectItem(root, "cpu_model")->valuestring, cpus.online, cpus.usable,
		       cpus.affinity_list, quota_words(&cpus, quota, sizeof(quota)));
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
		gb_json_str(o, "uuid", d.uuid);
		gb_json_str(o, "pci_bus_id", d.pci_bus_id);
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
			       "SM clock %d MHz, memory clock %d MHz\n  UUID %s, PCI bus %s\n",
			       i, d.name, cc, d.sm_count, d.global_mem_bytes / 1073741824.0,
			       d.l2_bytes / 1048576.0, d.sm_clock_khz / 1000, d.mem_clock_khz / 1000, d.uuid,
			       d.pci_bus_id);
		device_now(o, d.uuid, listing);
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
