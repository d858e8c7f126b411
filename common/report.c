#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/gpu_monitor.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stop.h"
#include "common/timer.h"
#include "common/version.h"

void gb_report_init(gb_report *r, const char *subcommand, int argc, char **argv)
{
	char host[256] = "unknown", date[64];
	time_t now = time(NULL);
	struct tm tm;
	cJSON *meta, *args;
	int i;

	r->root = cJSON_CreateObject();
	meta = cJSON_AddObjectToObject(r->root, "meta");
	gb_json_u64(meta, "schema_version", GB_SCHEMA_VERSION);
	gb_json_str(meta, "gpubench_version", GB_VERSION);
	gb_json_str(meta, "git_revision", GB_GIT_REV);
	gb_json_str(meta, "build_flags", GB_BUILD_FLAGS);
	gb_json_str(meta, "subcommand", subcommand);
	args = cJSON_AddArrayToObject(meta, "argv");
	for (i = 0; i < argc; i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	gb_json_str(meta, "date_utc", date);
	if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "unknown");
	gb_json_str(meta, "host", host);
	gb_json_bool(meta, "complete", 1);
	cJSON_AddNullToObject(meta, "stopped_by");
	cJSON_AddArrayToObject(meta, "warnings");
	if (gb_test_delay_us())
		gb_json_u64(meta, "test_delay_us", gb_test_delay_us());

	r->device = cJSON_AddObjectToObject(r->root, "device");
	r->config = cJSON_AddObjectToObject(r->root, "config");
	r->results = cJSON_AddObjectToObject(r->root, "results");
	r->verification = cJSON_AddObjectToObject(r->root, "verification");
}

void gb_describe_host_cpu(cJSON *obj)
{
	char line[512], model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");
	gb_cpu_limits l;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			if (strncmp(line, "model name", 10) == 0 && colon) {
				colon++;
				while (*colon == ' ' || *colon == '\t')
					colon++;
				colon[strcspn(colon, "\n")] = '\0';
				snprintf(model, sizeof(model), "%s", colon);
				break;
			}
		}
		fclose(f);
	}
	gb_json_str(obj, "cpu_model", model);
	gb_cpu_limits_get(&l);
	gb_json_u64(obj, "cpu_logical_cores", (uint64_t)l.online);
	gb_json_u64(obj, "cpus_usable", (uint64_t)l.usable);
	gb_json_str(obj, "cpu_affinity", l.affinity_list);
	if (l.quota > 0)
		gb_json_num(obj, "cgroup_cpu_quota", l.quota);
	else
		cJSON_AddNullToObject(obj, "cgroup_cpu_quota");
}

void gb_json_visible_devices(cJSON *obj)
{
	const char *v = getenv("CUDA_VISIBLE_DEVICES");

	if (v)
		gb_json_str(obj, "cuda_visible_devices", v);
	else
		cJSON_AddNullToObject(obj, "cuda_visible_devices");
}

void gb_report_set_device(gb_report *r, gb_backend backend, const gb_device_info *dev,
			  int cpu_workers)
{
	cJSON *d = r->device;
	char cc[16];
	int drv, rt;

	gb_json_str(d, "backend", gb_backend_name(backend));
	if (backend == GB_BACKEND_GPU && dev) {
		gb_cuda_versions(&drv, &rt);
		gb_json_str(d, "name", dev->name);
		gb_json_u64(d, "index", (uint64_t)dev->index);
		snprintf(cc, sizeof(cc), "%d.%d", dev->cc_major, dev->cc_minor);
		gb_json_str(d, "compute_capability", cc);
		gb_json_u64(d, "sm_count", (uint64_t)dev->sm_count);
		gb_json_u64(d, "global_memory_bytes", dev->global_mem_bytes);
		gb_json_u64(d, "l2_bytes", dev->l2_bytes);
		gb_json_u64(d, "sm_clock_khz", (uint64_t)dev->sm_clock_khz);
		gb_json_u64(d, "memory_clock_khz", (uint64_t)dev->mem_clock_khz);
		gb_json_u64(d, "cuda_driver_version", (uint64_t)drv);
		gb_json_u64(d, "cuda_runtime_version", (uint64_t)rt);
		gb_json_str(d, "uuid", dev->uuid);
		gb_json_str(d, "pci_bus_id", dev->pci_bus_id);
		gb_gpu_monitor_json(d);
	}
	if (backend == GB_BACKEND_GPU)
		gb_json_visible_devices(d);
	else if (gb_device_chosen()) {
		gb_note("note: --device %d is not used: the run is on the CPU", gb_device_current());
		gb_report_warn(r, "--device %d was not used: the run is on the CPU", gb_device_current());
	}
	gb_describe_host_cpu(d);
	if (backend == GB_BACKEND_CPU) {
		gb_json_u64(d, "cpu_workers", (uint64_t)cpu_workers);
		cJSON_AddBoolToObject(d, "no_gpu_fallback", gb_backend_fell_back());
	}
}

void gb_report_incomplete(gb_report *r)
{
	cJSON *meta = cJSON_GetObjectItem(r->root, "meta");
	const char *by = gb_stop_name();

	cJSON_ReplaceItemInObject(meta, "complete", cJSON_CreateFalse());
	if (by)
		cJSON_ReplaceItemInObject(meta, "stopped_by", cJSON_CreateString(by));
}

void gb_report_warn(gb_report *r, const char *fmt, ...)
{
	cJSON *w = cJSON_GetObjectItem(cJSON_GetObjectItem(r->root, "meta"), "warnings");
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	cJSON_AddItemToArray(w, cJSON_CreateString(text));
}

void gb_report_set_machine(gb_report *r, int gpu, int cpu_workers)
{
	gb_device_info dev;

	if (!gpu) {
		gb_report_set_device(r, GB_BACKEND_CPU, NULL, cpu_workers);
		return;
	}
	if (gb_device_query(gb_device_current(), &dev) != 0)
		gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device %d", gb_device_current());
	gb_report_set_device(r, GB_BACKEND_GPU, &dev, cpu_workers);
}

void gb_report_free(gb_report *r)
{
	cJSON_Delete(r->root);
	memset(r, 0, sizeof(*r));
}

int gb_report_write(const gb_report *r, const char *path)
{
	char *text = cJSON_Print(r->root), err[600];
	size_t len;
	gb_out out;
	int ok;

	if (!text) {
		gb_warn("cannot render the JSON report (out of memory)");
		return -1;
	}
	len = strlen(text);
	if (!gb_out_open(&out, path, err, sizeof(err))) {
		gb_warn("report: %s", err);
		free(text);
		return -1;
	}
	ok = fwrite(text, 1, len, out.f) == len && fputc('\n', out.f) != EOF;
	free(text);
	if (gb_out_close(&out, err, sizeof(err)) != 0 || !ok) {
		gb_warn("report: %s", ok ? err : "cannot write the report");
		return -1;
	}
	return 0;
}
