/*
 * The result model (common/measure.h) rendered twice from the same values:
 * into a report's results and verification blocks, and as the summary on the
 * terminal (see gb_result_view in common/report.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/impl.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stop.h"

/* Entry k's rate: its median per-repetition rate, or rate_units over its median time; NAN when undefined. */
static double rate(const gb_measure *ms, const gb_result_view *v, unsigned k)
{
	const gb_measured *m = &ms->m[k];
	double median;

	if (!m->reps_done)
		return NAN;
	if (v->rate_tracked)
		return gb_measure_track(ms, k, 0).median;
	median = gb_measure_time(ms, k).median;
	return median > 0 ? v->rate_units / median : NAN;
}

static double ratio(double a, double b)
{
	return a > 0 && b > 0 ? a / b : NAN;
}

/*
 * How much faster the first entry is than entry k: k's median time over the
 * first's, or with a tracked rate the first's median rate over k's; NAN when
 * undefined.
 */
static double speedup(const gb_measure *ms, const gb_result_view *v, unsigned k)
{
	if (!ms->m[0].reps_done || !ms->m[k].reps_done)
		return NAN;
	if (v->rate_tracked)
		return ratio(rate(ms, v, 0), rate(ms, v, k));
	return ratio(gb_measure_time(ms, k).median, gb_measure_time(ms, 0).median);
}

/* What the verification block counts: the first entry's units, or every entry's repetitions. */
static uint64_t checked_count(const gb_measure *ms)
{
	uint64_t n = 0;
	unsigned k;

	if (ms->policy != GB_CHECK_REPS)
		return ms->m[0].units_checked;
	for (k = 0; k < ms->n; k++)
		n += ms->m[k].reps_checked;
	return n;
}

/* The first failure's message, or why nothing was checked, or "" when all verified. */
static const char *verdict_message(const gb_measure *ms, int verdict)
{
	unsigned k;

	if (verdict > 0)
		return "";
	if (verdict < 0 && ms->run->verify && ms->failed)
		return "a runtime failure came before a checked repetition finished";
	if (verdict < 0 && ms->run->verify && gb_stop_cause_of() == GB_STOP_SIGNAL)
		return "a signal came before a checked repetition finished";
	if (verdict < 0)
		return ms->run->verify ? "--timeout came before a checked repetition finished"
				       : "--no-verify or --verify-every 0";
	for (k = 0; k < ms->n; k++)
		if (ms->m[k].bad_reps)
			return ms->m[k].message[0] ? ms->m[k].message : "a check failed";
	return "";
}

/* The verdict of one entry, as the verification block has the run's. */
static int entry_verdict(const gb_measured *m)
{
	return m->bad_reps ? 0 : m->reps_checked ? 1 : -1;
}

static void put_verdict(cJSON *obj, const char *name, int verdict)
{
	if (verdict < 0)
		cJSON_AddNullToObject(obj, name); /* nothing was checked */
	else
		gb_json_bool(obj, name, verdict);
}

static void entry_json(cJSON *j, const gb_measure *ms, const gb_result_view *v, unsigned k)
{
	const gb_measured *m = &ms->m[k];
	int the_run = k == 0 && v->first_in_results;

	if (!the_run)
		gb_json_str(j, v->name_key ? v->name_key : "impl", m->name);
	if (v->time_key)
		gb_json_stats(j, v->time_key, gb_measure_time(ms, k));
	if (v->rate_key && v->rate_tracked)
		gb_json_stats(j, v->rate_key, gb_measure_track(ms, k, 0));
	else if (v->rate_key)
		gb_json_num(j, v->rate_key, rate(ms, v, k));
	gb_json_u64(j, "reps_completed", m->reps_done);
	if (v->entry_json)
		v->entry_json(j, k, v->arg);
	if (k > 0 && (v->speedup_key || !v->first_in_results))
		gb_json_num(j, v->speedup_key ? v->speedup_key : "speedup_of_impl", speedup(ms, v, k));
	if (ms->policy == GB_CHECK_LAST) {
		if (ms->run->verify)
			gb_json_u64(j, "mismatches", m->units_wrong);
	} else if (!the_run) {
		put_verdict(j, "verified", entry_verdict(m));
		if (ms->policy == GB_CHECK_UNITS)
			gb_json_u64(j, v->checked_key, m->units_checked);
		if (ms->run->verify)
			gb_json_str(j, "message", m->message);
	}
}

