/*
 * gpubench stm: software transactional memory engines on STM workloads.
 * Options, the engine and workload they choose, what one repetition runs on
 * the shared measurement loop (common/measure.h), verification and stm's own
 * part of the report. What an engine is and what it runs is in its
 * registry entry (stm/registry.c); what a workload is, with its options,
 * generator and oracle, in its own (workloads/stm/stm_workloads.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/backend.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/measure.h"
#include "common/memory.h"
#include "common/options.h"
#include "common/registry.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/timer.h"
#include "stm/stm.h"
#include "workloads/stm/stm_workload.h"

#define MAX_TABLE (1ull << 31)
#define MAX_WORKLOADS 8
#define MAX_ENGINES GB_MAX_IMPLS

typedef struct stm_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *algo, *workload_name;
	uint64_t threads, tx_per_thread, read_only, semantic_ratio, hash, block_size, cpu_workers, max_passes, retry_limit;
	double stall, duration, warmup_time;
	int presort, no_tags, paper;
	/* each workload's own options, where its rows write (offsets into one area each) */
	union {
		max_align_t align;
		unsigned char bytes[STM_WORKLOAD_OPTS_MAX];
	} wl[MAX_WORKLOADS];
	/* what they choose */
	const stm_workload *workload;
	const void *wl_opts;
	const stm_engine *engine[MAX_ENGINES]; /* [0] is --algo, the rest --compare */
	unsigned nengines;
	stm_params p;
	stm_table_cfg table;
} stm_opts;

#define AT(field) offsetof(stm_opts, field)

enum {
	ROW_ALGO, ROW_WORKLOAD, ROW_THREADS, ROW_TPT, ROW_READONLY, ROW_SEMANTIC, ROW_PRESORT, ROW_HASH, ROW_BLOCK,
	ROW_WORKERS, ROW_PASSES,
	ROW_STALL, ROW_NOTAGS, ROW_RETRY, ROW_DURATION, ROW_WARMUP_TIME, ROW_PAPER, NOWN
};

/* --threads' range is the largest any engine runs; each engine's own limit is checked after. */
static const gb_opt_row own_rows[NOWN] = {
	[ROW_ALGO] = {.name = "algo", .kind = GB_OPT_TEXT, .metavar = "NAME", .def = "prstm", .offset = AT(algo),
		      .help = "engine, one of those below"},
	[ROW_WORKLOAD] = {.name = "workload", .kind = GB_OPT_TEXT, .metavar = "NAME", .def = "bank",
			  .offset = AT(workload_name), .help = "workload, one of those below"},
	[ROW_THREADS] = {.name = "threads", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .def = "6720",
			 .offset = AT(threads),
			 .help = "logical threads, each with its own block of the transaction table and "
				 "priority = its index"},
	[ROW_TPT] = {.name = "tx-per-thread", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 100000000,
		     .def = "1000", .offset = AT(tx_per_thread), .help = "transactions in each thread's block"},
	[ROW_READONLY] = {.name = "read-only", .kind = GB_OPT_UINT, .metavar = "P", .lo = 0, .hi = 100, .def = "0",
			  .offset = AT(read_only),
			  .help = "percent of read-only transactions (bank: balance inquiries; vacation: queries "
				  "of three room types; skiplist: lookups; the paper uses 0 and 20)"},
	[ROW_SEMANTIC] = {.name = "semantic-ratio", .kind = GB_OPT_UINT, .metavar = "P", .lo = 0, .hi = 100,
			  .def = "100", .offset = AT(semantic_ratio),
			  .help = "percent of update transactions that can meet a semantic conflict (bank: "
				  "chains deposit -> transfer -> withdraw, the rest transfers that always find "
				  "the money; vacation: bookings and cancellations, the rest price changes; the "
				  "paper sweeps 0..100 in Fig. 9)"},
	[ROW_PRESORT] = {.name = "presort", .kind = GB_OPT_FLAG, .offset = AT(presort), .set_to = 1,
			 .help = "the application pre-orders the table so program order resolves its semantic "
				 "dependences (bank: every chain in order on one thread; vacation: one customer "
				 "per thread, bookings and cancellations in order; skiplist: no change, each "
				 "key's updates are always in order on its one thread)"},
	[ROW_HASH] = {.name = "hash", .kind = GB_OPT_UINT, .metavar = "K", .lo = 1, .hi = UINT32_MAX / 2,
		      .def = "1", .offset = AT(hash),
		      .help = "consecutive data words covered by one lock, at most the workload's data words "
			      "(bank: --accounts)"},
	[ROW_BLOCK] = {.name = "block-size", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 1024,
		       .def = "0", .offset = AT(block_size),
		       .help = "GPU threads per block, a multiple of 32; 0 spreads warps over all SMs"},
	[ROW_WORKERS] = {.name = "cpu-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 4096,
			 .offset = AT(cpu_workers),
			 .help = "OS threads of the CPU backend (default: all cores); the logical threads are "
				 "interleaved over them"},
	[ROW_PASSES] = {.name = "max-passes", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000000,
			.def = "1000000", .offset = AT(max_passes),
			.help = "prstm: sweeps over a block before its postponed transactions are abandoned"},
	[ROW_STALL] = {.name = "stall-timeout", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0.001, .fhi = 86400,
		       .def = "1", .offset = AT(stall),
		       .help = "prstm, csmv and jvstm: a thread with postponed work gives up when no update "
			       "transaction has committed anywhere for S seconds: nothing left can then resolve "
			       "its conflict; its transactions are abandoned"},
	[ROW_NOTAGS] = {.name = "no-tags", .kind = GB_OPT_FLAG, .offset = AT(no_tags), .set_to = 1,
			.help = "prstm: ignore the priority tags (bank: deposit 2, transfer 1, withdraw 0) and "
				"sweep blocks in table order"},
	[ROW_RETRY] = {.name = "retry-limit", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000000,
		       .def = "100", .offset = AT(retry_limit),
		       .help = "gpustm: attempts of one transaction before it is given up, counted in "
			       "results.retry_limit_reached and as abandoned (the paper: 100)"},
	[ROW_DURATION] = {.name = "duration", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0, .fhi = 86400,
			  .def = "0", .offset = AT(duration),
			  .help = "seconds of device time per repetition (0: one pass over the table; the "
				  "paper: 5): one run in which every thread sweeps its block round after round "
				  "until S seconds (repeated batches where the engine runs no rounds, not all "
				  "GPU threads fit at once, or rounds could overflow the data)"},
	[ROW_WARMUP_TIME] = {.name = "warmup-time", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0, .fhi = 3600,
			     .def = "0.2", .offset = AT(warmup_time),
			     .help = "warm-up lasts at least S seconds too, so the GPU clock has ramped up "
				     "from idle before timing starts (--warmup 0 turns warm-up off); a warm-up "
				     "batch is cut after max(1, 2 x S) s"},
	[ROW_PAPER] = {.name = "paper", .kind = GB_OPT_FLAG, .offset = AT(paper), .set_to = 1,
		       .help = "the paper's protocol: --duration 5 --reps 10 (values given explicitly win)"},
};

