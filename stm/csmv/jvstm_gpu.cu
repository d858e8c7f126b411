/*
 * JVSTM-GPU (Nunes et al. sections III-A and IV): JVSTM's algorithm ported
 * directly to the GPU, "a variant of CSMV from which all GPU-oriented
 * optimizations were removed". Every GPU thread is a lane that runs its own
 * entries one whole attempt at a time, as a worker of the CPU backend
 * (stm/csmv/jvstm_cpu.c) does: announce the snapshot, execute the entry (the
 * workload's CSMV execution, stm/csmv/csmv_step.h), retire the snapshot, then, for
 * an update transaction, validate and insert into the ATR under its lock,
 * install the versions and publish GTS (stm/csmv/jvstm.h). There is no server, no
 * warp batching, no pre-validation and no collaborative validation: a lane
 * commits by itself, and the lanes of a warp go their own ways.
 *
 * Reclamation: one announcement slot per thread (csmv_mem.client_ts has one
 * word per --threads). A lane announces with csmv_announce (store the GTS it
 * read into its own slot, sequentially consistent fence, load GTS again: its
 * snapshot) and retires with csmv_retire after its last read. The bound
 * safe = min(GTS, every slot) is raised by csmv_refresh_safe (load GTS,
 * sequentially consistent fence, scan the slots). Either a refresh's scan
 * sees a lane's announcement, so safe <= the announced value <= the lane's
 * snapshot, or the refresh's fence comes first in the fences' single order,
 * so the lane's second load of GTS sees at least the GTS the refresh read
 * and safe <= the lane's snapshot again. A version is overwritten only when
 * the version after it has a timestamp <= safe (csmv_install), so every
 * running reader stops at that one or a newer one: the argument of CSMV's
 * reclamation (docs/stm.md), with a slot per thread in place of a slot per
 * group. A slot per warp would need the lanes of a warp, which run their
 * attempts at different times here, to agree on one announcement (a
 * collective in divergent code, or a count of the lanes reading): a slot
 * per thread needs neither.
 *
 * The cost of the bound is the scan, one word per thread. Only the ATR's
 * holder refreshes it, and only when an install finds the oldest version of
 * a word still readable at the bound it has (csmv_lane_install fails), not at
 * every commit as the CPU backend, whose scan is one word per worker, does.
 *
 * Waits, and why they end. A lane whose insertion finds the ATR held
 * (JVSTM_BUSY) waits for its holder's write-back. The holder waits only for
 * reclamation: for the lanes whose announced snapshot still reads the
 * version it would overwrite. Those lanes announced, so they are resident,
 * and they are executing, which waits for nothing (a read always finds its
 * version, a read-only transaction never aborts); every lane retires before
 * it tries to insert. So the waits form no cycle, and a lane not yet
 * resident holds nothing anyone waits for: an ordinary launch, not a
 * cooperative one, suffices. The holder and a lane spinning on the ATR may
 * be lanes of one warp: the spinner waits for a diverged lane of its own
 * warp, which makes progress only under independent thread scheduling
 * (sm_70 and later; gpubench builds for CUDA_ARCH sm_90 by default). No
 * warp-collective operation or __syncwarp is used: a lane never waits for
 * its warp to reconverge.
 */
#include "common/cuda_check.h"
#include "stm/csmv/csmv_step.h"
#include "stm/csmv/csmv_gpu.h"
#include "stm/csmv/jvstm.h"
#include "stm/csmv/jvstm_engines.h"
#include "stm/backend/stm_gpu.cuh"
#include "stm/backend/stm_gpu.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "jvstm-gpu needs independent thread scheduling (sm_70 or later): a lane may wait for a lane of its own warp"
#endif

/* Spins on another lane's progress (the ATR's holder, reclamation): back off from 32 ns to 1 us. */
__device__ __forceinline__ void jvgpu_backoff(uint32_t *ns)
{
	uint32_t t = *ns ? *ns : 32u;
	__nanosleep(t);
	*ns = t < 1024u ? t * 2u : 1024u;
}


