/* The deadlock detectors (--algo, --impl): cmd/detect.c, --help and `gpubench info` read this table. */
#include <string.h>

#include "deadlock/rag.h"

extern const rag_engine rag_engine_osdda_cpu, rag_engine_osdda_cpu_bits;
extern const rag_engine rag_engine_lmdda_cpu, rag_engine_lmdda_cpu_bits;
extern const rag_engine rag_engine_osdda_cpu_stream, rag_engine_lmdda_cpu_stream;

#ifdef GB_HAVE_CUDA
extern const rag_engine rag_engine_osdda_gpu, rag_engine_osdda_gpu_graph, rag_engine_osdda_gpu_initial;
extern const rag_engine rag_engine_lmdda_gpu, rag_engine_lmdda_gpu_graph, rag_engine_lmdda_gpu_initial;
extern const rag_engine rag_engine_osdda_gpu_stream, rag_engine_lmdda_gpu_stream;
extern const rag_engine rag_engine_osdda_gpu_event, rag_engine_lmdda_gpu_event;
#else
/* Listed in a CPU-only build too, so --impl gpu says why it cannot run. */
#define NO_CUDA(a, n, s) {.algo = (a), .name = (n), .summary = s " (needs a CUDA build)", .needs_gpu = 1}
static const rag_engine rag_engine_osdda_gpu = NO_CUDA("osdda", "gpu", "GPU-OSDDA, bit-packed");
static const rag_engine rag_engine_osdda_gpu_graph = NO_CUDA("osdda", "gpu-graph", "GPU-OSDDA as CUDA graphs");
static const rag_engine rag_engine_osdda_gpu_initial = NO_CUDA("osdda", "gpu-initial", "GPU-OSDDA, one int a cell");
static const rag_engine rag_engine_lmdda_gpu = NO_CUDA("lmdda", "gpu", "GPU-LMDDA, bit-packed");
static const rag_engine rag_engine_lmdda_gpu_graph = NO_CUDA("lmdda", "gpu-graph", "GPU-LMDDA as CUDA graphs");
static const rag_engine rag_engine_lmdda_gpu_initial = NO_CUDA("lmdda", "gpu-initial", "GPU-LMDDA, one int a cell");
static const rag_engine rag_engine_osdda_gpu_stream = NO_CUDA("osdda", "gpu-stream", "OSDDA, windows of events a launch");
static const rag_engine rag_engine_lmdda_gpu_stream = NO_CUDA("lmdda", "gpu-stream", "LMDDA, windows of events a launch");
static const rag_engine rag_engine_osdda_gpu_event = NO_CUDA("osdda", "gpu-event", "gpu-stream's kernel, one event a launch");
static const rag_engine rag_engine_lmdda_gpu_event = NO_CUDA("lmdda", "gpu-event", "gpu-stream's kernel, one event a launch");
#endif

const rag_engine *const rag_engines[] = {
	&rag_engine_osdda_cpu, &rag_engine_osdda_cpu_bits,
	&rag_engine_osdda_gpu, &rag_engine_osdda_gpu_graph, &rag_engine_osdda_gpu_initial,
	&rag_engine_osdda_gpu_stream, &rag_engine_osdda_gpu_event, &rag_engine_osdda_cpu_stream,
	&rag_engine_lmdda_cpu, &rag_engine_lmdda_cpu_bits,
	&rag_engine_lmdda_gpu, &rag_engine_lmdda_gpu_graph, &rag_engine_lmdda_gpu_initial,
	&rag_engine_lmdda_gpu_stream, &rag_engine_lmdda_gpu_event, &rag_engine_lmdda_cpu_stream,
	NULL,
};

const rag_engine *rag_engine_find(const char *algo, const char *name)
{
	int i;
	for (i = 0; rag_engines[i]; i++)
		if (strcmp(rag_engines[i]->algo, algo) == 0 && strcmp(rag_engines[i]->name, name) == 0)
			return rag_engines[i];
	return NULL;
}
