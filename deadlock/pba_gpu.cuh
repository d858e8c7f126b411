/*
 * What the two GPU-PBA engines share (deadlock/pba_gpu_common.cu): the
 * device state and its upload, the release of resources, timing helpers,
 * and the block-wide loops over an event's resources that both run in
 * phases 1-3 and 5. The per-element work is in deadlock/pba_bits.h; the
 * engines are deadlock/pba_gpu.cu (gpu) and deadlock/pba_thesis_gpu.cu
 * (gpu-thesis).
 *
 * The host hands over one event at a time and waits for its outcome, as the
 * thesis's interactive service does.
 */
#ifndef GB_PBA_GPU_CUH
#define GB_PBA_GPU_CUH

#include "common/cuda_check.h"

extern "C" {
#include "common/timer.h"
#include "deadlock/pba_engine.h"
}
#include "deadlock/pba_bits.h"

#define MAX_BLOCK 1024u

typedef struct pba_gpu {
	pba_dev d;
	cudaStream_t st;
	cudaEvent_t ev[3];
	uint32_t *h_status;      /* pinned, 4 words */
	int32_t *h_amount;       /* pinned, J */
	uint8_t *h_atf;          /* pinned, I (gpu-thesis) */
	int32_t *h_cont;         /* pinned, 1 (gpu-thesis) */
	int32_t *d_cont;         /* gpu-thesis */
	uint32_t iterations;
	uint32_t block1;         /* threads of the <<<1,J>>> kernels */
	uint32_t grid_first;     /* gpu: blocks of the first-round kernel */
	pba_chain_plan chain;    /* gpu: the chain kernel's shared memory */
	size_t chain_smem;       /* gpu: its bytes */
} pba_gpu;

/*
 * Allocate and upload the state both engines use (exits 2 when a resource has
 * more units than work[] holds); each engine allocates the rest. The
 * functions below are the engines' fetch, last_iterations and close.
 */
pba_gpu *pba_gpu_open(const pba_system *s);
void pba_gpu_fetch(void *vctx, pba_system *out);
uint32_t pba_gpu_last_iterations(void *vctx);
void pba_gpu_close(void *vctx);

void pba_gpu_sync(pba_gpu *g, const char *what);
/* Seconds since *t, which moves to now. */
double pba_gpu_lap(uint64_t *t);
/* Upload the event's amounts; for a release, apply it and return its outcome, else PBA_PENDING. */
unsigned pba_gpu_upload(pba_gpu *g, uint8_t type, uint32_t p, const int32_t *amt);

/* 1 in every thread when p's request is invalid (Check_Valid_Request's vote). */
static __device__ __forceinline__ int pba_block_invalid(const pba_dev &d, uint32_t p)
{
	int bad = 0;
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		bad |= pba_request_invalid(&d, p, j);
	return __syncthreads_or(bad);
}

/* 1 in every thread when the request asks for more than is free (Check_Resource_Availability's vote). */
static __device__ __forceinline__ int pba_block_unavailable(const pba_dev &d)
{
	int bad = 0;
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		bad |= pba_request_unavailable(&d, j);
	return __syncthreads_or(bad);
}

/* Temporary allocation and work initialisation (Algorithm 26). */
static __device__ __forceinline__ void pba_block_temp_allocate(const pba_dev &d, uint32_t p)
{
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_temp_allocate_cell(&d, p, j);
}

/* Phase 5 on a failed safety check (Algorithm 29). */
static __device__ __forceinline__ void pba_block_roll_back(const pba_dev &d, uint32_t p)
{
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_roll_back_cell(&d, p, j);
}

#endif
