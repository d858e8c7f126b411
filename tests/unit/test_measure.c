/*
 * common/measure.c (the measurement loop and the result model) and
 * common/report_results.c (the model rendered as report and summary).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/measure.h"
#include "common/progress.h"
#include "common/report.h"
#include "tests/unit/test.h"

/* What the fake repetitions saw and do. */
typedef struct fake {
	int calls, timed[16], check[16], last[16];
	uint64_t index[16], count[16];
	double seconds[GB_MAX_IMPLS];  /* per entry: the time every repetition takes */
	int cut_at;                    /* return GB_REP_CUT at this call (-1: never) */
	int check_before_cut;          /* the cut call checks its units first */
	int wrong_at;                  /* fail the check of this call (-1: never) */
	int unchecked_at;              /* this call checks no unit though offered (-1: never) */
	uint64_t units;                /* units compared in a checked repetition */
} fake;

static gb_rep_end fake_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	fake *f = arg;
	int c = f->calls++;

	f->index[c] = rep->index;
	f->count[c] = rep->count;
	f->timed[c] = rep->timed;
	f->check[c] = rep->check;
	f->last[c] = rep->last;
	if (c == f->cut_at && !f->check_before_cut)
		return GB_REP_CUT;
	out->seconds = f->seconds[k] + 0.001 * rep->timed_index;
	out->track[0] = 10.0 * (rep->timed_index + 1) / f->seconds[k];
	if (rep->check && c != f->unchecked_at) {
		out->checked = f->units;
		if (c == f->wrong_at) {
			out->wrong = 2;
			gb_measure_wrong(ms, k, "%s: call %d was wrong", ms->m[k].name, c);
			gb_measure_wrong(ms, k, "a later message is not kept");
		}
	}
	return c == f->cut_at ? GB_REP_CUT : GB_REP_DONE;
}

static gb_run_opts opts(uint64_t warmup, uint64_t reps, uint64_t every)
{
	gb_run_opts o;
	memset(&o, 0, sizeof(o));
	o.warmup = warmup;
	o.reps = reps;
	o.timeout = 600;
	o.verify = every != 0;
	o.verify_every = every;
	return o;
}

static fake fake_of(double seconds)
{
	fake f;
	memset(&f, 0, sizeof(f));
	f.seconds[0] = seconds;
	f.seconds[1] = 4 * seconds;
	f.cut_at = f.wrong_at = f.unchecked_at = -1;
	f.units = 7;
	return f;
}

TEST(measure_loop_warmup_reps_and_every_kth_check)
{
	gb_run_opts o = opts(2, 5, 2);
	gb_measure ms;
	fake f = fake_of(1.0);
	int i;

	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 1);
	CHECK_EQ(gb_measure_add(&ms, "a"), 0);
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 7);
	for (i = 0; i < 7; i++) {
		CHECK_EQ(f.index[i], i);
		CHECK_EQ(f.timed[i], i >= 2);
		CHECK_EQ(f.last[i], i == 6);
	}
	/* timed repetitions 0, 2 and 4 are checked: calls 2, 4 and 6 */
	CHECK(!f.check[0] && !f.check[1] && f.check[2] && !f.check[3] && f.check[4] && !f.check[5] && f.check[6]);
	CHECK_EQ(ms.m[0].reps_done, 5);
	CHECK_EQ(ms.m[0].reps_checked, 3);
	CHECK_EQ(ms.m[0].units_checked, 21);
	CHECK(ms.m[0].finished);
	CHECK_EQ(gb_measure_time(&ms, 0).n, 5);
	CHECK_NEAR(gb_measure_time(&ms, 0).median, 1.002, 1e-12);
	CHECK_NEAR(gb_measure_time(&ms, 0).min, 1.000, 1e-12);
	CHECK_NEAR(gb_measure_track(&ms, 0, 0).median, 30.0, 1e-12);
	CHECK_NEAR(gb_measure_track(&ms, 0, 0).max, 50.0, 1e-12);
	CHECK_EQ_I(gb_measure_verdict(&ms), 1);
	CHECK(!ms.incomplete);
	gb_measure_free(&ms);
}

