/*
 * Runner of the unit tests: every TEST() of the tests/unit files, in registration
 * order. Arguments, when given, are substrings: only tests whose name contains
 * one of them run. Prints one line per failed assertion and a last line
 * "unit: N passed, N failed" counting test cases; exits 1 when any failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/test.h"

#define MAX_TESTS 512

static struct {
	const char *name, *file;
	tu_fn fn;
} tests[MAX_TESTS];
static int ntests;
static const char *current;
static int current_failures;
static int saved_stderr = -1;
static char tmpdir_path[4096];

void tu_register(const char *name, const char *file, tu_fn fn)
{
	if (ntests == MAX_TESTS) {
		fprintf(stderr, "unit: too many tests (raise MAX_TESTS)\n");
		exit(1);
	}
	tests[ntests].name = name;
	tests[ntests].file = file;
	tests[ntests].fn = fn;
	ntests++;
}

void tu_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("FAIL %s: %s:%d: ", current ? current : "?", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	current_failures++;
}

void tu_stderr_off(void)
{
	int fd;
	fflush(stderr);
	if (saved_stderr >= 0)
		return;
	saved_stderr = dup(2);
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
}

void tu_stderr_on(void)
{
	fflush(stderr);
	if (saved_stderr < 0)
		return;
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
}

int tu_run_child(void (*fn)(void *), void *arg, char *err, size_t errlen)
{
	int p[2], status;
	size_t got = 0;
	pid_t pid;

	if (errlen)
		err[0] = '\0';
	if (pipe(p) != 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		close(p[1]);
		fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		char buf[512];
		ssize_t n = read(p[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (errlen && got + 1 < errlen) {
			size_t take = (size_t)n;
			if (take > errlen - 1 - got)
				take = errlen - 1 - got;
			memcpy(err + got, buf, take);
			got += take;
			err[got] = '\0';
		}
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	if (!d) {
		unlink(path);
		return;
	}
	while ((e = readdir(d))) {
		char sub[8192];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		remove_tree(sub);
	}
	closedir(d);
	rmdir(path);
}

static pid_t tmpdir_owner;

static void cleanup_tmpdir(void)
{
	if (tmpdir_path[0] && getpid() == tmpdir_owner)
		remove_tree(tmpdir_path);
}

const char *tu_tmpdir(void)
{
	if (!tmpdir_path[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmpdir_path, sizeof(tmpdir_path), "%s/gpubench-unit.XXXXXX",
			 base && *base ? base : "/tmp");
		if (!mkdtemp(tmpdir_path)) {
			perror("unit: mkdtemp");
			exit(1);
		}
		tmpdir_owner = getpid();
		atexit(cleanup_tmpdir);
	}
	return tmpdir_path;
}

static int selected(const char *name, int argc, char **argv)
{
	int i;
	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int i, passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < ntests; i++) {
		if (!selected(tests[i].name, argc, argv))
			continue;
		current = tests[i].name;
		current_failures = 0;
		tests[i].fn();
		tu_stderr_on();
		if (current_failures) {
			failed++;
			printf("FAILED %s (%s, %d assertion%s)\n", tests[i].name, tests[i].file,
			       current_failures, current_failures == 1 ? "" : "s");
		} else {
			passed++;
			if (getenv("UNIT_VERBOSE"))
				printf("ok %s\n", tests[i].name);
		}
	}
	current = NULL;
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
