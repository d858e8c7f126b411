/*
 * The STM engine table: --algo, --compare, --help and `gpubench info` all
 * read it. An engine's entry carries its limits and the workloads it runs,
 * each with the operations of its backends compiled for that workload, and
 * names its family's options and its own part of the report.
 */
#include <stdio.h>
#include <string.h>

#include "stm/csmv/csmv.h"
#include "stm/csmv/csmv_engines.h"
#include "stm/csmv/csmv_options.h"
#include "stm/csmv/csmv_report.h"
#include "stm/gpustm/gpustm.h"
#include "stm/gpustm/gpustm_engines.h"
#include "stm/gpustm/gpustm_options.h"
#include "stm/gpustm/gpustm_report.h"
#include "stm/csmv/jvstm_engines.h"
#include "stm/prstm/prstm.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/prstm/prstm_options.h"
#include "stm/stm.h"

/* An engine with kernels runs on both backends in a CUDA build, and on the CPU alone in one without. */
#ifdef GB_HAVE_CUDA
#define CPU_AND_GPU (GB_BACKEND_MASK(GB_BACKEND_CPU) | GB_BACKEND_MASK(GB_BACKEND_GPU))
#else
#define CPU_AND_GPU GB_BACKEND_MASK(GB_BACKEND_CPU)
#endif

#ifdef GB_HAVE_CUDA
#define GPU_OPS(x) (&(x))
#else
#define GPU_OPS(x) NULL
#endif

/*
 * The runs of an engine family, generated from the workload lists
 * (workloads/stm/list.h, stm/csmv/csmv_workloads.h): each workload with the
 * backends compiled for it and its capacity.
 */
