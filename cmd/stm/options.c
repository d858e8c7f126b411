/*
 * gpubench stm's options: its own rows, the rows each engine family declares
 * (stm_engine_options) and each workload's, one spec of them all for the
 * parser and --help; then what they choose and the checks that need several
 * of them (exit 2).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd/stm/stm_cmd.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/opts.h"
#include "common/output.h"

#define MAX_TABLE (1ull << 31)
/* stm's own rows, the engines' and every workload's: room for all of them with some to spare. */
#define MAX_ROWS 128

#define AT(field) offsetof(stm_opts, field)

/* stm's rows of the table and the backends, which --help shows first */
enum {
	ROW_ALGO, ROW_WORKLOAD, ROW_THREADS, ROW_TPT, ROW_READONLY, ROW_RO_THREADS, ROW_SEMANTIC, ROW_PRESORT, ROW_HASH, ROW_BLOCK,
	ROW_WORKERS, NTABLE
};

/* --threads' range is the largest any engine runs; each engine's own limit is checked after. */
static const gb_opt_row table_rows[NTABLE] = {
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
				  "of three room types; skiplist: lookups; the paper uses 0 and 20), that share of "
				  "every thread's block (see --read-only-threads)"},
	[ROW_RO_THREADS] = {.name = "read-only-threads", .kind = GB_OPT_FLAG, .offset = AT(read_only_threads),
			    .set_to = 1,
			    .help = "--read-only's share as whole threads, the PR-STM paper's \"20% of the "
				    "threads\": the last P% of --threads (rounded) run only read-only "
				    "transactions, the others none (an odd one out aside); without it every "
				    "thread mixes both kinds. Nothing changes at --read-only 0"},
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
		       .help = "GPU threads per block, a multiple of 32; 0 spreads warps over all SMs (the CPU "
			       "backend, which has no blocks, accepts and ignores it, so that one command line "
			       "serves both)"},
	[ROW_WORKERS] = {.name = "cpu-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 4096,
			 .offset = AT(cpu_workers),
			 .help = "OS threads of the CPU backend (default: the CPUs this process may use: its "
				 "affinity and cgroup quota); the logical threads are "
				 "interleaved over them"},
};

/* stm's rows of the timing, which --help shows after the engines' */
enum { ROW_DURATION, ROW_WARMUP_TIME, ROW_PAPER, ROW_VERIFY_THREADS, NTIMING };

static const gb_opt_row timing_rows[NTIMING] = {
	[ROW_DURATION] = {.name = "duration", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0, .fhi = 86400,
			  .def = "0", .offset = AT(duration),
			  .help = "seconds of device time per repetition (0: one pass over the table; the "
				  "paper: 5): one run in which every thread sweeps its block round after round "
				  "until S seconds (repeated batches, each from the initial data, where the engine "
				  "runs no rounds, not all GPU threads fit at once, or rounds could overflow the "
				  "data)"},
	[ROW_WARMUP_TIME] = {.name = "warmup-time", .kind = GB_OPT_REAL, .metavar = "S", .flo = 0, .fhi = 3600,
			     .def = "0.2", .offset = AT(warmup_time),
			     .help = "warm-up lasts at least S seconds too, so the GPU clock has ramped up "
				     "from idle before timing starts (--warmup 0 turns warm-up off); a warm-up "
				     "batch is cut after max(1, 2 x S) s"},
	[ROW_PAPER] = {.name = "paper", .kind = GB_OPT_FLAG, .offset = AT(paper), .set_to = 1,
		       .help = "the paper's protocol: --duration 5 --reps 10 (values given explicitly win)"},
	[ROW_VERIFY_THREADS] = {.name = "verify-threads", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 256,
				.offset = AT(verify_threads),
				.help = "host threads that check --duration's batches while the device runs "
					"the next ones (engines without timed rounds; same checks, settled in "
					"batch order); 0 checks each batch before the next starts. Default: "
					"the GPU backend the CPUs this process may use less one, at most 16; "
					"the CPU backend 0, so that its batches have the cores to themselves"},
};

