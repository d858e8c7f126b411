/*
 * gpubench stm: software transactional memory engines on STM workloads.
 * Options, the engine and workload they choose, the repetition loop,
 * verification and the report. What an engine is and what it runs is in its
 * registry entry (stm/registry.c); what a workload is, with its options,
 * generator and oracle, in its own (workloads/stm_workloads.c).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/backend.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/memory.h"
#include "common/options.h"
#include "common/registry.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "stm/stm.h"
#include "workloads/stm_workload.h"

#define MAX_TABLE (1ull << 31)
#define MAX_WORKLOADS 8
#define MAX_ENGINES GB_MAX_IMPLS

typedef struct stm_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *algo, *workload_name;
	uint64_t threads, tx_per_thread, read_only, hash, block_size, cpu_workers, max_passes, retry_limit;
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
	ROW_ALGO, ROW_WORKLOAD, ROW_THREADS, ROW_TPT, ROW_READONLY, ROW_PRESORT, ROW_HASH, ROW_BLOCK,
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
				  "of three room types; the paper uses 0 and 20)"},
	[ROW_PRESORT] = {.name = "presort", .kind = GB_OPT_FLAG, .offset = AT(presort), .set_to = 1,
			 .help = "the application pre-orders the table so program order resolves its semantic "
				 "dependences (bank: every chain in order on one thread; vacation: one customer "
				 "per thread, bookings and cancellations in order)"},
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
		       .help = "prstm: a thread with postponed work gives up when no update transaction has "
			       "committed anywhere for S seconds: nothing left can then resolve its conflict; "
			       "its transactions are abandoned"},
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
	cJSON *runs = cJSON_AddArrayToObject(o, "workloads"), *cannot;
	char why[256];
	int i;

	gb_json_u64(o, "max_threads", e->max_threads);
	gb_json_u64(o, "max_words_per_transaction", e->max_set);
	for (r = e->runs; r->workload; r++)
		cJSON_AddItemToArray(runs, cJSON_CreateString(r->workload->name));
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
	fputs("\nVerification (on by default; a failure exits 3):\n", out);
	gb_help_wrap(out, fprintf(out, "  "), 2,
		     "Every committed update transaction takes a stamp while it holds its locks; the host "
		     "replays the committed transactions in stamp order from the state before the batch "
		     "with the workload's oracle (bank: every withdrawal had the money, the replay equals "
		     "the final balances exactly, money is conserved, no balance is negative; vacation: "
		     "every booking had a room and a free customer, every cancellation its booking, the "
		     "replay equals the final data, rooms held + free = rooms of every type). A --duration "
		     "run of rounds (bank), where entries commit many times, instead requires the final "
		     "data to equal the start plus every commit's effect (each entry's commits are "
		     "counted).");
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

/* Each chosen engine runs the workload, at these sizes. */
static void check_engines(const stm_opts *o)
{
	uint32_t need = o->workload->max_set(o->wl_opts);
	char why[256];
	unsigned k;

	for (k = 0; k < o->nengines; k++) {
		const stm_engine *e = o->engine[k];
		if (stm_cannot_run(e, o->workload, why, sizeof(why)))
			gb_die(GB_EXIT_USAGE, "%s", why);
		if (o->threads > e->max_threads)
			gb_die(GB_EXIT_USAGE, "option --threads: %" PRIu64 " is above what %s runs (accepted: 1..%u)",
			       o->threads, e->name, e->max_threads);
		if (need > e->max_set)
			gb_die(GB_EXIT_USAGE, "%s runs transactions of at most %u words, but %s transactions "
			       "with these options (--%s) touch up to %u",
			       e->name, e->max_set, o->workload->name, o->workload->max_set_option, need);
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
	o->table.presort = o->presort;
	o->table.seed = o->run.seed;
}

/* Time left before --timeout, counted from start_ns; 0 when it has passed. */
static uint64_t remaining_ns(const stm_opts *o, uint64_t start_ns)
{
	double left = o->run.timeout - gb_seconds_since(start_ns);
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

/* What one engine measured, from its first batch to its part of the report. */
typedef struct engine_run {
	const stm_engine *e;
	const stm_ops *ops;
	void *ctx;
	double *rate;       /* throughput of each finished repetition */
	uint32_t reps_done;
	/* totals over the timed batches */
	stm_counters c;
	double seconds, cycles_per_ns;
	uint64_t batches, batches_verified, abandoned;
	uint32_t block_size;
	int one_run;        /* --duration as one run of rounds over the table per repetition */
	int failed, verify_failed;
	stm_check chk;      /* the last verified batch */
	uint64_t checksum;  /* of the data words after it */
	char verify_msg[600];
} engine_run;

/* Everything one invocation measures. */
typedef struct stm_run {
	stm_opts o;
	gb_backend backend;
	gb_device_info dev;
	void *inst;                         /* the workload's generated table */
	tx_input in;
	uint32_t *initial, *mirror, *after; /* start state; replay state; device state */
	uint32_t *status;
	uint64_t t_start;
	double wall_seconds;
	int incomplete;
	engine_run er[MAX_ENGINES];
} stm_run;

static void progress(const stm_opts *o, const engine_run *er, uint32_t rep, uint64_t batch, double secs)
{
	if (gb_quiet || !isatty(2) || o->duration <= 0)
		return;
	fprintf(stderr, "\r%s rep %u/%" PRIu64 "  batch %" PRIu64 "  %.1f/%.1f s   ", er->e->name, rep + 1,
		o->run.reps, batch, secs, o->duration);
	fflush(stderr);
}

/*
 * Untimed batches until --warmup batches and --warmup-time seconds are done.
 * Warm-up only has to bring the clocks up: a warm-up batch is cut (its
 * threads stop between transactions) after max(1 s, 2 x --warmup-time), so a
 * slow table leaves the rest of --timeout to the timed batches.
 */
static void warm_up(stm_run *r, engine_run *er)
{
	const stm_opts *o = &r->o;
	double secs = 0;
	uint64_t cap = (uint64_t)((o->warmup_time > 0.5 ? 2 * o->warmup_time : 1.0) * 1e9);
	uint32_t i;

	for (i = 0; o->run.warmup && (i < o->run.warmup || secs < o->warmup_time) && !r->incomplete; i++) {
		stm_batch_result b;
		uint64_t left = remaining_ns(o, r->t_start);
		er->ops->load(er->ctx, r->initial);
		er->ops->run(er->ctx, left < cap ? left : cap, 0, &b);
		secs += b.seconds;
		er->block_size = b.block_size;
		r->incomplete = remaining_ns(o, r->t_start) == 0;
	}
}

/* Check a batch with the workload's oracle; sets verify_failed with a message. */
static void verify_batch(stm_run *r, engine_run *er, const stm_batch_result *b, uint32_t rep, uint64_t batch)
{
	const stm_workload *w = r->o.workload;
	stm_check *chk = &er->chk;

	er->ops->fetch(er->ctx, r->after, r->status);
	if (er->one_run)
		w->verify_counts(r->inst, r->initial, r->status, r->after, chk);
	else
		w->verify_batch(r->inst, r->mirror, r->status, r->after, chk);
	er->batches_verified++;
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
		snprintf(er->verify_msg, sizeof(er->verify_msg), "%s%srep %u batch %" PRIu64 ": %s",
			 er == r->er ? "" : er->e->name, er == r->er ? "" : ": ", rep, batch, chk->message);
		er->verify_failed = 1;
	}
}

/*
 * The timed repetitions: each starts from the initial data and runs batches
 * until --duration seconds of device time (at least one). A repetition cut
 * short by a timeout or a failure is not a sample.
 */
static void timed_reps(stm_run *r, engine_run *er)
{
	const stm_opts *o = &r->o;
	uint32_t rep;

	for (rep = 0; rep < o->run.reps && !er->verify_failed && !r->incomplete && !er->failed; rep++) {
		double rep_secs = 0;
		uint64_t rep_commits = 0, batch = 0;
		int mirror_valid = 1;

		er->ops->load(er->ctx, r->initial);
		memcpy(r->mirror, r->initial, (size_t)r->in.words * sizeof(uint32_t));
		do {
			stm_batch_result b;
			int check = o->run.verify && (er->batches % o->run.verify_every) == 0;
			uint64_t left = remaining_ns(o, r->t_start);

			if (left == 0) {
				r->incomplete = 1;
				break;
			}
			if (check && !mirror_valid && !er->one_run)
				er->ops->fetch(er->ctx, r->mirror, NULL);
			er->ops->run(er->ctx, left, er->one_run ? (uint64_t)(o->duration * 1e9) : 0, &b);
			stm_counters_add(&er->c, &b.c);
			er->seconds += b.seconds;
			er->cycles_per_ns = b.cycles_per_ns;
			er->block_size = b.block_size;
			er->batches++;
			batch++;
			rep_secs += b.seconds;
			rep_commits += b.c.commits_update + b.c.commits_readonly;
			if (b.c.threads_failed) {
				er->failed = 1;
				break;
			}
			if (b.c.threads_timed_out)
				r->incomplete = 1;
			if (check)
				verify_batch(r, er, &b, rep, batch);
			else if (!er->one_run)
				er->abandoned += r->in.ntx - (b.c.commits_update + b.c.commits_readonly);
			mirror_valid = check;
			progress(o, er, rep, batch, rep_secs);
		} while (!er->verify_failed && !r->incomplete && !er->one_run && rep_secs < o->duration);
		if (r->incomplete || er->failed || er->verify_failed)
			break;
		er->rate[er->reps_done++] = rep_secs > 0 ? (double)rep_commits / rep_secs : 0;
	}
	if (!gb_quiet && isatty(2) && o->duration > 0)
		fputc('\n', stderr);
}

/* One engine: open it on the table, warm up, time the repetitions, close it. */
static void run_engine(stm_run *r, engine_run *er)
{
	stm_opts *o = &r->o;
	const stm_engine_run *run = stm_engine_run_of(er->e, o->workload);
	const stm_workload *w = o->workload;

	er->ops = r->backend == GB_BACKEND_GPU ? run->gpu : run->cpu;
	er->rate = gb_xcalloc(o->run.reps, sizeof(double), "throughput samples");
	o->p.timeout_ns = remaining_ns(o, r->t_start);
	er->ctx = er->ops->open(&r->in, &o->p);
	if (o->duration > 0) {
		int fit = w->rounds_fit && w->rounds_fit(r->inst);
		int resident = er->ops->rounds_ok(er->ctx);
		er->one_run = er->e->timed_rounds && resident && fit;
		if (!er->one_run)
			gb_note("note: %s: --duration runs as repeated batches: %s", er->e->name,
				!er->e->timed_rounds ? er->e->no_rounds :
				!resident ? "not every GPU block fits on the device at once" :
				w->rounds_unfit);
	}
	warm_up(r, er);
	timed_reps(r, er);
	er->ops->close(er->ctx);
	if (er->failed)
		gb_die(GB_EXIT_RUNTIME, "stm: a %s transaction touched more than %u distinct words, beyond %s's "
		       "read/write set capacity", w->name, er->e->max_set, er->e->name);
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
	return commits && er->cycles_per_ns > 0 ? (double)cycles / er->cycles_per_ns / (double)commits : 0;
}

static gb_stats throughput_of(const engine_run *er)
{
	return gb_stats_of(er->rate, er->reps_done);
}

static void fill_config(cJSON *cfg, const stm_run *r)
{
	const stm_opts *o = &r->o;
	cJSON *cmp;
	unsigned k;

	gb_json_str(cfg, "algo", o->algo);
	cmp = cJSON_AddArrayToObject(cfg, "compare");
	for (k = 1; k < o->nengines; k++)
		cJSON_AddItemToArray(cmp, cJSON_CreateString(o->engine[k]->name));
	gb_json_str(cfg, "workload", o->workload->name);
	gb_json_str(cfg, "backend", gb_backend_name(r->backend));
	gb_json_u64(cfg, "threads", o->p.threads);
	gb_json_u64(cfg, "tx_per_thread", o->tx_per_thread);
	gb_json_u64(cfg, "read_only", o->read_only);
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

static void fill_results(cJSON *res, const stm_run *r, const engine_run *er)
{
	uint64_t commits = commits_of(er), aborts = aborts_of(er);
	uint64_t cycles = er->c.cycles_committed + er->c.cycles_wasted;
	cJSON *ab, *ph;

	gb_json_stats(res, "throughput_tx_per_s", throughput_of(er));
	gb_json_u64(res, "reps_completed", er->reps_done);
	gb_json_u64(res, "batches", er->batches);
	gb_json_u64(res, "transactions_per_batch", r->in.ntx);
	gb_json_str(res, "timed_run", er->one_run ? "rounds" : "batches");
	gb_json_num(res, "device_seconds", er->seconds);
	gb_json_num(res, "wall_seconds", r->wall_seconds);
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
	gb_json_num(res, "cycles_per_ns", er->cycles_per_ns);
	gb_json_num(res, "time_per_tx_ns", per_commit_ns(er, cycles));
	gb_json_num(res, "wasted_per_tx_ns", per_commit_ns(er, er->c.cycles_wasted));
	gb_json_num(res, "wasted_fraction", cycles ? (double)er->c.cycles_wasted / (double)cycles : 0);
	ph = cJSON_AddObjectToObject(res, "committed_phases_ns");
	gb_json_num(ph, "read", per_commit_ns(er, er->c.cycles_read));
	gb_json_num(ph, "validate", per_commit_ns(er, er->c.cycles_validate));
	gb_json_num(ph, "commit", per_commit_ns(er, er->c.cycles_commit));
	gb_json_u64(res, "passes_max", er->c.passes_max);
	gb_json_u64(res, "threads_gave_up", er->c.threads_gave_up);
	gb_json_u64(res, "threads_stalled", er->c.threads_stalled);
	gb_json_u64(res, "threads_timed_out", er->c.threads_timed_out);
}

/* An engine's verdict: 1, 0, or -1 when nothing of it was checked. */
static int verdict_of(const stm_run *r, const engine_run *er)
{
	if (er->verify_failed)
		return 0;
	return r->o.run.verify && er->batches_verified ? 1 : -1;
}

static void json_verdict(cJSON *obj, int v)
{
	if (v < 0)
		cJSON_AddNullToObject(obj, "verified"); /* nothing was checked */
	else
		gb_json_bool(obj, "verified", v);
}

static void fill_compare(cJSON *res, const stm_run *r)
{
	const engine_run *er0 = &r->er[0];
	cJSON *arr = cJSON_AddArrayToObject(res, "compare");
	unsigned k;

	for (k = 1; k < r->o.nengines; k++) {
		const engine_run *er = &r->er[k];
		cJSON *j = cJSON_CreateObject();
		double mine = throughput_of(er0).median, theirs = throughput_of(er).median;
		gb_json_str(j, "algo", er->e->name);
		fill_results(j, r, er);
		gb_json_num(j, "speedup_of_algo", mine > 0 && theirs > 0 ? mine / theirs : 0);
		json_verdict(j, verdict_of(r, er));
		gb_json_u64(j, "batches_verified", er->batches_verified);
		cJSON_AddItemToArray(arr, j);
	}
}

static void fill_verification(cJSON *ver, const stm_run *r)
{
	const stm_workload *w = r->o.workload;
	const engine_run *er0 = &r->er[0];
	const char *message = "";
	int verdict = -1;
	unsigned k, f;
	char hex[24];

	for (k = 0; k < r->o.nengines; k++) {
		int v = verdict_of(r, &r->er[k]);
		if (v == 0 && verdict != 0)
			message = r->er[k].verify_msg;
		if (v == 0 || (v == 1 && verdict < 0))
			verdict = v;
	}
	json_verdict(ver, verdict);
	gb_json_str(ver, "method", !r->o.run.verify ? "none" : er0->one_run ? w->method_counts : w->method_batch);
	gb_json_u64(ver, "batches_verified", er0->batches_verified);
	gb_json_u64(ver, "batches_total", er0->batches);
	gb_json_str(ver, "message", message);
	if (r->o.run.verify && er0->batches_verified) {
		for (f = 0; f < er0->chk.nfacts; f++)
			gb_json_num(ver, er0->chk.facts[f].name, er0->chk.facts[f].value);
		snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)er0->checksum);
		gb_json_str(ver, w->checksum_key, hex);
	}
}

