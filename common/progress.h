/*
 * The progress line of a long run: one line on stderr that updates in place,
 * shown only when stderr is a terminal and --quiet is off, so logs and pipes
 * get none of it.
 */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct gb_progress {
	int on;            /* stderr is a terminal and not --quiet */
	int shown;         /* a line is on the screen */
	uint64_t start_ns; /* when it started: the estimate of the time left counts from here */
	uint64_t last_ns;  /* when it was last drawn */
	const char *what;  /* "cpu-fast: events" */
} gb_progress;

void gb_progress_start(gb_progress *p, const char *what);
/* Redraw the line (gb_progress_text) at most four times a second. */
void gb_progress_update(gb_progress *p, uint64_t done, uint64_t total);
/*
 * The line: "what done/total (percent)", and once something is done ", about
 * T left" (T from the rate so far: "40 s", "3 min 20 s", "2 h 5 min").
 */
void gb_progress_text(char *buf, size_t len, const char *what, uint64_t done, uint64_t total, double elapsed_s);
/* Clear the line. */
void gb_progress_end(gb_progress *p);

#endif
