#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/output.h"

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
		if (!S_ISREG(st.st_mode))
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
			stdio = strcmp(a->path, "-") == 0 || strcmp(b->path, "-") == 0;
			if (stdio) /* stdin and stdout are different streams */
				same = strcmp(a->path, b->path) == 0 && !a->is_input && !b->is_input;
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
		if (!u[i].path || u[i].is_input || strcmp(u[i].path, "-") == 0)
			continue;
		e = writable(u[i].path);
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
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return o->f;
	}
	o->target = realpath(path, NULL); /* follows symlinks; NULL when it does not exist yet */
	if (!o->target)
		o->target = strdup(path);
	if (!o->target) {
		gb_errmsg(err, errlen, "cannot write %s: out of memory", path);
		return NULL;
	}
	if (stat(o->target, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		o->f = fopen(o->target, "w"); /* a device or FIFO: written in place */
	} else {
		/* Beside the target, so the rename stays on one file system. */
		o->tmp = gb_xmalloc(strlen(o->target) + 32, "a path");
		sprintf(o->tmp, "%s.tmp.%ld", o->target, (long)getpid());
		o->f = fopen(o->tmp, "w");
	}
	if (!o->f) {
		gb_errmsg(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(o->tmp);
		free(o->target);
		memset(o, 0, sizeof(*o));
	}
	return o->f;
}

int gb_out_close(gb_out *o, char *err, size_t errlen)
{
	int ok, e = 0;

	if (o->f == stdout) {
		ok = fflush(stdout) == 0 && !ferror(stdout);
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
			  strcmp(o->path, "-") == 0 ? "to standard output" : o->path, strerror(e ? e : EIO));
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
	return ok ? 0 : -1;
}
