/* Exit codes and error helpers shared by every subcommand (see DESIGN.md). */
#ifndef GB_ERROR_H
#define GB_ERROR_H

#include <stdarg.h>
#include <stddef.h>

enum gb_exit {
	GB_EXIT_OK = 0,
	GB_EXIT_RUNTIME = 1,     /* CUDA error, out of memory, I/O, timeout */
	GB_EXIT_USAGE = 2,       /* bad option, bad value, bad trace line */
	GB_EXIT_VERIFY = 3,      /* the run's own verification failed */
	GB_EXIT_REGRESSION = 4,  /* compare found a regression */
};

/*
 * Print "gpubench: <msg>" to stderr and exit with the given code. A runtime
 * failure (code 1) in the middle of a run first calls the hook set by
 * gb_on_runtime_failure, once: it shows what finished before the failure,
 * and the message follows it.
 */
__attribute__((noreturn, format(printf, 2, 3)))
void gb_die(int code, const char *fmt, ...);

/*
 * End the process from a thread other than the run's (a watchdog), without
 * waiting for the others: standard output is flushed and checked first, as
 * at any exit (a failure to write it makes a status of 0 into 1).
 */
__attribute__((noreturn))
void gb_exit_now(int code);

/* Set (fn) or clear (NULL) what a runtime failure calls before the process exits. */
void gb_on_runtime_failure(void (*fn)(void *arg), void *arg);

/*
 * The status the process is exiting with, as far as it is known (gb_die's
 * code, or what main returns): the check of standard output at exit keeps it
 * when it is not 0.
 */
extern int gb_exit_status;

/* Print "gpubench: <msg>" to stderr. */
__attribute__((format(printf, 1, 2)))
void gb_warn(const char *fmt, ...);

/* Set by --quiet: suppresses notes and progress, never errors. */
extern int gb_quiet;

__attribute__((format(printf, 1, 2)))
void gb_note(const char *fmt, ...);

/* malloc/calloc that exit 1 with the size in the message when memory is short. */
/* Format a message into err (errlen bytes, either may be 0) and return -1: for functions that
 * report failure through an err buffer. */
__attribute__((format(printf, 3, 4)))
int gb_errmsg(char *err, size_t errlen, const char *fmt, ...);

/*
 * The message of an error in an input file, in one format for every reader:
 * "FILE:LINE: reason", or "FILE: empty file: reason" when no line was read.
 * Returns -1 like gb_errmsg.
 */
int gb_line_error(char *err, size_t errlen, const char *file, unsigned long long line,
		  const char *fmt, va_list ap);

/*
 * A runtime failure injected on purpose, to test what a failure in the
 * middle of a run leaves: with GPUBENCH_TEST_FAULT=N in the environment, once
 * N timed repetitions have finished (over every implementation of the run),
 * the next checked CUDA call fails as a kernel that crashed would
 * (common/cuda_check.h), or, where a repetition makes no CUDA call (the CPU
 * backend), the next repetition fails as it ends. A value that is not an
 * integer in 0..1000000 exits 2; 0 injects nothing.
 */
#define GB_TEST_FAULT_ENV "GPUBENCH_TEST_FAULT"
/* A test environment variable's count (0 when unset or empty); not a number in 0..max exits 2
 * naming the variable and the unit ("repetitions", "microseconds"). */
unsigned long long gb_test_env_count(const char *name, unsigned long long max, const char *unit);
/* The measurement loop: a timed repetition finished. */
void gb_test_fault_rep_done(void);
/* Whether an injected failure is due now; once it is, it stays due. */
int gb_test_fault_due(void);

void *gb_xmalloc(size_t n, const char *what);
void *gb_xcalloc(size_t count, size_t size, const char *what);
/* Zeroed memory with its pages touched now (calloc may leave them to fault in later): for
 * state a timed run uses, so that page faults belong to its allocation, not to the run. */
void *gb_xzalloc(size_t count, size_t size, const char *what);

#endif