static const gb_opt_default shared_settings[] = {
	{.name = "reps", .def = "5"},
	{.name = "warmup", .def = "1"},
	{.name = "verify-every", .def = "1", .lo = 1, .hi = UINT32_MAX},
	{NULL, NULL, 0, 0},
};

/* Where an engine runs: on the CPU always, on the GPU when it has a kernel (CUDA builds). */
static unsigned engine_backends(const void *e)
{
	const stm_engine_run *r;
	unsigned mask = GB_BACKEND_MASK(GB_BACKEND_CPU);
	for (r = ((const stm_engine *)e)->runs; r->workload; r++)
		if (r->gpu)
			mask |= GB_BACKEND_MASK(GB_BACKEND_GPU);
	return mask;
}

/* info's fields of an engine: its limits, the workloads it runs and, a sentence each, those it does not. */
static void describe_engine(const void *entry, cJSON *o)
{
	const stm_engine *e = entry;
	const stm_engine_run *r;
	cJSON *runs = cJSON_AddArrayToObject(o, "workloads"), *cannot, *by;
	char why[256];
	int i;

	gb_json_u64(o, "max_threads", e->max_threads);
	gb_json_u64(o, "max_words_per_transaction", e->max_set);
	for (r = e->runs; r->workload; r++)
		cJSON_AddItemToArray(runs, cJSON_CreateString(r->workload->name));
	by = cJSON_AddObjectToObject(o, "max_words_by_workload");
	for (r = e->runs; r->workload; r++)
		gb_json_u64(by, r->workload->name, r->max_set);
	by = cJSON_AddObjectToObject(o, "max_read_only_words_by_workload");
	for (r = e->runs; r->workload; r++)
		if (r->long_reads)
			gb_json_u64(by, r->workload->name, (uint64_t)r->max_set + r->long_reads);
	cJSON_AddBoolToObject(o, "cpu_only", e->no_gpu != NULL);
	cannot = cJSON_AddArrayToObject(o, "cannot_run");
	for (i = 0; stm_workloads[i]; i++)
		if (stm_cannot_run(e, stm_workloads[i], why, sizeof(why)))
			cJSON_AddItemToArray(cannot, cJSON_CreateString(why));
}

static const gb_registry engine_registry = {
	.what = "engine",
	.picked_by = "--algo, --compare",
	.option = "algo",
	.entries = (const void *const *)stm_engines,
	.name_at = offsetof(stm_engine, name),
	.summary_at = offsetof(stm_engine, summary),
	.backends = engine_backends,
	.show_backends = 1,
	.describe = describe_engine,
	.notes_key = "cannot_run",
};

static const gb_registry workload_registry = {
	.what = "workload",
	.picked_by = "--workload; their options are marked with their name above",
	.entries = (const void *const *)stm_workloads,
	.name_at = offsetof(stm_workload, name),
	.summary_at = offsetof(stm_workload, summary),
};

static void extra_help(FILE *out);

static gb_opt_spec spec = {
	.cmd = "stm",
	.intro = "Runs a software transactional memory engine on a workload, verifies the outcome "
		 "against the workload's oracle and reports committed transactions per second.",
	.unit = "table",
	.check_unit = "batch or --duration run",
	.compare_help = "other engines run on the same table from the same data, on the same backend, "
			"e.g. gpustm; the report gives the speedup of --algo over each",
	.extra_help = extra_help,
	.defaults = shared_settings,
	.example = "Example: gpubench stm --algo prstm --threads 6720 --semantic-ratio 0 --json run.json",
};

/* Where workload k's rows start among the spec's rows. */
static size_t wl_first[MAX_WORKLOADS + 1];

/* The rows: stm's own, then every workload's, their offsets moved into that workload's area. */
static const gb_opt_spec *spec_of(void)
{
	static gb_opt_row rows[NOWN + 64];
	size_t n = NOWN, k, j;
	uint32_t max_threads = 1;

	if (spec.rows)
		return &spec;
	memcpy(rows, own_rows, sizeof(own_rows));
	for (k = 0; stm_engines[k]; k++)
		if (stm_engines[k]->max_threads > max_threads)
			max_threads = stm_engines[k]->max_threads;
	rows[ROW_THREADS].hi = max_threads;
	for (k = 0; stm_workloads[k]; k++) {
		const stm_workload *w = stm_workloads[k];
		if (k == MAX_WORKLOADS || w->opts_size > STM_WORKLOAD_OPTS_MAX ||
		    n + w->nrows > sizeof(rows) / sizeof(rows[0]))
			gb_die(GB_EXIT_RUNTIME, "stm: the workload registry outgrew cmd/stm.c's option space");
		wl_first[k] = n;
		for (j = 0; j < w->nrows; j++) {
			rows[n] = w->rows[j];
			rows[n++].offset += offsetof(stm_opts, wl) + k * sizeof(((stm_opts *)0)->wl[0]);
		}
	}
	wl_first[k] = n;
	spec.rows = rows;
	spec.nrows = n;
	return &spec;
}

static void extra_help(FILE *out)
{
	char why[256];
	int i, j;

	gb_registry_help(out, &engine_registry);
	gb_registry_help(out, &workload_registry);
	for (i = 0; stm_engines[i]; i++)
		for (j = 0; stm_workloads[j]; j++)
			if (stm_cannot_run(stm_engines[i], stm_workloads[j], why, sizeof(why)))
				gb_help_wrap(out, fprintf(out, "  "), 2, why);
	for (j = 0; stm_workloads[j]; j++) {
		const stm_refusal *f;
		for (f = stm_workloads[j]->refuses; f && f->option; f++) {
			char line[512];
			snprintf(line, sizeof(line), "--%s does not apply to --workload %s: %s.", f->option,
				 stm_workloads[j]->name, f->why);
			gb_help_wrap(out, fprintf(out, "  "), 2, line);
		}
	}
	fputs("\nStaged workloads (kmeans, graph):\n", out);
	gb_help_wrap(out, fprintf(out, "  "), 2,
		     "A pass is a sequence of batches, each over a table of its own that the host builds from the "
		     "data the batch before left: kmeans runs one batch per iteration's update stage (the host "
		     "assigns the points to the nearest centroids between them), graph one per propagation round "
		     "(the vertices the round before lowered send again). A repetition runs passes back to back, "
		     "one without --duration; entries a batch leaves uncommitted run again in the next.");
	fputs("\nVerification (on by default; a failure exits 3):\n", out);
	gb_help_wrap(out, fprintf(out, "  "), 2,
		     "Every committed update transaction takes a stamp while it holds its locks; the host "
		     "replays the committed transactions in stamp order from the state before the batch "
		     "with the workload's oracle (bank: every withdrawal had the money, the replay equals "
		     "the final balances exactly, money is conserved, no balance is negative; vacation: "
		     "every booking had a room and a free customer, every cancellation its booking, the "
		     "replay equals the final data, rooms held + free = rooms of every type; skiplist: "
		     "every insert's key was absent and every delete's present, the replay on the oracle's "
		     "own skip list equals the final data word for word, every level is sorted and "
		     "exactly the taller nodes of the level below; kmeans: the replay of each stage's "
		     "points equals its counts and sums, and each pass ends with those of a serial "
		     "k-means; graph: the replay of each round equals its values, and each pass ends with "
		     "every vertex at its connected component's minimum value). A --duration run of "
		     "rounds (bank, skiplist), where entries commit many times, instead requires the final "
		     "data to equal the start plus every commit's effect (each entry's commits are "
		     "counted; skiplist: each thread's keys as its block's committed prefix leaves them).");
}

