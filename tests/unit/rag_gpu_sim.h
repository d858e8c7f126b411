/* The GPU detectors' kernels run on the CPU (tests/unit/rag_gpu_sim.c), for the unit tests. */
#ifndef GB_RAG_GPU_SIM_H
#define GB_RAG_GPU_SIM_H

#include "deadlock/rag.h"

/* bit-packed with the thesis's flow, bit-packed with the graph's flow, one int a cell */
extern const rag_engine rag_sim_osdda_gpu, rag_sim_osdda_gpu_graph, rag_sim_osdda_gpu_initial;
extern const rag_engine rag_sim_lmdda_gpu, rag_sim_lmdda_gpu_graph, rag_sim_lmdda_gpu_initial;
/* gpu-stream with its state in (a stand-in for) shared memory, 16-bit entries where the ids fit, and in
 * place, 32-bit entries */
extern const rag_engine rag_sim_osdda_gpu_stream, rag_sim_osdda_gpu_stream_global;
extern const rag_engine rag_sim_lmdda_gpu_stream, rag_sim_lmdda_gpu_stream_global;

#endif
