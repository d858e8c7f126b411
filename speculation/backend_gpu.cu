/*
 * The GPU backend of the speculative runtime (sections 2 and 3 of Feng, Gupta
 * and Bhuyan): computation and misspeculation check run on the device, one
 * CUDA thread per iteration of the assignment, each step its own kernel over
 * the GB_HD step functions of speculation/check.h (one kernel per step rather
 * than one switch, so each gets the registers it needs). The speculated
 * array, the traces and Read/Write/Read-min/Wrong live in device memory for
 * the whole loop; the host copies only what the runtime asks for.
 *
 * Launches are asynchronous, in order on one stream (steps); the runtime
 * synchronizes at the end of each phase (sync), and every copy waits for the
 * steps before it, so its per-phase host timers measure the phase's device
 * time, launch overhead included by design. The exceptions are the
 * background copies on a second stream (back), complete at drain: a
 * device-decided batch's finished span copied back while the next batch
 * runs, and the inputs of later assignments copied in while the first runs. Copies move locked host memory
 * directly: open page-locks the host array and the inputs (pin_host), and
 * small copies and unlocked pieces go through a locked bounce buffer, so no
 * copy takes the driver's pageable path (several times slower, and several
 * microseconds more for a small copy).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
STEP_KERNEL(k_traces, sp_k_traces)
STEP_KERNEL(k_restore, sp_k_restore)

__device__ static void replay_one(const sp_dev *d, uint32_t i)
{
	sp_replay_row(d, d->plan[d->start + i]);
}

STEP_KERNEL(k_replay_level, replay_one)
STEP_KERNEL(k_plain, plain_one)

/*
 * The replay plan of device-side recovery (speculation/check.h) in one
 * block: the levels in order, a level's iterations shared by the threads,
 * a barrier between levels (which also makes a level's writes to A visible
 * to the next). The misspeculated iterations of an assignment are few, so
 * one block runs them in one launch.
 */
__global__ void __launch_bounds__(BLOCK) k_replay(sp_dev d)
{
	const uint32_t *plan = d.plan, levels = plan[0], *off = plan + 1, *list = plan + levels + 2;
	uint32_t l, t;
	for (l = 0; l < levels; l++) {
		for (t = off[l] + threadIdx.x; t < off[l + 1]; t += blockDim.x)
			sp_replay_row(&d, list[t]);
		__syncthreads();
	}
}

/*
 * A batch of device-decided rounds of up to SP_ROUND_MAX iterations
 * (speculation/check.h) in one block of H x SP_SCHED_FLOOR threads: its
 * threads share each round's iterations, then thread 0 resolves the round
 * (the first branch, its recovery, the next size) between two barriers, so
 * no round waits on the host. SP_SCHED_FLOOR is the least size the wide
 * schedule gives a round. With st.inplace a thread whose iteration takes its
 * branch keeps the scalars it left in its slot of taken (its lowest such
 * iteration: the round's first branch is the lowest of all), and the
 * resolving thread takes the first branch's from the slot of the thread that
 * ran it, instead of re-executing it. The state lives in shared memory for
 * the batch; __syncthreads also makes the iterations' writes to A visible to
 * the re-execution.
 *
 * H = 2 is the lookahead (--schedule lookahead): in a round of at most
 * SP_SCHED_FLOOR iterations the first half of the block runs them on the
 * round's scalars and the second half on the scalars predicted after the
 * first branch, into the shadow array (thread SP_SCHED_FLOOR + j, iteration
 * j, its slot of taken); a longer round runs as with H = 1. After the
 * resolving thread has decided, every thread copies its share of the second
 * hypothesis's accepted iterations from the shadow array into A: the next
 * round writes only after them, in both arrays, so no barrier waits for the
 * copy.
 */