TEST(measure_loop_last_policy_checks_only_the_last)
{
	gb_run_opts o = opts(1, 3, 5);
	gb_measure ms;
	fake f = fake_of(0.5);

	gb_measure_init(&ms, "test", &o, GB_CHECK_LAST, 0);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 4);
	CHECK(!f.check[0] && !f.check[1] && !f.check[2] && f.check[3]);
	CHECK_EQ(ms.m[0].reps_checked, 1);
	CHECK_EQ(ms.m[0].units_checked, 7);
	gb_measure_free(&ms);

	/* --no-verify: nothing is checked and the verdict is null */
	o = opts(0, 2, 0);
	f = fake_of(0.5);
	gb_measure_init(&ms, "test", &o, GB_CHECK_LAST, 0);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK(!f.check[0] && !f.check[1]);
	CHECK_EQ_I(gb_measure_verdict(&ms), -1);
	gb_measure_free(&ms);
}

TEST(measure_loop_cut_marks_incomplete_and_keeps_what_finished)
{
	gb_run_opts o = opts(1, 4, 1);
	gb_measure ms;
	fake f = fake_of(2.0);

	f.cut_at = 3; /* the third timed repetition */
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_add(&ms, "b");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK(ms.incomplete);
	CHECK_EQ(f.calls, 4);
	CHECK_EQ(ms.m[0].reps_done, 2);
	CHECK_EQ(ms.m[0].reps_checked, 2); /* the cut one checked nothing: it does not count */
	CHECK(!ms.m[0].finished);
	CHECK_EQ(gb_measure_time(&ms, 0).n, 2);
	/* the run is over: the next entry runs nothing */
	gb_measure_run(&ms, 1, fake_rep, &f);
	CHECK_EQ(f.calls, 4);
	CHECK_EQ(ms.m[1].reps_done, 0);
	CHECK_EQ(gb_measure_time(&ms, 1).n, 0);
	CHECK_EQ_I(gb_measure_verdict(&ms), 1);
	gb_measure_free(&ms);
}

TEST(measure_loop_warmup_by_time)
{
	gb_run_opts o = opts(2, 3, 1);
	gb_measure ms;
	fake f = fake_of(1.0);
	int i;

	/* every warm-up repetition takes 1 s: five of them make 5 s, past --warmup 2 */
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	ms.warmup_s = 4.5;
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 8);
	for (i = 0; i < 8; i++) {
		CHECK_EQ(f.timed[i], i >= 5);
		CHECK_EQ(f.last[i], i == 7);
		CHECK_EQ(f.check[i], i >= 5);
	}
	/* the count grows by one while warm-up by time goes on */
	CHECK_EQ(f.count[0], 5);
	CHECK_EQ(f.count[1], 5);
	CHECK_EQ(f.count[2], 6);
	CHECK_EQ(f.count[4], 8);
	CHECK_EQ(f.count[7], 8);
	CHECK_EQ(ms.m[0].reps_done, 3);
	CHECK_NEAR(gb_measure_time(&ms, 0).min, 1.0, 1e-12); /* warm-up times are no samples */
	CHECK(ms.m[0].finished);
	gb_measure_free(&ms);

	/* a count above the time wins */
	o = opts(3, 1, 1);
	f = fake_of(1.0);
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	ms.warmup_s = 0.5;
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 4);
	CHECK(!f.timed[2] && f.timed[3]);
	gb_measure_free(&ms);

	/* --warmup 0 turns warm-up off, time or not */
	o = opts(0, 2, 1);
	f = fake_of(1.0);
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	ms.warmup_s = 10;
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 2);
	CHECK(f.timed[0] && f.timed[1]);
	gb_measure_free(&ms);
}