static void help(FILE *out)
{
	gb_opts_help(out, spec_of());
}

/* The sentence of an engine-specific option given where no chosen engine reads it. */
static void check_engine_options(const stm_opts *o, const unsigned char *given)
{
	size_t r;
	unsigned k;
	int i;

	for (r = 0; r < NOWN; r++) {
		char readers[128] = "";
		int used = 0;
		if (!given[r])
			continue;
		for (i = 0; stm_engines[i]; i++) {
			const char *const *name;
			for (name = stm_engines[i]->options; name && *name; name++)
				if (strcmp(*name, own_rows[r].name) == 0)
					break;
			if (!name || !*name)
				continue;
			snprintf(readers + strlen(readers), sizeof(readers) - strlen(readers), "%s%s",
				 readers[0] ? ", " : "", stm_engines[i]->name);
			for (k = 0; k < o->nengines; k++)
				used |= o->engine[k] == stm_engines[i];
		}
		if (readers[0] && !used)
			gb_die(GB_EXIT_USAGE, "option --%s applies to %s only, not to --algo %s", own_rows[r].name,
			       readers, o->algo);
	}
}

/* A workload's option given with another --workload. */
static void check_workload_options(const stm_opts *o, const unsigned char *given)
{
	size_t k, r;
	for (k = 0; stm_workloads[k]; k++)
		for (r = wl_first[k]; r < wl_first[k + 1]; r++)
			if (given[r] && stm_workloads[k] != o->workload)
				gb_die(GB_EXIT_USAGE, "option --%s belongs to --workload %s, not to --workload %s",
				       spec.rows[r].name, stm_workloads[k]->name, o->workload->name);
}

/* One of stm's own table options given a value with a workload that has no use for it. */
static void check_refusals(const stm_opts *o, const unsigned char *given)
{
	const stm_refusal *f;
	size_t r;

	for (f = o->workload->refuses; f && f->option; f++)
		for (r = 0; r < NOWN; r++) {
			const unsigned char *at = (const unsigned char *)o + own_rows[r].offset;
			uint64_t v = 1;
			int flag;
			if (!given[r] || strcmp(own_rows[r].name, f->option) != 0)
				continue;
			if (own_rows[r].kind == GB_OPT_FLAG) {
				memcpy(&flag, at, sizeof(flag));
				v = flag != 0;
			} else if (own_rows[r].kind == GB_OPT_UINT) {
				memcpy(&v, at, sizeof(v));
			}
			if (v)
				gb_die(GB_EXIT_USAGE, "option --%s does not apply to --workload %s: %s", f->option,
				       o->workload->name, f->why);
		}
}

/* Each chosen engine runs the workload, at these sizes. */
static void check_engines(const stm_opts *o)
{
	uint32_t need = o->workload->max_set(o->wl_opts);
	const char *max_set_option = o->workload->max_set_by ? o->workload->max_set_by(o->wl_opts)
							     : o->workload->max_set_option;
	char why[256];
	unsigned k;

	for (k = 0; k < o->nengines; k++) {
		const stm_engine *e = o->engine[k];
		const stm_engine_run *run;
		uint32_t need_e = need;
		if (stm_cannot_run(e, o->workload, why, sizeof(why)))
			gb_die(GB_EXIT_USAGE, "%s", why);
		run = stm_engine_run_of(e, o->workload);
		/* an engine whose read-only transactions keep no read set, or log reads past its sets,
		 * is bounded by the updates */
		if ((e->snapshot_reads || run->long_reads) && o->workload->max_update_set)
			need_e = o->workload->max_update_set(o->wl_opts);
		if (run->long_reads && need > run->max_set && need - run->max_set > run->long_reads)
			gb_die(GB_EXIT_USAGE, "%s runs %s read-only transactions of at most %u words, but %s "
			       "transactions with these options (--%s) read up to %u",
			       e->name, o->workload->name, run->max_set + run->long_reads, o->workload->name,
			       max_set_option, need);
		/* before the backend is resolved, so a CPU-only build says the same */
		if (o->run.backend == GB_BACKEND_GPU && e->no_gpu)
			gb_die(GB_EXIT_USAGE, "--backend gpu: %s", e->no_gpu);
		if (o->threads > e->max_threads)
			gb_die(GB_EXIT_USAGE, "option --threads: %" PRIu64 " is above what %s runs (accepted: 1..%u)",
			       o->threads, e->name, e->max_threads);
		if (need_e > run->max_set)
			gb_die(GB_EXIT_USAGE, "%s runs %s transactions of at most %u words, but %s transactions "
			       "with these options (--%s) touch up to %u",
			       e->name, o->workload->name, run->max_set, o->workload->name, max_set_option, need_e);
	}
}

