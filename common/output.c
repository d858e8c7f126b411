#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/output.h"
#include "common/stop.h"

/*
 * FIFOs opened by gb_paths_check, kept open until their output is written: a
 * reader that opened its end sees no end of file before then, and a FIFO
 * with no reader was found before the run rather than blocking after it.
 */
#define MAX_FIFOS 8
static struct {
	char *path;
	int fd;
} fifos[MAX_FIFOS];
static unsigned nfifos;

/* Whether path names the file open as descriptor fd (standard output: 1). */
static int same_as_fd(const char *path, int fd)
{
	struct stat sp, sf;
	return stat(path, &sp) == 0 && fstat(fd, &sf) == 0 && sp.st_dev == sf.st_dev && sp.st_ino == sf.st_ino;
}

int gb_path_is_stdout(const char *path)
{
	return path && (strcmp(path, "-") == 0 || same_as_fd(path, 1));
}

/*
 * Open the FIFO path for writing without waiting for a reader: 0, or an errno
 * value (ENXIO: none). A reader started just before (`cat fifo & gpubench
 * ...`) gets a second to open its end.
 */
static int open_fifo(const char *path)
{
	struct timespec pause = {0, 10000000};
	int fd, flags, tries;

	if (nfifos == MAX_FIFOS)
		return EMFILE;
	for (tries = 0; (fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && errno == ENXIO && tries < 100; tries++)
		nanosleep(&pause, NULL);
	if (fd < 0)
		return errno;
	/* from here on a write waits for the reader, as a write to a pipe does */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	fifos[nfifos].path = strdup(path);
	fifos[nfifos++].fd = fd;
	return 0;
}

/* The descriptor gb_paths_check opened for the FIFO path, taken from the table; -1 when none. */
static int take_fifo(const char *path)
{
	unsigned i;
	for (i = 0; i < nfifos; i++)
		if (fifos[i].path && strcmp(fifos[i].path, path) == 0) {
			int fd = fifos[i].fd;
			free(fifos[i].path);
			fifos[i] = fifos[--nfifos];
			return fd;
		}
	return -1;
}

/* The directory part of path ("." when it has none), in a malloc'd string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	d = strndup(path, (size_t)(slash - path));
	return d;
}

/*
 * A name that two spellings of one file share: the canonical directory and
 * the last component. Used only for files that do not exist yet; existing
 * ones compare by device and inode.
 */
static char *canonical_name(const char *path)
{
	char *dir = dir_of(path), *real, *out;
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	real = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!real)
		return strdup(path);
	out = gb_xmalloc(strlen(real) + strlen(base) + 2, "a path");
	sprintf(out, "%s/%s", real, base);
	free(real);
	return out;
}

/*
 * The absolute path a write to path would replace: an existing file's (a
 * symlink followed), else its nearest existing folder's with the rest of path
 * after it. NULL when no folder on the way exists.
 */
static char *resolved_out(const char *path)
{
	char *real = realpath(path, NULL), *dir, *up, *out;
	const char *slash = strrchr(path, '/');

	if (real || !*path)
		return real;
	if (slash == path)
		dir = strdup("/");
	else
		dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	up = dir ? resolved_out(dir) : NULL;
	free(dir);
	if (!up)
		return NULL;
	out = gb_xmalloc(strlen(up) + strlen(path) + 2, "a path");
	sprintf(out, "%s%s%s", up, up[strlen(up) - 1] == '/' ? "" : "/", slash ? slash + 1 : path);
	free(up);
	return out;
}

int gb_path_writes_over(const char *out_path, const char *input, int dir)
{
	char *out = resolved_out(out_path), *in = realpath(input, NULL);
	size_t len = in ? strlen(in) : 0;
	int hit = out && in &&
		  (dir ? strncmp(out, in, len) == 0 && (out[len] == '/' || out[len] == 0 || in[len - 1] == '/')
		       : strcmp(out, in) == 0);

	free(out);
	free(in);
	return hit;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0, same;
	char *ca, *cb;

	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea != eb)
		return 0;
	ca = canonical_name(a);
	cb = canonical_name(b);
	same = ca && cb && strcmp(ca, cb) == 0;
	free(ca);
	free(cb);
	return same;
}

/*
 * 0 when a file can be created beside target, as gb_out_open creates its temporary file
 * there: tried, then removed. Permission bits do not say it (a directory of /proc, a
 * read-only mount, root's access() on either).
 */
static int creatable_beside(const char *target)
{
	char *probe = gb_xmalloc(strlen(target) + 40, "a path");
	int fd, e = 0;
	sprintf(probe, "%s.probe.%ld", target, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		e = errno;
	} else {
		close(fd);
		unlink(probe);
	}
	free(probe);
	return e;
}

/* 0 when path can be written as gb_out_open writes it; else an errno value. */
static int writable(const char *path)
{
	struct stat st;
	char *dir, *target = NULL;
	int e = 0;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return EISDIR;
		if (access(path, W_OK) != 0)
			return errno;
		if (S_ISFIFO(st.st_mode))
			return open_fifo(path);
		if (!S_ISREG(st.st_mode) || same_as_fd(path, 2))
			return 0;
		/* A regular file is replaced by a rename in its directory. */
		target = realpath(path, NULL);
		dir = dir_of(target ? target : path);
	} else if (errno == ENOENT) {
		dir = dir_of(path);
	} else {
		return errno;
	}
	if (!dir) {
		free(target);
		return ENOMEM;
	}
	if (stat(dir, &st) != 0)
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	else if (access(dir, W_OK | X_OK) != 0)
		e = errno;
	else
		e = creatable_beside(target ? target : path);
	free(target);
	free(dir);
	return e;
}