TEST(measure_units_policy_offers_every_repetition)
{
	gb_run_opts o = opts(1, 3, 3);
	gb_measure ms;
	fake f = fake_of(1.0);

	f.unchecked_at = 2; /* the second timed repetition picks no unit */
	gb_measure_init(&ms, "test", &o, GB_CHECK_UNITS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 4);
	/* every timed repetition is offered, whatever --verify-every says: the function picks */
	CHECK(!f.check[0] && f.check[1] && f.check[2] && f.check[3]);
	CHECK_EQ(ms.m[0].reps_checked, 2);
	CHECK_EQ(ms.m[0].units_checked, 14);
	CHECK_EQ_I(gb_measure_verdict(&ms), 1);
	gb_measure_free(&ms);

	/* --no-verify: nothing is offered */
	o = opts(0, 2, 0);
	f = fake_of(1.0);
	gb_measure_init(&ms, "test", &o, GB_CHECK_UNITS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK(!f.check[0] && !f.check[1]);
	CHECK_EQ_I(gb_measure_verdict(&ms), -1);
	gb_measure_free(&ms);
}

TEST(measure_cut_repetition_keeps_what_it_checked)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_measure ms;
	fake f = fake_of(1.0);

	/* the second repetition checks its units, one of them wrong, and then meets --timeout */
	f.cut_at = f.wrong_at = 1;
	f.check_before_cut = 1;
	gb_measure_init(&ms, "test", &o, GB_CHECK_UNITS, 1);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK(ms.incomplete);
	CHECK_EQ(f.calls, 2);
	CHECK_EQ(ms.m[0].reps_done, 1);
	CHECK_EQ(gb_measure_time(&ms, 0).n, 1);
	CHECK_EQ(gb_measure_track(&ms, 0, 0).n, 1);
	CHECK_EQ(ms.m[0].reps_checked, 2);
	CHECK_EQ(ms.m[0].units_checked, 14);
	CHECK_EQ(ms.m[0].bad_reps, 1);
	CHECK_STR_EQ(ms.m[0].message, "a: call 1 was wrong");
	CHECK_EQ_I(gb_measure_verdict(&ms), 0);
	gb_measure_free(&ms);

	/* cut in its first repetition, after checking: verified, though no sample */
	f = fake_of(1.0);
	f.cut_at = 0;
	f.check_before_cut = 1;
	gb_measure_init(&ms, "test", &o, GB_CHECK_UNITS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(ms.m[0].reps_done, 0);
	CHECK_EQ(ms.m[0].units_checked, 7);
	CHECK_EQ_I(gb_measure_verdict(&ms), 1);
	gb_measure_free(&ms);
}

TEST(measure_timeout_stops_before_a_repetition)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_measure ms;
	fake f = fake_of(1.0);

	o.timeout = 0.001;
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	gb_measure_add(&ms, "a");
	usleep(5000);
	CHECK(gb_measure_left(&ms) < 0);
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(f.calls, 0);
	CHECK(ms.incomplete);
	CHECK_EQ_I(gb_measure_verdict(&ms), -1);
	gb_measure_free(&ms);
}

TEST(measure_wrong_keeps_the_first_message)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_measure ms;
	fake f = fake_of(1.0);

	f.wrong_at = 1;
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_run(&ms, 0, fake_rep, &f);
	CHECK_EQ(ms.m[0].reps_checked, 3);
	CHECK_EQ(ms.m[0].bad_reps, 1);
	CHECK_EQ(ms.m[0].units_wrong, 2);
	CHECK_STR_EQ(ms.m[0].message, "a: call 1 was wrong");
	CHECK_EQ_I(gb_measure_verdict(&ms), 0);
	gb_measure_free(&ms);
}

/* Units 3, 10 and 17 differ from the oracle. */
static int every_differs(uint64_t i, const void *arg)
{
	(void)arg;
	return i == 3 || i == 10 || i == 17;
}

static const char *every_got(uint64_t i, const void *arg)
{
	(void)arg;
	return i == 3 ? "three" : "other";
}

static const char *every_oracle(uint64_t i, const void *arg)
{
	(void)arg;
	return i == 3 ? "THREE" : "OTHER";
}