template <uint32_t H>
__global__ void __launch_bounds__(H * SP_SCHED_FLOOR) k_rounds(sp_dev d)
{
	__shared__ sp_rounds st;
	__shared__ float taken[H * SP_SCHED_FLOOR][SP_NSCALARS];
	float s[SP_NSCALARS];
	uint32_t j, k;
	if (threadIdx.x == 0)
		st = *d.rounds;
	__syncthreads();
	while (st.count) {
		const int la = H > 1 && sp_round_lookahead(&st);
		int took = 0;
		if (la) {
			const uint32_t h = threadIdx.x / SP_SCHED_FLOOR;
			j = threadIdx.x % SP_SCHED_FLOOR;
			if (j < st.count && sp_round_compute(&d, &st, j, h, s))
				for (k = 0; k < SP_NSCALARS; k++)
					taken[threadIdx.x][k] = s[k];
		} else {
			for (j = threadIdx.x; j < st.count; j += blockDim.x)
				if (sp_round_compute(&d, &st, j, 0, s) && !took) {
					for (k = 0; k < SP_NSCALARS; k++)
						taken[threadIdx.x][k] = s[k];
					took = 1;
				}
		}
		__syncthreads();
		if (threadIdx.x == 0) {
			const uint32_t b = st.all_from;
			/* the block's width is a constant, so the slot costs no division */
			const float *first = st.inplace && b != SP_NONE ? taken[(b - st.start) % (H * SP_SCHED_FLOOR)] : NULL;
			sp_round_resolve(&d, &st, first, la ? (const float(*)[SP_NSCALARS]) & taken[SP_SCHED_FLOOR] : NULL);
		}
		__syncthreads();
		if (H > 1 && st.acc_hi > st.acc_lo)
			sp_round_copy(&d, &st, threadIdx.x, blockDim.x);
	}
	if (threadIdx.x == 0)
		*d.rounds = st;
}

/*
 * One longer device-decided round: the blocks the round has iterations for
 * share them (the grid is sized for the largest round). The last block of
 * the grid to be done, the others included, resolves the round and begins
 * the next one in the state, which the next launch reads: the host queues
 * launches without waiting between them, and a launch that finds no round
 * (count 0) does nothing. Every block counts itself, having read the
 * state, so that no block can start after the state changed. The fences
 * before the count and after it make every block's writes to A and to
 * all_from visible to the resolving thread (the last-block pattern of the
 * CUDA programming guide); the kernel boundary makes the new state visible
 * to the next launch.
 */
__global__ void __launch_bounds__(BLOCK) k_wide_round(sp_dev d)
{
	__shared__ uint32_t last;
	sp_rounds *st = d.rounds;
	uint32_t count = st->count, blocks, j;
	if (!count)
		return;
	blocks = (count + blockDim.x - 1) / blockDim.x;
	if (blocks > gridDim.x)
		blocks = gridDim.x;
	if (blockIdx.x < blocks)
		for (j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += blocks * blockDim.x)
			sp_round_compute(&d, st, j, 0, NULL);
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		last = atomicAdd(&st->blocks_done, 1) == gridDim.x - 1;
	__syncthreads();
	if (last && threadIdx.x == 0) {
		__threadfence();
		st->blocks_done = 0;
		sp_round_resolve(&d, st, NULL, NULL);
	}
}

typedef void (*step_kernel)(sp_dev);
static const step_kernel kernels[] = {
	k_compute, k_mark, k_intersect, k_minread, k_localize, k_gather, k_clear, k_reset, k_scatter,
	k_traces, k_restore, k_replay, k_replay_level, k_plain, k_rounds<1>, k_wide_round,
};
static const char *const kernel_names[] = {
	"computation", "detection (marks)", "detection (intersection)", "localization (Read-min)",
	"localization", "the commit gather", "clearing the check arrays", "resetting the check arrays",
	"copy-in scatter", "packing the misspeculated iterations' traces", "the commit on the device",
	"the recovery on the device", "a level of the recovery on the device", "the unchecked loop",
	"a batch of device-decided assignments",
	"a device-decided assignment over the whole device",
};
static_assert(sizeof(kernels) / sizeof(kernels[0]) == SP_NKERNELS, "one kernel per step");
static_assert(sizeof(kernel_names) / sizeof(kernel_names[0]) == SP_NKERNELS, "one name per step");

/* A page-locked host range: the bytes [lo, hi) of what cudaHostRegister locked from base. */
typedef struct pinned {
	char *base, *lo, *hi;
} pinned;

typedef struct gpu_ctx {
	sp_dev d;
	uint32_t max_count; /* iterations the traces have room for */
	uint32_t wide_blocks; /* the grid of SP_K_WIDE */
	uint32_t *inputs;
	uint32_t *buffers[SP_NBUFFERS];
	size_t words[SP_NBUFFERS];
	uint32_t *bounce;     /* pinned host memory for small copies and unlocked pieces */
	pinned pin[4];        /* the host array, the inputs and the runtime's staging, where locked */
	cudaStream_t steps;   /* the steps and the copies that wait for them */
	cudaStream_t back;    /* background copies that overlap later steps (upload/download_async) */
	cudaEvent_t launched; /* where back's copies start in steps */
} gpu_ctx;

