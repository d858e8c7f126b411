/*
 * gpu-thesis: the parallel banker's algorithm (Abell's thesis, chapter 5)
 * with the kernel structure of Algorithms 22-29. Check_Valid_Request,
 * Check_Resource_Availability and Temporary_Allocate_Request are <<<1,J>>>
 * kernels whose verdicts are copied to the host; the H-safety check launches
 * Perform_Safety_Check <<<I,J>>> once per iteration, copies atf[] to the host,
 * scans it there and launches Add_Finished_To_Work <<<1,J>>> for every process
 * able to finish; RollBack_Allocations undoes a denied request. J above 1024
 * is handled by letting each thread of a block take several resources. The
 * per-element work is in deadlock/pba_bits.h, what both GPU engines share in
 * deadlock/pba_gpu.cuh.
 */
#include "deadlock/pba_gpu.cuh"

/* Algorithm 24: cont = 1 when 0 <= request <= need on every resource. */
__global__ void k_check_valid_request(pba_dev d, uint32_t p, int32_t *cont)
{
	int bad = pba_block_invalid(d, p);
	if (threadIdx.x == 0)
		*cont = !bad;
}

/* Algorithm 25: cont = 1 when request <= available on every resource. */
__global__ void k_check_resource_availability(pba_dev d, int32_t *cont)
{
	int bad = pba_block_unavailable(d);
	if (threadIdx.x == 0)
		*cont = !bad;
}

__global__ void k_temporary_allocate_request(pba_dev d, uint32_t p)
{
	pba_block_temp_allocate(d, p);
}

/* Algorithm 27: block i decides whether process i is able to finish now. */
__global__ void k_perform_safety_check(pba_dev d)
{
	uint32_t i = blockIdx.x, j;
	int short_of = 0;
	if (pba_thesis_skips(&d, i))
		return;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		short_of |= pba_thesis_short_of(&d, i, j);
	/* The thesis sums a per-resource flag and compares with J; a block vote says the same. */
	if (!__syncthreads_or(short_of) && threadIdx.x == 0)
		pba_thesis_finish(&d, i);
}

/* Algorithm 28: process i returns what it holds to work. */
__global__ void k_add_finished_to_work(pba_dev d, uint32_t i)
{
	uint32_t j;
	for (j = threadIdx.x; j < d.J; j += blockDim.x)
		pba_thesis_add_cell(&d, i, j);
}

__global__ void k_roll_back_allocations(pba_dev d, uint32_t p)
{
	pba_block_roll_back(d, p);
}

static void *open_thesis(const pba_system *s)
{
	pba_gpu *g = pba_gpu_open(s);
	g->d.finish = (uint8_t *)gb_cuda_alloc(s->procs, "the PBA finish vector");
	g->d.atf = (uint8_t *)gb_cuda_alloc(s->procs, "the PBA atf vector");
	g->d_cont = (int32_t *)gb_cuda_alloc(sizeof(int32_t), "the PBA cont flag");
	GB_CUDA(cudaMallocHost(&g->h_atf, s->procs), "allocating pinned host memory");
	GB_CUDA(cudaMallocHost(&g->h_cont, sizeof(int32_t)), "allocating pinned host memory");
	return g;
}

static int32_t read_cont(pba_gpu *g, const char *what)
{
	GB_CUDA(cudaMemcpyAsync(g->h_cont, g->d_cont, sizeof(int32_t), cudaMemcpyDeviceToHost, g->st),
		"reading the PBA cont flag");
	pba_gpu_sync(g, what);
	return *g->h_cont;
}

static unsigned apply_thesis(void *vctx, uint8_t type, uint32_t p, const int32_t *amt,
			     double ph[PBA_NPHASES])
{
	pba_gpu *g = (pba_gpu *)vctx;
	pba_dev *d = &g->d;
	uint32_t I = d->I, it, i, total = 0;
	uint64_t t;
	unsigned r = pba_gpu_upload(g, type, p, amt);
	if (r != PBA_PENDING)
		return r;
	t = gb_now_ns();
	k_check_valid_request<<<1, g->block1, 0, g->st>>>(*d, p, g->d_cont);
	r = read_cont(g, "Check_Valid_Request");
	ph[PBA_PHASE_VALID] += pba_gpu_lap(&t);
	if (!r)
		return PBA_DENIED_INVALID;
	k_check_resource_availability<<<1, g->block1, 0, g->st>>>(*d, g->d_cont);
	r = read_cont(g, "Check_Resource_Availability");
	ph[PBA_PHASE_AVAILABLE] += pba_gpu_lap(&t);
	if (!r)
		return PBA_DENIED_UNAVAILABLE;
	k_temporary_allocate_request<<<1, g->block1, 0, g->st>>>(*d, p);
	GB_CUDA(cudaMemsetAsync(d->finish, 0, I, g->st), "clearing finish[]");
	GB_CUDA(cudaMemsetAsync(d->atf, 0, I, g->st), "clearing atf[]");
	pba_gpu_sync(g, "Temporary_Allocate_Request");
	ph[PBA_PHASE_PREPARE] += pba_gpu_lap(&t);

	for (it = 0; it < I; it++) {
		uint32_t found = 0;
		k_perform_safety_check<<<I, g->block1, 0, g->st>>>(*d);
		GB_CUDA(cudaMemcpyAsync(g->h_atf, d->atf, I, cudaMemcpyDeviceToHost, g->st),
			"copying atf[] to the host");
		pba_gpu_sync(g, "Perform_Safety_Check");
		for (i = 0; i < I; i++)
			if (g->h_atf[i]) {
				found++;
				k_add_finished_to_work<<<1, g->block1, 0, g->st>>>(*d, i);
			}
		total += found;
		if (total == I || found == 0)
			break;
		GB_CUDA(cudaMemsetAsync(d->atf, 0, I, g->st), "clearing atf[]");
	}
	pba_gpu_sync(g, "Add_Finished_To_Work");
	g->iterations = it + (it < I);
	ph[PBA_PHASE_SAFETY] += pba_gpu_lap(&t);
	if (total == I)
		return PBA_GRANTED;
	k_roll_back_allocations<<<1, g->block1, 0, g->st>>>(*d, p);
	pba_gpu_sync(g, "RollBack_Allocations");
	ph[PBA_PHASE_RESOLVE] += pba_gpu_lap(&t);
	return PBA_DENIED_UNSAFE;
}

/* Designated initializers in a .cu file (C++17): nvcc accepts them in declaration order, every member named. */
extern "C" {
extern const pba_engine pba_engine_gpu_thesis;

const pba_engine pba_engine_gpu_thesis = {
	.head = PBA_GPU_THESIS_HEAD,
	.open = open_thesis,
	.apply = apply_thesis,
	.last_iterations = pba_gpu_last_iterations,
	.fetch = pba_gpu_fetch,
	.close = pba_gpu_close,
};
}