/* Check 200 units with --verify-every every; what the check counted and its message. */
static gb_rep_out check_every(uint64_t every, char *message, size_t len)
{
	gb_run_opts o = opts(0, 1, every);
	const gb_unit_check c = {.unit = "event", .differs = every_differs, .got = every_got, .oracle = every_oracle};
	gb_measure ms;
	gb_rep_out out;

	memset(&out, 0, sizeof(out));
	gb_measure_init(&ms, "test", &o, GB_CHECK_LAST, 0);
	gb_measure_add(&ms, "impl");
	gb_measure_check_units(&ms, 0, 200, &c, &out);
	snprintf(message, len, "%s", ms.m[0].message);
	gb_measure_free(&ms);
	return out;
}

TEST(measure_check_units_every_kth_without_wrapping)
{
	char msg[512];
	gb_rep_out out;

	out = check_every(1, msg, sizeof(msg));
	CHECK_EQ(out.checked, 200);
	CHECK_EQ(out.wrong, 3);
	CHECK_STR_EQ(msg, "impl disagrees with the oracle on 3 of 200 checked events, first event 3 (three, oracle THREE)");
	out = check_every(7, msg, sizeof(msg)); /* 0, 7, ..., 196: 10 and 17 are not among them, 3 neither */
	CHECK_EQ(out.checked, 29);
	CHECK_EQ(out.wrong, 0);
	CHECK_STR_EQ(msg, "");
	out = check_every(UINT64_MAX, msg, sizeof(msg)); /* the first unit only, and no wrap-around */
	CHECK_EQ(out.checked, 1);
	CHECK_EQ(out.wrong, 0);
	out = check_every(5, msg, sizeof(msg)); /* 0, 5, 10, 15: 10 differs */
	CHECK_EQ(out.checked, 40);
	CHECK_EQ(out.wrong, 1);
	CHECK_CONTAINS(msg, "first event 10 (other, oracle OTHER)");
}

/* Two entries measured by the fake repetitions: "fast" 1 s, "slow" 4 s. */
static void two_entries(gb_measure *ms, gb_run_opts *o, gb_check_policy policy, int wrong)
{
	fake f = fake_of(1.0);

	gb_measure_init(ms, "test", o, policy, 1);
	gb_measure_add(ms, "fast");
	gb_measure_add(ms, "slow");
	gb_measure_run(ms, 0, fake_rep, &f);
	f.wrong_at = wrong ? f.calls : -1;
	gb_measure_run(ms, 1, fake_rep, &f);
}

static void own_json(cJSON *j, unsigned k, const void *arg)
{
	(void)arg;
	gb_json_u64(j, "own", 100 + k);
}

static void own_text(char *buf, size_t len, unsigned k, const void *arg)
{
	(void)arg;
	snprintf(buf, len, "own %u", k);
}

static void own_lines(FILE *out, const void *arg)
{
	fprintf(out, "  %-12s %s\n", "own", (const char *)arg);
}

static const gb_result_view view = {
	.headline = "two entries",
	.entries_key = "impls",
	.name_key = "impl",
	.time_key = "run_seconds",
	.time_label = "run ",
	.rate_key = "units_per_s",
	.rate_unit = "units/s",
	.rate_units = 10,
	.checked_key = "units_checked",
	.checked_what = "units checked",
	.units = 9,
	.method = "against the fake oracle",
	.entry_json = own_json,
	.entry_text = own_text,
	.lines = own_lines,
	.arg = "line",
};

static char *summary_of(const gb_measure *ms, const gb_result_view *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	gb_report_summary(f, ms, v);
	fclose(f);
	return text;
}

static const cJSON *at(const cJSON *o, const char *path)
{
	char key[64];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(key)) : cJSON_GetObjectItemCaseSensitive(o, key);
		path += n + (path[n] == '.');
	}
	return o;
}