static void print_engine_verdict(const stm_run *r, const engine_run *er)
{
	const stm_workload *w = r->o.workload;

	if (!r->o.run.verify)
		printf("  verified     not checked (--no-verify)\n");
	else if (er->batches_verified == 0)
		printf("  verified     not checked (no batch completed)\n");
	else if (er->verify_failed)
		printf("  verified     FAILED: %s\n", er->verify_msg);
	else if (er->one_run)
		printf("  verified     yes: %" PRIu64 " of %" PRIu64 " runs: %s\n", er->batches_verified,
		       er->batches, w->checked_counts);
	else
		printf("  verified     yes: %" PRIu64 " of %" PRIu64 " batches %s\n", er->batches_verified,
		       er->batches, w->checked_batch);
}

static void print_summary(const stm_run *r)
{
	const stm_opts *o = &r->o;
	const engine_run *er = &r->er[0];
	gb_stats s = throughput_of(er);
	uint64_t commits = commits_of(er), aborts = aborts_of(er);
	int gpu = r->backend == GB_BACKEND_GPU;
	char what[128];
	unsigned k;

	o->workload->describe(r->inst, what, sizeof(what));
	printf("gpubench stm: %s on %s, %s backend%s%s%s, %u threads, %s, hash %u\n", o->algo,
	       o->workload->name, gb_backend_name(r->backend), gpu ? " (" : "", gpu ? r->dev.name : "",
	       gpu ? ")" : "", o->p.threads, what, o->p.hash);
	if (s.n)
		printf("  throughput   %.4g committed tx/s (median of %zu; min %.4g, max %.4g)\n", s.median, s.n,
		       s.min, s.max);
	else
		printf("  throughput   none: no repetition completed\n");
	printf("  commits      %" PRIu64 " (%" PRIu64 " read-only) in %" PRIu64 " %s, %.3f s of device time\n",
	       commits, er->c.commits_readonly, er->batches, er->one_run ? "runs" : "batches", er->seconds);
	printf("  aborts       %" PRIu64 " (conflict %" PRIu64 ", validation %" PRIu64 ", semantic %" PRIu64
	       "), abort rate %.2f%%\n",
	       aborts, er->c.aborts_locked + er->c.aborts_priority, er->c.aborts_validation,
	       er->c.aborts_semantic, commits + aborts ? 100.0 * aborts / (commits + aborts) : 0);
	if (er->abandoned)
		printf("  abandoned    %" PRIu64 " transactions never committed: WARNING, the throughput\n"
		       "               counts only the others (see --max-passes, --stall-timeout,\n"
		       "               --retry-limit)\n",
		       er->abandoned);
	else
		printf("  abandoned    0\n");
	if (er->c.retry_limit_reached)
		printf("  retry limit  %" PRIu64 " transactions given up after --retry-limit %u attempts\n",
		       er->c.retry_limit_reached, o->p.retry_limit);
	print_engine_verdict(r, er);
	for (k = 1; k < o->nengines; k++) {
		const engine_run *c = &r->er[k];
		gb_stats t = throughput_of(c);
		char speed[128];
		int v = verdict_of(r, c);
		printf("  compare      %s: ", c->e->name);
		if (t.n)
			printf("%.4g committed tx/s (median of %zu)", t.median, t.n);
		else
			printf("no repetition completed");
		printf(", abandoned %" PRIu64 ", %s", c->abandoned,
		       v < 0 ? "not checked" : v ? "verified" : "verification FAILED");
		/* Throughput is a rate: the --algo is faster when its rate is the higher one,
		 * which gb_speedup_text says of times, so the two go in swapped. */
		if (s.n && t.n && s.median > 0 && t.median > 0)
			printf("; %s", gb_speedup_text(speed, sizeof(speed), o->algo, t.median, s.median));
		printf("\n");
	}
	if (r->incomplete)
		printf("  incomplete   --timeout %g s reached\n", o->run.timeout);
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
	gb_report rpt;
	char err[512];
	unsigned k;
	int rc = 0, bad = 0;

	parse(o, argc, argv);
	r->backend = gb_backend_resolve((gb_backend)o->run.backend, backends_of(o), o->algo, &r->dev);
	if (!o->p.cpu_workers)
		o->p.cpu_workers = (uint32_t)gb_cpu_count();
	if (o->p.cpu_workers > o->p.threads)
		o->p.cpu_workers = o->p.threads;

	check_memory(o, r->backend, &r->dev);
	r->t_start = gb_now_ns(); /* --timeout counts from here: generation and warm-up included */
	r->inst = o->workload->generate(o->wl_opts, &o->table, err, sizeof(err));
	if (!r->inst)
		gb_die(GB_EXIT_USAGE, "stm: %s", err);
	r->in = o->workload->input(r->inst);
	gb_note("note: generated %" PRIu64 " %s transactions in %.2f s", r->in.ntx, o->workload->name,
		gb_seconds_since(r->t_start));
	r->initial = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words");
	r->mirror = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "replay data words");
	r->after = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "device data words");
	r->status = gb_xmalloc(r->in.ntx * sizeof(uint32_t), "transaction status");
	o->workload->initial(r->inst, r->initial);

	for (k = 0; k < o->nengines && !r->incomplete; k++) {
		r->er[k].e = o->engine[k];
		run_engine(r, &r->er[k]);
		bad |= r->er[k].verify_failed;
	}
	for (; k < o->nengines; k++)
		r->er[k].e = o->engine[k]; /* not run: --timeout came first */
	r->wall_seconds = gb_seconds_since(r->t_start);

	gb_report_init(&rpt, "stm", argc, argv);
	gb_report_set_device(&rpt, r->backend, r->backend == GB_BACKEND_GPU ? &r->dev : NULL,
			     (int)o->p.cpu_workers);
	fill_config(rpt.config, r);
	if (r->incomplete)
		gb_report_incomplete(&rpt);
	if (r->er[0].abandoned)
		gb_report_warn(&rpt, "%" PRIu64 " transactions were abandoned (never committed%s): the "
			       "throughput counts only the others", r->er[0].abandoned,
			       r->er[0].c.retry_limit_reached ? ", some given up at --retry-limit" : "");
	fill_results(rpt.results, r, &r->er[0]);
	fill_compare(rpt.results, r);
	fill_verification(rpt.verification, r);
	if (o->run.json && gb_report_write(&rpt, o->run.json) != 0)
		rc = GB_EXIT_RUNTIME;
	else if (!gb_quiet && !(o->run.json && strcmp(o->run.json, "-") == 0))
		print_summary(r);
	if (!rc && bad) {
		for (k = 0; k < o->nengines; k++)
			if (r->er[k].verify_failed)
				gb_warn("stm: verification failed: %s", r->er[k].verify_msg);
		rc = GB_EXIT_VERIFY;
	} else if (!rc && r->incomplete) {
		gb_warn("stm: --timeout %g s reached; the report is marked incomplete", o->run.timeout);
		rc = GB_EXIT_RUNTIME;
	}
	gb_report_free(&rpt);
	o->workload->free(r->inst);
	for (k = 0; k < o->nengines; k++)
		free(r->er[k].rate);
	free(r->initial);
	free(r->mirror);
	free(r->after);
	free(r->status);
	free(r);
	return rc;
}

const gb_command gb_cmd_stm = {
	.name = "stm",
	.summary = "software transactional memory: PR-STM, GPU-STM on bank, vacation",
	.run = run,
	.help = help,
	.registry = &engine_registry,
	.workloads = &workload_registry,
};