/*
 * Page-lock a host range that large copies read or write, so that they run
 * at the link's speed instead of through the driver's pageable staging
 * (several times slower). Locking is outside the timed loop, like
 * allocation. A range sharing a page with one locked before cannot be
 * locked whole; then only the whole pages inside it are, and the few bytes
 * around them go through the bounce buffer. Best effort: where nothing can
 * be locked, copies go through the bounce buffer piece by piece.
 */
static pinned pin_host(const void *p, size_t bytes)
{
	pinned r = {NULL, NULL, NULL};
	uintptr_t lo = (uintptr_t)p, hi = lo + bytes, a, z, page;
	long ps = sysconf(_SC_PAGESIZE);
	if (!p || bytes <= BOUNCE * sizeof(uint32_t))
		return r;
	page = ps > 0 ? (uintptr_t)ps : 4096;
	if (cudaHostRegister((void *)p, bytes, cudaHostRegisterDefault) == cudaSuccess) {
		r.base = r.lo = (char *)p;
		r.hi = (char *)p + bytes;
		return r;
	}
	(void)cudaGetLastError();
	a = (lo + page - 1) / page * page;
	z = hi / page * page;
	if (z > a && z - a > BOUNCE * sizeof(uint32_t) &&
	    cudaHostRegister((void *)a, z - a, cudaHostRegisterDefault) == cudaSuccess) {
		r.base = r.lo = (char *)a;
		r.hi = (char *)z;
		return r;
	}
	(void)cudaGetLastError();
	return r;
}

/* Bytes from host address h on that lie in one locked range (0 when h is in none), and
 * otherwise, in *gap, how many lie before the next locked range. */
static size_t pinned_run(const gpu_ctx *c, const char *h, size_t bytes, size_t *gap)
{
	size_t k;
	*gap = bytes;
	for (k = 0; k < sizeof(c->pin) / sizeof(c->pin[0]); k++) {
		const pinned *q = &c->pin[k];
		if (!q->base)
			continue;
		if (h >= q->lo && h < q->hi)
			return (size_t)(q->hi - h) < bytes ? (size_t)(q->hi - h) : bytes;
		if (q->lo > h && (size_t)(q->lo - h) < *gap)
			*gap = (size_t)(q->lo - h);
	}
	return 0;
}

/*
 * Copy bytes between host h and device v on stream steps, in order after the
 * steps launched before, and wait for it: locked pieces directly, the others
 * through the bounce buffer.
 */
static void copy_sync(gpu_ctx *c, char *v, char *h, size_t bytes, int to_device)
{
	const size_t chunk = BOUNCE * sizeof(uint32_t);
	cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
	size_t done = 0, total = bytes;
	if (!bytes)
		return;
	while (bytes) {
		size_t gap, n = pinned_run(c, h, bytes, &gap);
		if (n) {
			GB_CUDA(cudaMemcpyAsync(to_device ? (void *)v : (void *)h,
						to_device ? (const void *)h : (const void *)v, n, kind, c->steps),
				"copying %zu bytes (at %zu of %zu) %s the device", n, done, total,
				to_device ? "to" : "from");
		} else {
			n = gap < chunk ? gap : chunk;
			if (to_device)
				memcpy(c->bounce, h, n);
			GB_CUDA(cudaMemcpyAsync(to_device ? (void *)v : (void *)c->bounce,
						to_device ? (const void *)c->bounce : (const void *)v, n, kind,
						c->steps),
				"copying %zu bytes (at %zu of %zu) %s the device", n, done, total,
				to_device ? "to" : "from");
			/* the bounce buffer is reused by the next piece */
			GB_CUDA(cudaStreamSynchronize(c->steps), "copying %zu bytes %s the device (after "
				"the steps before it)", n, to_device ? "to" : "from");
			if (!to_device)
				memcpy(h, c->bounce, n);
		}
		h += n;
		v += n;
		done += n;
		bytes -= n;
	}
	GB_CUDA(cudaStreamSynchronize(c->steps), "copying %zu bytes %s the device (after the steps "
		"before it)", total, to_device ? "to" : "from");
}

static uint32_t *dev_words(size_t words, const char *what)
{
	return (uint32_t *)gb_cuda_alloc((words ? words : 1) * sizeof(uint32_t), what);
}

static void dev_fill(gpu_ctx *c, uint32_t *p, int byte, size_t words, const char *what)
{
	GB_CUDA(cudaMemsetAsync(p, byte, words * sizeof(uint32_t), c->steps), "clearing %s (%zu words)",
		what, words);
}