/* A number at path: integers are written as raw text, to keep all 64 bits. */
static double num(const cJSON *o, const char *path)
{
	o = at(o, path);
	if (cJSON_IsRaw(o))
		return strtod(o->valuestring, NULL);
	return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

TEST(report_results_renders_entries_speedups_and_verification)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_measure ms;
	gb_report r;
	char *argv[] = {"test"}, *text;

	two_entries(&ms, &o, GB_CHECK_LAST, 0);
	gb_report_init(&r, "test", 1, argv);
	gb_report_results(&r, &ms, &view);
	CHECK_STR_EQ(at(r.config, "impl")->valuestring, "fast");
	CHECK_EQ(cJSON_GetArraySize(at(r.config, "compare")), 1);
	CHECK_STR_EQ(at(r.config, "compare.0")->valuestring, "slow");
	CHECK_STR_EQ(at(r.results, "impls.0.impl")->valuestring, "fast");
	CHECK_NEAR(num(r.results, "impls.0.run_seconds.median"), 1.001, 1e-12);
	CHECK_EQ(num(r.results, "impls.0.run_seconds.n"), 3);
	CHECK_NEAR(num(r.results, "impls.0.units_per_s"), 10 / 1.001, 1e-9);
	CHECK_EQ(num(r.results, "impls.0.reps_completed"), 3);
	CHECK_EQ(num(r.results, "impls.1.own"), 101);
	CHECK(!at(r.results, "impls.0.speedup_of_impl"));
	CHECK_NEAR(num(r.results, "impls.1.speedup_of_impl"), 4.001 / 1.001, 1e-12);
	CHECK_EQ(num(r.results, "impls.1.mismatches"), 0);
	CHECK(cJSON_IsTrue(at(r.verification, "verified")));
	CHECK_STR_EQ(at(r.verification, "method")->valuestring, "against the fake oracle");
	CHECK_EQ(num(r.verification, "units_checked"), 7); /* the first entry's units */
	CHECK_STR_EQ(at(r.verification, "message")->valuestring, "");
	CHECK(cJSON_IsTrue(at(r.root, "meta.complete")));

	text = summary_of(&ms, &view);
	CHECK_CONTAINS(text, "gpubench test: two entries\n");
	CHECK_CONTAINS(text, "  fast         run 1.001 s (median of 3, cv 0.1%), 9.99 units/s, own 0, verified\n");
	CHECK_CONTAINS(text, "  slow         run 4.001 s (median of 3, cv 0.0%), 2.499 units/s, own 1, verified, "
			     "fast is 4x faster\n");
	CHECK_CONTAINS(text, "  own          line\n");
	CHECK_CONTAINS(text, "  verified     yes: 7 of 9 units checked\n");
	CHECK(!strstr(text, "incomplete"));
	free(text);
	gb_report_free(&r);
	gb_measure_free(&ms);
}

TEST(report_results_failure_and_per_entry_verdicts)
{
	gb_run_opts o = opts(0, 2, 1);
	gb_measure ms;
	gb_report r;
	char *argv[] = {"test"}, *text;

	two_entries(&ms, &o, GB_CHECK_REPS, 1);
	gb_report_init(&r, "test", 1, argv);
	gb_report_results(&r, &ms, &view);
	CHECK(cJSON_IsTrue(at(r.results, "impls.0.verified")));
	CHECK(cJSON_IsFalse(at(r.results, "impls.1.verified")));
	CHECK_STR_EQ(at(r.results, "impls.1.message")->valuestring, "slow: call 2 was wrong");
	CHECK(!at(r.results, "impls.1.mismatches"));
	CHECK(cJSON_IsFalse(at(r.verification, "verified")));
	CHECK_EQ(num(r.verification, "units_checked"), 4); /* repetitions of both entries */
	CHECK_STR_EQ(at(r.verification, "message")->valuestring, "slow: call 2 was wrong");
	text = summary_of(&ms, &view);
	CHECK_CONTAINS(text, ", own 1, WRONG, fast is 4x faster\n");
	CHECK_CONTAINS(text, "  verified     FAILED: slow: call 2 was wrong\n");
	free(text);
	gb_report_free(&r);
	gb_measure_free(&ms);
}

