/* The deadlock detectors (--algo, --impl): cmd/detect.c, --help and `gpubench info` read this table. */
#include "deadlock/rag.h"

extern const rag_engine rag_engine_osdda_cpu, rag_engine_osdda_cpu_bits;
extern const rag_engine rag_engine_lmdda_cpu, rag_engine_lmdda_cpu_bits;
extern const rag_engine rag_engine_osdda_cpu_stream, rag_engine_lmdda_cpu_stream;
extern const rag_engine rag_engine_osdda_cpu_serial, rag_engine_lmdda_cpu_serial;

#ifdef GB_HAVE_CUDA
extern const rag_engine rag_engine_osdda_gpu, rag_engine_osdda_gpu_graph, rag_engine_osdda_gpu_initial;
extern const rag_engine rag_engine_lmdda_gpu, rag_engine_lmdda_gpu_graph, rag_engine_lmdda_gpu_initial;
extern const rag_engine rag_engine_osdda_gpu_stream, rag_engine_lmdda_gpu_stream;
extern const rag_engine rag_engine_osdda_gpu_event, rag_engine_lmdda_gpu_event;
#else
/* Listed without CUDA too, with the same heads, which say why they cannot run. */
#define STAND_IN(var, algo_, head_) static const rag_engine var = {.head = head_, .algo = algo_}
STAND_IN(rag_engine_osdda_gpu, "osdda", RAG_OSDDA_GPU_HEAD);
STAND_IN(rag_engine_osdda_gpu_graph, "osdda", RAG_OSDDA_GPU_GRAPH_HEAD);
STAND_IN(rag_engine_osdda_gpu_initial, "osdda", RAG_OSDDA_GPU_INITIAL_HEAD);
STAND_IN(rag_engine_osdda_gpu_stream, "osdda", RAG_OSDDA_GPU_STREAM_HEAD);
STAND_IN(rag_engine_osdda_gpu_event, "osdda", RAG_GPU_EVENT_HEAD);
STAND_IN(rag_engine_lmdda_gpu, "lmdda", RAG_LMDDA_GPU_HEAD);
STAND_IN(rag_engine_lmdda_gpu_graph, "lmdda", RAG_LMDDA_GPU_GRAPH_HEAD);
STAND_IN(rag_engine_lmdda_gpu_initial, "lmdda", RAG_LMDDA_GPU_INITIAL_HEAD);
STAND_IN(rag_engine_lmdda_gpu_stream, "lmdda", RAG_LMDDA_GPU_STREAM_HEAD);
STAND_IN(rag_engine_lmdda_gpu_event, "lmdda", RAG_GPU_EVENT_HEAD);
#endif

const rag_engine *const rag_engines[] = {
	&rag_engine_osdda_cpu_serial, &rag_engine_osdda_cpu, &rag_engine_osdda_cpu_bits,
	&rag_engine_osdda_gpu, &rag_engine_osdda_gpu_graph, &rag_engine_osdda_gpu_initial,
	&rag_engine_osdda_gpu_stream, &rag_engine_osdda_gpu_event, &rag_engine_osdda_cpu_stream,
	&rag_engine_lmdda_cpu_serial, &rag_engine_lmdda_cpu, &rag_engine_lmdda_cpu_bits,
	&rag_engine_lmdda_gpu, &rag_engine_lmdda_gpu_graph, &rag_engine_lmdda_gpu_initial,
	&rag_engine_lmdda_gpu_stream, &rag_engine_lmdda_gpu_event, &rag_engine_lmdda_cpu_stream,
	NULL,
};
