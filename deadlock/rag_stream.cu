/*
 * gpu-stream: OSDDA and LMDDA deciding whole windows of events in one launch
 * (deadlock/rag_stream.h gives the state, the per-event work and why).
 *
 * A window of up to RS_WINDOW events goes to the device in one copy, one
 * launch of one block decides it, one copy brings the decisions back; the
 * state stays on the device between windows and streams. The kernel keeps
 * the state in shared memory when it fits (the device's opt-in limit less
 * the event staging: 16-bit entries wherever the ids fit, up to about
 * 25000 x 25000 for OSDDA and 12000 x 12000 for LMDDA with 1-4 units on an
 * H100 or H200, 32-bit ones past 65534 processes or resources) and the window
 * is long enough to pay for the copies, else works on it in global memory, where it is L2- and
 * L1-resident but each access costs more.
 *
 * gpu-stream decides through apply_stream(), the batch service: its timed
 * stream includes packing the events, both copies and the launches.
 * gpu-event has only apply(), a window of one event: the interactive service
 * of the thesis (the host waits for each decision), a launch and two copies
 * an event, timed event by event like gpu and gpu-graph.
 */
#include <stdio.h>
#include <string.h>

extern "C" {
#include "common/error.h"
#include "deadlock/rag.h"
}
#include "common/cuda_check.h"
#include "deadlock/rag_stream.h"

#define RS_WINDOW (1u << 20) /* events a launch */

typedef struct rag_stream {
	uint32_t M, N, slots;
	int lmdda, fits;        /* the state fits in shared memory beside the staging */
	int narrow;             /* 16-bit entries (rs_narrow_fits) */
	size_t words, kept;     /* state words (32-bit), and those kept between windows */
	uint32_t *d_state;
	uint32_t *d_ev, *d_dec; /* RS_WINDOW events (2 words each), decisions */
	uint32_t *h_ev, *h_dec; /* pinned */
	cudaStream_t st;
} rag_stream;

/* Shared memory of a launch: the staging buffers, then the state when it fits. */
static __host__ __device__ size_t rs_staging_words(void)
{
	return 3 * (size_t)RS_CHUNK;
}

#define RS_FULL 0xffffffffu

/* Mark resource j reached by search e unless it already was: 1 when this lane marked it. Atomic,
 * since lanes reach the same resource at once; within a search a mark only grows to e (the wrap
 * clears them all before a search starts). */
static __device__ __forceinline__ int rs_claim(const rs_state *s, uint32_t j, uint32_t e)
{
	unsigned short cur = 0, old;

	if (!s->narrow)
		return atomicMax((uint32_t *)s->seen + j, e) != e;
	for (;;) { /* no 16-bit atomicMax: compare and swap, starting from a guess */
		if (cur == e)
			return 0;
		old = atomicCAS((unsigned short *)s->seen + j, cur, (unsigned short)e);
		if (old == cur)
			return 1;
		cur = old;
	}
}

/* The largest of the warp's values. */
static __device__ __forceinline__ uint32_t rs_warp_max(uint32_t v)
{
#if __CUDA_ARCH__ >= 800
	return __reduce_max_sync(RS_FULL, v);
#else
	for (int d = 16; d; d >>= 1)
		v = max(v, __shfl_xor_sync(RS_FULL, v, d));
	return v;
#endif
}

/*
 * LMDDA's search (rs_lmdda_reaches_active) by the 32 lanes of a warp: the same question, whether
 * an active process other than p is reachable from q, asked breadth-first. Each step takes up to
 * 32 pending resources off the stack, a lane each; the lanes read their resources' unit slots
 * side by side, mark the resources the holders wait for (rs_claim: each pushed once) and push
 * them with one ballot a slot. On dense streams most processes wait and a search crosses
 * hundreds of resources, one dependent chain of shared-memory loads each when one thread walks
 * them; here a step costs about one resource's chain for up to 32 of them. Every lane returns
 * the answer. Called by all 32 lanes, after the writes of the event's lane 0 (__syncwarp).
 */