static void parse(stm_opts *o, int argc, char **argv)
{
	const gb_opt_spec *sp = spec_of();
	unsigned char given[NOWN + 64 + GB_OPTS_SHARED];
	gb_impl_choice chosen;
	uint32_t words;
	unsigned k;
	int i;

	memset(o, 0, sizeof(*o));
	gb_opts_parse(sp, o, given, argc, argv);
	{
		const gb_path_use paths[] = {{"json", o->run.json, 0}};
		gb_paths_check("stm", paths, 1);
	}
	if (o->paper) {
		if (!given[ROW_DURATION])
			o->duration = 5;
		if (!gb_opts_given(sp, given, "reps"))
			o->run.reps = 10;
	}
	o->workload = gb_registry_pick(&workload_registry, NULL, "workload", o->workload_name);
	for (i = 0; stm_workloads[i] != o->workload; i++)
		;
	o->wl_opts = o->wl[i].bytes;
	check_workload_options(o, given);
	if (given[ROW_SEMANTIC] && !o->workload->semantic)
		gb_die(GB_EXIT_USAGE, "option --semantic-ratio: --workload %s has no semantic transactions",
		       o->workload->name);
	check_refusals(o, given);
	/* An engine runs on either backend: --backend is resolved in run(), against the backends
	 * the chosen engines were built with (a CPU-only build says it has no CUDA). */
	gb_impl_choose(&engine_registry, NULL, o->algo, o->run.compare, GB_BACKEND_AUTO, &chosen);
	for (k = 0; k < chosen.n; k++)
		o->engine[k] = chosen.e[k];
	o->nengines = chosen.n;
	check_engine_options(o, given);
	check_engines(o);
	if (o->block_size % 32)
		gb_die(GB_EXIT_USAGE, "option --block-size: %" PRIu64 " is not a multiple of 32 "
		       "(accepted: 0 or 32..1024 in steps of 32)", o->block_size);
	words = o->workload->words(o->wl_opts);
	if (o->hash > words)
		gb_die(GB_EXIT_USAGE, "option --hash: %" PRIu64 " exceeds --%s %u (accepted: 1..%u)", o->hash,
		       o->workload->words_option, words, words);
	if (o->threads * o->tx_per_thread > MAX_TABLE)
		gb_die(GB_EXIT_USAGE,
		       "--threads %" PRIu64 " x --tx-per-thread %" PRIu64 " = %" PRIu64 " transactions exceeds "
		       "the table limit of %llu",
		       o->threads, o->tx_per_thread, o->threads * o->tx_per_thread, MAX_TABLE);
	o->p.threads = (uint32_t)o->threads;
	o->p.hash = (uint32_t)o->hash;
	o->p.max_passes = (uint32_t)o->max_passes;
	o->p.use_tags = !o->no_tags;
	o->p.retry_limit = (uint32_t)o->retry_limit;
	o->p.block_size = (uint32_t)o->block_size;
	o->p.cpu_workers = (uint32_t)o->cpu_workers;
	o->p.stall_ns = (uint64_t)(o->stall * 1e9);
	o->table.threads = (uint32_t)o->threads;
	o->table.tx_per_thread = (uint32_t)o->tx_per_thread;
	o->table.read_only = (uint32_t)o->read_only;
	o->table.semantic_ratio = (uint32_t)o->semantic_ratio;
	o->table.presort = o->presort;
	o->table.seed = o->run.seed;
}

/* Time left before --timeout, in ns; 0 when it has passed. */
static uint64_t left_ns(const gb_measure *ms)
{
	double left = gb_measure_left(ms);
	return left > 0 ? (uint64_t)(left * 1e9) : 0;
}