TEST(report_results_incomplete_and_unchecked)
{
	gb_run_opts o = opts(0, 2, 1);
	gb_measure ms;
	gb_report r;
	char *argv[] = {"test"}, *text;
	fake f = fake_of(1.0);

	f.cut_at = 0;
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	gb_measure_add(&ms, "fast");
	gb_measure_add(&ms, "slow");
	gb_measure_run(&ms, 0, fake_rep, &f);
	gb_measure_run(&ms, 1, fake_rep, &f);
	gb_report_init(&r, "test", 1, argv);
	gb_report_results(&r, &ms, &view);
	CHECK(cJSON_IsFalse(at(r.root, "meta.complete")));
	CHECK(cJSON_IsNull(at(r.results, "impls.0.units_per_s")));
	CHECK(cJSON_IsNull(at(r.results, "impls.0.run_seconds.median")));
	CHECK(cJSON_IsNull(at(r.results, "impls.1.speedup_of_impl")));
	CHECK(cJSON_IsNull(at(r.results, "impls.1.verified")));
	CHECK(cJSON_IsNull(at(r.verification, "verified")));
	CHECK_EQ(num(r.verification, "units_checked"), 0);
	CHECK_CONTAINS(at(r.verification, "message")->valuestring, "--timeout");
	text = summary_of(&ms, &view);
	CHECK_CONTAINS(text, "  fast         no repetition finished\n");
	CHECK_CONTAINS(text, "  verified     not checked (--timeout came before a checked repetition finished)\n");
	CHECK_CONTAINS(text, "  incomplete   --timeout 600 s reached");
	free(text);
	gb_report_free(&r);
	gb_measure_free(&ms);
}

TEST(report_results_first_entry_in_results)
{
	gb_run_opts o = opts(0, 3, 0);
	gb_result_view v = view;
	gb_measure ms;
	gb_report r;
	char *argv[] = {"test"};

	v.entries_key = "baselines";
	v.name_key = "name";
	v.first_in_results = 1;
	two_entries(&ms, &o, GB_CHECK_REPS, 0);
	gb_report_init(&r, "test", 1, argv);
	gb_report_results(&r, &ms, &v);
	CHECK(!at(r.config, "impl"));
	CHECK_STR_EQ(at(r.config, "compare.0")->valuestring, "slow");
	CHECK_NEAR(num(r.results, "run_seconds.median"), 1.001, 1e-12);
	CHECK_EQ(num(r.results, "own"), 100);
	CHECK(!at(r.results, "name") && !at(r.results, "verified"));
	CHECK_EQ(cJSON_GetArraySize(at(r.results, "baselines")), 1);
	CHECK_STR_EQ(at(r.results, "baselines.0.name")->valuestring, "slow");
	CHECK(cJSON_IsNull(at(r.results, "baselines.0.verified"))); /* --no-verify */
	CHECK(!at(r.results, "baselines.0.message"));
	CHECK(!at(r.results, "baselines.0.speedup_of_impl"));
	CHECK_NEAR(num(r.results, "speedup_over.slow"), 4.001 / 1.001, 1e-12);
	CHECK(cJSON_IsNull(at(r.verification, "verified")));
	CHECK_STR_EQ(at(r.verification, "method")->valuestring, "none");
	CHECK_STR_EQ(at(r.verification, "message")->valuestring, "--no-verify or --verify-every 0");
	gb_report_free(&r);
	gb_measure_free(&ms);
}

static void own_verification(cJSON *v, const void *arg)
{
	gb_json_str(v, "own_check", (const char *)arg);
}

