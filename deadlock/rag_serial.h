/*
 * GPU-OSDDA's and GPU-LMDDA's kernels run serially on the CPU
 * (deadlock/rag_serial.c): every kernel a loop over its (block, thread)
 * indices, in launch order. The cpu-serial detectors are the thesis's serial
 * CPU-OSDDA and CPU-LMDDA made this way (sections 3.4 and 4.4: "a serial
 * version of GPU-OSDDA"); the unit tests' driver of the GPU detectors
 * (tests/unit/rag_gpu_sim.c) opens the other flows and widths.
 */
#ifndef GB_RAG_SERIAL_H
#define GB_RAG_SERIAL_H

#include "deadlock/rag.h"

enum rag_serial_flow {
	RAG_SERIAL_THESIS, /* Algorithms 4 and 12: only the kernels the verdicts call for */
	RAG_SERIAL_GRAPH,  /* every kernel of the event's type, each gated (gpu-graph) */
};

/*
 * lcpw: log2 of the cells a word (5: bit-packed, 0: one int a cell). alg21:
 * LMDDA's node hopping as Algorithm 21 (every thread (k, h) scans AR and
 * RP_trans, all ceil(log2(min(M, N))) iterations) instead of the GPU
 * detectors' sparse products (deadlock/lmdda_bits.h); 0 for OSDDA.
 */
void *rag_serial_open(int lmdda, uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw,
		      enum rag_serial_flow flow, int alg21);
rag_decision rag_serial_apply(void *ctx, uint8_t type, uint32_t proc, uint32_t res);
uint64_t rag_serial_bytes(void *ctx);
/* What rag_serial_open would allocate, computed without allocating. */
uint64_t rag_serial_host_bytes(int lmdda, uint32_t procs, uint32_t res, uint32_t lcpw, int alg21);
void rag_serial_close(void *ctx);

#endif