static void *gpu_open(const sp_problem *p, uint32_t *host, uint32_t max_count, unsigned workers,
		      unsigned flags)
{
	gpu_ctx *c = (gpu_ctx *)gb_xcalloc(1, sizeof(*c), "the GPU backend");
	const sp_loop *l = p->loop;
	size_t size = p->args.size, n = max_count ? max_count : 1;
	size_t staging = n * l->max_writes > size ? n * l->max_writes : size;
	int dev = 0, sms = 0;
	(void)workers;

	GB_CUDA(cudaStreamCreateWithFlags(&c->steps, cudaStreamNonBlocking), "creating a stream");
	GB_CUDA(cudaStreamCreateWithFlags(&c->back, cudaStreamNonBlocking), "creating a stream");
	GB_CUDA(cudaEventCreateWithFlags(&c->launched, cudaEventDisableTiming), "creating an event");
	GB_CUDA(cudaGetDevice(&dev), "querying the device");
	GB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
		"querying the device's multiprocessors");
	/* Two blocks per multiprocessor: a round's threads stride over larger rounds, and every
	 * block of a launch counts itself on one word, so fewer blocks cost less there. */
	c->wide_blocks = (uint32_t)((n + BLOCK - 1) / BLOCK);
	if (c->wide_blocks > 2u * (uint32_t)sms)
		c->wide_blocks = 2u * (uint32_t)sms;
	if (c->wide_blocks < 1)
		c->wide_blocks = 1;

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
	if (flags & SP_OPEN_RESIDENT) {
		c->d.committed = dev_words(size, "the committed array");
		c->d.rows = dev_words(n * SP_ROW_WORDS(c->d.maxrd, c->d.maxwr), "misspeculated iterations' traces");
		c->d.plan = dev_words(SP_PLAN_WORDS(n), "the replay plan");
	}
	if (flags & SP_OPEN_SHADOW)
		c->d.shadow = dev_words(size, "the lookahead's shadow array");
	/* An array the runtime does not copy in must not find the right values here by chance
	 * (freed memory of an earlier run holds them): a loop that declares it writes the whole
	 * array and does not then fails verification. */
	dev_fill(c, c->d.args.A, 0xFF, size, "the speculated array");
	dev_fill(c, c->d.readf, 0, size, "Read_A");
	dev_fill(c, c->d.writec, 0, size, "Write_A");
	dev_fill(c, c->d.minrd, 0xFF, size, "Read-min");
	dev_fill(c, c->d.wrongf, 0, size, "Wrong_A");
	dev_fill(c, c->d.misspec, 0, n, "Misspec");
	dev_fill(c, c->d.nrd, 0, n, "trace lengths");
	dev_fill(c, c->d.nwr, 0, n, "trace lengths");

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
	c->buffers[SP_BUF_ROWS] = c->d.rows;
	c->words[SP_BUF_ROWS] = c->d.rows ? n * SP_ROW_WORDS(c->d.maxrd, c->d.maxwr) : 0;
	c->buffers[SP_BUF_PLAN] = c->d.plan;
	c->words[SP_BUF_PLAN] = c->d.plan ? SP_PLAN_WORDS(n) : 0;
	GB_CUDA(cudaMallocHost((void **)&c->bounce, BOUNCE * sizeof(uint32_t)),
		"allocating %u words of pinned host memory", BOUNCE);
	c->pin[0] = pin_host(host, size * sizeof(uint32_t));
	c->pin[1] = pin_host(p->idx, p->nidx * sizeof(uint32_t));
	c->pin[2] = pin_host(p->in, p->nin * sizeof(float));
	GB_CUDA(cudaStreamSynchronize(c->steps), "clearing the device state");
	return c;
}

static void gpu_launch(void *vctx, unsigned kernel, uint32_t start, uint32_t count,
		       const float s[SP_NSCALARS])
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	sp_dev d = c->d;
	uint32_t blocks = (count + BLOCK - 1) / BLOCK;
	if (!count)
		return;
	if (kernel != SP_K_SCATTER && kernel != SP_K_RESET && kernel != SP_K_RESTORE &&
	    count > c->max_count)
		gb_die(GB_EXIT_RUNTIME, "an assignment of %u iterations exceeds the %u the device state "
		       "was sized for", count, c->max_count);
	d.start = start;
	d.count = count;
	memcpy(d.args.s, s, sizeof(d.args.s));
	if (kernel == SP_K_ROUNDS || kernel == SP_K_REPLAY)
		blocks = 1;
	else if (kernel == SP_K_WIDE)
		blocks = c->wide_blocks;
	if (kernel == SP_K_ROUNDS && c->d.shadow)
		k_rounds<2><<<1, 2 * SP_SCHED_FLOOR, 0, c->steps>>>(d);
	else
		kernels[kernel]<<<blocks, kernel == SP_K_ROUNDS ? SP_SCHED_FLOOR : BLOCK, 0, c->steps>>>(d);
	GB_CUDA(cudaGetLastError(), "launching %s over %u iterations from %u", kernel_names[kernel],
		count, start);
}