/* A rate each repetition measures (track 0), no time block, and the speedup in each compared entry. */
TEST(report_results_tracked_rate_and_units_policy)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_result_view v = view;
	gb_measure ms;
	gb_report r;
	char *argv[] = {"test"}, *text;
	const cJSON *first, *last = NULL;

	v.entries_key = "compare";
	v.name_key = "algo";
	v.first_in_results = 1;
	v.time_key = NULL;
	v.rate_key = "throughput_per_s";
	v.rate_tracked = 1;
	v.speedup_key = "speedup_of_first";
	v.checked_key = "batches_checked";
	v.checked_what = "batches checked";
	v.units = 21;
	v.verification_json = own_verification;
	v.arg = "found";
	two_entries(&ms, &o, GB_CHECK_UNITS, 0);
	gb_report_init(&r, "test", 1, argv);
	gb_report_results(&r, &ms, &v);
	/* fast: 10, 20, 30 units/s; slow: a quarter of that */
	CHECK_NEAR(num(r.results, "throughput_per_s.median"), 20, 1e-9);
	CHECK_EQ(num(r.results, "throughput_per_s.n"), 3);
	CHECK_EQ(cJSON_GetArraySize(at(r.results, "throughput_per_s.samples")), 3);
	CHECK(!at(r.results, "run_seconds"));
	CHECK_EQ(num(r.results, "reps_completed"), 3);
	CHECK_EQ(num(r.results, "own"), 100);
	CHECK(!at(r.results, "speedup_over") && !at(r.results, "verified") && !at(r.results, "batches_checked"));
	CHECK_STR_EQ(at(r.results, "compare.0.algo")->valuestring, "slow");
	CHECK_NEAR(num(r.results, "compare.0.throughput_per_s.median"), 5, 1e-9);
	CHECK_NEAR(num(r.results, "compare.0.speedup_of_first"), 4, 1e-9);
	CHECK(!at(r.results, "compare.0.speedup_of_impl"));
	CHECK(cJSON_IsTrue(at(r.results, "compare.0.verified")));
	CHECK_EQ(num(r.results, "compare.0.batches_checked"), 21);
	CHECK_STR_EQ(at(r.results, "compare.0.message")->valuestring, "");
	/* the run's own fields come first, the compared entries after them */
	first = r.results->child;
	cJSON_ArrayForEach(last, r.results)
		if (!last->next)
			break;
	CHECK_STR_EQ(first->string, "throughput_per_s");
	CHECK_STR_EQ(last->string, "compare");
	CHECK(cJSON_IsTrue(at(r.verification, "verified")));
	CHECK_EQ(num(r.verification, "batches_checked"), 21); /* the first entry's units */
	CHECK_STR_EQ(at(r.verification, "own_check")->valuestring, "found");

	text = summary_of(&ms, &v);
	CHECK_CONTAINS(text, "  fast         20 units/s (median of 3, cv 50.0%), own 0, verified\n");
	CHECK_CONTAINS(text, "  slow         5 units/s (median of 3, cv 50.0%), own 1, verified, fast is 4x faster\n");
	CHECK_CONTAINS(text, "  verified     yes: 21 of 21 batches checked\n");
	free(text);
	gb_report_free(&r);
	gb_measure_free(&ms);
}

TEST(report_finish_exit_status)
{
	gb_run_opts o = opts(0, 2, 1);
	gb_measure ms;
	gb_report r;
	char *argv[] = {"test"};
	int quiet = gb_quiet;

	gb_quiet = 1;
	tu_stderr_off();
	two_entries(&ms, &o, GB_CHECK_REPS, 0);
	gb_report_init(&r, "test", 1, argv);
	CHECK_EQ(gb_report_finish_to(&r, NULL, &ms, &view), GB_EXIT_OK);
	gb_report_free(&r);
	/* the path it is given, not one of the options, is where the report goes */
	gb_report_init(&r, "test", 1, argv);
	CHECK_EQ(gb_report_finish_to(&r, "/nonexistent/gpubench/report.json", &ms, &view), GB_EXIT_RUNTIME);
	gb_report_free(&r);
	ms.incomplete = 1;
	gb_report_init(&r, "test", 1, argv);
	CHECK_EQ(gb_report_finish_to(&r, NULL, &ms, &view), GB_EXIT_RUNTIME);
	gb_report_free(&r);
	gb_measure_free(&ms);
	/* a failed check outranks the timeout */
	two_entries(&ms, &o, GB_CHECK_REPS, 1);
	ms.incomplete = 1;
	gb_report_init(&r, "test", 1, argv);
	CHECK_EQ(gb_report_finish_to(&r, NULL, &ms, &view), GB_EXIT_VERIFY);
	gb_report_free(&r);
	gb_measure_free(&ms);
	tu_stderr_on();
	gb_quiet = quiet;
}

