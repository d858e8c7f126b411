/*
 * A reference decider for deadlock detection (gpubench detect): the explicit
 * resource allocation graph of api/rag_model.h, kept as lists (who holds how
 * many units of each resource, who waits for it, what each process waits
 * for), and a plain graph search on every blocking request. It shares no
 * code with the detectors, which keep matrices and sink/reachability
 * summaries instead.
 *
 * The deadlock test: with the requester counted as blocked on the requested
 * resource, search the graph from that resource (resource -> every holder,
 * blocked process -> the resource it waits for). The request deadlocks
 * exactly when the search finds no active process. Single-unit systems then
 * have a cycle through the requester (Theorem 1.2.38), multi-unit ones a knot
 * (Theorem 1.2.39); the graph had no deadlock before, since deadlocking
 * requests are refused.
 *
 * It also checks events against the model (used by the trace reader and the
 * generator): rag_oracle_check says why an event is not allowed.
 */
#ifndef GB_RAG_ORACLE_H
#define GB_RAG_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "api/rag_model.h"

typedef struct rag_holder {
	uint32_t proc, count;
} rag_holder;

typedef struct rag_list {
	void *a;
	uint32_t n, cap;
} rag_list;

typedef struct rag_oracle {
	uint32_t procs, res;
	uint32_t *units, *free_units; /* per resource */
	uint32_t *waits_for;          /* per process: a resource, or RAG_NONE when active */
	rag_list *holders;            /* per resource: rag_holder */
	rag_list *waiters;            /* per resource: uint32_t process ids */
	rag_list *held;               /* per process: uint32_t resource ids, one per unit held */
	/* scratch for the search */
	uint8_t *seen_res, *seen_proc;
	uint32_t *stack;
} rag_oracle;

/* An empty system; units NULL means one unit of every resource. */
void rag_oracle_init(rag_oracle *o, uint32_t procs, uint32_t res, const uint32_t *units);
void rag_oracle_free(rag_oracle *o);

/* 0 when the event is allowed by the model, else -1 with the reason in why. */
int rag_oracle_check(const rag_oracle *o, uint8_t type, uint32_t proc, uint32_t res, char *why,
		     size_t whylen);

/* Decide an allowed event and apply it. */
rag_decision rag_oracle_apply(rag_oracle *o, uint8_t type, uint32_t proc, uint32_t res);

/* 1 when a request by active process proc for resource res (no unit free) would deadlock. */
int rag_oracle_would_deadlock(rag_oracle *o, uint32_t proc, uint32_t res);

/*
 * Events that take an empty system of the same size to o's state without a
 * release: one request for every unit held, process by process (each
 * granted), then each waiting process's request for what it waits for (each
 * blocked: every unit of it is held, and the graph with all its grant edges
 * and some of its wait edges holds no knot, since a knot's processes all wait
 * and would be one of the whole graph too). out gets extra slots past count
 * for the caller's further events; free it with rag_events_free.
 */
void rag_oracle_state_events(const rag_oracle *o, uint64_t extra, rag_events *out);

/* Units of res that proc holds. */
uint32_t rag_oracle_holds(const rag_oracle *o, uint32_t proc, uint32_t res);

#endif