void gb_report_results(gb_report *r, const gb_measure *ms, const gb_result_view *v)
{
	cJSON *list, *cmp, *speedups = NULL;
	int verdict = gb_measure_verdict(ms);
	unsigned k;

	if (!v->first_in_results)
		gb_json_str(r->config, "impl", ms->m[0].name);
	cmp = cJSON_AddArrayToObject(r->config, "compare");
	for (k = 1; k < ms->n; k++)
		cJSON_AddItemToArray(cmp, cJSON_CreateString(ms->m[k].name));

	if (v->first_in_results)
		entry_json(r->results, ms, v, 0);
	list = cJSON_AddArrayToObject(r->results, v->entries_key ? v->entries_key : "impls");
	if (v->first_in_results && !v->speedup_key)
		speedups = cJSON_AddObjectToObject(r->results, "speedup_over");
	for (k = v->first_in_results ? 1 : 0; k < ms->n; k++) {
		cJSON *j = cJSON_CreateObject();
		entry_json(j, ms, v, k);
		cJSON_AddItemToArray(list, j);
		if (speedups)
			gb_json_num(speedups, ms->m[k].name, speedup(ms, v, k));
	}
	if (ms->incomplete)
		gb_report_incomplete(r);

	put_verdict(r->verification, "verified", verdict);
	gb_json_str(r->verification, "method", ms->run->verify ? v->method : "none");
	gb_json_u64(r->verification, v->checked_key, checked_count(ms));
	gb_json_str(r->verification, "message", verdict_message(ms, verdict));
	if (v->verification_json)
		v->verification_json(r->verification, v->arg);
}

/* The widest name, and at least the width of the summary's labels. */
static int name_width(const gb_measure *ms)
{
	int w = 12;
	unsigned k;

	for (k = 0; k < ms->n; k++)
		if ((int)strlen(ms->m[k].name) > w)
			w = (int)strlen(ms->m[k].name);
	return w;
}

/*
 * "median of N, cv X%": how many repetitions the median is of and how much
 * they vary (stdev over mean, of the rate when it is tracked, else of the
 * time), so a reader sees the noise a comparison of this run will face.
 */
static void median_of(char *out, size_t len, const gb_measure *ms, const gb_result_view *v, unsigned k)
{
	gb_stats s = v->rate_tracked ? gb_measure_track(ms, k, 0) : gb_measure_time(ms, k);

	if (s.n > 1 && s.mean != 0)
		snprintf(out, len, "median of %zu, cv %.1f%%", s.n, 100 * s.stdev / fabs(s.mean));
	else
		snprintf(out, len, "median of %zu", s.n);
}

static void entry_line(FILE *out, const gb_measure *ms, const gb_result_view *v, unsigned k, int width)
{
	const gb_measured *m = &ms->m[k];
	double r = v->rate_key ? rate(ms, v, k) : NAN, s = k > 0 ? speedup(ms, v, k) : NAN;
	char text[256], reps[64];

	fprintf(out, "  %-*s ", width, m->name);
	if (!m->reps_done) {
		fputs("no repetition finished\n", out);
		return;
	}
	median_of(reps, sizeof(reps), ms, v, k);
	if (v->time_key)
		fprintf(out, "%s%.4g s (%s)", v->time_label, gb_measure_time(ms, k).median, reps);
	if (v->time_key && !isnan(r))
		fprintf(out, ", %.4g %s", r, v->rate_unit);
	else if (!isnan(r))
		fprintf(out, "%.4g %s (%s)", r, v->rate_unit, reps);
	text[0] = 0;
	if (v->entry_text)
		v->entry_text(text, sizeof(text), k, v->arg);
	if (text[0])
		fprintf(out, ", %s", text);
	if (ms->run->verify)
		fprintf(out, ", %s", m->bad_reps ? "WRONG" : m->reps_checked ? "verified" : "not checked");
	if (!isnan(s))
		fprintf(out, ", %s", gb_speedup_text(text, sizeof(text), ms->m[0].name, 1, s));
	fputc('\n', out);
}