/* A repetition that never returns in time: it sleeps outside the loop's lock. */
static gb_rep_end hanging_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	(void)k;
	(void)arg;
	out->seconds = 1;
	if (rep->index == 0)
		return GB_REP_DONE;
	gb_measure_unlock(ms);
	sleep(30);
	gb_measure_lock(ms);
	return GB_REP_DONE;
}

static int report_reps(gb_measure *ms, void *arg)
{
	(void)arg;
	fprintf(stderr, "incomplete %d, reps %u", ms->incomplete, ms->m[0].reps_done);
	return 7;
}

static void watched_run(void *arg)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_measure ms;

	(void)arg;
	o.timeout = 0.2;
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_watch(&ms, report_reps, NULL);
	gb_measure_run(&ms, 0, hanging_rep, NULL);
	gb_measure_unwatch(&ms);
}

static void watched_in_time(void *arg)
{
	gb_run_opts o = opts(0, 3, 1);
	gb_measure ms;
	fake f = fake_of(1.0);

	(void)arg;
	gb_measure_init(&ms, "test", &o, GB_CHECK_REPS, 0);
	gb_measure_add(&ms, "a");
	gb_measure_watch(&ms, report_reps, NULL);
	gb_measure_run(&ms, 0, fake_rep, &f);
	gb_measure_unwatch(&ms);
	fprintf(stderr, "in time, reps %u", ms.m[0].reps_done);
}

TEST(measure_watchdog_reports_what_finished)
{
	char err[256];

	CHECK_EQ_I(tu_run_child(watched_run, NULL, err, sizeof(err)), 7);
	CHECK_STR_EQ(err, "incomplete 1, reps 1");
	CHECK_EQ_I(tu_run_child(watched_in_time, NULL, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "in time, reps 3");
}

/* Into a pipe: no line before GB_PROGRESS_LOG_EVERY_S, then lines of their own. */
static void progress_into_a_pipe(void *arg)
{
	gb_progress p;

	(void)arg;
	gb_quiet = 0;
	gb_progress_start(&p, "gpustm");
	gb_progress_update(&p, 1, 6); /* at once: under the interval, nothing */
	gb_progress_end(&p);
	fputs("|", stderr);
	gb_progress_start(&p, "gpustm");
	p.every_ns = 0;
	gb_progress_update(&p, 0, 6);
	gb_progress_update(&p, 6, 6);
	gb_progress_end(&p); /* nothing to clear in a log */
	fputs("|", stderr);
	gb_quiet = 1;
	gb_progress_start(&p, "gpustm");
	p.every_ns = 0;
	gb_progress_update(&p, 3, 6);
	gb_progress_end(&p);
}

TEST(progress_into_a_log_writes_a_line_at_most_every_interval_and_none_quiet)
{
	char err[512];

	CHECK_EQ_I(tu_run_child(progress_into_a_pipe, NULL, err, sizeof(err)), 0);
	CHECK_STR_EQ(err, "|gpubench: progress: gpustm 0/6 (0%)\n"
			  "gpubench: progress: gpustm 6/6 (100%)\n|");
}

TEST(progress_line_estimates_the_time_left_from_the_rate_so_far)
{
	char line[256];

	gb_progress_text(line, sizeof(line), "cpu", 0, 400, 2.0);
	CHECK_STR_EQ(line, "cpu 0/400 (0%)");
	gb_progress_text(line, sizeof(line), "cpu", 100, 400, 3.0);
	CHECK_STR_EQ(line, "cpu 100/400 (25%, about 9 s left)");
	gb_progress_text(line, sizeof(line), "prstm", 1, 3, 62.5);
	CHECK_STR_EQ(line, "prstm 1/3 (33%, about 2 min 5 s left)");
	gb_progress_text(line, sizeof(line), "seq", 1, 100, 80.0);
	CHECK_STR_EQ(line, "seq 1/100 (1%, about 2 h 12 min left)");
	gb_progress_text(line, sizeof(line), "cpu", 400, 400, 9.0);
	CHECK_STR_EQ(line, "cpu 400/400 (100%)");
}
