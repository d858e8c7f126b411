/*
 * Output files (--json, --decisions, --emit-trace): checked before a run
 * starts, and written so that a reader never sees half a file.
 *
 * A regular file (or a path that does not exist yet) is written to a
 * temporary file beside it and renamed over it. A symlink is followed: its
 * target is what gets replaced, the link stays. Devices, FIFOs and sockets
 * (/dev/null, a named pipe) are written as they are: renaming over them
 * would replace them with a regular file. "-", and any path that names the
 * file open as standard output (/dev/stdout when stdout is a file), is
 * standard output; a path that names standard error's file is written
 * through it. A FIFO is opened without waiting when the paths are checked:
 * one with no reader fails then, before the run, and the one opened is
 * kept until its output is written.
 */
#ifndef GB_OUTPUT_H
#define GB_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* One path a subcommand reads or writes, named by the option that gave it. */
typedef struct gb_path_use {
	const char *opt;  /* without the dashes: "json", "trace" */
	const char *path; /* NULL: the option was not given */
	int is_input;
} gb_path_use;

/* Whether path is standard output: "-", or a path of the file open as it. */
int gb_path_is_stdout(const char *path);

/*
 * Check every path before the run: an empty path, two outputs on "-", an
 * output given twice or equal to an input exit 2; an output that cannot be
 * written (missing directory, a directory in its place, no permission) exits
 * 1 naming the option and the path, as does a FIFO with no reader. Nothing is
 * created; a FIFO is opened (and kept for gb_out_open).
 */
void gb_paths_check(const char *cmd, const gb_path_use *uses, size_t n);

/*
 * Whether writing to out would replace input (a file; symlinks followed) or,
 * with dir, put a file inside the folder input (at any depth): for the
 * subcommands that read reports and write beside them (compare, export).
 */
int gb_path_writes_over(const char *out, const char *input, int dir);

/* An output being written; see gb_out_open. */
typedef struct gb_out {
	FILE *f;
	char *target; /* the file that takes the output (a symlink's target) */
	char *tmp;    /* the temporary file renamed over target; NULL when written in place */
	const char *path;
} gb_out;

/* Open path for writing. Returns o->f, or NULL with a message naming path in err. */
FILE *gb_out_open(gb_out *o, const char *path, char *err, size_t errlen);

/* Finish the output: flush, and rename the temporary file into place. 0, or -1 with err. */
int gb_out_close(gb_out *o, char *err, size_t errlen);

#endif
