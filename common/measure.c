#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/gpu_monitor.h"
#include "common/measure.h"
#include "common/stop.h"
#include "common/timer.h"

void gb_measure_init(gb_measure *ms, const char *cmd, const gb_run_opts *run, gb_check_policy policy,
		     unsigned tracks)
{
	memset(ms, 0, sizeof(*ms));
	ms->cmd = cmd;
	ms->run = run;
	ms->policy = policy;
	ms->tracks = tracks < GB_MEASURE_MAX_TRACKS ? tracks : GB_MEASURE_MAX_TRACKS;
	ms->t_start = gb_now_ns();
}

unsigned gb_measure_add(gb_measure *ms, const char *name)
{
	gb_measured *m;

	if (ms->n == GB_MAX_IMPLS)
		gb_die(GB_EXIT_RUNTIME, "%s: more than %d implementations in one run", ms->cmd, GB_MAX_IMPLS);
	m = &ms->m[ms->n];
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->samples = gb_xcalloc((size_t)(1 + ms->tracks) * ms->run->reps, sizeof(double), "timings");
	return ms->n++;
}

void gb_measure_free(gb_measure *ms)
{
	unsigned k;

	for (k = 0; k < ms->n; k++)
		free(ms->m[k].samples);
	ms->n = 0;
}

int gb_measure_timed_out(gb_measure *ms)
{
	if (!ms->incomplete && (gb_stop_requested() || gb_measure_left(ms) < 0)) {
		gb_stop_raise_timeout(); /* the loop's own deadline: the flag says so to every poller */
		ms->incomplete = 1;
	}
	return ms->incomplete;
}

/* Not gb_seconds_since: a deadline is not a timed interval, and GPUBENCH_TEST_DELAY_US must not lengthen every check of it. */
double gb_measure_left(const gb_measure *ms)
{
	double own = ms->run->timeout - (double)(gb_now_ns() - ms->t_start) / 1e9, all = gb_stop_left();

	if (gb_stop_requested())
		return own < 0 ? own : -1e-9;
	return own < all ? own : all;
}

const char *gb_measure_stop_reason(const gb_measure *ms)
{
	static char text[64];

	if (ms->failed)
		return "a runtime failure";
	if (gb_stop_requested())
		return gb_stop_reason();
	snprintf(text, sizeof(text), "--timeout %g s reached", ms->run->timeout);
	return text;
}

gb_stats gb_measure_time(const gb_measure *ms, unsigned k)
{
	return gb_stats_of(ms->m[k].samples, ms->m[k].reps_done);
}

static double *row(const gb_measure *ms, unsigned k, unsigned track)
{
	return ms->m[k].samples + (size_t)track * ms->run->reps;
}

/*
 * What a checked repetition found goes into its entry: always when it
 * finished (under GB_CHECK_UNITS when it checked a unit), and, when --timeout
 * cut it, what it checked before it stopped.
 */
static void keep_checks(gb_measure *ms, gb_measured *m, const gb_rep_out *out, int finished)
{
	if (!out->checked && !ms->rep_bad && !(finished && ms->policy != GB_CHECK_UNITS))
		return;
	m->reps_checked++;
	m->units_checked += out->checked;
	m->units_wrong += out->wrong;
	m->bad_reps += ms->rep_bad || out->wrong;
}

void gb_measure_run(gb_measure *ms, unsigned k, gb_rep_fn fn, void *arg)
{
	const gb_run_opts *o = ms->run;
	gb_measured *m = &ms->m[k];
	uint64_t warm = 0;   /* warm-up repetitions done */
	double warm_s = 0;   /* and their time */
	gb_rep rep;
	unsigned t;

	memset(&rep, 0, sizeof(rep));
	ms->progress_units = 1;
	gb_progress_start(&ms->progress, m->name);
	for (rep.index = 0; m->reps_done < o->reps && !gb_measure_timed_out(ms); rep.index++) {
		gb_rep_out out;
		gb_rep_end end;
		uint64_t warmups;
		memset(&out, 0, sizeof(out));
		rep.timed = warm >= o->warmup && !(o->warmup && warm_s < ms->warmup_s);
		rep.timed_index = rep.timed ? m->reps_done : 0;
		/* warm-up by time may run past --warmup: the count grows with it */
		warmups = warm + !rep.timed;
		rep.count = (warmups > o->warmup ? warmups : o->warmup) + o->reps;
		rep.last = rep.index + 1 == rep.count;
		rep.check = o->verify && rep.timed &&
			    (ms->policy == GB_CHECK_LAST ? rep.last :
			     ms->policy == GB_CHECK_UNITS || rep.timed_index % o->verify_every == 0);
		ms->rep_bad = 0;
		if (rep.timed)
			gb_gpu_monitor_timing(1);
		end = fn(ms, k, &rep, &out, arg);
		if (rep.timed)
			gb_gpu_monitor_timing(0);
		if (end == GB_REP_DONE && gb_test_fault_due())
			gb_die(GB_EXIT_RUNTIME, "%s: %s, repetition %" PRIu64 ": a runtime failure injected by %s",
			       ms->cmd, m->name, rep.index + 1, GB_TEST_FAULT_ENV);
		if (rep.check)
			keep_checks(ms, m, &out, end == GB_REP_DONE);
		if (end == GB_REP_CUT) {
			ms->incomplete = 1;
			break;
		}
		gb_progress_update(&ms->progress, (rep.index + 1) * ms->progress_units,
				   rep.count * ms->progress_units);
		if (!rep.timed) {
			warm++;
			warm_s += out.seconds;
			continue;
		}
		row(ms, k, 0)[m->reps_done] = out.seconds;
		for (t = 0; t < ms->tracks; t++)
			row(ms, k, 1 + t)[m->reps_done] = out.track[t];
		m->reps_done++;
		m->finished = rep.last;
		gb_test_fault_rep_done();
	}
	gb_progress_end(&ms->progress);
}

