/*
 * The GPU backend of the speculative runtime (sections 2 and 3 of Feng, Gupta
 * and Bhuyan): computation and misspeculation check run on the device, one
 * CUDA thread per iteration of the assignment, each step its own kernel over
 * the GB_HD step functions of speculation/check.h (one kernel per step rather
 * than one switch, so each gets the registers it needs). The speculated
 * array, the traces and Read/Write/Read-min/Wrong live in device memory for
 * the whole loop; the host copies only what the runtime asks for.
 *
 * Launches are asynchronous; the runtime synchronizes at the end of each
 * phase (sync), and every copy waits for the steps before it, so its
 * per-phase host timers measure the phase's device time, launch overhead
 * included by design. Copies of up to BOUNCE words go through a pinned
 * buffer: pageable copies cost several microseconds more each, and an
 * assignment makes a handful of small ones. Larger ones move the host array
 * and the inputs, which open page-locks (pin_host).
 */
#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"
#include "speculation/check.h"

extern "C" {
#include "speculation/runtime.h"
}

#define BLOCK 256u
#define BOUNCE (1u << 16)

#define STEP_KERNEL(name, fn)                                                  \
	__global__ void name(sp_dev d)                                         \
	{                                                                      \
		uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;            \
		if (i < d.count)                                               \
			fn(&d, i);                                             \
	}

__device__ static void scatter_one(const sp_dev *d, uint32_t i)
{
	d->args.A[d->sidx[i]] = d->sval[i];
}

__device__ static void plain_one(const sp_dev *d, uint32_t i)
{
	sp_kernel_run(d, SP_K_PLAIN, i);
}

STEP_KERNEL(k_compute, sp_k_compute)
STEP_KERNEL(k_mark, sp_k_mark)
STEP_KERNEL(k_intersect, sp_k_intersect)
STEP_KERNEL(k_minread, sp_k_minread)
STEP_KERNEL(k_localize, sp_k_localize)
STEP_KERNEL(k_gather, sp_k_gather)
STEP_KERNEL(k_clear, sp_k_clear)
STEP_KERNEL(k_reset, sp_k_reset)
STEP_KERNEL(k_scatter, scatter_one)
STEP_KERNEL(k_plain, plain_one)

/*
 * A batch of device-decided rounds (speculation/check.h) in one block: its
 * threads share each round's iterations, then thread 0 resolves the round
 * (the first branch, its re-execution, the next size) between two barriers,
 * so no round waits on the host. The state lives in shared memory for the
 * batch; __syncthreads also makes the iterations' writes to A visible to
 * the re-execution.
 */
__global__ void __launch_bounds__(BLOCK) k_rounds(sp_dev d)
{
	__shared__ sp_rounds st;
	uint32_t j;
	if (threadIdx.x == 0) {
		st = *d.rounds;
		sp_round_begin(&st, d.args.n);
	}
	__syncthreads();
	while (st.count) {
		for (j = threadIdx.x; j < st.count; j += blockDim.x)
			sp_round_compute(&d, &st, j);
		__syncthreads();
		if (threadIdx.x == 0)
			sp_round_resolve(&d, &st);
		__syncthreads();
	}
	if (threadIdx.x == 0)
		*d.rounds = st;
}

typedef void (*step_kernel)(sp_dev);
static const step_kernel kernels[] = {
	k_compute, k_mark, k_intersect, k_minread, k_localize, k_gather, k_clear, k_reset, k_scatter,
	k_plain, k_rounds,
};
static const char *const kernel_names[] = {
	"computation", "detection (marks)", "detection (intersection)", "localization (Read-min)",
	"localization", "the commit gather", "clearing the check arrays", "resetting the check arrays",
	"copy-in scatter", "the unchecked loop", "a batch of device-decided assignments",
};
static_assert(sizeof(kernels) / sizeof(kernels[0]) == SP_NKERNELS, "one kernel per step");
static_assert(sizeof(kernel_names) / sizeof(kernel_names[0]) == SP_NKERNELS, "one name per step");

typedef struct gpu_ctx {
	sp_dev d;
	uint32_t max_count; /* iterations the traces have room for */
	uint32_t *inputs;
	uint32_t *buffers[SP_NBUFFERS];
	size_t words[SP_NBUFFERS];
	uint32_t *bounce;     /* pinned host memory for small copies */
	void *pinned[3];      /* host ranges this context page-locked, NULL where not */
} gpu_ctx;

