/*
 * Event streams for deadlock detection (gpubench detect), in the system model
 * of api/rag_model.h (Abell's thesis, sections 3.2.1 and 4.2.1).
 *
 * Units: resource j gets units[j] units, units_lo when units_lo == units_hi
 * (1 everywhere is the single-unit system of OSDDA), otherwise a count drawn
 * uniformly from units_lo..units_hi per resource, from the seed.
 *
 * Events: the generator keeps the state in a rag_oracle and applies every
 * event it emits, so each event is allowed by the model when it is made
 * (rag_oracle_check) and a deadlocking request leaves the state as it was.
 * Only active processes act: each event picks one uniformly from the active
 * ones (a blocked process waits for its regrant). Then:
 *  - with probability release_share, when it holds anything, it releases one
 *    of the units it holds, each unit equally likely;
 *  - otherwise it requests one unit. With probability deadlock_share, and
 *    only when it holds something (a process holding nothing cannot close a
 *    cycle or a knot), the request is chosen to deadlock; every other request
 *    is chosen not to.
 *
 * Which resource a request names: half of the time (RAG_GEN_CONTENDED) a
 * resource held by another process, found by picking a process among those
 * that hold a unit and then one of its units; otherwise a resource drawn
 * uniformly. Uniform choices alone would almost never meet a held resource
 * once resources outnumber what is held, so streams would be grants and
 * releases only; aiming at held resources makes blocked requests, waiting
 * chains, regrants and deadlock candidates at every size. A non-deadlocking
 * request takes the first of up to 4 such candidates that has a free unit or
 * that the oracle says would not deadlock. When all 4 would, the process
 * releases a unit instead (it holds one: a process holding nothing never
 * deadlocks).
 *
 * A deadlocking request is searched for in two ways, through other processes
 * first. The walk goes backwards along waiting chains from the requester p:
 * a unit the current process holds that someone waits for, one of its
 * waiters w, a resource w holds with no unit free. That resource is a
 * candidate: it deadlocks when every way out of it ends in blocked
 * processes or back at p. The walk goes on from w, up to 8 steps. Then p's
 * own resources with no unit free: a single-unit resource p holds always
 * deadlocks, a multi-unit one when its other holders lead only to blocked
 * processes. At most 4 candidates are checked with the oracle; when none
 * deadlocks, an ordinary request is made instead. Deadlocks are therefore at
 * most deadlock_share of the requests, fewer when few processes hold
 * anything or resources have many units (at 40 x 30 with 3000 events: about
 * 90% of deadlock_share with units 1, 60% with units 2..3).
 *
 * Long streams drift towards most processes waiting: a blocked process
 * keeps its units until it is regranted and can release again, so held
 * units pile up behind waiting chains and more and more requests find no
 * free unit. The stream then settles with most processes on chains that end
 * in a few active ones, whose releases regrant about as often as others
 * block: 8192 x 8192 with units 1 and 20000 events ends with 8190 processes
 * waiting at the default shares, and still with 5600 at release_share 0.7.
 * Streams with fewer events than processes are mostly grants and blocks: a
 * process picked at random seldom holds anything to release.
 *
 * Cost: O(procs + res) setup; per event O(1) bookkeeping (the active processes
 * and the processes holding a unit are arrays with positions) plus at most
 * 8 graph searches of the oracle, each O(procs + res) at worst.
 */
#ifndef GB_RAG_GEN_H
#define GB_RAG_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "api/rag_model.h"

#define RAG_GEN_CONTENDED 0.5 /* share of requests aimed at a resource another process holds */

typedef struct rag_gen_config {
	uint32_t procs, res;          /* 1..RAG_TRACE_MAX_COUNT (rag_trace.h): fits a trace */
	uint64_t events;
	uint64_t seed;
	uint32_t units_lo, units_hi;  /* units per resource: 1 <= lo <= hi <= RAG_TRACE_MAX_UNITS */
	double release_share;         /* 0..1: events that release when the process holds a unit */
	double deadlock_share;        /* 0..1: requests made to deadlock when one can */
} rag_gen_config;

/* 1024 processes, 1024 resources of 1 unit, 2000 events, seed 1, shares 0.4 and 0.02. */
void rag_gen_defaults(rag_gen_config *cfg);

/*
 * Draw the unit counts into units_out (cfg->res entries) and the stream into
 * ev (the caller frees it with rag_events_free). Returns 0, or -1 with the
 * reason in err and nothing allocated.
 */
int rag_generate(const rag_gen_config *cfg, uint32_t *units_out, rag_events *ev, char *err,
		 size_t errlen);

#endif