/* An inserted transaction's write-back and publication, holding the ATR as record cts. */
__device__ void jvgpu_write_back(const csmv_mem *m, jvstm_atr *atr, csmv_lane *l, uint32_t cts)
{
	uint32_t ns = 0;
	while (!csmv_lane_install(l, m, cts)) {
		/* the bound is too low for the oldest version of a word: raise it, else wait for its readers */
		l->c.reclaim_waits++;
		csmv_refresh_safe(m);
		if (csmv_lane_install(l, m, cts))
			break;
		jvgpu_backoff(&ns);
	}
	jvstm_record_publish(atr, m, l, cts);
}

/* One attempt of the lane's current entry (the lane is thread `slot`). */
__device__ void jvgpu_attempt(int workload, const csmv_mem *m, jvstm_atr *atr, const tx_table *v,
			      const stm_params *p, uint64_t deadline, uint32_t slot, csmv_lane *l)
{
	uint32_t snap, out, valid, st, ns = 0;

	if (gb_clock_ns() >= deadline) {
		l->state = STM_TIMED_OUT;
		return;
	}
	snap = csmv_announce(m, slot);
	out = csmv_step(workload, l, m, v, p, snap);
	csmv_retire(m, slot);
	if (out != CSMV_LANE_SUBMIT)
		return; /* read-only committed, postponed, or failed (threads_failed ends the run) */
	l->tq = l->tr = l->t1; /* no group to wait for and no server: until insertion it is all validation */
	valid = snap;
	while ((st = jvstm_insert(atr, &l->tx, &valid)) == JVSTM_BUSY)
		jvgpu_backoff(&ns); /* another lane's write-back: it waits only for reclamation */
	if (st != JVSTM_INSERTED) {
		csmv_lane_outcome(l, v, 0, 0, gb_cycles());
		return;
	}
	l->t2 = gb_cycles();
	jvgpu_write_back(m, atr, l, valid + 1);
	csmv_lane_outcome(l, v, 1, valid + 1, gb_cycles());
}

__device__ __forceinline__ void jvgpu_kernel_body(int workload, csmv_mem m, jvstm_atr *atr, tx_table v,
						  stm_params p, uint64_t timeout_ns, stm_shared *sh, stm_counters *out)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t deadline = gb_set_once_u64(&sh->deadline_ns, gb_clock_ns() + timeout_ns);
	csmv_lane l;

	stm_block_counters_clear(sum);
	csmv_lane_init(&l, tid, p.threads, &v);
	while (l.state == STM_RUNNING)
		jvgpu_attempt(workload, &m, atr, &v, &p, deadline, tid, &l);
	if (tid < p.threads) {
		stm_counters t = csmv_lane_totals(&l);
		stm_block_counters_add(sum, &t);
	}
	stm_block_counters_flush(sum, out);
}

