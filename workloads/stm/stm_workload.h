/*
 * A workload of `gpubench stm` as the subcommand sees it: its name, its own
 * options (rows, as in common/options.h, writing into its own option struct),
 * its generator and its oracle. The oracle shares no code with the engines:
 * it reads only the table, the status words the engines wrote and the data
 * words before and after. The registry (workloads/stm/stm_workloads.c) is what
 * --workload, --help and `gpubench info` read; which engines run a workload
 * is said by the engines' entries (stm/registry.c).
 *
 * Adding a workload: its generator and oracle, its transaction body
 * (workloads/stm/NAME_body.h, see api/tx.h), one `const stm_workload` in
 * designated initializers (workloads/stm/bank_stm.c is the pattern; a
 * workload of several batches per pass, each with its own table, is staged:
 * workloads/stm/kmeans_stm.c), one line in workloads/stm/list.h and one in
 * workloads/stm/bodies.h. The registry, the engines' instantiations and their
 * runs are generated from the list (docs/harness.md).
 */
#ifndef GB_STM_WORKLOAD_H
#define GB_STM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "api/tx_table.h"
#include "common/memory.h"
#include "common/options.h"
#include "common/registry.h"
#include "workloads/stm/list.h"

/* Bytes a workload's option struct may take (stm keeps one area per workload). */
#define STM_WORKLOAD_OPTS_MAX 128

/* What shapes every workload's table: options of stm itself (the paper's axes for every benchmark). */
typedef struct stm_table_cfg {
	uint32_t threads;
	uint32_t tx_per_thread;
	uint32_t read_only; /* --read-only: percent of read-only transactions */
	int read_only_threads; /* --read-only-threads: that share as whole threads, the last ones */
	uint32_t semantic_ratio; /* --semantic-ratio: percent of update transactions that can meet a semantic conflict */
	int presort;        /* --presort: the table is pre-ordered so program order resolves its semantic dependences */
	uint64_t seed;
	/* the most distinct words one transaction may touch on every engine chosen (the smallest of their
	 * runs' sets, stm/stm.h), and the engine of that smallest set, for a workload whose transactions'
	 * size only generation tells (graph: all of a vertex's neighbours); 0 and NULL: no engine (tests) */
	uint32_t max_set;
	const char *max_set_engine;
} stm_table_cfg;

/* A quantity the oracle measured, for the report's verification block (bank: money). */
typedef struct stm_fact {
	const char *name;
	double value;
} stm_fact;

#define STM_MAX_FACTS 4
#define STM_MEMORY_TERMS 3

/* What the oracle found for one batch or timed run. */
typedef struct stm_check {
	int ok;
	char message[512];         /* the first offence, when not ok */
	uint64_t committed_update, committed_readonly;
	uint64_t abandoned;        /* entries never committed (batches only) */
	stm_fact facts[STM_MAX_FACTS];
	unsigned nfacts;
} stm_check;

/*
 * One of stm's own table options (--read-only, --read-only-threads, --presort,
 * --tx-per-thread) that a workload has no use for: given a value other than 0
 * (a flag: given at all) with this workload, `gpubench stm` exits 2 with
 * "option --OPTION does not apply to --workload NAME: " and the sentence,
 * which --help shows too.
 */
typedef struct stm_refusal {
	const char *option; /* without the dashes; NULL ends a list */
	const char *why;
} stm_refusal;

