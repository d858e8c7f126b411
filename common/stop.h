/*
 * When a run must stop: --timeout's deadline, SIGINT and SIGTERM. One flag,
 * raised by whichever comes first, that every long loop polls (generation,
 * the oracle, the measurement loop, verification), so a stop ends the run
 * the same way wherever it lands: what finished is reported, marked
 * incomplete, and the exit status is 1.
 *
 * --timeout bounds the whole process: a thread waits for the deadline (or a
 * signal) and raises the flag; if the process has not ended a grace period
 * later (gb_stop_grace: something that cannot poll, a read from a FIFO with
 * no writer, a GPU kernel that does not look at the clock), it writes the
 * report of a run that finished nothing, removes any temporary output file
 * and exits 1 on its own. A second SIGINT or SIGTERM ends the process at
 * once, removing the temporary output file being written, as does the first
 * one for a subcommand that runs nothing (compare, info).
 */
#ifndef GB_STOP_H
#define GB_STOP_H

#include <stddef.h>
#include <stdint.h>

#include "common/options.h"

typedef enum gb_stop_cause {
	GB_STOP_NONE = 0,
	GB_STOP_TIMEOUT, /* --timeout's deadline passed */
	GB_STOP_SIGNAL,  /* SIGINT or SIGTERM */
} gb_stop_cause;

/* Raised once a run must stop (set from a signal handler or the deadline thread: poll it;
 * common/port.h's gb_past_deadline reads it for CPU threads). */
extern volatile int gb_stop_flag;

static inline int gb_stop_requested(void)
{
	return __atomic_load_n(&gb_stop_flag, __ATOMIC_RELAXED) != 0;
}

/*
 * From main: SIGINT and SIGTERM end the process, leaving no temporary output
 * file, until a run arms them. Without it (the unit tests, which parse
 * options as a library) gb_stop_arm does nothing.
 */
void gb_stop_install(void);

/*
 * A run starts (gb_opts_parse, for a subcommand with --timeout): its deadline
 * is run->timeout seconds from now, SIGINT and SIGTERM raise the flag instead
 * of ending the process, and the grace thread starts. cmd, argc and argv are
 * the subcommand's (argv[0] its name), for the report the thread may write.
 */
void gb_stop_arm(const char *cmd, const gb_run_opts *run, int argc, char **argv);

/* A deadline of the run's own (the measurement loop's) has passed: raise the flag for --timeout. */
void gb_stop_raise_timeout(void);

gb_stop_cause gb_stop_cause_of(void);
/* Why the run stopped, for messages: "--timeout 2 s reached", "SIGINT received"; "" when it did not. */
const char *gb_stop_reason(void);
/* The report's meta.stopped_by: "timeout", "SIGINT", "SIGTERM"; NULL when the run did not stop. */
const char *gb_stop_name(void);
/* Seconds before the deadline (a large number when no run is armed); 0 once the flag is raised. */
double gb_stop_left(void);
/* Seconds the process may take past the deadline or a signal before it ends on its own. */
double gb_stop_grace(double timeout);

/* In a long loop of counter i: whether the run must stop, looked at every 65536 iterations. */
#define GB_STOP_EVERY(i) ((((i) & 0xFFFFu) == 0) && gb_stop_requested())

/*
 * For a generator's or an oracle's loop: -1 with "stopped: REASON" in err
 * once the run must stop (it then gives up what it was building), else 0.
 */
int gb_stop_check(char *err, size_t errlen);

/*
 * Where a stop lands before a run has anything to report (in generation, or
 * reading a trace): when the flag is raised, write the report of a run that
 * finished nothing, marked incomplete, say so naming phase ("generation"),
 * and exit 1. Returns at once when it is not raised.
 */
void gb_stop_exit_if_requested(const char *phase);

/*
 * Outputs: the temporary file being written (NULL: none), which a signal that
 * ends the process or the grace thread removes. gb_stop_outputs_lock and
 * _unlock bracket the writing of an output, so the grace thread never writes
 * a report while one is half written; gb_stop_finished says the run's report
 * is written and the process is about to exit.
 */
void gb_stop_track_tmp(const char *path);
void gb_stop_outputs_lock(void);
void gb_stop_outputs_unlock(void);
void gb_stop_finished(void);

#endif
