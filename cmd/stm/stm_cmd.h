/*
 * gpubench stm's own parts, shared by its files: its options and what they
 * choose (options.c), one invocation's state and the repetition the shared
 * measurement loop runs (run.c), stm's part of the report (report.c), and
 * the subcommand itself, its registries and its run (stm.c).
 */
#ifndef GB_CMD_STM_CMD_H
#define GB_CMD_STM_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/backend.h"
#include "common/device.h"
#include "common/impl.h"
#include "common/measure.h"
#include "common/options.h"
#include "common/registry.h"
#include "common/report.h"
#include "stm/stm.h"
#include "workloads/stm/stm_workload.h"

/* An option area per workload of the list (workloads/stm/list.h), so a new workload needs no edit here. */
#define STM_CMD_MAX_WORKLOADS STM_NWORKLOADS
#define STM_CMD_MAX_ENGINES GB_MAX_IMPLS
#define STM_CMD_MAX_FAMILIES 8 /* engine families with options of their own */

typedef struct stm_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *algo, *workload_name;
	uint64_t threads, tx_per_thread, read_only, semantic_ratio, hash, block_size, cpu_workers;
	double duration, warmup_time;
	int presort, paper, read_only_threads;
	uint64_t verify_threads; /* --verify-threads (verify_threads_given: else the backend's default) */
	int verify_threads_given;
	/* each workload's own options, where its rows write (offsets into one area each) */
	union {
		max_align_t align;
		unsigned char bytes[STM_WORKLOAD_OPTS_MAX];
	} wl[STM_CMD_MAX_WORKLOADS];
	/* each engine family's options (stm_engine_options), likewise */
	union {
		max_align_t align;
		unsigned char bytes[STM_ENGINE_OPTS_MAX];
	} family[STM_CMD_MAX_FAMILIES];
	/* what they choose */
	const stm_workload *workload;
	const void *wl_opts;
	const stm_engine *engine[STM_CMD_MAX_ENGINES]; /* [0] is --algo, the rest --compare */
	unsigned nengines;
	stm_params p; /* what every engine reads; each adds its own (stm_cmd_params) */
	stm_table_cfg table;
} stm_opts;

/*
 * What one engine did besides what the measurement loop keeps (its
 * throughput per repetition and what its checks found): the counters of its
 * timed batches and the oracle's measures of its last verified batch.
 */
typedef struct engine_run {
	const stm_engine *e;
	const stm_ops *ops;
	void *ctx;
	stm_params p; /* what it runs with: the common parameters and its own */
	/* totals over the timed batches */
	stm_counters c;
	double seconds, cycles_per_ns;
	uint64_t batches, abandoned;
	uint32_t block_size;
	double wall_seconds; /* from opening the engine to closing it */
	int one_run;         /* --duration as one run of rounds over the table per repetition */
	stm_check chk;       /* the last verified batch (staged workloads: then the last verified pass) */
	stm_check pass_chk;  /* staged workloads: the facts of the last verified pass (nfacts 0: none yet) */
	uint64_t pass_checksum; /* and the data words' checksum after it */
	uint64_t passes;     /* staged workloads: passes completed, over the timed repetitions */
	uint64_t stages;     /* and their stages (batches) */
	uint64_t checksum;   /* of the data words after it (taken at the repetition's end) */
	struct stm_batch_checker *bc; /* its batches' checks on other host threads (NULL: in the loop) */
} engine_run;

/* Everything one invocation measures. */
typedef struct stm_run {
	stm_opts o;
	gb_backend backend;
	gb_device_info dev;
	void *inst;                         /* the workload's generated table */
	tx_input in;                        /* its table as the engines open it (a staged workload's: room for its largest stage) */
	tx_input cur;                       /* the table of the stage running (staged workloads) */
	uint32_t *initial, *mirror, *after; /* start state; replay state; device state */
	uint32_t *status;
	uint32_t *before, *results;         /* for workloads that check read-only results */
	uint64_t results_checked;           /* by the --algo engine, over its verified batches */
	engine_run er[STM_CMD_MAX_ENGINES];
	const gb_measure *ms;
	char headline[640], checked_what[640];
} stm_run;

/* The engines (--algo, --compare) and the workloads (--workload): stm.c. */
extern const gb_registry stm_cmd_engines, stm_cmd_workloads;

/* options.c: --help; argv into o, checked (exit 2), with what the options choose. */
void stm_cmd_help(FILE *out);
void stm_cmd_parse(stm_opts *o, int argc, char **argv);
/* What engine e runs with: the common parameters and its family's own, from its options. */
void stm_cmd_params(const stm_opts *o, const stm_engine *e, stm_params *p);
/* Every engine family's options into the report's config, each field once. */
void stm_cmd_engine_config(const stm_opts *o, cJSON *cfg);

/* run.c: engine k opened on the table, the loop's repetitions of it, closed. */
void stm_cmd_run_engine(gb_measure *ms, unsigned k, stm_run *r);

/*
 * batch_check.c: a batch's check against the workload's oracle, and the host
 * threads that check batches while the device runs the next ones.
 * stm_oracle_batch: the replay from state (advanced in place) against after,
 * then the read-only results (results non-NULL: before gets a copy of the
 * state first); thread-safe, returns the results checked. stm_batch_verdict:
 * what it found, into the repetition (out, a wrong batch's message) and the
 * engine's record; the checksum of the words after the batch is the caller's
 * (once a repetition: a checksum of every batch, on the thread that runs the
 * device, held the next batch up). The checker: _next makes room for the next
 * batch (settling the oldest when every slot is taken), _submit fetches the
 * batch's words and queues its check, which a checker thread runs from a copy
 * of the initial data; _settle waits for every queued check, settles them in
 * order and takes the last one's checksum. _open gives NULL for 0 threads.
 */
typedef struct stm_batch_checker stm_batch_checker;
uint64_t stm_words_checksum(const uint32_t *b, uint32_t n);
uint64_t stm_oracle_batch(const stm_run *r, uint32_t *state, uint32_t *before, const uint32_t *status,
			  const uint32_t *after, const uint32_t *results, stm_check *chk);
void stm_batch_verdict(gb_measure *ms, unsigned k, stm_run *r, const stm_batch_result *b, const gb_rep *rep,
		       uint64_t batch, gb_rep_out *out, const stm_check *found, uint64_t results_n);
stm_batch_checker *stm_batch_checker_open(stm_run *r, unsigned k, unsigned threads);
void stm_batch_checker_next(stm_batch_checker *c, gb_measure *ms, const gb_rep *rep, gb_rep_out *out);
void stm_batch_checker_submit(stm_batch_checker *c, const stm_batch_result *b, uint64_t batch);
void stm_batch_checker_settle(stm_batch_checker *c, gb_measure *ms, const gb_rep *rep, gb_rep_out *out);
void stm_batch_checker_close(stm_batch_checker *c);
/* Tests: with GPUBENCH_TEST_BAD_BATCH=N, the status words fetched after an engine's N-th batch
 * lose one commit, so that the batch's check fails as an engine's wrong batch would. */
#define STM_TEST_BAD_BATCH_ENV "GPUBENCH_TEST_BAD_BATCH"
void stm_test_bad_batch(const engine_run *er, uint32_t *status, uint64_t ntx);

/* report.c: the report and the summary of what ran; returns the exit status. */
int stm_cmd_report(stm_run *r, gb_measure *ms, int argc, char **argv);
/* The view both are rendered from (arg: the stm_run); also what a runtime failure shows. */
void stm_cmd_view(gb_measure *ms, void *arg, gb_result_view *v);

#endif
