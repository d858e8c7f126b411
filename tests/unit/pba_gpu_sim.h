/* The GPU-PBA engines' kernels run on the CPU (tests/unit/pba_gpu_sim.c), for the unit tests. */
#ifndef GB_PBA_GPU_SIM_H
#define GB_PBA_GPU_SIM_H

#include "deadlock/pba_engine.h"

/*
 * gpu with the launch geometry and shared memory it takes on an H100; gpu
 * with small blocks (processes and resources loop over warps and threads,
 * three candidate slots, two staged rows, everything in global memory,
 * threads visited in reverse); gpu with the processes' words and the
 * finisher list in global memory, as when they do not fit shared memory;
 * gpu-thesis.
 */
extern const pba_engine pba_sim_gpu, pba_sim_gpu_small, pba_sim_gpu_global_state, pba_sim_gpu_thesis;

/* gpu's kernels, since open: the chain's batches run, and the iterations they kept (pba_batch_accept). */
void pba_sim_batch_counts(void *ctx, uint64_t *batches, uint64_t *kept);

#endif
