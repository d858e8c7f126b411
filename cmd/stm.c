/*
 * gpubench stm: software transactional memory engines on STM workloads.
 * Options, validation, the repetition loop, verification and the report.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/backend.h"
#include "common/error.h"
#include "common/memory.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "stm/prstm.h"
#include "stm/stm.h"
#include "workloads/bank.h"

#define DEFAULT_THREADS 6720
#define DEFAULT_ACCOUNTS 2621440 /* 10 MiB of 32-bit balances, the paper's "about 2.5M" */
#define DEFAULT_TX_PER_THREAD 1000
#define MAX_TABLE (1ull << 31)

typedef struct stm_opts {
	const char *algo, *workload, *json;
	gb_backend backend;
	bank_config bank;
	stm_params p;
	uint32_t reps, warmup, verify_every;
	double duration, timeout, stall, warmup_time;
	int verify, paper, duration_set, reps_set;
} stm_opts;

static const char *const workloads[] = {"bank", NULL};

static void help(FILE *out)
{
	int i;
	fputs("usage: gpubench stm [options]\n"
	      "\n"
	      "Runs a software transactional memory engine on a workload, verifies the\n"
	      "outcome and reports committed transactions per second.\n"
	      "\n"
	      "Engine and machine:\n"
	      "  --algo NAME             engine (default prstm):\n",
	      out);
	for (i = 0; stm_engines[i]; i++)
		gb_help_wrap(out, fprintf(out, "      %-8s ", stm_engines[i]->name), 15, stm_engines[i]->summary);
	fprintf(out,
		"  --workload NAME         bank (default; section 4.1 of Shen et al.)\n"
		"  --backend gpu|cpu|auto  where to run (default auto: the GPU when present)\n"
		"  --threads N             logical threads, each with its own block of the\n"
		"                          transaction table and priority = its index\n"
		"                          (1..%u, default %u)\n"
		"  --block-size N          GPU threads per block (0 or 32..1024 in steps of 32;\n"
		"                          default 0: spread warps over all SMs)\n"
		"  --cpu-workers N         OS threads of the CPU backend (1..4096, default: all\n"
		"                          cores); the logical threads are interleaved over them\n"
		"  --hash K                consecutive data words covered by one lock\n"
		"                          (1..--accounts, default 1)\n"
		"  --max-passes N          sweeps over a block before its postponed transactions\n"
		"                          are abandoned (1..1000000000, default 1000000)\n"
		"  --stall-timeout S       a thread with postponed work gives up when no update\n"
		"                          transaction has committed anywhere for S seconds:\n"
		"                          nothing left can then resolve its conflict; its\n"
		"                          transactions are abandoned (0.001..86400, default 1)\n"
		"  --no-tags               ignore the priority tags (deposit 2, transfer 1,\n"
		"                          withdraw 0) and sweep blocks in table order\n"
		"\n"
		"Bank workload:\n"
		"  --accounts N            number of accounts (2..%u,\n"
		"                          default %u = 10 MiB)\n"
		"  --tx-per-thread N       transactions in each thread's block (1..100000000,\n"
		"                          default %u)\n"
		"  --semantic-ratio P      percent of update transactions in semantic chains\n"
		"                          deposit -> transfer -> withdraw (0..100, default 100)\n"
		"  --read-only P           percent of read-only balance transactions (0..100,\n"
		"                          default 0; the paper uses 0 and 20)\n"
		"  --transfers-per-tx K    transfers in each non-semantic transaction (1..%d,\n"
		"                          default 1)\n"
		"  --initial-balance B     every account's starting balance (1..100000000,\n"
		"                          default 1000); chain amounts are drawn from (B, 2B]\n"
		"  --presort               the application pre-orders the table so every chain\n"
		"                          runs in order on one thread (no semantic conflicts)\n"
		"  --seed N                seed of the table generator (0..2^64-1, default 1)\n"
		"\n"
		"Measurement:\n"
		"  --reps N                timed repetitions (1..100000, default 5; paper: 10)\n"
		"  --duration S            seconds of device time per repetition (0..86400,\n"
		"                          default 0: one batch; the paper: 5): one run in\n"
		"                          which every thread sweeps its block round after\n"
		"                          round until S seconds (repeated batches when not\n"
		"                          all GPU threads fit at once, or rounds could\n"
		"                          overflow a balance)\n"
		"  --warmup N              untimed batches before the first repetition\n"
		"                          (0..1000, default 1)\n"
		"  --warmup-time S         ... and at least S seconds of them, so the GPU clock\n"
		"                          has ramped up from idle before timing starts\n"
		"                          (0..3600, default 0.2; --warmup 0 turns warm-up\n"
		"                          off); a warm-up batch is cut after max(1, 2 x S) s\n"
		"  --paper                 the paper's protocol: --duration 5 --reps 10\n"
		"  --timeout S             give up on a run after S seconds (0.001..864000,\n"
		"                          default 600; threads stop between transactions,\n"
		"                          also in a GPU kernel): the report is marked\n"
		"                          incomplete and the exit status is 1\n"
		"\n"
		"Verification (on by default; a failure exits 3):\n"
		"  Every committed update transaction takes a stamp while it holds its locks;\n"
		"  the host replays the committed transactions in stamp order from the state\n"
		"  before the batch, checks that every withdrawal had the money, and that the\n"
		"  replay equals the device's final balances exactly, that money is conserved\n"
		"  and that no balance is negative. A --duration run, where entries commit many\n"
		"  times, instead requires the final balances to equal the start plus every\n"
		"  commit's amounts (each entry's commits are counted), money conserved and no\n"
		"  negative balance.\n"
		"  --verify-every N        check every Nth batch or run (1..4294967295,\n"
		"                          default 1: all)\n"
		"  --no-verify             no host checks (the stamps are still taken); the\n"
		"                          report says \"verified\": null\n"
		"\n"
		"Output:\n"
		"  --json PATH             write the JSON report to PATH ('-' for stdout); see\n"
		"                          docs/report-schema.md\n"
		"  --quiet                 no summary, notes or progress\n"
		"  -h, --help              this text\n"
		"\n"
		"Example:\n"
		"  gpubench stm --algo prstm --threads 6720 --semantic-ratio 0 --json run.json\n",
		PRSTM_MAX_THREADS, DEFAULT_THREADS, UINT32_MAX / 2, DEFAULT_ACCOUNTS,
		DEFAULT_TX_PER_THREAD, BANK_MAX_TRANSFERS);
}

