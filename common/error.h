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

/* Print "gpubench: <msg>" to stderr and exit with the given code. */
__attribute__((noreturn, format(printf, 2, 3)))
void gb_die(int code, const char *fmt, ...);

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

void *gb_xmalloc(size_t n, const char *what);
void *gb_xcalloc(size_t count, size_t size, const char *what);
/* Zeroed memory with its pages touched now (calloc may leave them to fault in later): for
 * state a timed run uses, so that page faults belong to its allocation, not to the run. */
void *gb_xzalloc(size_t count, size_t size, const char *what);

#endif
