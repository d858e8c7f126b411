/*
 * PBA traces: the initial system of Table 5.1 of Abell's thesis (section
 * 5.2.2: the maximum claims declared in advance, a fixed set of resources)
 * and the resource request / release events of section 5.2.3, as text; and
 * the per-event decisions, as text. docs/avoid-trace.md has an example.
 *
 * The trace format, one statement per line:
 *
 *   processes N              number of processes, 1 <= N <= 1048576
 *   resources M              number of resources, 1 <= M <= 1048576
 *   available VALUES         free units of every resource (exactly once)
 *   max P VALUES             process P's maximum claim (once per process)
 *   request P VALUES         process P asks for units
 *   release P VALUES         process P gives units back
 *
 * - '#' starts a comment that runs to the end of the line; blank lines are
 *   ignored; tokens are separated by spaces or tabs ('\r' counts as a
 *   space, so CRLF files read the same); a NUL byte is an error;
 * - `processes` and `resources` come first, in either order, each exactly
 *   once; `available` and every `max` line come before the first event;
 * - P is a process id, 0 <= P < N; every value is a decimal integer in
 *   0..2147483647 (no sign);
 * - VALUES is either dense, exactly M integers for resources 0..M-1, or
 *   sparse, `J:V` tokens giving resource J the value V, each J at most once
 *   and every other resource 0. One line never mixes the two forms. A line
 *   with no values at all is sparse: every resource 0;
 * - nothing is allocated at the start, so need = max.
 *
 * A request above the process's need or above what is available is not a
 * trace error: it is an event the algorithm denies. A release of more than
 * the process holds at that point is an error: the reader replays the events
 * with the oracle (workloads/deadlock/pba_oracle.h) to know what is held, since what
 * a process holds depends on which of its requests were granted.
 *
 * The decisions file has one line per event, in trace order:
 *
 *   <index> <request|release> <process> <outcome>
 *
 * with the index counted from 0 and the outcome as pba_outcome_name() spells
 * it, e.g. "3 request 1 denied-unsafe".
 */
#ifndef GB_PBA_TRACE_H
#define GB_PBA_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "api/pba_model.h"

/*
 * Read the trace at `path` ("-": standard input) into the initial state and
 * the event list. Returns 0, the caller then owns both (pba_system_free,
 * pba_events_free); or -1 with "<file>: line N: <reason>" in err and
 * nothing left allocated. A file is read twice (first to count the events);
 * standard input, or anything else that cannot be rewound, is buffered.
 */
int pba_trace_read(const char *path, pba_system *initial, pba_events *events, char *err,
		   size_t errlen);

/*
 * Write the decisions (outcome[i] for event i, an enum pba_outcome) to `path`
 * ("-": standard output) atomically: a temporary file beside it, then rename.
 * Returns 0, or -1 with the reason in err.
 */
int pba_decisions_write(const char *path, const pba_events *e, const uint8_t *outcome, char *err,
			size_t errlen);

#endif