enum {
	O_ALGO = 256, O_WORKLOAD, O_BACKEND, O_THREADS, O_BLOCK, O_WORKERS, O_HASH, O_PASSES,
	O_NOTAGS, O_ACCOUNTS, O_TPT, O_SEMANTIC, O_READONLY, O_TRANSFERS, O_BALANCE, O_PRESORT,
	O_SEED, O_REPS, O_DURATION, O_WARMUP, O_PAPER, O_TIMEOUT, O_VEVERY, O_NOVERIFY, O_JSON,
	O_QUIET, O_STALL, O_WARMUP_TIME,
};

static void parse(stm_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{"algo", required_argument, NULL, O_ALGO},
		{"workload", required_argument, NULL, O_WORKLOAD},
		{"backend", required_argument, NULL, O_BACKEND},
		{"threads", required_argument, NULL, O_THREADS},
		{"block-size", required_argument, NULL, O_BLOCK},
		{"cpu-workers", required_argument, NULL, O_WORKERS},
		{"hash", required_argument, NULL, O_HASH},
		{"max-passes", required_argument, NULL, O_PASSES},
		{"stall-timeout", required_argument, NULL, O_STALL},
		{"no-tags", no_argument, NULL, O_NOTAGS},
		{"accounts", required_argument, NULL, O_ACCOUNTS},
		{"tx-per-thread", required_argument, NULL, O_TPT},
		{"semantic-ratio", required_argument, NULL, O_SEMANTIC},
		{"read-only", required_argument, NULL, O_READONLY},
		{"transfers-per-tx", required_argument, NULL, O_TRANSFERS},
		{"initial-balance", required_argument, NULL, O_BALANCE},
		{"presort", no_argument, NULL, O_PRESORT},
		{"seed", required_argument, NULL, O_SEED},
		{"reps", required_argument, NULL, O_REPS},
		{"duration", required_argument, NULL, O_DURATION},
		{"warmup", required_argument, NULL, O_WARMUP},
		{"warmup-time", required_argument, NULL, O_WARMUP_TIME},
		{"paper", no_argument, NULL, O_PAPER},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"verify-every", required_argument, NULL, O_VEVERY},
		{"no-verify", no_argument, NULL, O_NOVERIFY},
		{"json", required_argument, NULL, O_JSON},
		{"quiet", no_argument, NULL, O_QUIET},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->algo = "prstm";
	o->workload = "bank";
	o->backend = GB_BACKEND_AUTO;
	o->p.threads = DEFAULT_THREADS;
	o->p.hash = 1;
	o->p.max_passes = 1000000;
	o->p.use_tags = 1;
	o->p.cpu_workers = 0;
	o->bank.accounts = DEFAULT_ACCOUNTS;
	o->bank.tx_per_thread = DEFAULT_TX_PER_THREAD;
	o->bank.semantic_ratio = 100;
	o->bank.transfers_per_tx = 1;
	o->bank.initial_balance = 1000;
	o->bank.seed = 1;
	o->reps = 5;
	o->warmup = 1;
	o->warmup_time = 0.2;
	o->verify_every = 1;
	o->timeout = 600;
	o->stall = 1;
	o->verify = 1;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_ALGO:
			o->algo = optarg;
			break;
		case O_WORKLOAD:
			o->workload = workloads[gb_opt_choice("workload", optarg, workloads)];
			break;
		case O_BACKEND:
			o->backend = gb_backend_parse("backend", optarg);
			break;
		case O_THREADS:
			o->p.threads = gb_opt_u32("threads", optarg, 1, PRSTM_MAX_THREADS);
			break;
		case O_BLOCK:
			o->p.block_size = gb_opt_u32("block-size", optarg, 0, 1024);
			if (o->p.block_size % 32)
				gb_die(GB_EXIT_USAGE, "option --block-size: %s is not a multiple of 32 "
				       "(accepted: 0 or 32..1024 in steps of 32)", optarg);
			break;
		case O_WORKERS:
			o->p.cpu_workers = gb_opt_u32("cpu-workers", optarg, 1, 4096);
			break;
		case O_HASH:
			o->p.hash = gb_opt_u32("hash", optarg, 1, UINT32_MAX / 2);
			break;
		case O_PASSES:
			o->p.max_passes = gb_opt_u32("max-passes", optarg, 1, 1000000000);
			break;
		case O_STALL:
			o->stall = gb_opt_double("stall-timeout", optarg, 0.001, 86400);
			break;
		case O_NOTAGS:
			o->p.use_tags = 0;
			break;
		case O_ACCOUNTS:
			o->bank.accounts = gb_opt_u32("accounts", optarg, 2, UINT32_MAX / 2);
			break;
		case O_TPT:
			o->bank.tx_per_thread = gb_opt_u32("tx-per-thread", optarg, 1, 100000000);
			break;
		case O_SEMANTIC:
			o->bank.semantic_ratio = gb_opt_u32("semantic-ratio", optarg, 0, 100);
			break;
		case O_READONLY:
			o->bank.read_only = gb_opt_u32("read-only", optarg, 0, 100);
			break;
		case O_TRANSFERS:
			o->bank.transfers_per_tx = gb_opt_u32("transfers-per-tx", optarg, 1,
							      BANK_MAX_TRANSFERS);
			break;
		case O_BALANCE:
			o->bank.initial_balance = gb_opt_u32("initial-balance", optarg, 1, 100000000);
			break;
		case O_PRESORT:
			o->bank.presort = 1;
			break;
		case O_SEED:
			o->bank.seed = gb_opt_u64("seed", optarg, 0, UINT64_MAX);
			break;
		case O_REPS:
			o->reps = gb_opt_u32("reps", optarg, 1, 100000);
			o->reps_set = 1;
			break;
		case O_DURATION:
			o->duration = gb_opt_double("duration", optarg, 0, 86400);
			o->duration_set = 1;
			break;
		case O_WARMUP:
			o->warmup = gb_opt_u32("warmup", optarg, 0, 1000);
			break;
		case O_WARMUP_TIME:
			o->warmup_time = gb_opt_double("warmup-time", optarg, 0, 3600);
			break;
		case O_PAPER:
			o->paper = 1;
			break;
		case O_TIMEOUT:
			o->timeout = gb_opt_double("timeout", optarg, 0.001, 864000);
			break;
		case O_VEVERY:
			o->verify_every = gb_opt_u32("verify-every", optarg, 1, UINT32_MAX);
			break;
		case O_NOVERIFY:
			o->verify = 0;
			break;
		case O_JSON:
			o->json = optarg;
			break;
		case O_QUIET:
			gb_quiet = 1;
			break;
		case 'h':
			help(stdout);
			exit(0);
		default:
			gb_opt_fail("stm", c, argv, opts);
		}
	}
	gb_opt_no_operands("stm", argc, argv);
	{
		const gb_path_use paths[] = {{"json", o->json, 0}};
		gb_paths_check("stm", paths, 1);
	}
	if (o->paper) {
		if (!o->duration_set)
			o->duration = 5;
		if (!o->reps_set)
			o->reps = 10;
	}
	if (!stm_engine_find(o->algo)) {
		char list[256] = "";
		int i;
		for (i = 0; stm_engines[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "|" : "",
				 stm_engines[i]->name);
		gb_die(GB_EXIT_USAGE, "option --algo: unknown engine '%s' (accepted: %s)", o->algo,
		       list);
	}
	if (o->p.hash > o->bank.accounts)
		gb_die(GB_EXIT_USAGE, "option --hash: %u exceeds --accounts %u (accepted: 1..%u)",
		       o->p.hash, o->bank.accounts, o->bank.accounts);
	if ((uint64_t)o->p.threads * o->bank.tx_per_thread > MAX_TABLE)
		gb_die(GB_EXIT_USAGE,
		       "--threads %u x --tx-per-thread %u = %" PRIu64 " transactions exceeds the "
		       "table limit of %llu",
		       o->p.threads, o->bank.tx_per_thread,
		       (uint64_t)o->p.threads * o->bank.tx_per_thread, MAX_TABLE);
	o->bank.threads = o->p.threads;
	o->p.stall_ns = (uint64_t)(o->stall * 1e9);
}