/* FNV-1a over the data words: equal states give equal checksums on every backend. */
static uint64_t words_checksum(const uint32_t *b, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;
	for (i = 0; i < n; i++) {
		int k;
		for (k = 0; k < 4; k++) {
			h ^= (b[i] >> (8 * k)) & 0xFFu;
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

/*
 * What one engine did besides what the measurement loop keeps (its
 * throughput per repetition and what its checks found): the counters of its
 * timed batches and the oracle's measures of its last verified batch.
 */
typedef struct engine_run {
	const stm_engine *e;
	const stm_ops *ops;
	void *ctx;
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
	uint64_t checksum;   /* of the data words after it */
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
	engine_run er[MAX_ENGINES];
	const gb_measure *ms;
	char headline[640], checked_what[640];
} stm_run;

/*
 * A staged workload's pass starts: the first stage's table again (the last
 * pass left the engine with its last stage's), the data from the initial
 * words; the replay starts from the same.
 */
static void start_pass(stm_run *r, engine_run *er)
{
	const stm_workload *w = r->o.workload;

	memcpy(r->mirror, r->initial, (size_t)r->in.words * sizeof(uint32_t));
	w->stage(r->inst, 0, r->mirror, NULL);
	r->cur = w->input(r->inst);
	er->ops->retable(er->ctx, &r->cur);
	er->ops->load(er->ctx, r->mirror);
}

/*
 * A warm-up repetition: one untimed batch from the initial data. Warm-up only
 * has to bring the clocks up: the batch is cut (its threads stop between
 * transactions) after max(1 s, 2 x --warmup-time), so a slow table leaves the
 * rest of --timeout to the timed batches.
 */
static gb_rep_end warm_up(gb_measure *ms, stm_run *r, engine_run *er, gb_rep_out *out)
{
	uint64_t cap = (uint64_t)((r->o.warmup_time > 0.5 ? 2 * r->o.warmup_time : 1.0) * 1e9);
	uint64_t left = left_ns(ms);
	stm_batch_result b;

	if (r->o.workload->stage)
		start_pass(r, er); /* a staged workload warms up on its first stage */
	else
		er->ops->load(er->ctx, r->initial);
	er->ops->run(er->ctx, left < cap ? left : cap, 0, &b);
	er->block_size = b.block_size;
	out->seconds = b.seconds;
	return gb_measure_timed_out(ms) ? GB_REP_CUT : GB_REP_DONE;
}

/* Check a batch (or timed run) of entry k with the workload's oracle; returns whether it passed. */
static int verify_batch(gb_measure *ms, unsigned k, stm_run *r, const stm_batch_result *b, const gb_rep *rep,
			uint64_t batch, gb_rep_out *out)
{
	const stm_workload *w = r->o.workload;
	engine_run *er = &r->er[k];
	stm_check *chk = &er->chk;

	int results = !er->one_run && er->ops->fetch_results && w->verify_results;

	er->ops->fetch(er->ctx, r->after, r->status);
	if (results)
		memcpy(r->before, r->mirror, (size_t)r->in.words * sizeof(uint32_t));
	if (er->one_run)
		w->verify_counts(r->inst, r->initial, r->status, r->after, chk);
	else
		w->verify_batch(r->inst, r->mirror, r->status, r->after, chk);
	if (results && chk->ok) {
		stm_check rc = *chk;
		uint64_t n;
		er->ops->fetch_results(er->ctx, r->results);
		n = w->verify_results(r->inst, r->before, r->status, r->results, &rc);
		if (k == 0)
			r->results_checked += n;
		if (!rc.ok) {
			snprintf(chk->message, sizeof(chk->message), "%s", rc.message);
			chk->ok = 0;
		}
	}
	out->checked++;
	if (!w->stage) /* a staged workload runs them again in its next stage */
		er->abandoned += chk->abandoned;
	er->checksum = words_checksum(r->after, r->in.words);
	if (chk->ok && (chk->committed_update != b->c.commits_update ||
			chk->committed_readonly != b->c.commits_readonly)) {
		snprintf(chk->message, sizeof(chk->message),
			 "engine counted %" PRIu64 " update and %" PRIu64
			 " read-only commits, the status words say %" PRIu64 " and %" PRIu64,
			 b->c.commits_update, b->c.commits_readonly, chk->committed_update,
			 chk->committed_readonly);
		chk->ok = 0;
	}
	if (!chk->ok) {
		out->wrong++;
		gb_measure_wrong(ms, k, "%s%srep %u batch %" PRIu64 ": %s", k ? er->e->name : "", k ? ": " : "",
				 rep->timed_index, batch, chk->message);
	}
	return chk->ok;
}

/*
 * A completed pass of a staged workload against the workload's oracle of a
 * whole pass, from the initial data to the outcome in r->after. A failure
 * marks the repetition wrong; its batches keep their own verdicts.
 */
static void verify_pass(gb_measure *ms, unsigned k, stm_run *r, const gb_rep *rep, uint64_t pass)
{
	engine_run *er = &r->er[k];
	stm_check pc;

	memset(&pc, 0, sizeof(pc));
	r->o.workload->verify_pass(r->inst, r->initial, r->after, &pc);
	if (!pc.ok) {
		gb_measure_wrong(ms, k, "%s%srep %u pass %" PRIu64 ": %s", k ? er->e->name : "", k ? ": " : "",
				 rep->timed_index, pass, pc.message);
		er->chk.ok = 0;
		snprintf(er->chk.message, sizeof(er->chk.message), "%s", pc.message);
		return;
	}
	memcpy(er->chk.facts, pc.facts, sizeof(pc.facts));
	er->chk.nfacts = pc.nfacts;
	er->checksum = words_checksum(r->after, r->in.words);
	/* kept apart too: a later pass that --timeout cuts verifies its batches, whose facts are a
	 * batch's, not a pass's */
	er->pass_chk = pc;
	er->pass_checksum = er->checksum;
}

/*
 * One repetition of engine k on a staged workload: passes back to back until
 * --duration seconds of device time (one without it), each from the initial
 * data, stage after stage: a batch, the data and status words fetched (every
 * --verify-every-th batch checked by replay on the way), and the workload's
 * next stage built from them, until the workload says the pass is complete;
 * then the pass is checked whole. Its time is the device time of its
 * batches (the host's work between stages is not in it), its throughput
 * their commits over that time.
 */
static gb_rep_end stm_rep_staged(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, stm_run *r)
{
	const stm_opts *o = &r->o;
	const stm_workload *w = o->workload;
	engine_run *er = &r->er[k];
	uint64_t commits = 0, batch = 0, pass = 0, left_over = 0;
	int cut = 0;

	do {
		uint32_t s = 0;
		start_pass(r, er);
		for (;;) {
			stm_batch_result b;
			int check = rep->check && er->batches % o->run.verify_every == 0;
			uint64_t left = left_ns(ms), done;

			left_over = 0;
			if (left == 0) {
				cut = 1;
				break;
			}
			er->ops->run(er->ctx, left, 0, &b);
			if (b.c.threads_failed)
				gb_die(GB_EXIT_RUNTIME, "stm: a %s transaction touched more than %u distinct words, "
				       "beyond %s's read/write set capacity", w->name, er->e->max_set, er->e->name);
			stm_counters_add(&er->c, &b.c);
			er->seconds += b.seconds;
			er->cycles_per_ns = b.cycles_per_ns;
			er->block_size = b.block_size;
			er->batches++;
			batch++;
			done = b.c.commits_update + b.c.commits_readonly;
			commits += done;
			out->seconds += b.seconds;
			cut = b.c.threads_timed_out > 0;
			left_over = r->cur.ntx - done;
			if (check)
				verify_batch(ms, k, r, &b, rep, batch, out); /* fetches the data and status words */
			else
				er->ops->fetch(er->ctx, r->after, r->status);
			if (cut)
				break;
			if (!w->stage(r->inst, ++s, r->after, r->status))
				break; /* the pass is complete: r->after holds its outcome */
			r->cur = w->input(r->inst);
			er->ops->retable(er->ctx, &r->cur);
			er->ops->load(er->ctx, r->after);
			memcpy(r->mirror, r->after, (size_t)r->in.words * sizeof(uint32_t));
		}
		/* What the last stage left uncommitted is abandoned: the pass ended without it
		 * (--timeout, or a stage in which nothing committed); earlier stages' leftovers
		 * ran again. */
		er->abandoned += left_over;
		if (cut)
			break;
		pass++;
		er->passes++;
		er->stages += s;
		if (rep->check)
			verify_pass(ms, k, r, rep, pass);
		if (o->duration > 0)
			gb_measure_progress(ms, rep, (uint64_t)(fmin(out->seconds, o->duration) * 1e3),
					    (uint64_t)(o->duration * 1e3));
	} while (out->seconds < o->duration);
	out->track[0] = out->seconds > 0 ? (double)commits / out->seconds : 0;
	return cut ? GB_REP_CUT : GB_REP_DONE;
}

/*
 * One repetition of engine k: from the initial data, batches back to back
 * until --duration seconds of device time (one without it), or one timed run
 * of rounds. Its time is the device time of its batches, its throughput (track
 * 0) their commits over that time. Every --verify-every-th batch of the engine
 * is checked; a batch whose threads met the --timeout deadline cuts the
 * repetition short, after its committed part is checked.
 */
static gb_rep_end stm_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	stm_run *r = arg;
	const stm_opts *o = &r->o;
	engine_run *er = &r->er[k];
	uint64_t commits = 0, batch = 0;
	int mirror_valid = 1, cut = 0;

	if (!rep->timed)
		return warm_up(ms, r, er, out);
	if (o->workload->stage)
		return stm_rep_staged(ms, k, rep, out, r);
	er->ops->load(er->ctx, r->initial);
	memcpy(r->mirror, r->initial, (size_t)r->in.words * sizeof(uint32_t));
	do {
		stm_batch_result b;
		int check = rep->check && er->batches % o->run.verify_every == 0;
		uint64_t left = left_ns(ms), done;

		if (left == 0) {
			cut = 1;
			break;
		}
		if (check && !mirror_valid && !er->one_run)
			er->ops->fetch(er->ctx, r->mirror, NULL);
		er->ops->run(er->ctx, left, er->one_run ? (uint64_t)(o->duration * 1e9) : 0, &b);
		if (b.c.threads_failed)
			gb_die(GB_EXIT_RUNTIME, "stm: a %s transaction touched more than %u distinct words, beyond "
			       "%s's read/write set capacity", o->workload->name,
			       stm_engine_run_of(er->e, o->workload)->max_set, er->e->name);
		stm_counters_add(&er->c, &b.c);
		er->seconds += b.seconds;
		er->cycles_per_ns = b.cycles_per_ns;
		er->block_size = b.block_size;
		er->batches++;
		batch++;
		done = b.c.commits_update + b.c.commits_readonly;
		commits += done;
		out->seconds += b.seconds;
		cut = b.c.threads_timed_out > 0;
		if (check) {
			mirror_valid = verify_batch(ms, k, r, &b, rep, batch, out);
		} else {
			if (!er->one_run)
				er->abandoned += r->in.ntx - done;
			mirror_valid = 0;
		}
		if (o->duration > 0)
			gb_measure_progress(ms, rep, (uint64_t)(fmin(out->seconds, o->duration) * 1e3),
					    (uint64_t)(o->duration * 1e3));
	} while (!cut && !er->one_run && out->seconds < o->duration);
	out->track[0] = out->seconds > 0 ? (double)commits / out->seconds : 0;
	return cut ? GB_REP_CUT : GB_REP_DONE;
}

/* Engine k: open it on the table, the loop's repetitions of it, close it. */
static void run_engine(gb_measure *ms, unsigned k, stm_run *r)
{
	stm_opts *o = &r->o;
	engine_run *er = &r->er[k];
	const stm_workload *w = o->workload;
	const stm_engine_run *run = stm_engine_run_of(er->e, w);
	uint64_t t0 = gb_now_ns();

	if (!gb_measure_timed_out(ms)) {
		er->ops = r->backend == GB_BACKEND_GPU ? run->gpu : run->cpu;
		o->p.timeout_ns = left_ns(ms);
		er->ctx = er->ops->open(&r->in, &o->p);
	}
	if (er->ctx && o->duration > 0) {
		int fit = w->rounds_fit && w->rounds_fit(r->inst);
		int resident = er->ops->rounds_ok(er->ctx);
		er->one_run = er->e->timed_rounds && resident && fit;
		if (!er->one_run)
			gb_note("note: %s: --duration runs as repeated batches: %s", er->e->name,
				!er->e->timed_rounds ? er->e->no_rounds :
				!resident ? "not every GPU block fits on the device at once" :
				w->rounds_unfit);
	}
	gb_measure_run(ms, k, stm_rep, r); /* nothing when --timeout has passed */
	if (er->ctx)
		er->ops->close(er->ctx);
	er->wall_seconds = gb_seconds_since(t0);
}

static uint64_t commits_of(const engine_run *er)
{
	return er->c.commits_update + er->c.commits_readonly;
}

static uint64_t aborts_of(const engine_run *er)
{
	return er->c.aborts_locked + er->c.aborts_priority + er->c.aborts_validation + er->c.aborts_semantic;
}

/* Thread time per committed transaction, in ns, of a cycle counter. */
static double per_commit_ns(const engine_run *er, uint64_t cycles)
{
	uint64_t commits = commits_of(er);
	return commits && er->cycles_per_ns > 0 ? (double)cycles / er->cycles_per_ns / (double)commits : NAN;
}

/* Cycles over the committed update transactions, in ns each (a server engine's commit phases). */
static double per_update_ns(const engine_run *er, uint64_t cycles)
{
	uint64_t n = er->c.commits_update;
	return n && er->cycles_per_ns > 0 ? (double)cycles / er->cycles_per_ns / (double)n : NAN;
}

static void fill_config(cJSON *cfg, const stm_run *r)
{
	const stm_opts *o = &r->o;

	gb_json_str(cfg, "algo", o->algo);
	gb_json_str(cfg, "workload", o->workload->name);
	gb_json_str(cfg, "backend", gb_backend_name(r->backend));
	gb_json_u64(cfg, "threads", o->p.threads);
	gb_json_u64(cfg, "tx_per_thread", r->in.tx_per_thread); /* a staged workload's: its first stage's */
	gb_json_u64(cfg, "read_only", o->read_only);
	if (o->workload->semantic)
		gb_json_u64(cfg, "semantic_ratio", o->semantic_ratio);
	else
		cJSON_AddNullToObject(cfg, "semantic_ratio"); /* the workload has no semantic transactions */
	gb_json_bool(cfg, "presort", o->presort);
	gb_json_u64(cfg, "block_size", o->p.block_size);
	gb_json_u64(cfg, "cpu_workers", r->backend == GB_BACKEND_CPU ? o->p.cpu_workers : 0);
	gb_json_u64(cfg, "hash", o->p.hash);
	gb_json_u64(cfg, "max_passes", o->p.max_passes);
	gb_json_num(cfg, "stall_timeout_s", o->stall);
	gb_json_bool(cfg, "priority_tags", (int)o->p.use_tags);
	gb_json_u64(cfg, "retry_limit", o->p.retry_limit);
	gb_json_num(cfg, "duration_s", o->duration);
	gb_json_num(cfg, "warmup_time_s", o->warmup_time);
	gb_json_bool(cfg, "paper", o->paper);
	gb_opts_config(cfg, &o->run);
	o->workload->config(r->inst, cfg);
}

/* An engine's own fields: its batches, commits, aborts by cause, and where its time went. */
static void engine_json(cJSON *res, unsigned k, const void *arg)
{
	const stm_run *r = arg;
	const engine_run *er = &r->er[k];
	uint64_t commits = commits_of(er), aborts = aborts_of(er);
	uint64_t cycles = er->c.cycles_committed + er->c.cycles_wasted;
	cJSON *ab, *ph;

	gb_json_u64(res, "batches", er->batches);
	gb_json_u64(res, "transactions_per_batch", r->in.ntx);
	if (r->o.workload->stage) { /* staged: transactions_per_batch is the room of its largest stage */
		gb_json_u64(res, "passes", er->passes);
		gb_json_u64(res, "stages", er->stages);
	}
	gb_json_str(res, "timed_run", er->one_run ? "rounds" : "batches");
	gb_json_num(res, "device_seconds", er->seconds);
	gb_json_num(res, "wall_seconds", er->wall_seconds);
	gb_json_u64(res, "gpu_block_size", er->block_size);
	gb_json_u64(res, "commits", commits);
	gb_json_u64(res, "commits_update", er->c.commits_update);
	gb_json_u64(res, "commits_read_only", er->c.commits_readonly);
	ab = cJSON_AddObjectToObject(res, "aborts");
	gb_json_u64(ab, "total", aborts);
	gb_json_u64(ab, "conflict", er->c.aborts_locked + er->c.aborts_priority);
	gb_json_u64(ab, "conflict_locked", er->c.aborts_locked);
	gb_json_u64(ab, "conflict_priority", er->c.aborts_priority);
	gb_json_u64(ab, "validation", er->c.aborts_validation);
	gb_json_u64(ab, "semantic", er->c.aborts_semantic);
	gb_json_u64(res, "abandoned", er->abandoned);
	gb_json_u64(res, "retry_limit_reached", er->c.retry_limit_reached);
	gb_json_num(res, "abort_rate", commits + aborts ? (double)aborts / (double)(commits + aborts) : 0);
	gb_json_num(res, "cycles_per_ns", er->cycles_per_ns > 0 ? er->cycles_per_ns : NAN); /* null: no batch ran */
	gb_json_num(res, "time_per_tx_ns", per_commit_ns(er, cycles));
	gb_json_num(res, "wasted_per_tx_ns", per_commit_ns(er, er->c.cycles_wasted));
	gb_json_num(res, "wasted_fraction", cycles ? (double)er->c.cycles_wasted / (double)cycles : NAN);
	ph = cJSON_AddObjectToObject(res, "committed_phases_ns");
	gb_json_num(ph, "read", per_commit_ns(er, er->c.cycles_read));
	gb_json_num(ph, "validate", per_commit_ns(er, er->c.cycles_validate));
	gb_json_num(ph, "commit", per_commit_ns(er, er->c.cycles_commit));
	gb_json_u64(res, "passes_max", er->c.passes_max);
	gb_json_u64(res, "threads_gave_up", er->c.threads_gave_up);
	gb_json_u64(res, "threads_stalled", er->c.threads_stalled);
	gb_json_u64(res, "threads_timed_out", er->c.threads_timed_out);
	if (er->e->server_phases) {
		cJSON *cp = cJSON_AddObjectToObject(res, "commit_phases_ns");
		gb_json_num(cp, "divergence", per_update_ns(er, er->c.cycles_diverge));
		gb_json_num(cp, "pre_validation", per_update_ns(er, er->c.cycles_prevalidate));
		gb_json_num(cp, "wait_server", per_update_ns(er, er->c.cycles_wait_server));
		gb_json_num(cp, "server_validation", per_update_ns(er, er->c.server_cycles_validate));
		gb_json_num(cp, "server_insert", per_update_ns(er, er->c.server_cycles_insert));
		gb_json_num(cp, "write_back", per_update_ns(er, er->c.cycles_commit));
	}
	if (er->e->snapshot_reads) {
		cJSON *v = cJSON_AddObjectToObject(res, "versions");
		gb_json_u64(v, "kept_peak", er->c.versions_kept_peak);
		gb_json_u64(v, "reclaim_waits", er->c.reclaim_waits);
	}
}

/*
 * A timed run of rounds that stopped before its --duration: a thread gave up
 * (--max-passes) or stalled (--stall-timeout), and the round gate, which
 * waits for every thread, would never have opened again.
 */
static int halted(const engine_run *er)
{
	return er->one_run && (er->c.threads_gave_up || er->c.threads_stalled);
}

#define HALTED "the timed run stopped before --duration: threads gave up (--max-passes) or stalled " \
	       "(--stall-timeout), and every thread must finish a round before the next one starts"

/*
 * The options that decide what an engine's run abandons, as "--a, --b": those
 * of --max-passes, --stall-timeout and --retry-limit the engine reads, and
 * --timeout when the deadline stopped threads.
 */
static void abandon_options(const engine_run *er, char *buf, size_t len)
{
	static const char *const deciding[] = {"max-passes", "stall-timeout", "retry-limit"};
	const char *const *o;
	size_t k = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(deciding) / sizeof(deciding[0]); i++)
		for (o = er->e->options; o && *o; o++)
			if (strcmp(*o, deciding[i]) == 0 && k < len)
				k += (size_t)snprintf(buf + k, len - k, "%s--%s", k ? ", " : "", *o);
	if (er->c.threads_timed_out && k < len)
		snprintf(buf + k, len - k, "%s--timeout", k ? ", " : "");
}

static void engine_text(char *buf, size_t len, unsigned k, const void *arg)
{
	snprintf(buf, len, "abandoned %" PRIu64, ((const stm_run *)arg)->er[k].abandoned);
}

/* The --algo engine's commits, aborts and what it abandoned. */
static void lines(FILE *out, const void *arg)
{
	const stm_run *r = arg;
	const engine_run *er = &r->er[0];
	uint64_t commits = commits_of(er), aborts = aborts_of(er);

	fprintf(out, "  %-12s %" PRIu64 " (%" PRIu64 " read-only) in %" PRIu64 " %s, %.3f s of device time\n",
		"commits", commits, er->c.commits_readonly, er->batches, er->one_run ? "runs" : "batches",
		er->seconds);
	fprintf(out, "  %-12s %" PRIu64 " (conflict %" PRIu64 ", validation %" PRIu64 ", semantic %" PRIu64
		"), abort rate %.2f%%\n", "aborts", aborts, er->c.aborts_locked + er->c.aborts_priority,
		er->c.aborts_validation, er->c.aborts_semantic,
		commits + aborts ? 100.0 * aborts / (commits + aborts) : 0);
	if (r->o.workload->stage)
		fprintf(out, "  %-12s %" PRIu64 " complete, %" PRIu64 " %s in them\n", "passes", er->passes, er->stages,
			r->o.workload->stage_name);
	if (er->abandoned) {
		char see[96];
		abandon_options(er, see, sizeof(see));
		fprintf(out, "  %-12s %" PRIu64 " transactions never committed: WARNING, the throughput\n"
			"               counts only the others (see %s)\n", "abandoned", er->abandoned, see);
	} else
		fprintf(out, "  %-12s 0\n", "abandoned");
	if (halted(er))
		fprintf(out, "  %-12s runs of %.3g s on average, not --duration %g s: WARNING,\n"
			"               %" PRIu64 " threads gave up (--max-passes), %" PRIu64 " stalled (--stall-timeout),\n"
			"               and a round waits for every thread\n", "halted",
			er->seconds / (double)(er->batches ? er->batches : 1), r->o.duration, er->c.threads_gave_up,
			er->c.threads_stalled);
	if (er->e->server_phases && er->c.commits_update)
		fprintf(out, "  %-12s an update's commit: waits for its group %.3g us, pre-validation %.3g us,\n"
			"               for the server %.3g us (server validation %.3g us, insert %.3g us),\n"
			"               write-back %.3g us\n", "commit", per_update_ns(er, er->c.cycles_diverge) / 1e3,
			per_update_ns(er, er->c.cycles_prevalidate) / 1e3, per_update_ns(er, er->c.cycles_wait_server) / 1e3,
			per_update_ns(er, er->c.server_cycles_validate) / 1e3,
			per_update_ns(er, er->c.server_cycles_insert) / 1e3, per_update_ns(er, er->c.cycles_commit) / 1e3);
	if (er->e->snapshot_reads)
		fprintf(out, "  %-12s at most %" PRIu64 " of one word kept at once, %" PRIu64
			" write-backs waited for reclamation\n", "versions", er->c.versions_kept_peak,
			er->c.reclaim_waits);
	if (er->c.retry_limit_reached)
		fprintf(out, "  %-12s %" PRIu64 " transactions given up after --retry-limit %u attempts\n",
			"retry limit", er->c.retry_limit_reached, r->o.p.retry_limit);
}

/* The --algo engine's batches, and the oracle's measures and checksum of its last verified one. */
static void verification_json(cJSON *ver, const void *arg)
{
	const stm_run *r = arg;
	const engine_run *er = &r->er[0];
	const stm_check *facts;
	char hex[24];
	unsigned f;

	gb_json_u64(ver, "batches_total", er->batches);
	if (!r->ms->m[0].units_checked)
		return;
	if (er->ops && er->ops->fetch_results && r->o.workload->verify_results)
		gb_json_u64(ver, "read_only_results_checked", r->results_checked);
	/* a staged workload reports its last verified pass, once it has one */
	facts = er->pass_chk.nfacts ? &er->pass_chk : &er->chk;
	for (f = 0; f < facts->nfacts; f++)
		gb_json_num(ver, facts->facts[f].name, facts->facts[f].value);
	snprintf(hex, sizeof(hex), "%016llx",
		 (unsigned long long)(er->pass_chk.nfacts ? er->pass_checksum : er->checksum));
	gb_json_str(ver, r->o.workload->checksum_key, hex);
}

/* What generation, an engine and the checks will allocate, estimated before any of it is. */
static void check_memory(const stm_opts *o, gb_backend backend, const gb_device_info *dev)
{
	gb_memory_term host[STM_MEMORY_TERMS], device[STM_MEMORY_TERMS];
	unsigned n = o->workload->memory(o->wl_opts, &o->table, host, device);

	gb_memory_fit("stm", "host", gb_host_memory_available(), 0, host, n);
	if (backend == GB_BACKEND_GPU)
		gb_memory_fit("stm", "device", dev->global_mem_bytes, 0, device, n);
}

/* Backends every chosen engine has for the workload. */
static unsigned backends_of(const stm_opts *o)
{
	unsigned mask = GB_BACKEND_MASK(GB_BACKEND_CPU) | GB_BACKEND_MASK(GB_BACKEND_GPU), k;
	for (k = 0; k < o->nengines; k++)
		if (!stm_engine_run_of(o->engine[k], o->workload)->gpu)
			mask &= ~GB_BACKEND_MASK(GB_BACKEND_GPU);
	return mask;
}

static int run(int argc, char **argv)
{
	stm_run *r = gb_xcalloc(1, sizeof(*r), "run state");
	stm_opts *o = &r->o;
	const stm_workload *w;
	const engine_run *er0 = &r->er[0];
	gb_measure ms;
	gb_report rpt;
	char err[512], what[128];
	unsigned k;
	int rc, gpu;

	parse(o, argc, argv);
	w = o->workload;
	gb_measure_init(&ms, "stm", &o->run, GB_CHECK_UNITS, 1);
	ms.warmup_s = o->warmup_time;
	r->ms = &ms;
	r->backend = gb_backend_resolve((gb_backend)o->run.backend, backends_of(o), o->algo, &r->dev);
	gpu = r->backend == GB_BACKEND_GPU;
	if (!o->p.cpu_workers)
		o->p.cpu_workers = (uint32_t)gb_cpu_count();
	if (o->p.cpu_workers > o->p.threads)
		o->p.cpu_workers = o->p.threads;

	check_memory(o, r->backend, &r->dev);
	r->inst = w->generate(o->wl_opts, &o->table, err, sizeof(err));
	if (!r->inst)
		gb_die(GB_EXIT_USAGE, "stm: %s", err);
	r->in = w->input(r->inst);
	if (w->stage) /* the engines are opened with room for the largest stage */
		r->in.ntx = w->capacity(r->inst);
	r->cur = r->in;
	gb_note("note: generated %" PRIu64 " %s transactions in %.2f s", r->in.ntx, w->name,
		gb_seconds_since(ms.t_start));
	r->initial = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words");
	r->mirror = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "replay data words");
	r->after = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "device data words");
	r->status = gb_xmalloc(r->in.ntx * sizeof(uint32_t), "transaction status");
	if (w->verify_results) {
		r->before = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words before a batch");
		r->results = gb_xmalloc(r->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t), "read-only results");
	}
	w->initial(r->inst, r->initial);

	for (k = 0; k < o->nengines; k++) {
		r->er[k].e = o->engine[k];
		gb_measure_add(&ms, o->engine[k]->name);
	}
	for (k = 0; k < o->nengines; k++)
		run_engine(&ms, k, r);

	gb_report_init(&rpt, "stm", argc, argv);
	gb_report_set_device(&rpt, r->backend, gpu ? &r->dev : NULL, (int)o->p.cpu_workers);
	fill_config(rpt.config, r);
	for (k = 0; k < o->nengines; k++) {
		const engine_run *er = &r->er[k];
		const char *name = k ? er->e->name : "", *sep = k ? ": " : "";
		if (er->abandoned)
			gb_report_warn(&rpt, "%s%s%" PRIu64 " transactions were abandoned (never committed%s): the "
				       "throughput counts only the others", name, sep, er->abandoned,
				       er->c.retry_limit_reached ? ", some given up at --retry-limit" : "");
		if (halted(er))
			gb_report_warn(&rpt, "%s%s%s", name, sep, HALTED);
	}
	w->describe(r->inst, what, sizeof(what));
	snprintf(r->headline, sizeof(r->headline), "%s on %s, %s backend%s%s%s, %u threads, %s, hash %u", o->algo,
		 w->name, gb_backend_name(r->backend), gpu ? " (" : "", gpu ? r->dev.name : "", gpu ? ")" : "",
		 o->p.threads, what, o->p.hash);
	snprintf(r->checked_what, sizeof(r->checked_what), "%s%s%s%s", er0->one_run ? "runs: " : "batches ",
		 er0->one_run ? w->checked_counts : w->checked_batch,
		 r->results_checked ? "; " : "", r->results_checked ? w->checked_results : "");
	{
		const gb_result_view view = {
			.headline = r->headline,
			.entries_key = "compare",
			.first_in_results = 1,
			.name_key = "algo",
			.rate_key = "throughput_tx_per_s",
			.rate_unit = "committed tx/s",
			.rate_tracked = 1,
			.speedup_key = "speedup_of_algo",
			.checked_key = "batches_verified",
			.checked_what = r->checked_what,
			.units = er0->batches,
			.method = er0->one_run ? w->method_counts : w->method_batch,
			.entry_json = engine_json,
			.entry_text = engine_text,
			.lines = lines,
			.verification_json = verification_json,
			.arg = r,
		};
		rc = gb_report_finish(&rpt, &ms, &view);
	}
	gb_report_free(&rpt);
	gb_measure_free(&ms);
	w->free(r->inst);
	free(r->initial);
	free(r->mirror);
	free(r->after);
	free(r->status);
	free(r->before);
	free(r->results);
	free(r);
	return rc;
}

const gb_command gb_cmd_stm = {
	.name = "stm",
	.summary = "transactional memory: PR-STM, GPU-STM, CSMV on 5 workloads",
	.run = run,
	.help = help,
	.registry = &engine_registry,
	.workloads = &workload_registry,
};