/* One kernel per workload of the family (jvstm_gpu_bank_kernel, ...), its workload a constant in it. */
#define JVGPU_KERNEL(name, ahead, ...)                                                                   \
	__global__ void jvstm_gpu_##name##_kernel(csmv_mem m, jvstm_atr *atr, tx_table v, stm_params p,   \
						  uint64_t timeout_ns, stm_shared *sh, stm_counters *out) \
	{                                                                                                \
		jvgpu_kernel_body(STM_WORKLOAD_##name, m, atr, v, p, timeout_ns, sh, out);               \
	}
CSMV_WORKLOADS(JVGPU_KERNEL, 0)

typedef struct jvstm_gpu {
	stm_gpu *g;
	csmv_mem m;
	jvstm_atr *d_atr;
	uint32_t *d_results;
} jvstm_gpu;

static void *jvstm_gpu_open(const tx_input *in, const stm_params *p, const void *kernel, const char *kernel_name)
{
	jvstm_gpu *c = (jvstm_gpu *)calloc(1, sizeof(*c));

	if (!c)
		gb_die(GB_EXIT_RUNTIME, "out of host memory for the JVSTM-GPU backend state");
	c->g = stm_gpu_open(in, p, kernel, kernel_name);
	c->m.ngroups = p->threads; /* one announcement slot per thread */
	c->m.words = in->words;
	c->m.head = (uint32_t *)gb_cuda_alloc((size_t)in->words * 4, "version counts");
	c->m.ver = (uint64_t *)gb_cuda_alloc((size_t)in->words * CSMV_VERSIONS * 8, "versions");
	c->m.g = (csmv_words *)gb_cuda_alloc(sizeof(csmv_words), "JVSTM timestamps");
	c->m.client_ts = (uint32_t *)gb_cuda_alloc((size_t)p->threads * 4, "thread snapshots");
	c->d_atr = (jvstm_atr *)gb_cuda_alloc(sizeof(jvstm_atr), "active transaction record");
	c->d_results = (uint32_t *)gb_cuda_alloc((size_t)in->ntx * TX_RESULT_WORDS * 4, "read-only results");
	return c;
}

static void jvstm_gpu_load(void *ctx, const uint32_t *words)
{
	jvstm_gpu *c = (jvstm_gpu *)ctx;
	uint32_t n = c->g->in.words;
	stm_gpu_load(c->g, words);
	csmv_gpu_boxes_load(&c->m, c->g->d_data, n);
}

static void jvstm_gpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	jvstm_gpu *c = (jvstm_gpu *)ctx;
	stm_gpu *g = c->g;
	tx_table v = stm_gpu_table(g);
	void *args[] = {&c->m, &c->d_atr, &v, &g->p, &timeout_ns, &g->d_shared, &g->d_counters};

	(void)run_ns; /* no timed rounds: stm/registry.c says why */
	v.results = c->d_results;
	GB_CUDA(cudaMemset(c->d_results, 0, (size_t)g->in.ntx * TX_RESULT_WORDS * 4), "clearing read-only results");
	GB_CUDA(cudaMemset(c->m.g, 0, sizeof(csmv_words)), "clearing the JVSTM timestamps");
	csmv_gpu_boxes_rebase(&c->m, g->in.words);
	GB_CUDA(cudaMemset(c->m.client_ts, 0xFF, (size_t)c->m.ngroups * 4), "idling the thread snapshots");
	GB_CUDA(cudaMemset(c->d_atr, 0, sizeof(jvstm_atr)), "clearing the active transaction record");
	stm_gpu_launch(g, args, 0, r);
}

static int jvstm_gpu_rounds_ok(void *ctx)
{
	(void)ctx;
	return 0; /* JVSTM runs batches only */
}

static void jvstm_gpu_fetch(void *ctx, uint32_t *words, uint32_t *status)
{
	jvstm_gpu *c = (jvstm_gpu *)ctx;
	uint32_t n = c->g->in.words;
	if (words) {
		csmv_gpu_boxes_newest(&c->m, c->g->d_data, n);
	}
	stm_gpu_fetch(c->g, words, status);
}

static void jvstm_gpu_fetch_results(void *ctx, uint32_t *results)
{
	jvstm_gpu *c = (jvstm_gpu *)ctx;
	GB_CUDA(cudaMemcpy(results, c->d_results, (size_t)c->g->in.ntx * TX_RESULT_WORDS * 4, cudaMemcpyDeviceToHost),
		"copying read-only results from the device");
}

static void jvstm_gpu_close(void *ctx)
{
	jvstm_gpu *c = (jvstm_gpu *)ctx;
	cudaFree(c->m.head);
	cudaFree(c->m.ver);
	cudaFree(c->m.g);
	cudaFree(c->m.client_ts);
	cudaFree(c->d_atr);
	cudaFree(c->d_results);
	stm_gpu_close(c->g);
	free(c);
}

/* Each workload's GPU backend (jvstm_gpu_bank_gpu_ops, ...). */
#define JVSTM_GPU_OPS(wl, ahead, ...)                                                                       \
	static void *jvstm_gpu_##wl##_open(const tx_input *in, const stm_params *p)                         \
	{                                                                                                   \
		return jvstm_gpu_open(in, p, (const void *)jvstm_gpu_##wl##_kernel, "jvstm_gpu_" #wl "_kernel"); \
	}                                                                                                   \
	extern "C" const stm_ops jvstm_gpu_##wl##_gpu_ops = {                                               \
		jvstm_gpu_##wl##_open, jvstm_gpu_load,  jvstm_gpu_run, jvstm_gpu_rounds_ok,                  \
		jvstm_gpu_fetch,       jvstm_gpu_close, NULL,          jvstm_gpu_fetch_results,              \
	};
CSMV_WORKLOADS(JVSTM_GPU_OPS, 0)
