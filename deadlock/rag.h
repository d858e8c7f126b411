/*
 * The deadlock detectors (deadlock/osdda_*, deadlock/lmdda_*) behind one
 * table that cmd/detect.c, --help and `gpubench info` read. The system they
 * decide on, its events and their outcomes are the model of api/rag_model.h.
 */
#ifndef GB_RAG_H
#define GB_RAG_H

#include <stdint.h>

#include "api/rag_model.h"
#include "common/registry.h"

/*
 * A detector (--impl of one --algo). open() builds an empty system of procs
 * processes and res resources with units[j] units of resource j (OSDDA: all
 * 1); apply() decides one valid event and updates the state; bytes() is the
 * memory its matrices take. apply_stream(), NULL for most, decides a whole
 * stream at once (out[k] for event k) for detectors that take the events in
 * batches; the decisions are those apply() would give event by event.
 * host_bytes(), NULL where open() takes O(procs + res) host memory, is what
 * open() would allocate on the host, computed without allocating (the
 * memory check before a run).
 */
typedef struct rag_engine {
	gb_entry_head head;  /* its name: "cpu", "cpu-bits", "gpu-initial", "gpu" */
	const char *algo;    /* "osdda" or "lmdda" */
	void *(*open)(uint32_t procs, uint32_t res, const uint32_t *units);
	uint64_t (*host_bytes)(uint32_t procs, uint32_t res);
	rag_decision (*apply)(void *ctx, uint8_t type, uint32_t proc, uint32_t res);
	uint64_t (*bytes)(void *ctx);
	void (*close)(void *ctx);
	void (*apply_stream)(void *ctx, const rag_events *ev, rag_decision *out);
} rag_engine;

/* OSDDA's detectors are single-unit: units NULL means one unit each; exit 2 otherwise. */
void rag_require_single_unit(uint32_t res, const uint32_t *units);

/*
 * The heads of the detectors that are CUDA code: their .cu files define them
 * on these, and a build without CUDA lists the same heads
 * (deadlock/rag_registry.c), unavailable for GB_NEEDS_CUDA's reason.
 */
#define RAG_OSDDA_GPU_HEAD \
	GB_CUDA_HEAD("gpu", "GPU-OSDDA: bit-packed matrices, the thesis's kernels and host round trips " \
		     "(Algorithms 4-11)")
#define RAG_OSDDA_GPU_GRAPH_HEAD \
	GB_CUDA_HEAD("gpu-graph", "GPU-OSDDA's bit-packed kernels as one CUDA graph per event, gated on the device")
#define RAG_OSDDA_GPU_INITIAL_HEAD \
	GB_CUDA_HEAD("gpu-initial", "the thesis's first GPU-OSDDA: one int a matrix cell, the same kernels")
#define RAG_OSDDA_GPU_STREAM_HEAD \
	GB_CUDA_HEAD("gpu-stream", "whole windows of events a launch, state on the device: holders and sink " \
		     "chains in one block")
#define RAG_LMDDA_GPU_HEAD \
	GB_CUDA_HEAD("gpu", "GPU-LMDDA: bit-packed matrices, the thesis's kernels and host round trips " \
		     "(Algorithms 12-21)")
#define RAG_LMDDA_GPU_GRAPH_HEAD \
	GB_CUDA_HEAD("gpu-graph", "GPU-LMDDA's bit-packed kernels as one CUDA graph per event, gated on the device")
#define RAG_LMDDA_GPU_INITIAL_HEAD \
	GB_CUDA_HEAD("gpu-initial", "the thesis's first GPU-LMDDA: one int a matrix cell, the same kernels")
#define RAG_LMDDA_GPU_STREAM_HEAD \
	GB_CUDA_HEAD("gpu-stream", "whole windows of events a launch, state on the device: unit slots and a " \
		     "knot search in one block")
/* gpu-event, in the same words for both algorithms */
#define RAG_GPU_EVENT_HEAD \
	GB_CUDA_HEAD("gpu-event", "gpu-stream's kernel one event a launch, the host waiting for each decision")

extern const rag_engine *const rag_engines[]; /* NULL-terminated */

#endif
