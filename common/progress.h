/*
 * The progress line of a long run: one line on stderr that updates in place,
 * shown only when stderr is a terminal and --quiet is off, so logs and pipes
 * get none of it.
 */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stdint.h>

typedef struct gb_progress {
	int on;            /* stderr is a terminal and not --quiet */
	int shown;         /* a line is on the screen */
	uint64_t last_ns;  /* when it was last drawn */
	const char *what;  /* "cpu-fast: events" */
} gb_progress;

void gb_progress_start(gb_progress *p, const char *what);
/* Redraw "what: done/total (percent)" at most four times a second. */
void gb_progress_update(gb_progress *p, uint64_t done, uint64_t total);
/* Clear the line. */
void gb_progress_end(gb_progress *p);

#endif
