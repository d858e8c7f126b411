/*
 * Definitions shared by every STM engine: the run parameters, the counters a
 * run produces, the operations of one backend of an engine on one workload,
 * and the engine table that --algo, --compare, --help and `gpubench info`
 * read; an engine's entry names its family's options and its own part of
 * the report, which the family defines. What a workload's transaction body
 * is written against is in api/tx.h; what a workload is to the subcommand,
 * in workloads/stm/stm_workload.h.
 */
#ifndef GB_STM_H
#define GB_STM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api/tx_table.h"
#include "common/registry.h"
#include "workloads/stm/stm_workload.h"

/* How a thread's run over its block ended. */
enum stm_thread_state {
	STM_RUNNING = 0,
	STM_DONE,      /* every transaction of the block committed, or was given up (gpustm) */
	STM_GAVE_UP,   /* --max-passes reached: the rest is abandoned */
	STM_STALLED,   /* nothing committed anywhere for --stall-timeout: abandoned too */
	STM_TIMED_OUT, /* --timeout reached */
	STM_FAILED,    /* a transaction overflowed the engine's read/write sets */
};

/* Bytes of an engine family's own parameters in stm_params, and of its option struct. */
#define STM_ENGINE_PARAMS_MAX 48
#define STM_ENGINE_OPTS_MAX 64

/*
 * What a run asks of an engine: what every engine reads, then the engine's
 * own parameters (engine), which its family lays out in a struct of its own
 * over those bytes (stm/prstm/prstm_params.h, stm/gpustm/gpustm_params.h,
 * stm/csmv/csmv_params.h) and sets from its options (stm_engine_options).
 * stm_params is passed by value to the kernels, so it stays small and
 * trivially copyable, and an engine reads its own fields from it as directly
 * as the common ones.
 */
typedef struct stm_params {
	uint32_t threads;
	uint32_t hash;        /* data words per lock */
	uint32_t block_size;  /* GPU threads per block; 0 = choose */
	uint32_t cpu_workers;
	uint64_t timeout_ns;  /* set at open; each run gets its own (stm_ops.run) */
	union {
		uint64_t align;
		unsigned char bytes[STM_ENGINE_PARAMS_MAX];
	} engine;
} stm_params;

/*
 * The words all threads of one run share, cleared before each run. The
 * deadlines are set by the first thread to start, on the backend's own clock
 * (the GPU's %globaltimer), so every thread stops at the same moment however
 * late its block is scheduled.
 */
typedef struct stm_shared {
	uint64_t deadline_ns;   /* --timeout */
	uint64_t stop_ns;       /* end of a timed run */
	uint64_t round_done[4]; /* timed run: threads that completed round r, at [r % 4] (summed over r) */
	uint32_t stamp;         /* commit stamp counter */
	uint32_t halt;          /* timed run: a thread gave up, so the round gate would never open */
} stm_shared;

/*
 * Counters of one batch, summed over threads. Times are in backend cycles.
 * Every engine counts the common words, up to threads_stalled, and the
 * report gives them for each. The words after them are an engine family's
 * own: it alone counts them and alone reports them (stm_engine's
 * report_json and report_lines). They stay in this one layout because the
 * kernels sum the counters as one array of words with fixed maxima
 * (STM_NCOUNTERS). retry_limit_reached, gpustm's, is a field of every
 * engine's results all the same (0 where there is no retry limit), as
 * docs/report-schema.md has it.
 */
