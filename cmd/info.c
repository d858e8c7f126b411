/* gpubench info: devices found, backends and engines compiled in. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/device.h"
#include "common/error.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/version.h"
#include "deadlock/pba_engine.h"
#include "deadlock/rag.h"
#include "structures/list_engine.h"
#include "stm/stm.h"
#include "workloads/stm_workload.h"
#include "workloads/spec_loops.h"

static void help(FILE *out)
{
	fputs("usage: gpubench info [--json PATH] [--quiet]\n"
	      "\n"
	      "Lists the CUDA devices this machine has (name, SMs, memory, clocks, compute\n"
	      "capability), the backends compiled into this binary and the engines each\n"
	      "subcommand offers. Exits 0 even when no GPU is present.\n"
	      "\n"
	      "  --json PATH   also write the same as a JSON document ('-' for stdout)\n"
	      "  --quiet       no human-readable listing\n"
	      "  -h, --help    this text\n",
	      out);
}

/* An STM engine: its backends, limits, the workloads it runs and, in a sentence, those it does not. */
static void describe_stm_engine(cJSON *list, const stm_engine *e, int listing)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *b = cJSON_AddArrayToObject(o, "backends");
	cJSON *runs = cJSON_CreateArray(), *cannot = cJSON_CreateArray();
	const stm_engine_run *r;
	char why[256], names[256] = "";
	int gpu = 0, i;

	for (r = e->runs; r->workload; r++) {
		gpu |= r->gpu != NULL;
		cJSON_AddItemToArray(runs, cJSON_CreateString(r->workload->name));
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? ", " : "",
			 r->workload->name);
	}
	gb_json_str(o, "name", e->name);
	gb_json_str(o, "summary", e->summary);
	if (gpu)
		cJSON_AddItemToArray(b, cJSON_CreateString("gpu"));
	cJSON_AddItemToArray(b, cJSON_CreateString("cpu"));
	gb_json_u64(o, "max_threads", e->max_threads);
	gb_json_u64(o, "max_words_per_transaction", e->max_set);
	cJSON_AddItemToObject(o, "workloads", runs);
	for (i = 0; stm_workloads[i]; i++)
		if (stm_cannot_run(e, stm_workloads[i], why, sizeof(why)))
			cJSON_AddItemToArray(cannot, cJSON_CreateString(why));
	cJSON_AddItemToObject(o, "cannot_run", cannot);
	cJSON_AddItemToArray(list, o);
	if (!listing)
		return;
	printf("stm engine %s (%s): %s; runs %s\n", e->name, gpu ? "gpu, cpu" : "cpu", e->summary, names);
	for (i = 0; stm_workloads[i]; i++)
		if (stm_cannot_run(e, stm_workloads[i], why, sizeof(why)))
			printf("stm engine %s: %s\n", e->name, why);
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *json = NULL;
	char why[256] = "";
	int c, i, n, drv, rt, listing;
	cJSON *root, *devs, *backends, *engines;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = optarg;
			break;
		case 'q':
			gb_quiet = 1;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			gb_opt_fail("info", c, argv, opts);
		}
	}
	gb_opt_no_operands("info", argc, argv);
	{
		const gb_path_use paths[] = {{"json", json, 0}};
		gb_paths_check("info", paths, 1);
	}
	listing = !gb_quiet && !(json && strcmp(json, "-") == 0); /* stdout holds only JSON then */

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
	{
		cJSON *stm = cJSON_AddArrayToObject(engines, "stm");
		for (i = 0; stm_engines[i]; i++)
			describe_stm_engine(stm, stm_engines[i], listing);
		stm = cJSON_AddArrayToObject(engines, "stm_workloads");
		for (i = 0; stm_workloads[i]; i++) {
			cJSON *o = cJSON_CreateObject();
			gb_json_str(o, "name", stm_workloads[i]->name);
			gb_json_str(o, "summary", stm_workloads[i]->summary);
			cJSON_AddItemToArray(stm, o);
			if (listing)
				printf("stm workload %s: %s\n", stm_workloads[i]->name, stm_workloads[i]->summary);
		}
		stm = cJSON_AddArrayToObject(engines, "avoid");
		for (i = 0; pba_engines[i]; i++) {
			cJSON *o = cJSON_CreateObject();
			gb_json_str(o, "name", pba_engines[i]->name);
			gb_json_str(o, "summary", pba_engines[i]->summary);
			gb_json_bool(o, "gpu", pba_engines[i]->needs_gpu);
			cJSON_AddItemToArray(stm, o);
			if (listing)
				printf("avoid implementation %s: %s\n", pba_engines[i]->name,
				       pba_engines[i]->summary);
		}
		stm = cJSON_AddArrayToObject(engines, "detect");
		for (i = 0; rag_engines[i]; i++) {
			cJSON *o = cJSON_CreateObject();
			gb_json_str(o, "algo", rag_engines[i]->algo);
			gb_json_str(o, "name", rag_engines[i]->name);
			gb_json_str(o, "summary", rag_engines[i]->summary);
			gb_json_bool(o, "gpu", rag_engines[i]->needs_gpu);
			cJSON_AddItemToArray(stm, o);
			if (listing)
				printf("detect %s detector %s: %s\n", rag_engines[i]->algo,
				       rag_engines[i]->name, rag_engines[i]->summary);
		}
		stm = cJSON_AddArrayToObject(engines, "speculate");
		for (i = 0; sp_loops[i]; i++) {
			cJSON *o = cJSON_CreateObject();
			gb_json_str(o, "loop", sp_loops[i]->name);
			gb_json_str(o, "summary", sp_loops[i]->summary);
			cJSON_AddItemToArray(stm, o);
			if (listing)
				printf("speculate loop %s: %s\n", sp_loops[i]->name, sp_loops[i]->summary);
		}
		stm = cJSON_AddArrayToObject(engines, "list");
		for (i = 0; list_engines[i]; i++) {
			static const char *const platforms[] = {"cpu", "gpu", "opencl"};
			cJSON *o = cJSON_CreateObject();
			gb_json_str(o, "name", list_engines[i]->name);
			gb_json_str(o, "summary", list_engines[i]->summary);
			gb_json_str(o, "platform", platforms[list_engines[i]->platform]);
			gb_json_bool(o, "built", list_engines[i]->available);
			cJSON_AddItemToArray(stm, o);
			if (listing)
				printf("list implementation %s%s: %s\n", list_engines[i]->name,
				       list_engines[i]->available ? "" : " (not built)", list_engines[i]->summary);
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