void gb_measure_forecast(gb_measure *ms, unsigned k, double rep_s, const char *why)
{
	uint64_t reps = ms->run->warmup + ms->run->reps;
	double left = gb_measure_left(ms);

	if (rep_s * (double)reps <= left || ms->forecast[0])
		return;
	snprintf(ms->forecast, sizeof(ms->forecast), "%s needs at least %.3g s a repetition (%s): its %" PRIu64
		 " repetitions cannot end before --timeout %g s, which will cut the run short", ms->m[k].name, rep_s,
		 why, reps, ms->run->timeout);
	gb_warn("%s: warning: %s", ms->cmd, ms->forecast);
}

void gb_measure_progress(gb_measure *ms, const gb_rep *rep, uint64_t done, uint64_t total)
{
	ms->progress_units = total ? total : 1;
	gb_progress_update(&ms->progress, rep->index * total + done, rep->count * total);
}

void gb_measure_wrong(gb_measure *ms, unsigned k, const char *fmt, ...)
{
	gb_measured *m = &ms->m[k];
	va_list ap;

	ms->rep_bad = 1;
	if (m->message[0])
		return;
	va_start(ap, fmt);
	vsnprintf(m->message, sizeof(m->message), fmt, ap);
	va_end(ap);
}

void gb_measure_check_units(gb_measure *ms, unsigned k, uint64_t count, const gb_unit_check *c, gb_rep_out *out)
{
	uint64_t i, first = 0, every = ms->run->verify_every;

	/* the step is clamped so that a --verify-every near 2^64 cannot wrap i around */
	for (i = 0; i < count; i = count - i > every ? i + every : count) {
		out->checked++;
		if (c->differs(i, c->arg) && out->wrong++ == 0)
			first = i;
	}
	if (out->wrong)
		gb_measure_wrong(ms, k, "%s disagrees with the oracle on %" PRIu64 " of %" PRIu64 " checked %ss, "
				 "first %s %" PRIu64 " (%s, oracle %s)", ms->m[k].name, out->wrong, out->checked,
				 c->unit, c->unit, first, c->got(first, c->arg), c->oracle(first, c->arg));
}

gb_stats gb_measure_track(const gb_measure *ms, unsigned k, unsigned track)
{
	return gb_stats_of(row(ms, k, track + 1), ms->m[k].reps_done);
}

int gb_measure_verdict(const gb_measure *ms)
{
	unsigned k, checked = 0;

	for (k = 0; k < ms->n; k++) {
		if (ms->m[k].bad_reps)
			return 0;
		checked += ms->m[k].reps_checked;
	}
	return checked ? 1 : -1;
}

/*
 * Wait for --timeout or a signal (common/stop.h), looking every 20 ms; if the
 * run is still going then, report what finished and exit.
 */
static void *watchdog(void *arg)
{
	gb_measure *ms = arg;
	int rc;

	pthread_mutex_lock(&ms->mu);
	while (!ms->done && !gb_stop_requested() && gb_measure_left(ms) > 0) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 20000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&ms->cv, &ms->mu, &until);
	}
	if (ms->done) {
		pthread_mutex_unlock(&ms->mu);
		return NULL;
	}
	gb_stop_raise_timeout();
	ms->incomplete = 1;
	rc = ms->on_timeout(ms, ms->on_timeout_arg);
	gb_exit_now(rc);
	return NULL;
}

void gb_measure_watch(gb_measure *ms, int (*on_timeout)(gb_measure *ms, void *arg), void *arg)
{
	pthread_mutex_init(&ms->mu, NULL);
	pthread_cond_init(&ms->cv, NULL);
	ms->on_timeout = on_timeout;
	ms->on_timeout_arg = arg;
	ms->done = 0;
	ms->watched = 1;
	pthread_mutex_lock(&ms->mu);
	if (pthread_create(&ms->dog, NULL, watchdog, ms) != 0)
		gb_die(GB_EXIT_RUNTIME, "%s: cannot start the --timeout watchdog thread", ms->cmd);
}

void gb_measure_unlock(gb_measure *ms)
{
	if (ms->watched)
		pthread_mutex_unlock(&ms->mu);
}

void gb_measure_lock(gb_measure *ms)
{
	if (ms->watched)
		pthread_mutex_lock(&ms->mu);
}

void gb_measure_unwatch(gb_measure *ms)
{
	if (!ms->watched)
		return;
	ms->done = 1;
	pthread_cond_signal(&ms->cv);
	pthread_mutex_unlock(&ms->mu);
	pthread_join(ms->dog, NULL);
	pthread_mutex_destroy(&ms->mu);
	pthread_cond_destroy(&ms->cv);
	ms->watched = 0;
}