static __device__ int rs_lmdda_reaches_active_warp(const rs_state *s, uint32_t p, uint32_t q, uint32_t lane)
{
	uint32_t e = rs_ld_raw(s, s->epoch, 0) + 1, top = 1, k;

	if (e == 0 || (s->narrow && e > RS_NARROW_EPOCHS)) { /* the marks wrapped: clear them */
		for (k = lane; k < s->N; k += 32)
			rs_st(s, s->seen, k, 0);
		e = 1;
	}
	__syncwarp();
	if (lane == 0) {
		rs_st(s, s->epoch, 0, e);
		rs_st(s, s->seen, q, e);
		rs_st(s, s->stack, 0, q);
	}
	__syncwarp();
	while (top) {
		uint32_t n = top < 32 ? top : 32, base = top - n, r = RB_NONE, k0 = 0, len = 0, maxlen, i;
		int found = 0;
		if (lane < n) {
			r = rs_ld(s, s->stack, base + lane);
			k0 = rs_ld_raw(s, s->off, r);
			len = rs_ld_raw(s, s->off, r + 1) - k0;
		}
		maxlen = rs_warp_max(len);
		__syncwarp(); /* the stack's entries read before they are written over */
		top = base;
		for (i = 0; i < maxlen; i++) {
			uint32_t w = RB_NONE, mask;
			int push = 0;
			if (i < len) {
				uint32_t a = rs_ld(s, s->slot, k0 + i);
				if (a != RB_NONE && a != p) {
					w = rs_ld(s, s->wait, a);
					if (w == RB_NONE)
						found = 1;
					else
						push = rs_claim(s, w, e);
				}
			}
			mask = __ballot_sync(RS_FULL, push);
			if (push) {
				uint32_t at = top + __popc(mask & ((1u << lane) - 1));
				if (at < s->N) /* at most N marks a search: a full stack is a corrupt state */
					rs_st(s, s->stack, at, w);
			}
			top += __popc(mask);
		}
		if (__any_sync(RS_FULL, found))
			return 1;
		if (top > s->N)
			top = s->N;
		__syncwarp(); /* the pushes seen by the lanes that pop them */
	}
	return 0;
}

/* rs_decide for LMDDA by the 32 lanes of warp 0: lane 0 applies each event, all search. */
static __device__ void rs_decide_warp(const rs_state *s, const uint32_t *ev, uint32_t len, uint32_t *dec,
				      uint32_t lane)
{
	uint32_t i;
	for (i = 0; i < len; i++) {
		uint32_t w0 = ev[2 * i], q = ev[2 * i + 1], d = 0;
		int search = 0;
		if (lane == 0)
			d = rs_lmdda_front(s, w0, q, &search);
		if (__shfl_sync(RS_FULL, search, 0)) {
			uint32_t p = w0 & ~RS_TYPE_BIT;
			int reaches = rs_lmdda_reaches_active_warp(s, p, q, lane);
			__syncwarp(); /* the search's reads of the marks and stack before lane 0 writes on */
			if (lane == 0)
				d = rs_lmdda_block(s, p, q, reaches);
		}
		if (lane == 0)
			dec[i] = d;
	}
}

/* The window's chunks on the state at base: staged by all threads, decided by thread 0 (OSDDA) or
 * warp 0 (LMDDA). */
static __device__ __forceinline__ void rs_chunks(uint32_t *base, uint32_t *ev_buf, uint32_t *dec_buf,
						 uint32_t M, uint32_t N, int lmdda, uint32_t slots, int narrow,
						 const uint32_t *ev, uint32_t n, uint32_t *dec)
{
	uint32_t c, tid = threadIdx.x;
	rs_state s;

	rs_bind(&s, base, M, N, lmdda, slots, narrow);
	for (c = 0; c < n; c += RS_CHUNK) {
		uint32_t len = n - c < RS_CHUNK ? n - c : RS_CHUNK;
		rs_copy(ev_buf, ev + 2 * (size_t)c, 2 * (size_t)len, tid, blockDim.x);
		__syncthreads();
		if (lmdda && tid < 32)
			rs_decide_warp(&s, ev_buf, len, dec_buf, tid);
		else if (tid == 0)
			rs_decide(&s, ev_buf, len, dec_buf);
		__syncthreads();
		rs_copy(dec + c, dec_buf, len, tid, blockDim.x);
	}
}

/* The window on the state in global memory or in shared memory, its entries 16 or 32 bits. */
template <int NARROW>
static __device__ __forceinline__ void rs_window_body(uint32_t *state, uint32_t M, uint32_t N, int lmdda,
						      uint32_t slots, int in_shared, const uint32_t *ev, uint32_t n,
						      uint32_t *dec)
{
	extern __shared__ uint32_t sm[];
	uint32_t *ev_buf = sm, *dec_buf = sm + 2 * RS_CHUNK, *base = sm + rs_staging_words();
	size_t kept = rs_entry_words(rs_words_kept(M, N, lmdda, slots), NARROW);

	/* two instances, so that the shared one's accesses compile as shared-memory ones */
	if (!in_shared) {
		rs_chunks(state, ev_buf, dec_buf, M, N, lmdda, slots, NARROW, ev, n, dec);
		return;
	}
	rs_copy(base, state, kept, threadIdx.x, blockDim.x);
	rs_chunks(base, ev_buf, dec_buf, M, N, lmdda, slots, NARROW, ev, n, dec);
	__syncthreads();
	rs_copy(state, base, kept, threadIdx.x, blockDim.x);
}