typedef struct stm_counters {
	uint64_t commits_update;
	uint64_t commits_readonly;
	uint64_t aborts_locked;      /* concurrent conflict: word locked at access (or at lock time) */
	uint64_t aborts_priority;    /* concurrent conflict: lost a pre-lock to a higher priority (prstm) */
	uint64_t aborts_validation;  /* a read's version (and, gpustm, its value) changed */
	uint64_t aborts_semantic;    /* postponed or retried: insufficient funds and the like */
	uint64_t cycles_committed;   /* time in attempts that committed */
	uint64_t cycles_wasted;      /* time in attempts that aborted */
	/* cycles_committed split by phase: the body's reads, validation (locking
	 * included), commit (stores, fence, release) */
	uint64_t cycles_read, cycles_validate, cycles_commit;
	uint64_t passes_max;         /* most passes any thread made over its block (a maximum, not a sum) */
	uint64_t threads_gave_up;
	uint64_t threads_timed_out;
	uint64_t threads_failed;
	uint64_t threads_stalled;
	/* the engine families' own words */
	uint64_t retry_limit_reached; /* gpustm: transactions given up after --retry-limit attempts */
	/* csmv and jvstm (its versioned boxes): the most versions of one data word kept at once that
	 * a running transaction could still read (a maximum, not a sum), and write-backs that waited
	 * for an old version to be reclaimed */
	uint64_t versions_kept_peak;
	uint64_t reclaim_waits;
	/* csmv, committed updates: cycles_validate split into waiting for the group's other lanes
	 * to finish executing, pre-validation, and waiting for the server's answer */
	uint64_t cycles_diverge, cycles_prevalidate, cycles_wait_server;
	/* csmv's server: deciding requests (validation), then inserting into the ATR and answering
	 * (for csmv-onlycs also installing the versions and storing GTS) */
	uint64_t server_cycles_validate, server_cycles_insert;
	/* jvstm, committed updates: of cycles_commit, writing the write set into the ATR's record */
	uint64_t cycles_record;
	/* prstm's and gpustm's GPU kernels: each thread's time from its start to its end in the
	 * kernel, attempts and everything between them (loading entries, the scheduler's sweeps,
	 * waiting for the lanes of its warp), summed over threads; 0 where not measured */
	uint64_t cycles_thread;
} stm_counters;

/* The counters as an array of 64-bit words (the GPU kernels sum them so); the *_MAX_WORDs are maxima. */
#define STM_NCOUNTERS 26
#define STM_PASSES_MAX_WORD (offsetof(stm_counters, passes_max) / sizeof(uint64_t))
#define STM_VERSIONS_MAX_WORD (offsetof(stm_counters, versions_kept_peak) / sizeof(uint64_t))
#ifdef __cplusplus
static_assert(sizeof(stm_counters) == STM_NCOUNTERS * sizeof(uint64_t), "stm_counters layout");
#else
_Static_assert(sizeof(stm_counters) == STM_NCOUNTERS * sizeof(uint64_t), "stm_counters layout");
#endif

void stm_counters_add(stm_counters *into, const stm_counters *c);

typedef struct stm_batch_result {
	stm_counters c;
	double seconds;        /* device time of the batch (CUDA events, or host wall clock) */
	double cycles_per_ns;  /* converts the cycle counters to time */
	uint32_t block_size;   /* GPU block size used (0 on the CPU) */
} stm_batch_result;

/*
 * One backend of one engine, compiled for one workload. Failures exit with a
 * message. open: the table and the data words' count (api/tx_table.h).
 * load: set the data words and free every lock. run: with run_ns 0, one
 * batch: every thread runs its block until all of it has committed or been
 * given up (status words: stamp + 1, or the read-only marker). With
 * run_ns > 0, a timed run: threads sweep their blocks round after round until
 * run_ns have passed (status words: how many times each entry committed); it
 * needs every thread running at once (rounds_ok) and an engine that runs
 * rounds (stm_engine.timed_rounds). Either stops at timeout_ns. retable: a
 * staged workload's next table (workloads/stm/stm_workload.h, stage): the same
 * words, entry size and aux stride, at most as many entries as the table it
 * was opened with and no larger transactions (max_words); the data words and
 * locks are left as they are (load sets them).
 */
typedef struct stm_ops {
	void *(*open)(const tx_input *in, const stm_params *p);
	void (*load)(void *ctx, const uint32_t *words);
	void (*run)(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r);
	int (*rounds_ok)(void *ctx);
	void (*fetch)(void *ctx, uint32_t *words, uint32_t *status);
	void (*close)(void *ctx);
	void (*retable)(void *ctx, const tx_input *in);
	/* NULL, or the results of the last run's read-only entries (api/tx_table.h,
	 * TX_RESULT_WORDS per entry) for the workload's verify_results */
	void (*fetch_results)(void *ctx, uint32_t *results);
} stm_ops;

