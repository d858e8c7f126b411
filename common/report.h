/*
 * JSON run reports (schema v1, docs/report-schema.md): one document per run
 * with meta, device, config, results and verification blocks, written
 * atomically (temporary file + rename) or to stdout.
 */
#ifndef GB_REPORT_H
#define GB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "common/backend.h"
#include "common/json.h"
#include "common/measure.h"
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
/*
 * Describe the backend the run used; dev is the GPU (NULL for the CPU
 * backend): the card (name, UUID, PCI bus id, driver), its clocks while timed,
 * CUDA_VISIBLE_DEVICES, and the host's CPUs. A CPU run given --device says on
 * stderr and in meta.warnings that it did not use it.
 */
void gb_report_set_device(gb_report *r, gb_backend backend, const gb_device_info *dev,
			  int cpu_workers);
/* The same for a run whose implementations chose the device: gpu says one ran on --device's. */
void gb_report_set_machine(gb_report *r, int gpu, int cpu_workers);
void gb_report_free(gb_report *r);

/* Mark the run incomplete (meta.complete false): --timeout cut it short. */
void gb_report_incomplete(gb_report *r);

/* Add a line to meta.warnings: something a reader of the numbers must know. */
__attribute__((format(printf, 2, 3)))
void gb_report_warn(gb_report *r, const char *fmt, ...);

/* Write to path ("-" for stdout). Returns 0, or -1 with errno-style message printed. */
int gb_report_write(const gb_report *r, const char *path);

/* "cuda_visible_devices": the variable as the run saw it, null when unset. */
void gb_json_visible_devices(cJSON *obj);

/* Fill the device block for the host CPU: model name, the machine's logical CPUs, those this
 * process may use (common/cpus.h), its affinity and cgroup quota. */
void gb_describe_host_cpu(cJSON *obj);

/*
 * How a subcommand lays out the result model (common/measure.h) in its report
 * and its summary: the names of the shared fields, and functions for its own.
 */
typedef struct gb_result_view {
	const char *headline;       /* the summary's first line, after "gpubench CMD: " */
	const char *entries_key;    /* results' array of entries, --impl first; NULL: "impls" */
	/* The first entry is the run itself: its fields go in results, the array
	 * holds the others (baselines or compared engines). */
	int first_in_results;
	const char *name_key;       /* an entry's name; NULL: "impl" */
	const char *time_key;       /* the stats block of its repetition times: "stream_seconds"; NULL: none */
	const char *time_label;     /* before the median in the summary: "stream " ("" for none) */
	const char *rate_key;       /* units per second at the median time: "events_per_s"; NULL: none */
	const char *rate_unit;      /* the rate's unit in the summary: "events/s" */
	double rate_units;          /* the units one repetition does */
	/* The rate is measured by each repetition, of units that vary from one to
	 * the next (stm: commits over the device time of its batches), and kept as
	 * track 0: rate_key is then the stats block of that track (rate_units is
	 * not used), the summary shows its median, and speedups are ratios of its
	 * medians (the first entry's over the other's). */
	int rate_tracked;
	/* Where each compared entry's speedup goes: a field of the entry; NULL:
	 * "speedup_of_impl", or with first_in_results the object results.speedup_over. */
	const char *speedup_key;
	const char *checked_key;    /* verification's count: "events_checked", "reps_checked" */
	const char *checked_what;   /* after the count in the summary: "events checked against the oracle" */
	uint64_t units;             /* GB_CHECK_LAST, GB_CHECK_UNITS: the first entry's units ("29 of 200 events") */
	const char *method;         /* verification.method when verifying */
	/* The subcommand's own fields of entry k (may be NULL). */
	void (*entry_json)(cJSON *j, unsigned k, const void *arg);
	/* Its own words in entry k's summary line, after the times (may be NULL). */
	void (*entry_text)(char *buf, size_t len, unsigned k, const void *arg);
	/* Its own summary lines, after the entries' (may be NULL). */
	void (*lines)(FILE *out, const void *arg);
	/* Its own fields of the verification block, after the shared ones (may be NULL). */
	void (*verification_json)(cJSON *v, const void *arg);
	const void *arg;
} gb_result_view;

/* The shared fields of a view of a stream of n events replayed by each implementation (avoid, detect). */
#define GB_VIEW_EVENT_STREAM(n)                                                                            \
	.time_key = "stream_seconds", .time_label = "stream ", .rate_key = "events_per_s",                 \
	.rate_unit = "events/s", .rate_units = (double)(n), .checked_key = "events_checked", .units = (n)

/*
 * The result model into the report: config.impl (unless first_in_results)
 * and config.compare, one object per entry (name, time stats, rate,
 * reps_completed, own fields, its speedup, and when verifying mismatches
 * (GB_CHECK_LAST) or verified and message (GB_CHECK_REPS; GB_CHECK_UNITS adds
 * the entry's count)), meta.complete, and the verification block (verified,
 * method, the count, message, own fields).
 */
void gb_report_results(gb_report *r, const gb_measure *ms, const gb_result_view *v);

/* The same model as the terminal summary: a line per entry, own lines, verified, incomplete. */
void gb_report_summary(FILE *out, const gb_measure *ms, const gb_result_view *v);

/*
 * From the first repetition until gb_report_finish_to: a runtime failure (a
 * CUDA error; common/error.h's hook) after a repetition finished shows the
 * summary of what finished, marked incomplete, from the view that
 * view(ms, arg, v) fills, and writes no report, so that one at json (--json;
 * NULL: none) is left as it was.
 */
void gb_report_on_failure(gb_measure *ms, void (*view)(gb_measure *ms, void *arg, gb_result_view *v), void *arg,
			  const char *json);

/*
 * The end of every run: the results into r, r written to json (--json; NULL:
 * nowhere), the summary on stdout (unless --quiet or json is "-"), what failed
 * on stderr. Returns the exit status: 1 when the report cannot be written, 3
 * when a check failed, 1 when --timeout or a signal cut the run short, else 0.
 */
int gb_report_finish_to(gb_report *r, const char *json, const gb_measure *ms, const gb_result_view *v);

#endif
