/*
 * Deadlock-detection traces (gpubench detect --trace, --emit-trace): the
 * system of api/rag_model.h and its resource events as text; and the
 * per-event decisions, as text. docs/detect-trace.md has an example.
 *
 * The trace format, one statement per line:
 *
 *   processes M         number of processes, 1 <= M <= 1048576
 *   resources N         number of resources, 1 <= N <= 1048576
 *   units U             every resource has U units, 1 <= U <= 65535
 *   units J U           resource J has U units
 *   request P Q         process P asks for one unit of resource Q
 *   release P Q         process P gives back one unit of resource Q
 *
 * - '#' starts a comment that runs to the end of the line; blank lines are
 *   ignored; tokens are separated by spaces or tabs ('\r' counts as a space,
 *   so CRLF files read the same); a NUL byte is an error;
 * - `processes` and `resources` come first, in either order, each exactly
 *   once; ids count from 0 (0 <= P < M, 0 <= J, Q < N); numbers are decimal
 *   digits without a sign;
 * - unit lines are optional and come before the first event: every resource
 *   has 1 unit unless they say otherwise. `units U` appears at most once and
 *   before any `units J U`, which override it; each J appears at most once;
 * - the events are replayed through the reference decider
 *   (workloads/deadlock/rag_oracle.h) while they are read, and every event the model
 *   forbids is an error: a request or a release by a process blocked at that
 *   point, a release of a resource the process holds no unit of. Whether a
 *   process is blocked depends on the outcomes before it, hence the replay.
 *   A request that deadlocks is not an error: it is the outcome a detector
 *   must find.
 *
 * Every error names the file ("<stdin>" for standard input), the line and
 * the reason, as "trace.txt:12: process 3 holds no unit of resource 5".
 *
 * The decisions file has one line per event, in stream order:
 *
 *   <index> <request|release> <process> <resource> <outcome>[ <to>]
 *
 * with the index counted from 0, the outcome as rag_outcome_name() spells it
 * and, for a regrant only, the process that got the unit:
 * "7 release 2 4 regranted 9".
 */
#ifndef GB_RAG_TRACE_H
#define GB_RAG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "api/rag_model.h"

#define RAG_TRACE_MAX_COUNT (1u << 20) /* processes, resources */
#define RAG_TRACE_MAX_UNITS 65535u

/*
 * Read the trace at `path` ("-": standard input). Returns 0 with the sizes,
 * *units (a malloc'd array of *res counts, the caller frees it) and the
 * events (rag_events_free); or -1 with "<file>:<line>: <reason>" in err and
 * nothing left allocated.
 */
int rag_trace_read(const char *path, uint32_t *procs, uint32_t *res, uint32_t **units,
		   rag_events *ev, char *err, size_t errlen);

/*
 * Write a trace of the stream that rag_trace_read reads back unchanged
 * (units NULL: one unit each). `path` "-" is standard output; a file is
 * written atomically (a temporary file beside it, then rename). Returns 0,
 * or -1 with the reason in err.
 */
int rag_trace_write(const char *path, uint32_t procs, uint32_t res, const uint32_t *units,
		    const rag_events *ev, char *err, size_t errlen);

/* Write the decisions d[i] of events ev, as above, like rag_trace_write. */
int rag_decisions_write(const char *path, const rag_events *ev, const rag_decision *d, char *err,
			size_t errlen);

#endif
