/*
 * JSON run reports (schema v1, docs/report-schema.md): one document per run
 * with meta, device, config, results and verification blocks, written
 * atomically (temporary file + rename) or to stdout.
 */
#ifndef GB_REPORT_H
#define GB_REPORT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "common/backend.h"
#include "common/stats.h"

typedef struct gb_report {
	cJSON *root;
	cJSON *device;
	cJSON *config;
	cJSON *results;
	cJSON *verification;
} gb_report;

/* A report with meta filled in from the subcommand and its argv. */
void gb_report_init(gb_report *r, const char *subcommand, int argc, char **argv);
/* Describe the backend the run used; dev is the GPU (NULL for the CPU backend). */
void gb_report_set_device(gb_report *r, gb_backend backend, const gb_device_info *dev,
			  int cpu_workers);
/* The same for a run whose implementations chose the device: gpu says one ran on device 0. */
void gb_report_set_machine(gb_report *r, int gpu, int cpu_workers);
void gb_report_free(gb_report *r);

/* Mark the run incomplete (meta.complete false): --timeout cut it short. */
void gb_report_incomplete(gb_report *r);

/* Add a line to meta.warnings: something a reader of the numbers must know. */
__attribute__((format(printf, 2, 3)))
void gb_report_warn(gb_report *r, const char *fmt, ...);

/* Write to path ("-" for stdout). Returns 0, or -1 with errno-style message printed. */
int gb_report_write(const gb_report *r, const char *path);

/* Helpers that keep integer counters integers and stats blocks uniform. */
void gb_json_u64(cJSON *obj, const char *name, uint64_t v);
void gb_json_num(cJSON *obj, const char *name, double v);
void gb_json_str(cJSON *obj, const char *name, const char *v);
void gb_json_bool(cJSON *obj, const char *name, int v);
cJSON *gb_json_stats(cJSON *obj, const char *name, gb_stats s);

/* Fill the device block for the host CPU (model name, logical CPUs). */
void gb_describe_host_cpu(cJSON *obj);

#endif
