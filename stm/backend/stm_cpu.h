/*
 * The CPU backend every STM engine shares: the shared words in host memory,
 * and --cpu-workers pthreads among which the logical --threads are dealt
 * round-robin. Each worker interleaves its logical threads one transaction
 * attempt at a time, so a thread postponed on a semantic conflict lets the
 * others of its worker make the progress it waits for, and a logical thread
 * that waits (backoff, a round gate) is passed over until its time has come.
 * Priorities and thread indices are the logical ones, exactly as on the GPU.
 *
 * An engine brings its per-thread logic as a stm_cpu_threads (its GB_HD
 * scheduler behind four functions) and gets the stm_ops functions below. A
 * backend that keeps state of its own (csmv's, jvstm's) takes only the worker
 * pthreads and the table set-up (stm_cpu_workers_run, stm_cpu_table_of).
 */
#ifndef GB_STM_CPU_H
#define GB_STM_CPU_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api/tx_table.h"
#include "stm/stm.h"

typedef struct stm_cpu stm_cpu;

/* One engine's logical threads, as the workers drive them. */
typedef struct stm_cpu_threads {
	size_t size; /* bytes of one logical thread's state */
	void (*init)(void *t, uint32_t tid, stm_cpu *c, uint64_t now_ns);
	uint32_t (*step)(void *t, stm_cpu *c); /* one attempt or a wait; enum stm_thread_state */
	uint64_t (*wait_ns)(const void *t);    /* after a step that made no attempt: how long it waits */
	stm_counters (*totals)(const void *t); /* a finished thread's contribution */
} stm_cpu_threads;

struct stm_cpu {
	tx_input in;          /* the table of the current stage (retable) */
	uint64_t capacity;    /* entries of the table it was opened with: status words allocated */
	stm_params p;
	uint32_t *data, *locks, *status;
	uint32_t nlocks;
	tx_table table;       /* over the workload's host table and this backend's status words */
	stm_shared shared;
	uint64_t timeout_ns, run_ns; /* of the current run */
	double cycles_per_ns;
	const stm_cpu_threads *threads;
	void *engine;          /* NULL, or memory the engine allocated for itself: freed at close */
	uint32_t engine_words; /* what the engine says it holds (PR-STM: its read log's entries per worker) */
};

stm_cpu *stm_cpu_open(const tx_input *in, const stm_params *p, const stm_cpu_threads *threads);

/* The stm_ops functions of every engine's CPU backend (ctx: a stm_cpu). */
void stm_cpu_load(void *ctx, const uint32_t *words);
void stm_cpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r);
int stm_cpu_rounds_ok(void *ctx);
void stm_cpu_fetch(void *ctx, uint32_t *words, uint32_t *status);
void stm_cpu_close(void *ctx);
void stm_cpu_retable(void *ctx, const tx_input *in);

/* The host's cycle counter against its clock, measured over 20 ms: what converts the backends' cycle counters to time. */
double stm_cpu_cycles_per_ns(void);

/* The fields of tx_table that come from the workload's host table; status and results are the backend's. */
void stm_cpu_table_of(tx_table *t, const tx_input *in);

/* One of a backend's worker pthreads, as its function sees it. */
typedef struct stm_cpu_worker {
	void *ctx;             /* the backend's state */
	uint32_t index, count; /* this worker among count */
	stm_counters totals;   /* what its logical threads did: the function adds it up before it returns */
} stm_cpu_worker;

/*
 * Run fn on count pthreads and wait for them all; each worker's totals are
 * added to *sum. A pthread that cannot start ends the process (exit 1).
 */
void stm_cpu_workers_run(uint32_t count, void (*fn)(stm_cpu_worker *w), void *ctx, stm_counters *sum);

/* An engine's memory descriptor (eng##_mem: locks, data, hash and perhaps more) over c's words. */
#define STM_CPU_MEM_PLAIN(m, c)                                                       \
	do {                                                                          \
		memset((m), 0, sizeof(*(m)));                                         \
		(m)->locks = (c)->locks;                                              \
		(m)->data = (c)->data;                                                \
		(m)->hash = (c)->p.hash;                                              \
	} while (0)

/*
 * One workload's logical threads for one engine (name: the stm_cpu_threads to
 * define): its step behind the shared workers, over the memory descriptor
 * mem_init(&m, c) makes. The engine's file defines thread_init,
 * thread_wait_ns and thread_totals, its sched and mem types (eng##_sched,
 * eng##_mem) and eng##_step(workload, ...), which it runs with wl's constant
 * of workloads/stm/list.h.
 */
#define STM_CPU_THREADS(eng, wl, name, mem_init)                                      \
	static uint32_t name##_step(void *t, stm_cpu *c)                              \
	{                                                                             \
		eng##_mem m;                                                          \
		mem_init(&m, c);                                                      \
		return eng##_step(STM_WORKLOAD_##wl, t, &m, &c->table, &c->p, &c->shared); \
	}                                                                             \
	static const stm_cpu_threads name = {                                         \
		.size = sizeof(eng##_sched),                                          \
		.init = thread_init,                                                  \
		.step = name##_step,                                                  \
		.wait_ns = thread_wait_ns,                                            \
		.totals = thread_totals,                                              \
	}

/*
 * One workload's CPU backend for one engine: its logical threads
 * (STM_CPU_THREADS, over mem_init's memory) and the stm_ops the registry
 * lists, named ops. It opens with open_fn(workload, in, p, threads):
 * stm_cpu_open or an engine's wrapper of it.
 */
#define STM_CPU_OPS(eng, wl, ops, mem_init, open_fn)                                   \
	STM_CPU_THREADS(eng, wl, wl##_threads, mem_init);                             \
	static void *wl##_open(const tx_input *in, const stm_params *p)              \
	{                                                                             \
		return open_fn(STM_WORKLOAD_##wl, in, p, &wl##_threads);              \
	}                                                                             \
	const stm_ops ops = {                                                         \
		.open = wl##_open,                                                    \
		.load = stm_cpu_load,                                                 \
		.run = stm_cpu_run,                                                   \
		.rounds_ok = stm_cpu_rounds_ok,                                       \
		.fetch = stm_cpu_fetch,                                               \
		.close = stm_cpu_close,                                               \
		.retable = stm_cpu_retable,                                           \
	}

/* The same over the plain memory descriptor, the ops named eng##_##wl##_cpu_ops. */
#define STM_CPU_WORKLOAD(eng, wl, open_fn) \
	STM_CPU_OPS(eng, wl, eng##_##wl##_cpu_ops, STM_CPU_MEM_PLAIN, open_fn)

#endif