static const gb_opt_default shared_settings[] = {
	{.name = "reps", .def = "5"},
	{.name = "warmup", .def = "1"},
	{.name = "verify-every", .def = "1", .lo = 1, .hi = UINT32_MAX},
	{NULL, NULL, 0, 0},
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

/*
 * The spec's rows in --help's order: the table rows, the engine families'
 * [eng_first, timing_first), the timing rows, then workload k's from
 * wl_first[k]. An engine option that several families declare is one row,
 * writing into the area of the first; the others get its value after parsing.
 */
static size_t eng_first, timing_first, wl_first[STM_CMD_MAX_WORKLOADS + 1];
/* the engine families with options, in registry order; family i's area is stm_opts.family[i] */
static const stm_engine_options *families[STM_CMD_MAX_FAMILIES];
static unsigned nfamilies;

static size_t family_at(unsigned i)
{
	return offsetof(stm_opts, family) + i * sizeof(((stm_opts *)0)->family[0]);
}

static const void *family_opts(const stm_opts *o, const stm_engine_options *f)
{
	unsigned i;
	for (i = 0; families[i] != f; i++)
		;
	return o->family[i].bytes;
}

/* The spec's engine row called name, or 0 (stm's --algo, never an engine's) when there is none yet. */
static size_t engine_row(const gb_opt_row *rows, size_t end, const char *name)
{
	size_t r;
	for (r = eng_first; r < end; r++)
		if (strcmp(rows[r].name, name) == 0)
			return r;
	return 0;
}

/* Family f's rows after rows[n - 1], their offsets moved into its area; returns the new count. */
static size_t add_family(gb_opt_row *rows, size_t n, const stm_engine_options *f)
{
	size_t j;
	unsigned i;

	for (i = 0; i < nfamilies; i++)
		if (families[i] == f)
			return n;
	if (nfamilies == STM_CMD_MAX_FAMILIES || f->size > STM_ENGINE_OPTS_MAX || n + f->nrows > MAX_ROWS)
		gb_die(GB_EXIT_RUNTIME, "stm: the engine registry outgrew cmd/stm's option space");
	families[nfamilies] = f;
	for (j = 0; j < f->nrows; j++) {
		size_t r = engine_row(rows, n, f->rows[j].name);
		if (!r) {
			rows[n] = f->rows[j];
			rows[n++].offset += family_at(nfamilies);
		} else if (rows[r].kind != f->rows[j].kind || strcmp(rows[r].def ? rows[r].def : "",
								      f->rows[j].def ? f->rows[j].def : "")) {
			gb_die(GB_EXIT_RUNTIME, "stm: engines declare option --%s with different types or defaults",
			       f->rows[j].name);
		}
	}
	nfamilies++;
	return n;
}

/*
 * Whether engine e (which runs workload w) holds the words w's transactions
 * touch with these options: its sets hold the update transactions, and the
 * read-only ones unless it keeps no read set for them or logs the reads past
 * its set, up to long_reads more. SETS_FIT, or which limit they pass; *need
 * and *need_e: the words of any transaction, and of those its sets must hold.
 */
enum { SETS_FIT, SETS_LONG_READS, SETS_FULL };
static int sets_of(const stm_engine *e, const stm_engine_run *run, const stm_workload *w, const void *opts,
		   uint32_t *need, uint32_t *need_e)
{
	*need = *need_e = w->max_set(opts);
	/* an engine whose read-only transactions keep no read set, or log reads past its sets,
	 * is bounded by the updates */
	if ((e->snapshot_reads || run->long_reads) && w->max_update_set)
		*need_e = w->max_update_set(opts);
	if (run->long_reads && *need > run->max_set && *need - run->max_set > run->long_reads)
		return SETS_LONG_READS;
	return *need_e > run->max_set ? SETS_FULL : SETS_FIT;
}

static int some_engine_fits(const stm_workload *w, const void *opts)
{
	uint32_t need, need_e;
	unsigned k;

	for (k = 0; stm_engines[k]; k++) {
		const stm_engine_run *run = stm_engine_run_of(stm_engines[k], w);
		if (run && sets_of(stm_engines[k], run, w, opts, &need, &need_e) == SETS_FIT)
			return 1;
	}
	return 0;
}

/*
 * The largest value of workload w's row j (the option that sets the most
 * words one transaction touches, w->max_set_option) that some engine runs,
 * the other options at their defaults: the range --help gives is one that
 * runs, not one every engine refuses past a point.
 */
static uint64_t runnable_hi(const stm_workload *w, size_t j)
{
	union {
		max_align_t align;
		unsigned char bytes[STM_WORKLOAD_OPTS_MAX];
	} opts;
	uint64_t lo = w->rows[j].lo, hi = w->rows[j].hi, *v = (uint64_t *)(opts.bytes + w->rows[j].offset);

	memset(&opts, 0, sizeof(opts));
	gb_opts_defaults(w->rows, w->nrows, opts.bytes);
	*v = hi;
	if (some_engine_fits(w, opts.bytes))
		return hi;
	*v = lo;
	if (!some_engine_fits(w, opts.bytes))
		return hi; /* nothing runs even at the bottom: the engines' checks say why */
	while (hi - lo > 1) { /* the sets grow with the value: lo runs, hi does not */
		*v = lo + (hi - lo) / 2;
		if (some_engine_fits(w, opts.bytes))
			lo = *v;
		else
			hi = *v;
	}
	return lo;
}

/* The rows: stm's own, the engine families', each workload's; offsets moved into their areas. */
static const gb_opt_spec *spec_of(void)
{
	static gb_opt_row rows[MAX_ROWS];
	size_t n = NTABLE, k, j;
	uint32_t max_threads = 1;

	if (spec.rows)
		return &spec;
	memcpy(rows, table_rows, sizeof(table_rows));
	for (k = 0; stm_engines[k]; k++)
		if (stm_engines[k]->max_threads > max_threads)
			max_threads = stm_engines[k]->max_threads;
	rows[ROW_THREADS].hi = max_threads;
	eng_first = n;
	for (k = 0; stm_engines[k]; k++)
		if (stm_engines[k]->options)
			n = add_family(rows, n, stm_engines[k]->options);
	timing_first = n;
	memcpy(rows + n, timing_rows, sizeof(timing_rows));
	n += NTIMING;
	for (k = 0; stm_workloads[k]; k++) {
		const stm_workload *w = stm_workloads[k];
		if (k == STM_CMD_MAX_WORKLOADS || w->opts_size > STM_WORKLOAD_OPTS_MAX || n + w->nrows > MAX_ROWS)
			gb_die(GB_EXIT_RUNTIME, "stm: the workloads' option rows outgrew cmd/stm/options.c's MAX_ROWS");
		wl_first[k] = n;
		for (j = 0; j < w->nrows; j++) {
			rows[n] = w->rows[j];
			if (w->max_set_option && strcmp(w->rows[j].name, w->max_set_option) == 0 &&
			    w->rows[j].kind == GB_OPT_UINT)
				rows[n].hi = runnable_hi(w, j);
			rows[n++].offset += offsetof(stm_opts, wl) + k * sizeof(((stm_opts *)0)->wl[0]);
		}
	}
	wl_first[k] = n;
	spec.rows = rows;
	spec.nrows = n;
	return &spec;
}

static size_t value_size(gb_opt_kind kind)
{
	switch (kind) {
	case GB_OPT_UINT:
		return sizeof(uint64_t);
	case GB_OPT_REAL:
		return sizeof(double);
	case GB_OPT_TEXT:
		return sizeof(const char *);
	default:
		return sizeof(int);
	}
}

/* Each family's copy of the options it shares with a family before it (the spec writes the first's). */
static void share_engine_options(stm_opts *o)
{
	unsigned i;
	size_t j;

	for (i = 0; i < nfamilies; i++)
		for (j = 0; j < families[i]->nrows; j++) {
			const gb_opt_row *own = &families[i]->rows[j];
			const gb_opt_row *row = &spec.rows[engine_row(spec.rows, timing_first, own->name)];
			unsigned char *to = (unsigned char *)o + family_at(i) + own->offset;
			if ((unsigned char *)o + row->offset != to)
				memcpy(to, (unsigned char *)o + row->offset, value_size(own->kind));
		}
}

static void extra_help(FILE *out)
{
	char why[256];
	int i, j;

	gb_registry_help(out, &stm_cmd_engines);
	gb_registry_help(out, &stm_cmd_workloads);
	for (i = 0; stm_engines[i]; i++)
		for (j = 0; stm_workloads[j]; j++)
			if (stm_cannot_run(stm_engines[i], stm_workloads[j], why, sizeof(why)))
				gb_help_wrap(out, fprintf(out, "  "), 2, why);
	for (j = 0; stm_workloads[j]; j++) {
		const stm_refusal *f;
		for (f = stm_workloads[j]->refuses; f && f->option; f++) {
			char line[512];
			snprintf(line, sizeof(line), "--%s does not apply to --workload %s: %s.", f->option,
				 stm_workloads[j]->head.name, f->why);
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

void stm_cmd_help(FILE *out)
{
	gb_opts_help(out, spec_of());
}

/* An engine family's option given where no chosen engine reads it. */
static void check_engine_options(const stm_opts *o, const unsigned char *given)
{
	size_t r, j;
	unsigned k;
	int i;

	for (r = eng_first; r < timing_first; r++) {
		char readers[128] = "";
		int used = 0;
		if (!given[r])
			continue;
		for (i = 0; stm_engines[i]; i++) {
			const stm_engine_options *f = stm_engines[i]->options;
			for (j = 0; f && j < f->nrows; j++)
				if (strcmp(f->rows[j].name, spec.rows[r].name) == 0)
					break;
			if (!f || j == f->nrows)
				continue;
			snprintf(readers + strlen(readers), sizeof(readers) - strlen(readers), "%s%s",
				 readers[0] ? ", " : "", stm_engines[i]->head.name);
			for (k = 0; k < o->nengines; k++)
				used |= o->engine[k] == stm_engines[i];
		}
		if (!used)
			gb_die(GB_EXIT_USAGE, "option --%s applies to %s only, not to --algo %s", spec.rows[r].name,
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
				       spec.rows[r].name, stm_workloads[k]->head.name, o->workload->head.name);
}

/* One of stm's own table options given a value with a workload that has no use for it. */
static void check_refusals(const stm_opts *o, const unsigned char *given)
{
	const stm_refusal *f;
	size_t r;

	for (f = o->workload->refuses; f && f->option; f++)
		for (r = 0; r < wl_first[0]; r++) {
			const gb_opt_row *row = &spec.rows[r];
			const unsigned char *at = (const unsigned char *)o + row->offset;
			uint64_t v = 1;
			int flag;
			if (!given[r] || strcmp(row->name, f->option) != 0)
				continue;
			if (row->kind == GB_OPT_FLAG) {
				memcpy(&flag, at, sizeof(flag));
				v = flag != 0;
			} else if (row->kind == GB_OPT_UINT) {
				memcpy(&v, at, sizeof(v));
			}
			if (v)
				gb_die(GB_EXIT_USAGE, "option --%s does not apply to --workload %s: %s", f->option,
				       o->workload->head.name, f->why);
		}
}

/* Each chosen engine runs the workload, at these sizes. */
static void check_engines(const stm_opts *o)
{
	const char *max_set_option = o->workload->max_set_by ? o->workload->max_set_by(o->wl_opts)
							     : o->workload->max_set_option;
	char why[256];
	unsigned k;

	for (k = 0; k < o->nengines; k++) {
		const stm_engine *e = o->engine[k];
		const stm_engine_run *run;
		uint32_t need, need_e;
		int sets;
		if (stm_cannot_run(e, o->workload, why, sizeof(why)))
			gb_die(GB_EXIT_USAGE, "%s", why);
		run = stm_engine_run_of(e, o->workload);
		sets = sets_of(e, run, o->workload, o->wl_opts, &need, &need_e);
		if (sets == SETS_LONG_READS)
			gb_die(GB_EXIT_USAGE, "%s runs %s read-only transactions of at most %u words, but %s "
			       "transactions with these options (--%s) read up to %u",
			       e->head.name, o->workload->head.name, run->max_set + run->long_reads, o->workload->head.name,
			       max_set_option, need);
		/* before the backend is resolved, so a CPU-only build says the same */
		if (o->run.backend == GB_BACKEND_GPU && e->no_gpu)
			gb_die(GB_EXIT_USAGE, "--backend gpu: %s", e->no_gpu);
		if (o->threads > e->max_threads)
			gb_die(GB_EXIT_USAGE, "option --threads: %" PRIu64 " is above what %s runs (accepted: 1..%u)",
			       o->threads, e->head.name, e->max_threads);
		if (sets == SETS_FULL)
			gb_die(GB_EXIT_USAGE, "%s runs %s transactions of at most %u words, but %s transactions "
			       "with these options (--%s) touch up to %u",
			       e->head.name, o->workload->head.name, run->max_set, o->workload->head.name, max_set_option, need_e);
	}
}

void stm_cmd_parse(stm_opts *o, int argc, char **argv)
{
	const gb_opt_spec *sp = spec_of();
	unsigned char given[MAX_ROWS + GB_OPTS_SHARED];
	gb_impl_choice chosen;
	uint32_t words;
	unsigned k;
	int i;

	memset(o, 0, sizeof(*o));
	gb_opts_parse(sp, o, given, argc, argv);
	share_engine_options(o);
	{
		const gb_path_use paths[] = {{"json", o->run.json, 0}};
		gb_paths_check("stm", paths, 1);
	}
	if (o->paper) {
		if (!given[timing_first + ROW_DURATION])
			o->duration = 5;
		if (!gb_opts_given(sp, given, "reps"))
			o->run.reps = 10;
	}
	o->workload = gb_registry_pick(&stm_cmd_workloads, NULL, "workload", o->workload_name);
	for (i = 0; stm_workloads[i] != o->workload; i++)
		;
	o->wl_opts = o->wl[i].bytes;
	check_workload_options(o, given);
	if (given[ROW_SEMANTIC] && !o->workload->semantic)
		gb_die(GB_EXIT_USAGE, "option --semantic-ratio: --workload %s has no semantic transactions",
		       o->workload->head.name);
	check_refusals(o, given);
	o->verify_threads_given = given[timing_first + ROW_VERIFY_THREADS];
	if (given[timing_first + ROW_WARMUP_TIME] && o->run.warmup == 0)
		gb_opt_does_not_apply("warmup-time", "a run with warm-up", "--warmup 0, which turns it off");
	/* An engine runs on either backend: --backend is resolved in run(), against the backends
	 * the chosen engines were built with (a CPU-only build says it has no CUDA). */
	gb_impl_choose(&stm_cmd_engines, NULL, o->algo, o->run.compare, GB_BACKEND_AUTO, &chosen);
	for (k = 0; k < chosen.n; k++)
		o->engine[k] = chosen.e[k];
	o->nengines = chosen.n;
	check_engine_options(o, given);
	check_engines(o);
	if (o->verify_threads_given && !o->run.verify)
		gb_die(GB_EXIT_USAGE, "stm: option --verify-threads does not apply with --no-verify, which checks "
		       "nothing");
	if (o->block_size % 32)
		gb_die(GB_EXIT_USAGE, "option --block-size: %" PRIu64 " is not a multiple of 32 "
		       "(accepted: 0 or 32..1024 in steps of 32)", o->block_size);
	words = o->workload->words(o->wl_opts);
	if (o->hash > words)
		gb_die(GB_EXIT_USAGE, "option --hash: %" PRIu64 " exceeds the %u data words of --workload %s "
		       "(--%s) (accepted: 1..%u)", o->hash, words, o->workload->head.name, o->workload->words_option,
		       words);
	if (o->threads * o->tx_per_thread > MAX_TABLE)
		gb_die(GB_EXIT_USAGE,
		       "--threads %" PRIu64 " x --tx-per-thread %" PRIu64 " = %" PRIu64 " transactions exceeds "
		       "the table limit of %llu",
		       o->threads, o->tx_per_thread, o->threads * o->tx_per_thread, MAX_TABLE);
	o->p.threads = (uint32_t)o->threads;
	o->p.hash = (uint32_t)o->hash;
	o->p.block_size = (uint32_t)o->block_size;
	o->p.cpu_workers = (uint32_t)o->cpu_workers;
	o->table.threads = (uint32_t)o->threads;
	o->table.tx_per_thread = (uint32_t)o->tx_per_thread;
	o->table.read_only = (uint32_t)o->read_only;
	o->table.read_only_threads = o->read_only_threads;
	if (o->read_only_threads && o->threads * o->read_only % 100) {
		uint64_t ro = tx_percent_of(o->threads, (uint32_t)o->read_only);
		gb_note("note: --read-only %" PRIu64 " of --threads %" PRIu64 " as whole threads is %" PRIu64
			" read-only thread%s (%.3g%%); a --threads that is a multiple of 100 gives any share exactly",
			o->read_only, o->threads, ro, ro == 1 ? "" : "s", 100.0 * (double)ro / (double)o->threads);
	}
	o->table.semantic_ratio = (uint32_t)o->semantic_ratio;
	o->table.presort = o->presort;
	o->table.seed = o->run.seed;
	for (k = 0; k < o->nengines; k++) {
		const stm_engine_run *run = stm_engine_run_of(o->engine[k], o->workload);
		if (!o->table.max_set || run->max_set < o->table.max_set) {
			o->table.max_set = run->max_set;
			o->table.max_set_engine = o->engine[k]->head.name;
		}
	}
}

void stm_cmd_params(const stm_opts *o, const stm_engine *e, stm_params *p)
{
	*p = o->p;
	if (e->options)
		e->options->params(family_opts(o, e->options), p);
}

/*
 * Every family's options, whichever engines run, as the report has always
 * given them; an option that several families share is written once.
 */
void stm_cmd_engine_config(const stm_opts *o, cJSON *cfg)
{
	unsigned i;

	for (i = 0; i < nfamilies; i++) {
		cJSON *own = cJSON_CreateObject(), *item;
		families[i]->config(o->family[i].bytes, own);
		for (item = own->child; item; item = item->next)
			if (!cJSON_GetObjectItemCaseSensitive(cfg, item->string))
				cJSON_AddItemToObject(cfg, item->string, cJSON_Duplicate(item, 1));
		cJSON_Delete(own);
	}
}
