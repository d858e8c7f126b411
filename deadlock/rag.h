/*
 * The deadlock detectors (deadlock/osdda_*, deadlock/lmdda_*) behind one
 * table that cmd/detect.c, --help and `gpubench info` read. The system they
 * decide on, its events and their outcomes are the model of api/rag_model.h.
 */
#ifndef GB_RAG_H
#define GB_RAG_H

#include <stdint.h>

#include "api/rag_model.h"

/*
 * A detector (--impl of one --algo). open() builds an empty system of procs
 * processes and res resources with units[j] units of resource j (OSDDA: all
 * 1); apply() decides one valid event and updates the state; bytes() is the
 * memory its matrices take. apply_stream(), NULL for most, decides a whole
 * stream at once (out[k] for event k) for detectors that take the events in
 * batches; the decisions are those apply() would give event by event.
 */
typedef struct rag_engine {
	const char *algo;    /* "osdda" or "lmdda" */
	const char *name;    /* "cpu", "cpu-bits", "gpu-initial", "gpu" */
	const char *summary;
	int needs_gpu;
	void *(*open)(uint32_t procs, uint32_t res, const uint32_t *units);
	rag_decision (*apply)(void *ctx, uint8_t type, uint32_t proc, uint32_t res);
	uint64_t (*bytes)(void *ctx);
	void (*close)(void *ctx);
	void (*apply_stream)(void *ctx, const rag_events *ev, rag_decision *out);
} rag_engine;

/* OSDDA's detectors are single-unit: units NULL means one unit each; exit 2 otherwise. */
void rag_require_single_unit(uint32_t res, const uint32_t *units);

extern const rag_engine *const rag_engines[]; /* NULL-terminated */
const rag_engine *rag_engine_find(const char *algo, const char *name);

#endif