__global__ void __launch_bounds__(RS_THREADS) k_rs_window(uint32_t *state, uint32_t M, uint32_t N,
							   int lmdda, uint32_t slots, int narrow, int in_shared,
							   const uint32_t *ev, uint32_t n, uint32_t *dec)
{
	if (narrow)
		rs_window_body<1>(state, M, N, lmdda, slots, in_shared, ev, n, dec);
	else
		rs_window_body<0>(state, M, N, lmdda, slots, in_shared, ev, n, dec);
}

/*
 * A window copies the state into shared memory and back only when it has at least one event
 * for every RS_WORDS_PER_EVENT words copied; smaller windows (gpu-event's single events) work
 * on the state in place rather than pay for the copies.
 */
#define RS_WORDS_PER_EVENT 64u

static void rs_launch(rag_stream *r, uint32_t n)
{
	int in_shared = r->fits && (uint64_t)n * RS_WORDS_PER_EVENT >= r->kept;
	size_t bytes = (rs_staging_words() + (in_shared ? r->words : 0)) * sizeof(uint32_t);
	k_rs_window<<<1, RS_THREADS, bytes, r->st>>>(r->d_state, r->M, r->N, r->lmdda, r->slots, r->narrow,
						     in_shared, r->d_ev, n, r->d_dec);
	GB_CUDA(cudaGetLastError(), "launching the %s stream kernel (%u events, %zu bytes of shared memory)",
		r->lmdda ? "LMDDA" : "OSDDA", n, bytes);
}

static void *rs_open(uint32_t procs, uint32_t res, const uint32_t *units, int lmdda)
{
	rag_stream *r = (rag_stream *)gb_xcalloc(1, sizeof(*r), "the stream detector");
	uint64_t slots = 0;
	uint32_t *h_state;
	size_t staging = rs_staging_words() * sizeof(uint32_t);
	int dev, optin = 0;
	char what[160];

	if (!lmdda)
		rag_require_single_unit(res, units);
	slots = rs_slots(lmdda, res, units);
	if (slots > RS_MAX_SLOTS)
		gb_die(GB_EXIT_RUNTIME, "gpu-stream: %llu units in all do not fit its 32-bit offsets",
		       (unsigned long long)slots);
	r->M = procs;
	r->N = res;
	r->lmdda = lmdda;
	r->slots = (uint32_t)slots;
	r->narrow = rs_narrow_fits(procs, res, lmdda, r->slots);
	r->words = rs_entry_words(rs_words(procs, res, lmdda, r->slots), r->narrow);
	r->kept = rs_entry_words(rs_words_kept(procs, res, lmdda, r->slots), r->narrow);
	snprintf(what, sizeof(what), "the %s stream detector's state for %u processes x %u resources",
		 lmdda ? "LMDDA" : "OSDDA", procs, res);
	r->d_state = (uint32_t *)gb_cuda_alloc(r->words * sizeof(uint32_t), what);
	r->d_ev = (uint32_t *)gb_cuda_alloc((size_t)RS_WINDOW * 3 * sizeof(uint32_t), "a window of events");
	r->d_dec = r->d_ev + 2 * (size_t)RS_WINDOW;
	GB_CUDA(cudaMallocHost(&r->h_ev, (size_t)RS_WINDOW * 3 * sizeof(uint32_t)), "allocating pinned host memory");
	r->h_dec = r->h_ev + 2 * (size_t)RS_WINDOW;
	GB_CUDA(cudaStreamCreateWithFlags(&r->st, cudaStreamNonBlocking), "creating a CUDA stream");

	h_state = (uint32_t *)gb_xmalloc(r->words * sizeof(uint32_t), "the stream detector's state");
	rs_init(h_state, procs, res, lmdda, units, r->slots, r->narrow);
	GB_CUDA(cudaMemcpy(r->d_state, h_state, r->words * sizeof(uint32_t), cudaMemcpyHostToDevice),
		"uploading %s", what);
	free(h_state);

	GB_CUDA(cudaGetDevice(&dev), "querying the CUDA device");
	GB_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
		"querying the device's shared memory");
	r->fits = staging + r->words * sizeof(uint32_t) <= (size_t)optin;
	/* the most any detector may ask, so that detectors open at the same time never shrink
	 * each other's allowance */
	GB_CUDA(cudaFuncSetAttribute(k_rs_window, cudaFuncAttributeMaxDynamicSharedMemorySize, optin),
		"allowing %d bytes of shared memory to the stream kernel", optin);
	/* load the module and make the first launch outside the timed stream */
	rs_launch(r, 0);
	GB_CUDA(cudaStreamSynchronize(r->st), "warming up the stream kernel");
	return r;
}

