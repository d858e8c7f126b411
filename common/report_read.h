/*
 * Reading run reports back (docs/report-schema.md): one report, or every
 * report of a folder, with what `gpubench compare` needs to pair them: the
 * subcommand, the config and device blocks, and whether the run verified.
 */
#ifndef GB_REPORT_READ_H
#define GB_REPORT_READ_H

#include <stddef.h>

#include <cjson/cJSON.h>

typedef struct gb_run_report {
	char *path;        /* as opened */
	const char *rel;   /* path inside its folder (the file name for a single report) */
	cJSON *root, *meta, *device, *config, *results;
	const char *subcommand;
	int verified;      /* 1 true, 0 false, -1 not checked */
	int complete;
	int used;          /* matched with a report of the other side */
} gb_run_report;

typedef struct gb_report_set {
	gb_run_report *r;
	size_t n, cap;
	size_t skipped;    /* JSON files that are not run reports */
} gb_report_set;

/*
 * Load path into r; its name (rel) starts rel_off bytes into path. Returns 1
 * for a run report, 0 for JSON that is not one (an info document, a saved
 * comparison); exits 2 on unreadable files, bad JSON and reports of another
 * schema version.
 */
int gb_run_report_load(gb_run_report *r, const char *path, size_t rel_off);
/* Add the report at path to s, or count it in s->skipped when it is not a run report. */
void gb_report_set_add(gb_report_set *s, const char *path, size_t rel_off);
/* Whether a folder scan reads a file of this name (no folder part) as a report: NAME.json, not hidden. */
int gb_report_file_name(const char *name);
/* Every *.json under dir, recursively, in name order, each folder once however many links lead to it;
 * names start root_len bytes in. */
void gb_report_set_scan(gb_report_set *s, const char *dir, size_t root_len);

/* The device a report ran on, in words: what must match for timings to compare. */
void gb_run_report_device(const gb_run_report *r, char *out, size_t outlen);

#endif
