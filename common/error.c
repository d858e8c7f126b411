#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"

int gb_quiet;
int gb_exit_status;

static void (*failure_hook)(void *arg);
static void *failure_arg;

void gb_on_runtime_failure(void (*fn)(void *arg), void *arg)
{
	failure_hook = fn;
	failure_arg = arg;
}

static void vmessage(const char *fmt, va_list ap)
{
	fputs("gpubench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void gb_die(int code, const char *fmt, ...)
{
	void (*hook)(void *arg) = failure_hook;
	va_list ap;

	gb_exit_status = code;
	/* what finished first: the failure's own message stays the last line, for scripts that show it */
	if (code == GB_EXIT_RUNTIME && hook) {
		failure_hook = NULL; /* once: a failure inside it ends the process plainly */
		hook(failure_arg);
	}
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(code);
}

void gb_exit_now(int code)
{
	int e;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		e = errno ? errno : EIO;
		fprintf(stderr, "gpubench: cannot write to standard output: %s\n", strerror(e));
		if (!code)
			code = GB_EXIT_RUNTIME;
	}
	fflush(stderr);
	_exit(code);
}

void gb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

void gb_note(const char *fmt, ...)
{
	va_list ap;
	if (gb_quiet)
		return;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

void *gb_xmalloc(size_t n, const char *what)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		gb_die(GB_EXIT_RUNTIME, "out of host memory allocating %zu bytes for %s", n, what);
	return p;
}

void *gb_xcalloc(size_t count, size_t size, const char *what)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		gb_die(GB_EXIT_RUNTIME, "out of host memory allocating %zu x %zu bytes for %s",
		       count, size, what);
	return p;
}

void *gb_xzalloc(size_t count, size_t size, const char *what)
{
	void *p = gb_xmalloc((count ? count : 1) * size, what);
	memset(p, 0, (count ? count : 1) * size);
	return p;
}

int gb_errmsg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int gb_line_error(char *err, size_t errlen, const char *file, unsigned long long line,
		  const char *fmt, va_list ap)
{
	int k;

	if (!err || !errlen)
		return -1;
	if (line)
		k = snprintf(err, errlen, "%s:%llu: ", file, line);
	else
		k = snprintf(err, errlen, "%s: empty file: ", file);
	if (k >= 0 && (size_t)k < errlen)
		vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	return -1;
}

static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static unsigned long long fault_after; /* 0: no fault */
static unsigned long long reps_done;

unsigned long long gb_test_env_count(const char *name, unsigned long long max, const char *unit)
{
	const char *text = getenv(name);
	char *end;
	unsigned long long v;

	if (!text || !*text)
		return 0;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (*text < '0' || *text > '9' || *end || errno == ERANGE || v > max)
		gb_die(GB_EXIT_USAGE, "%s: '%s' is not a number of %s (accepted: 0..%llu)", name, text, unit, max);
	return v;
}

static void read_test_fault(void)
{
	fault_after = gb_test_env_count(GB_TEST_FAULT_ENV, 1000000ull, "repetitions");
}

void gb_test_fault_rep_done(void)
{
	reps_done++;
}

int gb_test_fault_due(void)
{
	pthread_once(&fault_once, read_test_fault);
	return fault_after && reps_done >= fault_after;
}