/* Decide ev's events first .. first + n - 1 into out. */
static void rs_window(rag_stream *r, const rag_events *ev, uint64_t first, uint32_t n, rag_decision *out)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		rs_pack(r->h_ev + 2 * (size_t)i, ev->type[first + i], ev->proc[first + i], ev->res[first + i]);
	GB_CUDA(cudaMemcpyAsync(r->d_ev, r->h_ev, 2 * (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice,
				r->st), "uploading %u events", n);
	rs_launch(r, n);
	GB_CUDA(cudaMemcpyAsync(r->h_dec, r->d_dec, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost,
				r->st), "downloading %u decisions", n);
	GB_CUDA(cudaStreamSynchronize(r->st), "deciding %u events on the device", n);
	for (i = 0; i < n; i++)
		if (!rs_unpack(r->h_dec[i], &out[i]))
			gb_die(GB_EXIT_RUNTIME, "gpu-stream: the device's state broke the model at event %llu "
						"(decision word 0x%08x)",
			       (unsigned long long)(first + i), r->h_dec[i]);
}

static void rs_apply_stream(void *ctx, const rag_events *ev, rag_decision *out)
{
	rag_stream *r = (rag_stream *)ctx;
	uint64_t first;
	for (first = 0; first < ev->count; first += RS_WINDOW) {
		uint64_t left = ev->count - first;
		rs_window(r, ev, first, left < RS_WINDOW ? (uint32_t)left : RS_WINDOW, out + first);
	}
}

static rag_decision rs_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	rag_events one;
	rag_decision d;
	one.count = 1;
	one.type = &type;
	one.proc = &p;
	one.res = &q;
	rs_window((rag_stream *)ctx, &one, 0, 1, &d);
	return d;
}

static uint64_t rs_bytes(void *ctx)
{
	return ((rag_stream *)ctx)->words * sizeof(uint32_t);
}

static void rs_close(void *ctx)
{
	rag_stream *r = (rag_stream *)ctx;
	GB_CUDA(cudaStreamDestroy(r->st), "destroying a CUDA stream");
	GB_CUDA(cudaFree(r->d_state), "freeing device memory");
	GB_CUDA(cudaFree(r->d_ev), "freeing device memory");
	GB_CUDA(cudaFreeHost(r->h_ev), "freeing pinned host memory");
	free(r);
}

static void *open_osdda(uint32_t m, uint32_t n, const uint32_t *u)
{
	return rs_open(m, n, u, 0);
}

static void *open_lmdda(uint32_t m, uint32_t n, const uint32_t *u)
{
	return rs_open(m, n, u, 1);
}

extern "C" {
extern const rag_engine rag_engine_osdda_gpu_stream, rag_engine_lmdda_gpu_stream;
extern const rag_engine rag_engine_osdda_gpu_event, rag_engine_lmdda_gpu_event;

/* Every member is named, NULL ones too: C++ warns of a member left out. */
const rag_engine rag_engine_osdda_gpu_stream = {
	.head = RAG_OSDDA_GPU_STREAM_HEAD,
	.algo = "osdda",
	.open = open_osdda,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = rs_apply,
	.bytes = rs_bytes,
	.close = rs_close,
	.apply_stream = rs_apply_stream,
};

const rag_engine rag_engine_lmdda_gpu_stream = {
	.head = RAG_LMDDA_GPU_STREAM_HEAD,
	.algo = "lmdda",
	.open = open_lmdda,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = rs_apply,
	.bytes = rs_bytes,
	.close = rs_close,
	.apply_stream = rs_apply_stream,
};

const rag_engine rag_engine_osdda_gpu_event = {
	.head = RAG_GPU_EVENT_HEAD,
	.algo = "osdda",
	.open = open_osdda,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = rs_apply,
	.bytes = rs_bytes,
	.close = rs_close,
	.apply_stream = NULL,
};

const rag_engine rag_engine_lmdda_gpu_event = {
	.head = RAG_GPU_EVENT_HEAD,
	.algo = "lmdda",
	.open = open_lmdda,
	.host_bytes = NULL, /* O(procs + res) on the host: the matrices are on the device */
	.apply = rs_apply,
	.bytes = rs_bytes,
	.close = rs_close,
	.apply_stream = NULL,
};
}