typedef struct stm_workload {
	gb_entry_head head; /* name and summary; a workload runs wherever its engine does */
	/* Its options; each row's offset is into its option struct of opts_size bytes. */
	const gb_opt_row *rows;
	size_t nrows;
	size_t opts_size;
	/* Before generation, from the options alone: */
	uint32_t (*words)(const void *opts);      /* shared data words */
	const char *words_option;                 /* the option that sets them ("accounts") */
	uint32_t (*max_set)(const void *opts);    /* most distinct words one transaction touches */
	const char *max_set_option;               /* the option that sets that ("transfers-per-tx") */
	/* where several options set it: the one that does with these options (NULL: max_set_option) */
	const char *(*max_set_by)(const void *opts);
	/* 1: --semantic-ratio sets the share of its update transactions that can meet a semantic
	 * conflict (its generator reads stm_table_cfg.semantic_ratio); 0: it has none, and
	 * --semantic-ratio given with it exits 2 */
	int semantic;
	/* host and device memory of generation, an engine and the oracle, each term naming its
	 * option (common/memory.h); returns how many terms it filled in each */
	unsigned (*memory)(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
			   gb_memory_term device[STM_MEMORY_TERMS]);
	/* Build the table; NULL with a usage message in err when the sizes cannot work. */
	void *(*generate)(const void *opts, const stm_table_cfg *c, char *err, size_t errlen);
	void (*free)(void *inst);
	tx_input (*input)(const void *inst);
	void (*initial)(const void *inst, uint32_t *words); /* the data words every repetition starts from */
	/* Whether timed runs may sweep the table round after round (NULL: never) */
	int (*rounds_fit)(const void *inst);
	const char *rounds_unfit;                 /* why not, when rounds_fit says no */
	/*
	 * The oracle. verify_batch: `state` holds the data before one pass over the
	 * table and is advanced to the state after it by a serial replay of what
	 * committed; the replay must equal `after`. verify_counts: a timed run, in
	 * which entry i committed counts[i] times.
	 */
	void (*verify_batch)(const void *inst, uint32_t *state, const uint32_t *status,
			     const uint32_t *after, stm_check *out);
	void (*verify_counts)(const void *inst, const uint32_t *start, const uint32_t *counts,
			      const uint32_t *after, stm_check *out);
	/*
	 * Staged workloads (NULL for a workload of one table, which every batch runs
	 * again): a pass over the workload is a sequence of stages, each one batch
	 * over a table of its own that the host builds from the data the stage
	 * before left (kmeans: one iteration's update stage, its assignments made
	 * on the host from the sums the previous iteration's transactions left;
	 * graph: one round of propagation from the vertices the previous round
	 * lowered). A repetition runs passes back to back (one without --duration).
	 * stage(inst, s, words, status):
	 *   s == 0: the first stage's table again (a pass starts); words holds the
	 *     data from initial() and status is NULL;
	 *   s > 0: words holds the data stage s - 1 left and status its status
	 *     words; build stage s's table (a stage may run again what the one
	 *     before left uncommitted) and change words to the data it starts from.
	 * It returns 0 when there is no stage s: the pass is complete and words,
	 * left as it is, holds its outcome. input() always describes the current
	 * stage's table; capacity() is the most entries any stage's table has (the
	 * workload's entry and aux arrays hold that many). The engine is opened with
	 * the table input() gives after generation, its ntx raised to capacity(),
	 * and no later stage has more entries, other sizes or larger transactions
	 * (stm_ops.retable).
	 * A workload must end a pass after a stage in which nothing committed.
	 * verify_pass: the oracle of a whole pass, from the data it started from and
	 * its outcome (kmeans: a serial k-means; graph: each connected component's
	 * minimum label), run after each completed pass while checks are on.
	 */
	uint32_t (*stage)(void *inst, uint32_t s, uint32_t *words, const uint32_t *status);
	uint64_t (*capacity)(const void *inst);
	void (*verify_pass)(const void *inst, const uint32_t *start, const uint32_t *outcome, stm_check *out);
	const char *stage_name;                   /* what one stage is, for the summary ("iteration") */
	/* stm's table options it has no use for (NULL: it uses them all) */
	const stm_refusal *refuses;
	const char *method_batch, *method_counts; /* verification.method */
	const char *checked_batch, *checked_counts; /* what a verified summary line says was checked */
	const char *checksum_key;                 /* the report's name for the data checksum */
	/* The workload's block of the report's config, and a few words for the summary. */
	void (*config)(const void *inst, cJSON *cfg);
	void (*describe)(const void *inst, char *buf, size_t len);
	/*
	 * Optional: most distinct words one update transaction touches (NULL: max_set),
	 * which is what bounds an engine whose declared read-only transactions keep no
	 * read set (stm_engine.snapshot_reads).
	 */
	uint32_t (*max_update_set)(const void *opts);
	/*
	 * Optional: check the results an engine recorded for the read-only entries it
	 * ran on a snapshot (api/tx_table.h, TX_RESULT_WORDS per entry) against the
	 * serial replay from `before`, the data before the batch; stm calls it after
	 * verify_batch passed, for engines that record results (stm_ops.fetch_results).
	 * Fills ok and message, and returns how many results it checked.
	 */
	uint64_t (*verify_results)(const void *inst, const uint32_t *before, const uint32_t *status,
				   const uint32_t *results, stm_check *out);
	const char *checked_results;              /* what a verified summary line adds for them */
} stm_workload;

extern const stm_workload *const stm_workloads[];

/* The registry's entries (workloads/stm/NAME_stm.c), one per workload of workloads/stm/list.h. */
#define STM_WORKLOAD_DECL(name, set, sizes, long_reads) extern const stm_workload stm_workload_##name;
STM_WORKLOADS(STM_WORKLOAD_DECL)
#undef STM_WORKLOAD_DECL

#endif