/* A workload an engine runs, and its backends compiled for it. */
typedef struct stm_engine_run {
	const stm_workload *workload; /* NULL ends an engine's list */
	const stm_ops *cpu;
	const stm_ops *gpu;           /* NULL in builds without CUDA */
	uint32_t max_set;             /* distinct data words one transaction of it may read and write:
				       * the set capacity of the build that runs it */
	uint32_t long_reads;          /* 0, or the words one read-only transaction may read past max_set,
				       * logged in memory (PR-STM's read log): updates stay bounded by
				       * max_set (the workload's max_update_set) */
} stm_engine_run;

/*
 * An engine family's options, after fio's ioengine options: rows
 * (common/options.h) whose offsets are into the family's option struct of
 * size bytes (at most STM_ENGINE_OPTS_MAX), which `gpubench stm` offers as
 * it offers a workload's. An option that several families declare (the same
 * name, kind and default: STM_STALL_TIMEOUT_ROW) is one option, whose value
 * each of them gets; given where no chosen engine reads it, it exits 2.
 */
typedef struct stm_engine_options {
	const gb_opt_row *rows;
	size_t nrows;
	size_t size;
	/* the family's parameters (stm_params.engine) from its option values */
	void (*params)(const void *opts, stm_params *p);
	/* its option values into the report's config */
	void (*config)(const void *opts, cJSON *config);
	/* the options that decide what a run abandons, as the summary names them: "--retry-limit" */
	const char *abandons;
} stm_engine_options;

/*
 * --stall-timeout, which the families with semantic postponement read (prstm's
 * and csmv's) and prstm-nocm, which retries semantic conflicts in place, each
 * into a double of its option struct at offset.
 */
#define STM_STALL_TIMEOUT_ROW(at)                                                                              \
	{.name = "stall-timeout", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0.001, .fhi = 86400, .def = "1",     \
	 .offset = (at),                                                                                           \
	 .help = "prstm, csmv and jvstm: a thread with postponed work (prstm-nocm: retrying a semantic "          \
		 "conflict) gives up when no update transaction has committed anywhere for S seconds: nothing "    \
		 "left can then resolve its conflict; its transactions are abandoned"}

typedef struct stm_engine {
	/* name, summary, backends (CPU and, where it has kernels and the build has CUDA, GPU);
	 * never unavailable, since every engine runs on the CPU */
	gb_entry_head head;
	uint32_t max_threads;         /* --threads it can run */
	uint32_t max_set;             /* the largest of its runs' max_set */
	int timed_rounds;             /* a --duration run can be one run of rounds */
	const char *no_rounds;        /* why not, when it cannot */
	const stm_engine_options *options; /* its family's options; NULL: none */
	const stm_engine_run *runs;   /* the workloads it runs */
	/* declared read-only transactions run on a snapshot with no read set, so max_set
	 * bounds update transactions only (the workload's max_update_set) */
	int snapshot_reads;
	/*
	 * Its own part of the report (NULL: nothing beyond the common counters),
	 * from its counters summed over the timed batches, the cycles' rate
	 * (cycles_per_ns, 0 when no batch ran) and the parameters it ran with:
	 * its fields of its results entry, and its lines of the summary (the
	 * --algo engine's).
	 */
	void (*report_json)(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry);
	void (*report_lines)(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out);
	/* an engine with no GPU backend in any build: why, for --backend gpu's exit 2 */
	const char *no_gpu;
} stm_engine;

extern const stm_engine *const stm_engines[];

/* What e runs w with, or NULL. */
const stm_engine_run *stm_engine_run_of(const stm_engine *e, const stm_workload *w);

/*
 * NULL when e runs w, else the sentence that says it does not: `gpubench stm`
 * exits 2 with it, and its help and `gpubench info` show it.
 */
const char *stm_cannot_run(const stm_engine *e, const stm_workload *w, char *buf, size_t len);

#endif