#define LONG_READS_0 0
#define LONG_READS_1 PRSTM_LONG_READS_MAX
#define PRSTM_RUN(name, set, sizes, logged)                                                            \
	{.workload = &stm_workload_##name, .cpu = &prstm_##name##_cpu_ops, .gpu = GPU_OPS(prstm_##name##_gpu_ops), \
	 .max_set = STM_SET_OF(set, sizes), .long_reads = LONG_READS_##logged},
static const stm_engine_run prstm_runs[] = {STM_WORKLOADS(PRSTM_RUN){.workload = NULL}};

/* prstm and prstm-nocm: the same kernels and CPU backends; prstm-nocm's options turn the manager off. */
#define PRSTM_ENGINE(id, name_, summary_)                                                                  \
	static const stm_engine id = {                                                                     \
		.head.name = name_,                                                                        \
		.head.summary = summary_,                                                                  \
		.head.backends = CPU_AND_GPU,                                                              \
		.max_threads = PRSTM_MAX_THREADS,                                                          \
		.max_set = PRSTM_HUGE_SET,                                                                 \
		.timed_rounds = 1,                                                                         \
		.options = &id##_options,                                                                  \
		.runs = prstm_runs,                                                                        \
	}
PRSTM_ENGINE(prstm, "prstm",
	     "PR-STM: priority-rule lock stealing with the semantic contention manager (Shen et al. 2020)");
/* prstm_nocm_options set prstm_params.semantic_retry. */
PRSTM_ENGINE(prstm_nocm, "prstm-nocm",
	     "PR-STM without its semantic contention manager, the paper's baseline for the manager's "
	     "overhead (Shen et al. 2020, section 3.4, Fig. 5A): a semantic conflict retries the "
	     "transaction in place instead of postponing it, no priority tags");

/*
 * GPU-STM and its variant: one implementation (stm/gpustm/), two names, gpustm with each thread's log
 * (read set, write set, lock log) in global memory as the original keeps it, gpustm-local with it in
 * thread-local memory (stm/gpustm/gpustm.h).
 */
#define GPUSTM_RUN(name, set, id)                                                                          \
	{.workload = &stm_workload_##name, .cpu = &id##_##name##_cpu_ops, .gpu = GPU_OPS(id##_##name##_gpu_ops), \
	 .max_set = set},
#define GPUSTM_RUN_GLOBAL(name, set, sizes, long_reads) GPUSTM_RUN(name, STM_SET_OF(set, sizes), gpustm)
#define GPUSTM_RUN_LOCAL(name, set, sizes, long_reads) GPUSTM_RUN(name, STM_SET_OF(set, sizes), gpustm_local)
#define GPUSTM_ENGINE(id, name_, summary_)                                                                \
	static const stm_engine id = {                                                                     \
		.head.name = name_,                                                                        \
		.head.summary = summary_,                                                                  \
		.head.backends = CPU_AND_GPU,                                                              \
		.max_threads = GPUSTM_MAX_THREADS,                                                         \
		.max_set = GPUSTM_HUGE_SET,                                                                \
		.timed_rounds = 0,                                                                         \
		.no_rounds = name_ " gives transactions up after --retry-limit attempts, so rounds over "  \
			     "the table could drift apart without bound",                                  \
		.options = &gpustm_options,                                                                \
		.runs = id##_runs,                                                                         \
		.report_lines = gpustm_report_lines,                                                       \
	}

static const stm_engine_run gpustm_runs[] = {STM_WORKLOADS(GPUSTM_RUN_GLOBAL){.workload = NULL}};
GPUSTM_ENGINE(gpustm, "gpustm",
	      "GPU-STM as PR-STM's paper compares against: locks sorted at every access and taken in order "
	      "at commit, hierarchical validation (version, then value), --retry-limit attempts per "
	      "transaction, each thread's read set, write set and lock log in global memory (Xu et al. 2014)");

static const stm_engine_run gpustm_local_runs[] = {STM_WORKLOADS(GPUSTM_RUN_LOCAL){.workload = NULL}};
GPUSTM_ENGINE(gpustm_local, "gpustm-local",
	      "GPU-STM with each transaction's read set, write set and lock log in thread-local memory, as "
	      "PR-STM keeps its own, rather than in global memory: our variant");

#define CSMV_NO_ROUNDS "CSMV's commit timestamps order one pass over the table, which the oracle replays"

#define CSMV_RUN(wl, ahead, name)                                                                          \
	{.workload = &stm_workload_##wl, .cpu = &name##_##wl##_cpu_ops, .gpu = GPU_OPS(name##_##wl##_gpu_ops),  \
	 .max_set = CSMV_MAX_SET},
/*
 * CSMV and its ablations: one implementation (stm/csmv/), six names, each with its mode bits (CSMV_MODES):
 * on the paper's server (options: --server-workers, --atr-records), and on the server with the ATR indexed
 * by word (csmv-index...).
 */
#define CSMV_ENGINE(id, name_, options_, summary_)                                                 \
	static const stm_engine_run id##_runs[] = {CSMV_WORKLOADS(CSMV_RUN, id){.workload = NULL}}; \
	static const stm_engine id = {                                                              \
		.head.name = name_,                                                                 \
		.head.summary = summary_,                                                           \
		.head.backends = CPU_AND_GPU,                                                       \
		.max_threads = CSMV_MAX_THREADS,                                                    \
		.max_set = CSMV_MAX_SET,                                                            \
		.timed_rounds = 0,                                                                  \
		.no_rounds = CSMV_NO_ROUNDS,                                                        \
		.options = &options_,                                                               \
		.runs = id##_runs,                                                                  \
		.snapshot_reads = 1,                                                                \
		.report_json = csmv_report_json,                                                    \
		.report_lines = csmv_report_lines,                                                  \
	}

CSMV_ENGINE(csmv, "csmv", csmv_options,
	    "CSMV: multi-versioned boxes, read-only transactions on their start snapshot with no "
	    "read set, update transactions committed by the paper's server (a receiver warp, worker "
	    "warps, the ATR of committed write sets in shared memory): client pre-validation, batched "
	    "ATR insert, collaborative validation, client write-back (Nunes et al. section III)");

CSMV_ENGINE(csmv_nocv, "csmv-nocv", csmv_options,
	    "CSMV without collaborative validation: each worker lane validates a transaction of "
	    "its own (Nunes et al. section IV-C, Fig. 3)");

CSMV_ENGINE(csmv_onlycs, "csmv-onlycs", csmv_options,
	    "CSMV with only its client-server design: also no pre-validation, no batched ATR "
	    "insert, the server installs versions and advances the timestamp per transaction "
	    "(Nunes et al. section IV-C, Fig. 3)");

CSMV_ENGINE(csmv_index, "csmv-index", csmv_stall_options,
	    "CSMV on a faster server than the paper's: one server warp, the ATR indexed by word (the "
	    "CTS of each word's last writer), so validation is one load per word whatever the "
	    "snapshot's age; the same clients and mechanisms as csmv");

CSMV_ENGINE(csmv_index_nocv, "csmv-index-nocv", csmv_stall_options,
	    "csmv-index without collaborative validation: each server lane validates a transaction "
	    "of its own");

CSMV_ENGINE(csmv_index_onlycs, "csmv-index-onlycs", csmv_stall_options,
	    "csmv-index with only the client-server design: no pre-validation, no batched ATR insert, "
	    "no client write-back");

#define JVSTM_RUN(wl, ahead, ...) \
	{.workload = &stm_workload_##wl, .cpu = &jvstm_##wl##_cpu_ops, .gpu = NULL, .max_set = CSMV_MAX_SET},
static const stm_engine_run jvstm_runs[] = {CSMV_WORKLOADS(JVSTM_RUN, 0){.workload = NULL}};

static const stm_engine jvstm = {
	.head.name = "jvstm",
	.head.summary = "JVSTM on CPU threads, the host baseline of Nunes et al.: CSMV's versioned boxes and "
		   "snapshot reads, update transactions validated against the ATR and committed under its "
		   "lock with the global timestamp (section III-A)",
	.head.backends = GB_BACKEND_MASK(GB_BACKEND_CPU),
	.max_threads = CSMV_MAX_THREADS,
	.max_set = CSMV_MAX_SET,
	.timed_rounds = 0,
	.no_rounds = "JVSTM's commit timestamps order one pass over the table, which the oracle replays",
	.options = &csmv_stall_options,
	.runs = jvstm_runs,
	.snapshot_reads = 1,
	.report_json = jvstm_report_json,
	.report_lines = jvstm_report_lines,
	.no_gpu = "jvstm is JVSTM on CPU threads, the host baseline, and has no GPU backend "
		  "(jvstm-gpu is its GPU port): use --backend cpu",
};

/*
 * jvstm-gpu: JVSTM ported directly to the GPU (stm/csmv/jvstm_gpu.cu), every thread committing its own
 * transactions under the ATR's lock. On the CPU backend it runs jvstm's CPU backend: the same
 * algorithm, one implementation.
 */
#define JVSTM_GPU_RUN(wl, ahead, ...)                                                                       \
	{.workload = &stm_workload_##wl, .cpu = &jvstm_##wl##_cpu_ops, .gpu = GPU_OPS(jvstm_gpu_##wl##_gpu_ops), \
	 .max_set = CSMV_MAX_SET},
static const stm_engine_run jvstm_gpu_runs[] = {CSMV_WORKLOADS(JVSTM_GPU_RUN, 0){.workload = NULL}};

static const stm_engine jvstm_gpu = {
	.head.name = "jvstm-gpu",
	.head.summary = "JVSTM-GPU, JVSTM ported directly to the GPU (Nunes et al. section IV): CSMV with every "
		   "GPU-oriented optimization removed, each thread validating and committing its own update "
		   "transactions under the ATR's lock; on --backend cpu the same algorithm as jvstm",
	.head.backends = CPU_AND_GPU,
	.max_threads = CSMV_MAX_THREADS,
	.max_set = CSMV_MAX_SET,
	.timed_rounds = 0,
	.no_rounds = "JVSTM's commit timestamps order one pass over the table, which the oracle replays",
	.options = &csmv_stall_options,
	.runs = jvstm_gpu_runs,
	.snapshot_reads = 1,
	.report_json = jvstm_report_json,
	.report_lines = jvstm_report_lines,
};

const stm_engine *const stm_engines[] = {&prstm, &prstm_nocm, &gpustm, &gpustm_local, &csmv, &csmv_nocv,
					 &csmv_onlycs, &csmv_index, &csmv_index_nocv, &csmv_index_onlycs,
					 &jvstm, &jvstm_gpu, NULL};

const stm_engine_run *stm_engine_run_of(const stm_engine *e, const stm_workload *w)
{
	const stm_engine_run *r;
	for (r = e->runs; r->workload; r++)
		if (r->workload == w)
			return r;
	return NULL;
}

const char *stm_cannot_run(const stm_engine *e, const stm_workload *w, char *buf, size_t len)
{
	if (stm_engine_run_of(e, w))
		return NULL;
	snprintf(buf, len, "%s does not run the %s workload: no %s transaction body is compiled into %s",
		 e->head.name, w->head.name, w->head.name, e->head.name);
	return buf;
}