/* Time left before --timeout, counted from start_ns; 0 when it has passed. */
static uint64_t remaining_ns(const stm_opts *o, uint64_t start_ns)
{
	double left = o->timeout - gb_seconds_since(start_ns);
	return left > 0 ? (uint64_t)(left * 1e9) : 0;
}

/* FNV-1a over the balances: equal states give equal checksums on every backend. */
static uint64_t balances_checksum(const int32_t *b, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;
	for (i = 0; i < n; i++) {
		uint32_t v = (uint32_t)b[i];
		int k;
		for (k = 0; k < 4; k++) {
			h ^= (v >> (8 * k)) & 0xFFu;
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

/* Everything one invocation measures, from the first batch to the report. */
typedef struct stm_run {
	stm_opts o;
	gb_backend backend;
	gb_device_info dev;
	const stm_bank_ops *ops;
	void *ctx;
	bank_workload w;
	int32_t *initial, *mirror, *after; /* start state; replay state; device state */
	uint32_t *status;
	double *rate;                      /* throughput of each finished repetition */
	uint32_t reps_done;
	uint64_t t_start;
	double wall_seconds;
	/* totals over the timed batches */
	stm_counters c;
	double seconds, cycles_per_ns;
	uint64_t batches, batches_verified, abandoned;
	uint32_t block_size;
	int one_run; /* --duration as one run of rounds over the table per repetition */
	/* how it ended */
	int incomplete, failed, verify_failed;
	bank_check chk;                    /* the last verified batch */
	char verify_msg[600];
} stm_run;

static void progress(const stm_opts *o, uint32_t rep, uint64_t batch, double secs)
{
	if (gb_quiet || !isatty(2) || o->duration <= 0)
		return;
	fprintf(stderr, "\rrep %u/%u  batch %" PRIu64 "  %.1f/%.1f s   ", rep + 1, o->reps,
		batch, secs, o->duration);
	fflush(stderr);
}

static void fill_config(cJSON *cfg, const stm_opts *o, const bank_workload *w, gb_backend b)
{
	cJSON *bank;
	gb_json_str(cfg, "algo", o->algo);
	gb_json_str(cfg, "workload", o->workload);
	gb_json_str(cfg, "backend", gb_backend_name(b));
	gb_json_u64(cfg, "threads", o->p.threads);
	gb_json_u64(cfg, "block_size", o->p.block_size);
	gb_json_u64(cfg, "cpu_workers", b == GB_BACKEND_CPU ? o->p.cpu_workers : 0);
	gb_json_u64(cfg, "hash", o->p.hash);
	gb_json_u64(cfg, "max_passes", o->p.max_passes);
	gb_json_num(cfg, "stall_timeout_s", o->stall);
	gb_json_bool(cfg, "priority_tags", (int)o->p.use_tags);
	gb_json_u64(cfg, "reps", o->reps);
	gb_json_num(cfg, "duration_s", o->duration);
	gb_json_u64(cfg, "warmup", o->warmup);
	gb_json_num(cfg, "warmup_time_s", o->warmup_time);
	gb_json_bool(cfg, "paper", o->paper);
	gb_json_num(cfg, "timeout_s", o->timeout);
	gb_json_bool(cfg, "verify", o->verify);
	gb_json_u64(cfg, "verify_every", o->verify_every);
	bank = cJSON_AddObjectToObject(cfg, "bank");
	gb_json_u64(bank, "accounts", w->cfg.accounts);
	gb_json_u64(bank, "tx_per_thread", w->cfg.tx_per_thread);
	gb_json_u64(bank, "semantic_ratio", w->cfg.semantic_ratio);
	gb_json_u64(bank, "read_only", w->cfg.read_only);
	gb_json_u64(bank, "transfers_per_tx", w->cfg.transfers_per_tx);
	gb_json_u64(bank, "initial_balance", w->cfg.initial_balance);
	gb_json_bool(bank, "presort", w->cfg.presort);
	gb_json_u64(bank, "seed", w->cfg.seed);
	gb_json_u64(bank, "transactions", w->ntx);
	gb_json_u64(bank, "chains", w->chains);
	gb_json_u64(bank, "deposits", w->count[BANK_DEPOSIT]);
	gb_json_u64(bank, "withdrawals", w->count[BANK_WITHDRAW]);
	gb_json_u64(bank, "transfers", w->count[BANK_TRANSFER]);
	gb_json_u64(bank, "read_only_transactions", w->count[BANK_BALANCE]);
}

/*
 * Untimed batches until --warmup batches and --warmup-time seconds are done.
 * Warm-up only has to bring the clocks up: a warm-up batch is cut (its
 * threads stop between transactions) after max(1 s, 2 x --warmup-time), so a
 * slow table leaves the rest of --timeout to the timed batches.
 */
static void warm_up(stm_run *r)
{
	double secs = 0;
	uint64_t cap = (uint64_t)((r->o.warmup_time > 0.5 ? 2 * r->o.warmup_time : 1.0) * 1e9);
	uint32_t i;

	for (i = 0; r->o.warmup && (i < r->o.warmup || secs < r->o.warmup_time) && !r->incomplete;
	     i++) {
		stm_batch_result b;
		uint64_t left = remaining_ns(&r->o, r->t_start);
		r->ops->load(r->ctx, r->initial);
		r->ops->run(r->ctx, left < cap ? left : cap, 0, &b);
		secs += b.seconds;
		r->block_size = b.block_size;
		r->incomplete = remaining_ns(&r->o, r->t_start) == 0;
	}
}

/* Replay a batch against the state before it; sets verify_failed with a message. */
static void verify_batch(stm_run *r, const stm_batch_result *b, uint32_t rep, uint64_t batch)
{
	bank_check *chk = &r->chk;

	r->ops->fetch(r->ctx, r->after, r->status);
	if (r->one_run)
		bank_verify_counts(&r->w, r->initial, r->status, r->after, chk);
	else
		bank_verify_batch(&r->w, r->mirror, r->status, r->after, chk);
	r->batches_verified++;
	r->abandoned += chk->abandoned;
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
		snprintf(r->verify_msg, sizeof(r->verify_msg), "rep %u batch %" PRIu64 ": %s", rep,
			 batch, chk->message);
		r->verify_failed = 1;
	}
}

/*
 * The timed repetitions: each starts from the initial balances and runs
 * batches until --duration seconds of device time (at least one). A
 * repetition cut short by a timeout or a failure is not a sample.
 */
static void timed_reps(stm_run *r)
{
	const stm_opts *o = &r->o;
	uint32_t rep;

	for (rep = 0; rep < o->reps && !r->verify_failed && !r->incomplete && !r->failed; rep++) {
		double rep_secs = 0;
		uint64_t rep_commits = 0, batch = 0;
		int mirror_valid = 1;

		r->ops->load(r->ctx, r->initial);
		memcpy(r->mirror, r->initial, (size_t)r->w.cfg.accounts * sizeof(int32_t));
		do {
			stm_batch_result b;
			int check = o->verify && (r->batches % o->verify_every) == 0;
			uint64_t left = remaining_ns(o, r->t_start);

			if (left == 0) {
				r->incomplete = 1;
				break;
			}
			if (check && !mirror_valid && !r->one_run)
				r->ops->fetch(r->ctx, r->mirror, NULL);
			r->ops->run(r->ctx, left, r->one_run ? (uint64_t)(o->duration * 1e9) : 0, &b);
			stm_counters_add(&r->c, &b.c);
			r->seconds += b.seconds;
			r->cycles_per_ns = b.cycles_per_ns;
			r->block_size = b.block_size;
			r->batches++;
			batch++;
			rep_secs += b.seconds;
			rep_commits += b.c.commits_update + b.c.commits_readonly;
			if (b.c.threads_failed) {
				r->failed = 1;
				break;
			}
			if (b.c.threads_timed_out)
				r->incomplete = 1;
			if (check)
				verify_batch(r, &b, rep, batch);
			else if (!r->one_run)
				r->abandoned += r->w.ntx - (b.c.commits_update + b.c.commits_readonly);
			mirror_valid = check;
			progress(o, rep, batch, rep_secs);
		} while (!r->verify_failed && !r->incomplete && !r->one_run && rep_secs < o->duration);
		if (r->incomplete || r->failed || r->verify_failed)
			break;
		r->rate[r->reps_done++] = rep_secs > 0 ? (double)rep_commits / rep_secs : 0;
	}
	if (!gb_quiet && isatty(2) && o->duration > 0)
		fputc('\n', stderr);
}

static uint64_t commits_of(const stm_run *r)
{
	return r->c.commits_update + r->c.commits_readonly;
}

static uint64_t aborts_of(const stm_run *r)
{
	return r->c.aborts_locked + r->c.aborts_priority + r->c.aborts_validation +
	       r->c.aborts_semantic;
}

/* Thread time per committed transaction, in ns, of a cycle counter. */
static double per_commit_ns(const stm_run *r, uint64_t cycles)
{
	uint64_t commits = commits_of(r);
	return commits && r->cycles_per_ns > 0 ? (double)cycles / r->cycles_per_ns / (double)commits : 0;
}

static void fill_results(cJSON *res, const stm_run *r)
{
	uint64_t commits = commits_of(r), aborts = aborts_of(r);
	uint64_t cycles = r->c.cycles_committed + r->c.cycles_wasted;
	cJSON *ab, *ph;

	gb_json_stats(res, "throughput_tx_per_s", gb_stats_of(r->rate, r->reps_done));
	gb_json_u64(res, "reps_completed", r->reps_done);
	gb_json_u64(res, "batches", r->batches);
	gb_json_u64(res, "transactions_per_batch", r->w.ntx);
	gb_json_str(res, "timed_run", r->one_run ? "rounds" : "batches");
	gb_json_num(res, "device_seconds", r->seconds);
	gb_json_num(res, "wall_seconds", r->wall_seconds);
	gb_json_u64(res, "gpu_block_size", r->block_size);
	gb_json_u64(res, "commits", commits);
	gb_json_u64(res, "commits_update", r->c.commits_update);
	gb_json_u64(res, "commits_read_only", r->c.commits_readonly);
	ab = cJSON_AddObjectToObject(res, "aborts");
	gb_json_u64(ab, "total", aborts);
	gb_json_u64(ab, "conflict", r->c.aborts_locked + r->c.aborts_priority);
	gb_json_u64(ab, "conflict_locked", r->c.aborts_locked);
	gb_json_u64(ab, "conflict_priority", r->c.aborts_priority);
	gb_json_u64(ab, "validation", r->c.aborts_validation);
	gb_json_u64(ab, "semantic", r->c.aborts_semantic);
	gb_json_u64(res, "abandoned", r->abandoned);
	gb_json_num(res, "abort_rate",
		    commits + aborts ? (double)aborts / (double)(commits + aborts) : 0);
	gb_json_num(res, "cycles_per_ns", r->cycles_per_ns);
	gb_json_num(res, "time_per_tx_ns",
		    commits ? (double)cycles / r->cycles_per_ns / (double)commits : 0);
	gb_json_num(res, "wasted_per_tx_ns",
		    commits ? (double)r->c.cycles_wasted / r->cycles_per_ns / (double)commits : 0);
	gb_json_num(res, "wasted_fraction", cycles ? (double)r->c.cycles_wasted / (double)cycles : 0);
	ph = cJSON_AddObjectToObject(res, "committed_phases_ns");
	gb_json_num(ph, "read", per_commit_ns(r, r->c.cycles_read));
	gb_json_num(ph, "validate", per_commit_ns(r, r->c.cycles_validate));
	gb_json_num(ph, "commit", per_commit_ns(r, r->c.cycles_commit));
	gb_json_u64(res, "passes_max", r->c.passes_max);
	gb_json_u64(res, "threads_gave_up", r->c.threads_gave_up);
	gb_json_u64(res, "threads_stalled", r->c.threads_stalled);
	gb_json_u64(res, "threads_timed_out", r->c.threads_timed_out);
}

static void fill_verification(cJSON *ver, const stm_run *r)
{
	char hex[24];

	if (!r->o.verify || r->batches_verified == 0)
		cJSON_AddNullToObject(ver, "verified"); /* nothing was checked */
	else
		gb_json_bool(ver, "verified", !r->verify_failed);
	gb_json_str(ver, "method", !r->o.verify ? "none" : r->one_run ?
		    "final balances = start + commit counts x amounts" :
		    "serial replay in commit-stamp order");
	gb_json_u64(ver, "batches_verified", r->batches_verified);
	gb_json_u64(ver, "batches_total", r->batches);
	gb_json_str(ver, "message", r->verify_failed ? r->verify_msg : "");
	if (r->o.verify && r->batches_verified) {
		gb_json_num(ver, "money_before", (double)r->chk.money_before);
		gb_json_num(ver, "money_after", (double)r->chk.money_after);
		gb_json_num(ver, "min_balance", (double)r->chk.min_balance);
		snprintf(hex, sizeof(hex), "%016llx",
			 (unsigned long long)balances_checksum(r->after, r->w.cfg.accounts));
		gb_json_str(ver, "balances_fnv1a", hex);
	}
}

static void print_summary(const stm_run *r)
{
	const stm_opts *o = &r->o;
	gb_stats s = gb_stats_of(r->rate, r->reps_done);
	uint64_t commits = commits_of(r), aborts = aborts_of(r);
	int gpu = r->backend == GB_BACKEND_GPU;

	printf("gpubench stm: %s on %s, %s backend%s%s%s, %u threads, %u accounts, hash %u\n",
	       o->algo, o->workload, gb_backend_name(r->backend), gpu ? " (" : "",
	       gpu ? r->dev.name : "", gpu ? ")" : "", o->p.threads, r->w.cfg.accounts, o->p.hash);
	if (s.n)
		printf("  throughput   %.4g committed tx/s (median of %zu; min %.4g, max %.4g)\n",
		       s.median, s.n, s.min, s.max);
	else
		printf("  throughput   none: no repetition completed\n");
	printf("  commits      %" PRIu64 " (%" PRIu64 " read-only) in %" PRIu64
	       " %s, %.3f s of device time\n",
	       commits, r->c.commits_readonly, r->batches, r->one_run ? "runs" : "batches",
	       r->seconds);
	printf("  aborts       %" PRIu64 " (conflict %" PRIu64 ", validation %" PRIu64
	       ", semantic %" PRIu64 "), abort rate %.2f%%\n",
	       aborts, r->c.aborts_locked + r->c.aborts_priority, r->c.aborts_validation,
	       r->c.aborts_semantic, commits + aborts ? 100.0 * aborts / (commits + aborts) : 0);
	if (r->abandoned)
		printf("  abandoned    %" PRIu64 " transactions never committed: WARNING, the throughput\n"
		       "               counts only the others (see --max-passes, --stall-timeout)\n",
		       r->abandoned);
	else
		printf("  abandoned    0\n");
	if (!o->verify)
		printf("  verified     not checked (--no-verify)\n");
	else if (r->batches_verified == 0)
		printf("  verified     not checked (no batch completed)\n");
	else if (r->verify_failed)
		printf("  verified     FAILED: %s\n", r->verify_msg);
	else if (r->one_run)
		printf("  verified     yes: %" PRIu64 " of %" PRIu64 " runs: final balances equal "
		       "the start plus every commit's amounts, money conserved, no negative "
		       "balance\n", r->batches_verified, r->batches);
	else
		printf("  verified     yes: %" PRIu64 " of %" PRIu64 " batches replayed in commit "
		       "order, money conserved, no negative balance\n",
		       r->batches_verified, r->batches);
	if (r->incomplete)
		printf("  incomplete   --timeout %g s reached\n", o->timeout);
}

/*
 * What generation, the engine and the checks will allocate, estimated before
 * any of it is: per account the three host copies of the balances, the
 * engine's data and locks, the generator's budgets and inflows and the
 * replay's balances; per transaction the table (twice while it is placed),
 * its placement, its status (engine and host) and the replay order.
 */
static void check_memory(const stm_opts *o, gb_backend backend, const gb_device_info *dev)
{
	uint64_t per_tx = 2 * sizeof(bank_entry) + 4 * sizeof(uint64_t) +
			  2 * sizeof(uint32_t) * BANK_MAX_TRANSFERS;
	gb_memory_term host[] = {
		{"accounts", o->bank.accounts, 40},
		{"threads", o->p.threads, (uint64_t)o->bank.tx_per_thread * per_tx},
	};
	gb_memory_term device[] = {
		{"accounts", o->bank.accounts, 2 * sizeof(uint32_t)},
		{"threads", o->p.threads, (uint64_t)o->bank.tx_per_thread * (sizeof(bank_entry) + 8)},
	};

	gb_memory_fit("stm", "host", gb_host_memory_available(), 0, host, 2);
	if (backend == GB_BACKEND_GPU)
		gb_memory_fit("stm", "device", dev->global_mem_bytes, 0, device, 2);
}

static int run(int argc, char **argv)
{
	stm_run *r = gb_xcalloc(1, sizeof(*r), "run state");
	stm_opts *o = &r->o;
	const stm_engine *eng;
	gb_report rpt;
	char err[512];
	uint32_t i;
	int rc = 0;

	parse(o, argc, argv);
	eng = stm_engine_find(o->algo);
	r->backend = gb_backend_resolve(o->backend,
					GB_BACKEND_MASK(GB_BACKEND_CPU) |
					(eng->bank_gpu ? GB_BACKEND_MASK(GB_BACKEND_GPU) : 0),
					o->algo, &r->dev);
	r->ops = r->backend == GB_BACKEND_GPU ? eng->bank_gpu : eng->bank_cpu;
	if (!o->p.cpu_workers)
		o->p.cpu_workers = (uint32_t)gb_cpu_count();
	if (o->p.cpu_workers > o->p.threads)
		o->p.cpu_workers = o->p.threads;

	check_memory(o, r->backend, &r->dev);
	r->t_start = gb_now_ns(); /* --timeout counts from here: generation and warm-up included */
	if (bank_generate(&r->w, &o->bank, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "stm: %s", err);
	gb_note("note: generated %" PRIu64 " bank transactions in %.2f s", r->w.ntx,
		gb_seconds_since(r->t_start));
	r->initial = gb_xmalloc((size_t)r->w.cfg.accounts * sizeof(int32_t), "balances");
	r->mirror = gb_xmalloc((size_t)r->w.cfg.accounts * sizeof(int32_t), "replay balances");
	r->after = gb_xmalloc((size_t)r->w.cfg.accounts * sizeof(int32_t), "device balances");
	r->status = gb_xmalloc(r->w.ntx * sizeof(uint32_t), "transaction status");
	r->rate = gb_xcalloc(o->reps, sizeof(double), "throughput samples");
	for (i = 0; i < r->w.cfg.accounts; i++)
		r->initial[i] = (int32_t)r->w.cfg.initial_balance;

	o->p.timeout_ns = remaining_ns(o, r->t_start);
	r->ctx = r->ops->open(&r->w, &o->p);
	if (o->duration > 0) {
		r->one_run = r->ops->rounds_ok(r->ctx) && bank_rounds_fit(&r->w);
		if (!r->one_run)
			gb_note("note: --duration runs as repeated batches: %s",
				bank_rounds_fit(&r->w) ? "not every GPU block fits on the device at once"
						       : "rounds over the table could overflow a balance");
	}
	warm_up(r);
	timed_reps(r);
	r->wall_seconds = gb_seconds_since(r->t_start);
	r->ops->close(r->ctx);
	if (r->failed)
		gb_die(GB_EXIT_RUNTIME, "stm: a transaction touched more than %d distinct words, "
		       "beyond the engine's read/write set capacity", PRSTM_MAX_SET);

	gb_report_init(&rpt, "stm", argc, argv);
	gb_report_set_device(&rpt, r->backend, r->backend == GB_BACKEND_GPU ? &r->dev : NULL,
			     (int)o->p.cpu_workers);
	fill_config(rpt.config, o, &r->w, r->backend);
	if (r->incomplete)
		gb_report_incomplete(&rpt);
	if (r->abandoned)
		gb_report_warn(&rpt, "%" PRIu64 " transactions were abandoned (never committed): the "
			       "throughput counts only the others", r->abandoned);
	fill_results(rpt.results, r);
	fill_verification(rpt.verification, r);
	if (o->json && gb_report_write(&rpt, o->json) != 0)
		rc = GB_EXIT_RUNTIME;
	else if (!gb_quiet && !(o->json && strcmp(o->json, "-") == 0))
		print_summary(r);
	if (!rc && r->verify_failed) {
		gb_warn("stm: verification failed: %s", r->verify_msg);
		rc = GB_EXIT_VERIFY;
	} else if (!rc && r->incomplete) {
		gb_warn("stm: --timeout %g s reached; the report is marked incomplete", o->timeout);
		rc = GB_EXIT_RUNTIME;
	}
	gb_report_free(&rpt);
	bank_free(&r->w);
	free(r->initial);
	free(r->mirror);
	free(r->after);
	free(r->status);
	free(r->rate);
	free(r);
	return rc;
}

const gb_command gb_cmd_stm = {
	.name = "stm",
	.summary = "software transactional memory engines (PR-STM) on the bank workload",
	.run = run,
	.help = help,
};
