/*
 * The PBA implementations (--impl) behind one table: cmd/avoid.c, --help
 * and `gpubench info` read it. Each keeps its own copy of the state.
 */
#ifndef GB_PBA_ENGINE_H
#define GB_PBA_ENGINE_H

#include "api/pba_model.h"

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
	const char *name;
	const char *summary;
	int needs_gpu;
	void *(*open)(const pba_system *initial);
	/* Decide and apply one event; adds the seconds spent in each phase to phase_s. */
	unsigned (*apply)(void *ctx, uint8_t type, uint32_t proc, const int32_t *amount,
			  double phase_s[PBA_NPHASES]);
	/* Safety-check iterations of the last request (0 when it did not get that far). */
	uint32_t (*last_iterations)(void *ctx);
	void (*fetch)(void *ctx, pba_system *out);
	void (*close)(void *ctx);
} pba_engine;

extern const pba_engine *const pba_engines[];
const pba_engine *pba_engine_find(const char *name);
const char *pba_phase_name(unsigned phase);

#endif