void gb_paths_check(const char *cmd, const gb_path_use *u, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (!u[i].path)
			continue;
		if (!u[i].path[0])
			gb_die(GB_EXIT_USAGE, "%s: option --%s: the path is empty", cmd, u[i].opt);
		for (k = 0; k < i; k++) {
			const gb_path_use *a = &u[k], *b = &u[i];
			int stdio, same;
			if (!a->path || (a->is_input && b->is_input))
				continue;
			stdio = (!a->is_input && gb_path_is_stdout(a->path)) || (!b->is_input && gb_path_is_stdout(b->path)) ||
				strcmp(a->path, "-") == 0 || strcmp(b->path, "-") == 0;
			if (stdio) /* stdin and stdout are different streams */
				same = !a->is_input && !b->is_input && gb_path_is_stdout(a->path) &&
				       gb_path_is_stdout(b->path);
			else
				same = same_file(a->path, b->path);
			if (!same)
				continue;
			if (a->is_input || b->is_input)
				gb_die(GB_EXIT_USAGE, "%s: option --%s would overwrite the --%s input %s", cmd,
				       a->is_input ? b->opt : a->opt, a->is_input ? a->opt : b->opt,
				       a->is_input ? a->path : b->path);
			gb_die(GB_EXIT_USAGE, "%s: options --%s and --%s both write %s%s", cmd, a->opt, b->opt,
			       stdio ? "to standard output" : b->path, stdio ? " ('-')" : "");
		}
	}
	for (i = 0; i < n; i++) {
		int e;
		if (!u[i].path || u[i].is_input || gb_path_is_stdout(u[i].path))
			continue;
		e = writable(u[i].path);
		if (e == ENXIO)
			gb_die(GB_EXIT_RUNTIME, "%s: option --%s: the FIFO %s has no reader (start the reader first)",
			       cmd, u[i].opt, u[i].path);
		if (e)
			gb_die(GB_EXIT_RUNTIME, "%s: option --%s: cannot write %s: %s", cmd, u[i].opt, u[i].path,
			       strerror(e));
	}
}

FILE *gb_out_open(gb_out *o, const char *path, char *err, size_t errlen)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->path = path;
	gb_stop_outputs_lock(); /* until gb_out_close, or the failure below */
	if (gb_path_is_stdout(path)) {
		o->f = stdout;
		return o->f;
	}
	if (same_as_fd(path, 2)) { /* written where standard error is, not replaced */
		o->f = stderr;
		return o->f;
	}
	o->target = realpath(path, NULL); /* follows symlinks; NULL when it does not exist yet */
	if (!o->target)
		o->target = strdup(path);
	if (!o->target) {
		gb_errmsg(err, errlen, "cannot write %s: out of memory", path);
		goto failed;
	}
	if (stat(o->target, &st) == 0 && S_ISFIFO(st.st_mode)) {
		/* opened by gb_paths_check; one that appeared since gets the same open, which does not wait */
		int fd = take_fifo(path), e = fd < 0 ? open_fifo(path) : 0;
		if (fd < 0 && !e)
			fd = take_fifo(path);
		if (fd < 0) {
			gb_errmsg(err, errlen, "cannot write %s: %s", path,
				  e == ENXIO ? "the FIFO has no reader" : strerror(e));
			goto failed;
		}
		o->f = fdopen(fd, "w");
		if (!o->f)
			close(fd);
	} else if (stat(o->target, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		o->f = fopen(o->target, "w"); /* a device: written in place */
	} else {
		/* Beside the target, so the rename stays on one file system. */
		o->tmp = gb_xmalloc(strlen(o->target) + 32, "a path");
		sprintf(o->tmp, "%s.tmp.%ld", o->target, (long)getpid());
		gb_stop_track_tmp(o->tmp); /* a signal that ends the process removes it */
		o->f = fopen(o->tmp, "w");
	}
	if (!o->f) {
		gb_errmsg(err, errlen, "cannot write %s: %s", path, strerror(errno));
		goto failed;
	}
	return o->f;
failed:
	gb_stop_track_tmp(NULL);
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
	gb_stop_outputs_unlock();
	return NULL;
}

int gb_out_close(gb_out *o, char *err, size_t errlen)
{
	int ok, e = 0;

	if (o->f == stdout || o->f == stderr) {
		ok = fflush(o->f) == 0 && !ferror(o->f);
		if (!ok)
			e = errno;
	} else {
		ok = !ferror(o->f);
		ok = fclose(o->f) == 0 && ok;
		if (!ok)
			e = errno ? errno : EIO;
		if (ok && o->tmp && rename(o->tmp, o->target) != 0) {
			ok = 0;
			e = errno;
		}
		if (!ok && o->tmp)
			unlink(o->tmp);
	}
	if (!ok)
		gb_errmsg(err, errlen, "cannot write %s: %s",
			  gb_path_is_stdout(o->path) ? "to standard output" : o->path, strerror(e ? e : EIO));
	gb_stop_track_tmp(NULL);
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
	gb_stop_outputs_unlock();
	return ok ? 0 : -1;
}