/* Below this, a range shares its pages with other allocations and the bounce buffer serves. */
#define PIN_MIN_BYTES (1u << 20)

/*
 * Page-lock a host range that large copies read or write, so that they run
 * at the link's speed instead of through the driver's pageable staging
 * (several times slower for the inputs and the array). Best effort: where
 * the range cannot be locked, copies stay pageable and correct. Locking is
 * outside the timed loop, like allocation.
 */
static void *pin_host(const void *p, size_t bytes)
{
	if (!p || bytes < PIN_MIN_BYTES)
		return NULL;
	if (cudaHostRegister((void *)p, bytes, cudaHostRegisterDefault) != cudaSuccess) {
		(void)cudaGetLastError();
		return NULL;
	}
	return (void *)p;
}

static uint32_t *dev_words(size_t words, const char *what)
{
	return (uint32_t *)gb_cuda_alloc((words ? words : 1) * sizeof(uint32_t), what);
}

static void *gpu_open(const sp_problem *p, uint32_t *host, uint32_t max_count, unsigned workers)
{
	gpu_ctx *c = (gpu_ctx *)gb_xcalloc(1, sizeof(*c), "the GPU backend");
	const sp_loop *l = p->loop;
	size_t size = p->args.size, n = max_count ? max_count : 1;
	size_t staging = n * l->max_writes > size ? n * l->max_writes : size;
	(void)workers;

	c->max_count = (uint32_t)n;
	c->d.args = p->args;
	c->d.clause = p->clause;
	c->d.kind = l->kind;
	c->d.maxrd = l->kind == SP_MEM ? l->max_reads : 0;
	c->d.maxwr = l->kind == SP_MEM ? l->max_writes : 0;
	c->d.args.A = dev_words(size, "the speculated array");
	c->d.readf = dev_words(size, "Read_A");
	c->d.writec = dev_words(size, "Write_A");
	c->d.minrd = dev_words(size, "Read-min");
	c->d.wrongf = dev_words(size, "Wrong_A");
	c->d.wlist = dev_words(size, "the Wrong list");
	c->d.sidx = dev_words(staging, "commit and copy-in staging");
	c->d.sval = dev_words(staging, "commit and copy-in staging");
	c->d.rd = dev_words(n * c->d.maxrd, "read traces");
	c->d.wr = dev_words(n * c->d.maxwr, "write traces");
	c->d.nrd = dev_words(n, "trace lengths");
	c->d.nwr = dev_words(n, "trace lengths");
	c->d.misspec = dev_words(n, "Misspec");
	c->d.mlist = dev_words(n, "the Misspec list");
	c->d.counters = dev_words(SP_NCOUNTERS, "check counters");
	c->d.rounds = (sp_rounds *)dev_words(SP_ROUND_WORDS, "the state of device-decided rounds");
	GB_CUDA(cudaMemset(c->d.readf, 0, size * 4), "clearing Read_A (%zu elements)", size);
	GB_CUDA(cudaMemset(c->d.writec, 0, size * 4), "clearing Write_A (%zu elements)", size);
	GB_CUDA(cudaMemset(c->d.minrd, 0xFF, size * 4), "clearing Read-min (%zu elements)", size);
	GB_CUDA(cudaMemset(c->d.wrongf, 0, size * 4), "clearing Wrong_A (%zu elements)", size);
	GB_CUDA(cudaMemset(c->d.misspec, 0, n * 4), "clearing Misspec (%zu iterations)", n);
	GB_CUDA(cudaMemset(c->d.nrd, 0, n * 4), "clearing trace lengths (%zu iterations)", n);
	GB_CUDA(cudaMemset(c->d.nwr, 0, n * 4), "clearing trace lengths (%zu iterations)", n);

	c->inputs = dev_words(p->nidx + p->nin, "the loop's inputs");
	c->d.args.idx = c->inputs;
	c->d.args.in = (const float *)(c->inputs + p->nidx);

	c->buffers[SP_BUF_A] = c->d.args.A;
	c->words[SP_BUF_A] = size;
	c->buffers[SP_BUF_COUNTERS] = c->d.counters;
	c->words[SP_BUF_COUNTERS] = SP_NCOUNTERS;
	c->buffers[SP_BUF_MLIST] = c->d.mlist;
	c->words[SP_BUF_MLIST] = n;
	c->buffers[SP_BUF_WLIST] = c->d.wlist;
	c->words[SP_BUF_WLIST] = size;
	c->buffers[SP_BUF_SIDX] = c->d.sidx;
	c->words[SP_BUF_SIDX] = staging;
	c->buffers[SP_BUF_SVAL] = c->d.sval;
	c->words[SP_BUF_SVAL] = staging;
	c->buffers[SP_BUF_ROUNDS] = (uint32_t *)c->d.rounds;
	c->words[SP_BUF_ROUNDS] = SP_ROUND_WORDS;
	c->buffers[SP_BUF_INPUTS] = c->inputs;
	c->words[SP_BUF_INPUTS] = p->nidx + p->nin;
	GB_CUDA(cudaMallocHost((void **)&c->bounce, BOUNCE * sizeof(uint32_t)),
		"allocating %u words of pinned host memory", BOUNCE);
	c->pinned[0] = pin_host(host, size * 4);
	c->pinned[1] = pin_host(p->idx, p->nidx * 4);
	c->pinned[2] = pin_host(p->in, p->nin * 4);
	return c;
}

