/* When a run must stop: see stop.h. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/report.h"
#include "common/stop.h"
#include "common/timer.h"

volatile int gb_stop_flag;

static volatile sig_atomic_t stop_signal; /* the signal that raised the flag */
static int installed;                     /* gb_stop_install ran: this is the gpubench process */
static int armed;
static uint64_t deadline_ns;              /* CLOCK_MONOTONIC, as gb_now_ns */
static double timeout_s;
static sem_t wake;                        /* posted by the first signal of an armed run */
static pthread_t watcher;

/* what the grace thread needs for the report of a run that finished nothing */
static const char *run_cmd;
static const gb_run_opts *run_opts;
static int run_argc;
static char **run_argv;

/* outputs: the lock around writing one, the temporary file being written, the end */
/* recursive: the grace thread writes a report under the lock, through the writer that takes it */
static pthread_mutex_t outputs = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static char tmp_buf[2][PATH_MAX + 64];
static char *tmp_pub;                     /* one of tmp_buf, or NULL; read by the signal handler */
static unsigned tmp_next;
static volatile int finished;

static void remove_tmp(void)
{
	char *p = __atomic_load_n(&tmp_pub, __ATOMIC_ACQUIRE);
	if (p)
		unlink(p);
}

/* Raise the flag for cause unless it is raised already; returns whether this call raised it. */
static int raise_flag(int cause)
{
	int none = GB_STOP_NONE;
	return __atomic_compare_exchange_n(&gb_stop_flag, &none, cause, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void gb_stop_raise_timeout(void)
{
	if (armed)
		raise_flag(GB_STOP_TIMEOUT);
}

static void on_signal(int sig)
{
	int saved = errno;

	if (armed && raise_flag(GB_STOP_SIGNAL)) {
		stop_signal = sig;
		sem_post(&wake);
		errno = saved;
		return;
	}
	/* nothing to stop, or asked twice: end now, as the signal would, leaving no temporary file */
	remove_tmp();
	signal(sig, SIG_DFL);
	raise(sig);
}

void gb_stop_install(void)
{
	struct sigaction sa;

	installed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

double gb_stop_grace(double timeout)
{
	double g = 5 + 0.1 * timeout;
	return g < 60 ? g : 60;
}

gb_stop_cause gb_stop_cause_of(void)
{
	return (gb_stop_cause)__atomic_load_n(&gb_stop_flag, __ATOMIC_SEQ_CST);
}

const char *gb_stop_name(void)
{
	switch (gb_stop_cause_of()) {
	case GB_STOP_TIMEOUT:
		return "timeout";
	case GB_STOP_SIGNAL:
		return stop_signal == SIGINT ? "SIGINT" : "SIGTERM";
	default:
		return NULL;
	}
}

const char *gb_stop_reason(void)
{
	static char text[64];

	switch (gb_stop_cause_of()) {
	case GB_STOP_TIMEOUT:
		snprintf(text, sizeof(text), "--timeout %g s reached", timeout_s);
		return text;
	case GB_STOP_SIGNAL:
		snprintf(text, sizeof(text), "%s received", gb_stop_name());
		return text;
	default:
		return "";
	}
}

double gb_stop_left(void)
{
	uint64_t now;

	if (!armed)
		return 1e18;
	if (gb_stop_requested())
		return 0;
	now = gb_now_ns();
	return now < deadline_ns ? (double)(deadline_ns - now) / 1e9 : 0;
}

static struct timespec monotonic_after(double seconds)
{
	struct timespec ts;
	double whole;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	whole = (double)ts.tv_sec + ts.tv_nsec * 1e-9 + (seconds > 0 ? seconds : 0);
	ts.tv_sec = (time_t)whole;
	ts.tv_nsec = (long)((whole - (double)ts.tv_sec) * 1e9);
	return ts;
}

/* The report of a run stopped before it had anything to report, at --json when there is one. */
static int write_nothing(const char *why)
{
	gb_report r;
	int rc = 0;

	if (!run_opts || !run_opts->json)
		return 0;
	gb_report_init(&r, run_cmd, run_argc, run_argv);
	gb_describe_host_cpu(r.device);
	gb_opts_config(r.config, run_opts);
	gb_report_incomplete(&r);
	gb_report_warn(&r, "%s", why);
	cJSON_AddNullToObject(r.verification, "verified");
	gb_json_str(r.verification, "method", "none");
	gb_json_str(r.verification, "message", why);
	if (gb_report_write(&r, run_opts->json) != 0)
		rc = -1;
	gb_report_free(&r);
	return rc;
}

int gb_stop_check(char *err, size_t errlen)
{
	if (!gb_stop_requested())
		return 0;
	return gb_errmsg(err, errlen, "stopped: %s", gb_stop_reason());
}

void gb_stop_exit_if_requested(const char *phase)
{
	char why[160];

	if (!gb_stop_requested())
		return;
	snprintf(why, sizeof(why), "%s during %s: nothing ran", gb_stop_reason(), phase);
	gb_stop_outputs_lock();
	write_nothing(why);
	gb_warn("%s: %s; the report is marked incomplete", run_cmd, why);
	gb_stop_finished();
	gb_stop_outputs_unlock();
	exit(GB_EXIT_RUNTIME);
}

/*
 * The grace is over and the process is still here: the report of a run that
 * finished nothing (unless an output is being written, which gets a moment
 * more), no temporary file, exit 1.
 */
static void backstop(void)
{
	struct timespec until = monotonic_after(2);
	int locked = pthread_mutex_clocklock(&outputs, CLOCK_MONOTONIC, &until) == 0;
	char why[160], line[256];
	int n;

	if (finished)
		return; /* the run's own report is written: the process is ending */
	snprintf(why, sizeof(why), "%s and the run did not end within %g s more: no results reported", gb_stop_reason(),
		 gb_stop_grace(timeout_s));
	if (locked)
		write_nothing(why);
	remove_tmp();
	n = snprintf(line, sizeof(line), "gpubench: %s: %s%s\n", run_cmd, why,
		     locked && run_opts->json ? "; the report is marked incomplete" : "");
	if (n > 0)
		(void)!write(2, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	_exit(GB_EXIT_RUNTIME);
}

static void *watch(void *arg)
{
	struct timespec until = monotonic_after(timeout_s);

	(void)arg;
	while (sem_clockwait(&wake, CLOCK_MONOTONIC, &until) != 0 && errno == EINTR)
		;
	raise_flag(GB_STOP_TIMEOUT);
	until = monotonic_after(gb_stop_grace(timeout_s));
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	backstop();
	return NULL;
}

void gb_stop_arm(const char *cmd, const gb_run_opts *run, int argc, char **argv)
{
	sigset_t all, old;

	if (armed || !installed) /* a library call (the unit tests) arms nothing */
		return;
	run_cmd = cmd;
	run_opts = run;
	run_argc = argc;
	run_argv = argv;
	timeout_s = run->timeout;
	deadline_ns = gb_now_ns() + (uint64_t)(run->timeout * 1e9);
	sem_init(&wake, 0, 0);
	/* the thread takes no signal: the handler runs in a thread of the run */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&watcher, NULL, watch, NULL) != 0)
		gb_die(GB_EXIT_RUNTIME, "%s: cannot start the --timeout thread", cmd);
	pthread_detach(watcher);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	armed = 1;
}

void gb_stop_track_tmp(const char *path)
{
	char *buf;

	if (!path) {
		__atomic_store_n(&tmp_pub, NULL, __ATOMIC_RELEASE);
		return;
	}
	/* the other buffer: the handler may be reading the one published */
	buf = tmp_buf[tmp_next];
	tmp_next ^= 1;
	snprintf(buf, sizeof(tmp_buf[0]), "%s", path);
	__atomic_store_n(&tmp_pub, buf, __ATOMIC_RELEASE);
}

void gb_stop_outputs_lock(void)
{
	pthread_mutex_lock(&outputs);
}

void gb_stop_outputs_unlock(void)
{
	pthread_mutex_unlock(&outputs);
}

void gb_stop_finished(void)
{
	finished = 1;
}
