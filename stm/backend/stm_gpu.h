/*
 * The host side of the GPU backend every STM engine shares: the shared
 * words, lock table, status words and table in device memory, the block
 * size, whether a timed run's round gate can work (every block resident at
 * once), the timing of a kernel with CUDA events and the copy of its
 * counters. An engine's .cu file adds its kernels, one per workload, and
 * launches them with stm_gpu_launch. CUDA C++ only (nvcc).
 */
#ifndef GB_STM_GPU_H
#define GB_STM_GPU_H

#include "api/tx_table.h"
#include "common/cuda_timer.h"
#include "stm/stm.h"

typedef struct stm_gpu {
	const void *kernel;     /* the engine's kernel for this workload */
	const char *kernel_name;
	tx_input in;            /* the table of the current stage (stm_gpu_retable) */
	uint64_t capacity;      /* entries of the table it was opened with: device space for them */
	stm_params p;
	uint32_t nlocks;
	uint32_t block_size, blocks;
	double cycles_per_ns;
	int rounds_ok;          /* every block of the grid can be resident at once */
	uint32_t *d_data, *d_locks, *d_status, *d_aux;
	void *d_entries;
	stm_shared *d_shared;
	stm_counters *d_counters;
	void *d_engine;         /* NULL, or device memory the engine allocated for itself: freed at close */
	uint32_t engine_words;  /* what the engine says d_engine holds (PR-STM: its read log's entries per thread) */
	gb_cuda_timer timer;
} stm_gpu;

/* kernel: the engine's kernel for this workload; its occupancy decides rounds_ok. */
stm_gpu *stm_gpu_open(const tx_input *in, const stm_params *p, const void *kernel, const char *kernel_name);

/* The table as the kernel sees it. */
tx_table stm_gpu_table(const stm_gpu *g);

/*
 * One run of the kernel with these arguments (cudaLaunchKernel's): clear the
 * status words, the shared words and the counters, launch it over every
 * thread timed by CUDA events, and copy the counters back.
 */
void stm_gpu_launch(stm_gpu *g, void **args, uint64_t run_ns, stm_batch_result *r);

/* The stm_ops functions of every engine's GPU backend (ctx: a stm_gpu). */
void stm_gpu_load(void *ctx, const uint32_t *words);
int stm_gpu_rounds_ok(void *ctx);
void stm_gpu_fetch(void *ctx, uint32_t *words, uint32_t *status);
void stm_gpu_close(void *ctx);
void stm_gpu_retable(void *ctx, const tx_input *in);

#endif
