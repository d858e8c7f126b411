/*
 * The model of deadlock detection on resource allocation graphs (Abell's
 * thesis, chapters 1.2, 3 and 4): the system, the events and their outcomes
 * shared by every detector (deadlock/osdda_*, deadlock/lmdda_*), the oracle
 * (workloads/deadlock/rag_oracle.c), the generator and the trace reader.
 *
 * The system (sections 3.2.1 and 4.2.1): M processes and N resources;
 * resource j has units[j] >= 1 units (all 1 for OSDDA, the single-unit
 * case). It starts empty: every unit free, every process active.
 *  - A process requests one unit of one resource at a time, and only while
 *    active (it has no pending request).
 *  - Expedient state: a request for a resource with a free unit is granted at
 *    once (GRANTED). Otherwise the process blocks on it (BLOCKED) - unless
 *    blocking would deadlock the system (a cycle in the single-unit graph, a
 *    knot in the multi-unit one), in which case the outcome is DEADLOCK and
 *    the request is refused: the state is left as it was and the process
 *    stays active (the thesis hands deadlocks to the operating system; this
 *    model lets the stream go on).
 *  - An active process releases one unit it holds. When processes wait for
 *    that resource, the unit goes at once to the waiting process with the
 *    lowest id, which becomes active again (REGRANTED, decision.to names it);
 *    otherwise the unit becomes free (RELEASED).
 * Events that break the model (a request by a blocked process, a release of
 * a unit not held, an id out of range) are never passed to a detector: the
 * generator does not make them and the trace reader rejects them.
 *
 * Because refused requests never enter the graph, the graph never holds a
 * deadlock, and a blocking request deadlocks exactly when no active process
 * can be reached from the requested resource once the requester is blocked
 * (the requester's own holdings included): every path from the resource then
 * ends in blocked processes.
 */
#ifndef GB_API_RAG_MODEL_H
#define GB_API_RAG_MODEL_H

#include <stdint.h>

enum rag_event_type { RAG_REQUEST = 0, RAG_RELEASE = 1 };

enum rag_outcome {
	RAG_GRANTED = 0, /* a unit was free */
	RAG_BLOCKED,     /* no unit free: the process waits */
	RAG_DEADLOCK,    /* waiting would deadlock: refused, nothing changes */
	RAG_RELEASED,    /* nobody waited: the unit is free */
	RAG_REGRANTED,   /* the unit went to the waiting process with the lowest id */
	RAG_NOUTCOMES
};

#define RAG_NONE UINT32_MAX

typedef struct rag_decision {
	uint8_t outcome; /* enum rag_outcome */
	uint32_t to;     /* REGRANTED: the process that got the unit; RAG_NONE otherwise */
} rag_decision;

typedef struct rag_events {
	uint64_t count;
	uint8_t *type; /* enum rag_event_type */
	uint32_t *proc, *res;
} rag_events;

void rag_events_init(rag_events *e, uint64_t count);
void rag_events_free(rag_events *e);

const char *rag_outcome_name(unsigned outcome); /* "granted", "blocked", ... */

#endif
