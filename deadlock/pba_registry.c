/* The PBA implementation table (--impl). */
#include "deadlock/pba_engine.h"

extern const pba_engine pba_engine_cpu, pba_engine_cpu_fast;

#ifdef GB_HAVE_CUDA
extern const pba_engine pba_engine_gpu, pba_engine_gpu_thesis;
#else
/* Listed without CUDA too, with the same heads, which say why they cannot run. */
static const pba_engine pba_engine_gpu = {.head = PBA_GPU_HEAD};
static const pba_engine pba_engine_gpu_thesis = {.head = PBA_GPU_THESIS_HEAD};
#endif

const pba_engine *const pba_engines[] = {&pba_engine_gpu, &pba_engine_gpu_thesis, &pba_engine_cpu,
					 &pba_engine_cpu_fast, NULL};

static const char *const phase_names[PBA_NPHASES] = {
	[PBA_PHASE_VALID] = "valid_request",
	[PBA_PHASE_AVAILABLE] = "availability",
	[PBA_PHASE_PREPARE] = "prepare",
	[PBA_PHASE_SAFETY] = "safety_check",
	[PBA_PHASE_RESOLVE] = "resolve",
};

const char *pba_phase_name(unsigned phase)
{
	return phase < PBA_NPHASES ? phase_names[phase] : "unknown";
}
