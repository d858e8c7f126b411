/*
 * The progress of a long run, on stderr unless --quiet: on a terminal one line
 * that updates in place four times a second; into a log or a pipe a line of its
 * own ("gpubench: progress: prstm 2/6 (33%, about 1 min 4 s left)") at most once
 * every GB_PROGRESS_LOG_EVERY_S seconds, the first after that long, so a run
 * shorter than that writes none and the log of a long one shows how far it got.
 */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* Seconds between two progress lines written to a log or a pipe. */
#define GB_PROGRESS_LOG_EVERY_S 30

typedef struct gb_progress {
	int on;            /* not --quiet */
	int tty;           /* stderr is a terminal: the line updates in place */
	uint64_t every_ns; /* the least time between two lines */
	int shown;         /* a line is on the screen */
	uint64_t start_ns; /* when it started: the estimate of the time left counts from here */
	uint64_t last_ns;  /* when it was last drawn */
	const char *what;  /* "cpu-fast: events" */
} gb_progress;

void gb_progress_start(gb_progress *p, const char *what);
/* Redraw the line (gb_progress_text), or write it to a log, at most every every_ns. */
void gb_progress_update(gb_progress *p, uint64_t done, uint64_t total);
/*
 * The line: "what done/total (percent)", and once something is done ", about
 * T left" (T from the rate so far: "40 s", "3 min 20 s", "2 h 5 min").
 */
void gb_progress_text(char *buf, size_t len, const char *what, uint64_t done, uint64_t total, double elapsed_s);
/* Clear the line. */
void gb_progress_end(gb_progress *p);

#endif
