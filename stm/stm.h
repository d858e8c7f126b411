/*
 * Definitions shared by every STM engine and workload: what a transaction
 * body returns, the run parameters, the counters a batch produces, and the
 * engine table that --algo, --help and `gpubench info` read.
 */
#ifndef GB_STM_H
#define GB_STM_H

#include <stdint.h>

#include "workloads/bank.h"

/* What a workload's transaction body returns to the engine. */
enum { STM_BODY_OK = 0, STM_BODY_ABORT = 1, STM_BODY_SEMANTIC = 2 };

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
	uint64_t timeout_ns;  /* per batch */
	uint64_t stall_ns;    /* give up postponed work after this long without any commit */
} stm_params;

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

/* One backend of one engine running the bank workload. Failures exit with a message. */
typedef struct stm_bank_ops {
	void *(*open)(const bank_workload *w, const stm_params *p);
	void (*load)(void *ctx, const int32_t *balances); /* set balances, free every lock */
	void (*run_batch)(void *ctx, stm_batch_result *r);
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
