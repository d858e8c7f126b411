#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

int gb_quiet;

static void vmessage(const char *fmt, va_list ap)
{
	fputs("gpubench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void gb_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(code);
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
