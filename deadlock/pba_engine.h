/*
 * The PBA implementations (--impl) behind one table: cmd/avoid.c, --help
 * and `gpubench info` read it. Each keeps its own copy of the state.
 */
#ifndef GB_PBA_ENGINE_H
#define GB_PBA_ENGINE_H

#include "api/pba_model.h"
#include "common/registry.h"

/* The five phases of a request (section 5.3.2), for per-phase timing. */
enum pba_phase {
	PBA_PHASE_VALID = 0,   /* valid request check */
	PBA_PHASE_AVAILABLE,   /* resource availability check */
	PBA_PHASE_PREPARE,     /* temporary allocation and work initialisation */
	PBA_PHASE_SAFETY,      /* H-safety check iterations */
	PBA_PHASE_RESOLVE,     /* granting or rolling back */
	PBA_NPHASES
};

typedef struct pba_engine {
	gb_entry_head head;
	void *(*open)(const pba_system *initial);
	/* Decide and apply one event; adds the seconds spent in each phase to phase_s. */
	unsigned (*apply)(void *ctx, uint8_t type, uint32_t proc, const int32_t *amount,
			  double phase_s[PBA_NPHASES]);
	/* Safety-check iterations of the last request (0 when it did not get that far). */
	uint32_t (*last_iterations)(void *ctx);
	void (*fetch)(void *ctx, pba_system *out);
	void (*close)(void *ctx);
} pba_engine;

/*
 * The heads of the implementations that are CUDA code: their .cu files
 * define them on these, and a build without CUDA lists the same heads
 * (deadlock/pba_registry.c), unavailable for GB_NEEDS_CUDA's reason.
 */
#define PBA_GPU_HEAD \
	GB_CUDA_HEAD("gpu", "whole safety check on the GPU: 3 launches per request, later iterations in one block")
#define PBA_GPU_THESIS_HEAD \
	GB_CUDA_HEAD("gpu-thesis", "the thesis's kernels: one <<<I,J>>> launch and a host scan per safety iteration")

extern const pba_engine *const pba_engines[];
const char *pba_phase_name(unsigned phase);

#endif