static void gpu_sync(void *vctx, const char *what)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	GB_CUDA(cudaStreamSynchronize(c->steps), "running %s", what);
}

static void gpu_drain(void *vctx, const char *what)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	GB_CUDA(cudaStreamSynchronize(c->back), "%s", what);
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
	copy_sync(c, (char *)(c->buffers[buf] + off), (char *)src, words * sizeof(uint32_t), 1);
}

static void gpu_download(void *vctx, unsigned buf, size_t off, uint32_t *dst, size_t words)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	check_range(c, buf, off, words);
	copy_sync(c, (char *)(c->buffers[buf] + off), (char *)dst, words * sizeof(uint32_t), 0);
}

/* On stream back, when the host range is locked whole; otherwise at once, as an upload. */
static void gpu_upload_async(void *vctx, unsigned buf, size_t off, const uint32_t *src, size_t words)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	size_t gap, bytes = words * sizeof(uint32_t);
	check_range(c, buf, off, words);
	if (!words)
		return;
	if (pinned_run(c, (const char *)src, bytes, &gap) != bytes) {
		gpu_upload(vctx, buf, off, src, words);
		return;
	}
	GB_CUDA(cudaMemcpyAsync(c->buffers[buf] + off, src, bytes, cudaMemcpyHostToDevice, c->back),
		"copying %zu words to the device while steps run", words);
}

/* On stream back, after the steps launched so far, when the host range is locked whole;
 * otherwise at once, as a download. */
static void gpu_download_async(void *vctx, unsigned buf, size_t off, uint32_t *dst, size_t words)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	size_t gap, bytes = words * sizeof(uint32_t);
	check_range(c, buf, off, words);
	if (!words)
		return;
	if (pinned_run(c, (const char *)dst, bytes, &gap) != bytes) {
		gpu_download(vctx, buf, off, dst, words);
		return;
	}
	GB_CUDA(cudaEventRecord(c->launched, c->steps), "ordering a copy back after the steps");
	GB_CUDA(cudaStreamWaitEvent(c->back, c->launched, 0), "ordering a copy back after the steps");
	GB_CUDA(cudaMemcpyAsync(dst, c->buffers[buf] + off, bytes, cudaMemcpyDeviceToHost, c->back),
		"copying %zu words from the device while later steps run", words);
}

static void gpu_close(void *vctx)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	uint32_t *bufs[] = {c->d.args.A, c->d.readf, c->d.writec, c->d.minrd, c->d.wrongf,
			    c->d.wlist, c->d.sidx, c->d.sval, c->d.rd, c->d.wr, c->d.nrd, c->d.nwr,
			    c->d.misspec, c->d.mlist, c->d.counters, (uint32_t *)c->d.rounds,
			    c->inputs, c->d.committed, c->d.rows, c->d.plan, c->d.shadow};
	size_t k;
	gpu_sync(vctx, "the last steps");
	gpu_drain(vctx, "finishing the last copies");
	for (k = 0; k < sizeof(bufs) / sizeof(bufs[0]); k++)
		cudaFree(bufs[k]);
	cudaFreeHost(c->bounce);
	for (k = 0; k < sizeof(c->pin) / sizeof(c->pin[0]); k++)
		if (c->pin[k].base)
			cudaHostUnregister(c->pin[k].base);
	cudaEventDestroy(c->launched);
	cudaStreamDestroy(c->steps);
	cudaStreamDestroy(c->back);
	free(c);
}

extern "C" {
extern const sp_backend sp_backend_gpu;
static void gpu_pin(void *vctx, const void *p, size_t bytes)
{
	gpu_ctx *c = (gpu_ctx *)vctx;
	c->pin[3] = pin_host(p, bytes);
}

const sp_backend sp_backend_gpu = {
	.name = "gpu",
	.host_memory = 0,
	.open = gpu_open,
	.launch = gpu_launch,
	.sync = gpu_sync,
	.upload = gpu_upload,
	.download = gpu_download,
	.upload_async = gpu_upload_async,
	.download_async = gpu_download_async,
	.drain = gpu_drain,
	.pin = gpu_pin,
	.close = gpu_close,
};
}