static void gpu_launch(void *vctx, unsigned kernel, uint32_t start, uint32_t count,
		       const float s[SP_NSCALARS])
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	sp_dev d = c->d;
	if (!count)
		return;
	if (kernel != SP_K_SCATTER && kernel != SP_K_RESET && count > c->max_count)
		gb_die(GB_EXIT_RUNTIME, "an assignment of %u iterations exceeds the %u the device state "
		       "was sized for", count, c->max_count);
	d.start = start;
	d.count = count;
	memcpy(d.args.s, s, sizeof(d.args.s));
	if (kernel == SP_K_ROUNDS)
		k_rounds<<<1, BLOCK>>>(d);
	else
		kernels[kernel]<<<(count + BLOCK - 1) / BLOCK, BLOCK>>>(d);
	GB_CUDA(cudaGetLastError(), "launching %s over %u iterations from %u", kernel_names[kernel],
		count, start);
}

static void gpu_sync(void *vctx, const char *what)
{
	(void)vctx;
	GB_CUDA(cudaDeviceSynchronize(), "running %s", what);
}

static void check_range(const gpu_ctx *c, unsigned buf, size_t off, size_t words)
{
	if (off + words > c->words[buf])
		gb_die(GB_EXIT_RUNTIME, "copy of %zu words at %zu is outside device buffer %u (%zu words)",
		       words, off, buf, c->words[buf]);
}

static void gpu_upload(void *vctx, unsigned buf, size_t off, const uint32_t *src, size_t words)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	check_range(c, buf, off, words);
	if (words <= BOUNCE) {
		memcpy(c->bounce, src, words * 4);
		src = c->bounce;
	}
	GB_CUDA(cudaMemcpy(c->buffers[buf] + off, src, words * 4, cudaMemcpyHostToDevice),
		"copying %zu words to the device", words);
}

static void gpu_download(void *vctx, unsigned buf, size_t off, uint32_t *dst, size_t words)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	check_range(c, buf, off, words);
	GB_CUDA(cudaMemcpy(words <= BOUNCE ? c->bounce : dst, c->buffers[buf] + off, words * 4,
			   cudaMemcpyDeviceToHost),
		"copying %zu words from the device (after the steps before it)", words);
	if (words <= BOUNCE)
		memcpy(dst, c->bounce, words * 4);
}

static void gpu_close(void *vctx)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	uint32_t *bufs[] = {c->d.args.A, c->d.readf, c->d.writec, c->d.minrd, c->d.wrongf,
			    c->d.wlist, c->d.sidx, c->d.sval, c->d.rd, c->d.wr, c->d.nrd, c->d.nwr,
			    c->d.misspec, c->d.mlist, c->d.counters, (uint32_t *)c->d.rounds,
			    c->inputs};
	size_t k;
	for (k = 0; k < sizeof(bufs) / sizeof(bufs[0]); k++)
		cudaFree(bufs[k]);
	cudaFreeHost(c->bounce);
	for (k = 0; k < sizeof(c->pinned) / sizeof(c->pinned[0]); k++)
		if (c->pinned[k])
			cudaHostUnregister(c->pinned[k]);
	free(c);
}

extern "C" {
extern const sp_backend sp_backend_gpu;
const sp_backend sp_backend_gpu = {
	.name = "gpu",
	.host_memory = 0,
	.open = gpu_open,
	.launch = gpu_launch,
	.sync = gpu_sync,
	.upload = gpu_upload,
	.download = gpu_download,
	.close = gpu_close,
};
}
