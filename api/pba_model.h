/*
 * The model of the parallel banker's algorithm (PBA): the system state of
 * Table 5.1 of Abell's thesis (chapter 5), the events that change it and
 * their outcomes. Every PBA implementation (deadlock/pba_*.c, .cu) works on
 * this state; the generator, the trace reader and the oracle
 * (workloads/pba_*.c) are written against it, and the oracle decides the
 * same events with code of its own.
 *
 * Matrices are row-major, one row per process: m[i * res + j] is process i,
 * resource j. need = maximum - allocation always holds between events.
 */
#ifndef GB_API_PBA_MODEL_H
#define GB_API_PBA_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* The most cells (procs x res) a system may have, generated or read from a trace: each of its
 * three matrices is an int32_t array of that many. */
#define PBA_MAX_CELLS (1ull << 31)

typedef struct pba_system {
	uint32_t procs, res;
	int32_t *maximum;    /* procs x res: declared maximum claim */
	int32_t *allocation; /* procs x res: units held */
	int32_t *need;       /* procs x res: maximum - allocation */
	int32_t *available;  /* res: free units */
} pba_system;

enum pba_event_type { PBA_REQUEST = 0, PBA_RELEASE = 1 };

/* What became of an event. */
enum pba_outcome {
	PBA_GRANTED = 0,
	PBA_DENIED_INVALID,     /* asks for more than the process's need */
	PBA_DENIED_UNAVAILABLE, /* asks for more than is available */
	PBA_DENIED_UNSAFE,      /* granting it leaves no H-safe sequence */
	PBA_RELEASED,
	PBA_RELEASE_INVALID,    /* releases more than the process holds: the state is unchanged */
	PBA_NOUTCOMES
};

typedef struct pba_events {
	uint64_t count;
	uint8_t *type;    /* enum pba_event_type */
	uint32_t *proc;
	int32_t *amount;  /* count x res: units per resource */
} pba_events;

/* Allocate a zeroed system (exits 1 when memory is short). */
void pba_system_init(pba_system *s, uint32_t procs, uint32_t res);
void pba_system_free(pba_system *s);
void pba_system_copy(pba_system *dst, const pba_system *src); /* dst initialised, same sizes */
/* 1 when the two states are identical. */
int pba_system_equal(const pba_system *a, const pba_system *b);

void pba_events_init(pba_events *e, uint64_t count, uint32_t res);
void pba_events_free(pba_events *e);

const char *pba_outcome_name(unsigned outcome); /* "granted", "denied-invalid", ... */

#endif
