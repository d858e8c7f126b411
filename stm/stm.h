/*
 * Definitions shared by every STM engine: the run parameters, the counters a
 * batch produces, and the engine table that --algo, --help and `gpubench
 * info` read. What a workload's transaction body is written against is in
 * api/tx.h.
 */
#ifndef GB_STM_H
#define GB_STM_H

#include <stdint.h>

#include "workloads/bank.h"

/* How a thread's run over its block ended. */
enum stm_thread_state {
	STM_RUNNING = 0,
	STM_DONE,      /* every transaction of the block committed */
	STM_GAVE_UP,   /* --max-passes reached: the rest is abandoned */
	STM_STALLED,   /* nothing committed anywhere for --stall-timeout: abandoned too */
	STM_TIMED_OUT, /* --timeout reached */
	STM_FAILED,    /* a transaction overflowed the engine's read/write sets */
};

typedef struct stm_params {
	uint32_t threads;
	uint32_t hash;        /* data words per lock */
	uint32_t max_passes;
	uint32_t use_tags;    /* run higher priority tags first within a pass */
	uint32_t block_size;  /* GPU threads per block; 0 = choose */
	uint32_t cpu_workers;
	uint64_t timeout_ns;  /* set at open; each run gets its own (stm_bank_ops.run) */
	uint64_t stall_ns;    /* give up postponed work after this long without any commit */
	uint64_t window_cycles; /* an attempt older than this at validation aborts (0: no limit; set by the CPU backend) */
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

/* Counters of one batch, summed over threads. Times are in backend cycles. */
typedef struct stm_counters {
	uint64_t commits_update;
	uint64_t commits_readonly;
	uint64_t aborts_locked;      /* concurrent conflict: word locked at access */
	uint64_t aborts_priority;    /* concurrent conflict: lost a pre-lock to a higher priority */
	uint64_t aborts_validation;  /* a read's version changed */
	uint64_t aborts_semantic;    /* postponed: insufficient funds and the like */
	uint64_t cycles_committed;   /* time in attempts that committed */
	uint64_t cycles_wasted;      /* time in attempts that aborted */
	/* cycles_committed split by phase: the body's reads, txValidate
	 * (pre-lock, read-set check, lock), txCommit (stores, fence, release) */
	uint64_t cycles_read, cycles_validate, cycles_commit;
	uint64_t passes_max;         /* most passes any thread made over its block */
	uint64_t threads_gave_up;
	uint64_t threads_timed_out;
	uint64_t threads_failed;
	uint64_t threads_stalled;
} stm_counters;

void stm_counters_add(stm_counters *into, const stm_counters *c);

typedef struct stm_batch_result {
	stm_counters c;
	double seconds;        /* device time of the batch (CUDA events, or host wall clock) */
	double cycles_per_ns;  /* converts the cycle counters to time */
	uint32_t block_size;   /* GPU block size used (0 on the CPU) */
} stm_batch_result;

/*
 * One backend of one engine running the bank workload. Failures exit with a message.
 * run: with run_ns 0, one batch: every thread sweeps its block until all of it
 * has committed (status words: stamp + 1, or the read-only marker). With
 * run_ns > 0, a timed run: threads sweep their blocks round after round until
 * run_ns have passed (status words: how many times each entry committed); it
 * needs every thread running at once (rounds_ok). Either stops at timeout_ns.
 */
typedef struct stm_bank_ops {
	void *(*open)(const bank_workload *w, const stm_params *p);
	void (*load)(void *ctx, const int32_t *balances); /* set balances, free every lock */
	void (*run)(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r);
	int (*rounds_ok)(void *ctx);
	void (*fetch)(void *ctx, int32_t *balances, uint32_t *status);
	void (*close)(void *ctx);
} stm_bank_ops;

typedef struct stm_engine {
	const char *name;
	const char *summary;
	const stm_bank_ops *bank_gpu; /* NULL in builds without CUDA */
	const stm_bank_ops *bank_cpu;
} stm_engine;

extern const stm_engine *const stm_engines[];
const stm_engine *stm_engine_find(const char *name);

#endif