void gb_report_summary(FILE *out, const gb_measure *ms, const gb_result_view *v)
{
	int verdict = gb_measure_verdict(ms), width = name_width(ms);
	unsigned k;

	fprintf(out, "gpubench %s: %s\n", ms->cmd, v->headline);
	for (k = 0; k < ms->n; k++)
		entry_line(out, ms, v, k, width);
	if (v->lines)
		v->lines(out, v->arg);
	if (verdict < 0)
		fprintf(out, "  %-12s not checked (%s)\n", "verified", verdict_message(ms, verdict));
	else if (!verdict)
		fprintf(out, "  %-12s FAILED: %s\n", "verified", verdict_message(ms, verdict));
	else if (ms->policy != GB_CHECK_REPS)
		fprintf(out, "  %-12s yes: %" PRIu64 " of %" PRIu64 " %s\n", "verified", checked_count(ms), v->units,
			v->checked_what);
	else
		fprintf(out, "  %-12s yes: %" PRIu64 " %s\n", "verified", checked_count(ms), v->checked_what);
	if (ms->incomplete)
		fprintf(out, "  %-12s %s: the numbers cover what finished\n", "incomplete", gb_measure_stop_reason(ms));
}

/* What a runtime failure in the middle of a run shows (gb_report_on_failure). */
static struct {
	gb_measure *ms;
	void (*view)(gb_measure *ms, void *arg, gb_result_view *v);
	void *arg;
	const char *json;
} failure;

static void on_failure(void *unused)
{
	gb_result_view v;
	unsigned k, done = 0;

	(void)unused;
	for (k = 0; k < failure.ms->n; k++)
		done += failure.ms->m[k].reps_done;
	if (!done)
		return; /* nothing finished: the failure's message says it all */
	failure.ms->incomplete = 1;
	failure.ms->failed = 1;
	memset(&v, 0, sizeof(v));
	failure.view(failure.ms, failure.arg, &v);
	if (!gb_quiet && !(failure.json && gb_path_is_stdout(failure.json)))
		gb_report_summary(stdout, failure.ms, &v);
	gb_warn("%s: a runtime failure ends the run: what finished is shown, marked incomplete; no report "
		"was written%s", failure.ms->cmd, failure.json ? " (one at --json is left as it was)" : "");
}

void gb_report_on_failure(gb_measure *ms, void (*view)(gb_measure *ms, void *arg, gb_result_view *v), void *arg,
			  const char *json)
{
	failure.ms = ms;
	failure.view = view;
	failure.arg = arg;
	failure.json = json;
	gb_on_runtime_failure(on_failure, NULL);
}

int gb_report_finish_to(gb_report *r, const char *json, const gb_measure *ms, const gb_result_view *v)
{
	int verdict = gb_measure_verdict(ms);
	unsigned k;

	gb_on_runtime_failure(NULL, NULL); /* the run is over: a failure from here on is the report's own */
	if (ms->forecast[0])
		gb_report_warn(r, "%s", ms->forecast);
	gb_report_results(r, ms, v);
	if (json && gb_report_write(r, json) != 0)
		return GB_EXIT_RUNTIME;
	gb_stop_finished();
	if (!gb_quiet && !(json && gb_path_is_stdout(json)))
		gb_report_summary(stdout, ms, v);
	if (!verdict) {
		for (k = 0; k < ms->n; k++)
			if (ms->m[k].bad_reps && ms->m[k].reps_checked > 1)
				gb_warn("%s: verification failed in %" PRIu32 " of %" PRIu32 " checked repetitions: %s",
					ms->cmd, ms->m[k].bad_reps, ms->m[k].reps_checked, ms->m[k].message);
			else if (ms->m[k].bad_reps)
				gb_warn("%s: verification failed: %s", ms->cmd, ms->m[k].message);
		return GB_EXIT_VERIFY;
	}
	if (ms->incomplete) {
		gb_warn("%s: %s; the report is marked incomplete", ms->cmd, gb_measure_stop_reason(ms));
		return GB_EXIT_RUNTIME;
	}
	return GB_EXIT_OK;
}
