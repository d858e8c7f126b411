/* common/stop.c: --timeout's deadline and SIGINT/SIGTERM, and common/memory.c's refusals. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/memory.h"
#include "common/options.h"
#include "common/stop.h"
#include "tests/unit/test.h"

/* A temporary output file as gb_out_open makes it, published for the signal handler. */
static const char *make_tmp(const char *name)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tu_tmpdir(), name);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	return path;
}

static void signal_unarmed(void *arg)
{
	gb_stop_install();
	gb_stop_track_tmp(arg);
	raise(SIGINT); /* no run armed: it ends the process, as SIGINT would */
	exit(7);
}

TEST(stop_signal_without_a_run_ends_the_process_and_removes_the_temporary_file)
{
	const char *tmp = make_tmp("report.json.tmp.1");
	char err[256];

	CHECK_EQ_I(tu_run_child(signal_unarmed, (void *)tmp, err, sizeof(err)), 128 + SIGINT);
	CHECK(access(tmp, F_OK) != 0);
}

static void signal_armed(void *arg)
{
	static gb_run_opts o = {.timeout = 600};
	char *argv[] = {"demo", NULL};

	gb_stop_install();
	gb_stop_arm("demo", &o, 1, argv);
	gb_stop_track_tmp(arg);
	raise(SIGTERM); /* the first one stops the run: polled, not fatal */
	if (!gb_stop_requested() || gb_stop_cause_of() != GB_STOP_SIGNAL || strcmp(gb_stop_name(), "SIGTERM") ||
	    strcmp(gb_stop_reason(), "SIGTERM received") || gb_stop_left() != 0)
		exit(10);
	if (access(arg, F_OK) != 0)
		exit(11); /* the report being written is the run's: left to finish */
	raise(SIGTERM); /* the second ends the process at once */
	exit(12);
}

TEST(stop_first_signal_stops_the_run_second_ends_it)
{
	const char *tmp = make_tmp("report.json.tmp.2");
	char err[256];

	CHECK_EQ_I(tu_run_child(signal_armed, (void *)tmp, err, sizeof(err)), 128 + SIGTERM);
	CHECK(access(tmp, F_OK) != 0);
}

static void deadline(void *arg)
{
	static gb_run_opts o = {.timeout = 0.05};
	struct timespec pause = {0, 300000000};
	char *argv[] = {"demo", NULL};

	(void)arg;
	gb_stop_install();
	gb_stop_arm("demo", &o, 1, argv);
	if (gb_stop_requested())
		exit(10);
	nanosleep(&pause, NULL);
	if (!gb_stop_requested() || strcmp(gb_stop_name(), "timeout") ||
	    strcmp(gb_stop_reason(), "--timeout 0.05 s reached"))
		exit(11);
	exit(0);
}

TEST(stop_deadline_raises_the_flag)
{
	char err[256];

	CHECK_EQ_I(tu_run_child(deadline, NULL, err, sizeof(err)), 0);
	CHECK(gb_stop_grace(1) == 5.1 && gb_stop_grace(600) == 60);
}

static void memory_product(void *arg)
{
	gb_memory_term terms[] = {
		{.opt = "accounts", .value = 1000, .bytes_each = 40},
		{.opt = "threads", .value = 21, .bytes_each = 70, .opt2 = "tx-per-thread", .value2 = 100000000},
	};
	(void)arg;
	gb_memory_fit("stm", "host", 1ull << 30, 0, terms, 2);
}

TEST(memory_refusal_names_both_options_of_a_product)
{
	char err[512];

	CHECK_EQ_I(tu_run_child(memory_product, NULL, err, sizeof(err)), 1);
	/* both are the product: the message names both, and what fits of each with the other */
	CHECK_CONTAINS(err, "stm: --threads 21 x --tx-per-thread 100000000 need about 136.9 GiB of host memory and "
			    "1.0 GiB is available: at most --tx-per-thread 730409 with --threads 21");
}
