/* The GPU-PBA engines' kernels run on the CPU (tests/unit/pba_gpu_sim.c), for the unit tests. */
#ifndef GB_PBA_GPU_SIM_H
#define GB_PBA_GPU_SIM_H

#include "deadlock/pba_engine.h"

/*
 * gpu with the launch geometry it takes on the device; gpu with small blocks
 * (processes and resources loop over warps and threads, candidates in passes
 * of 3, work[] in global memory, threads visited in reverse); gpu-thesis.
 */
extern const pba_engine pba_sim_gpu, pba_sim_gpu_small, pba_sim_gpu_thesis;

#endif
