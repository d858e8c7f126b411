/*
 * The bank workload (workloads/stm/bank.h) as a workload of `gpubench stm`: its
 * options, and its generator and serial-replay oracle behind the registry's
 * interface (workloads/stm/stm_workload.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/report.h"
#include "workloads/stm/bank.h"
#include "workloads/stm/stm_workload.h"

typedef struct bank_opts {
	uint64_t accounts, transfers, read_only_size, initial_balance;
} bank_opts;

_Static_assert(sizeof(bank_opts) <= STM_WORKLOAD_OPTS_MAX, "bank_opts fits stm's area");

#define AT(field) offsetof(bank_opts, field)

static const gb_opt_row rows[] = {
	{.name = "accounts", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = UINT32_MAX / 2,
	 .def = "2621440", .offset = AT(accounts),
	 .help = "bank: number of accounts (the default is 10 MiB of balances, the paper's \"about 2.5 "
		 "million\")"},
	{.name = "transfers-per-tx", .kind = GB_OPT_UINT, .metavar = "K", .lo = 1, .hi = BANK_MAX_TRANSFERS,
	 .def = "1", .offset = AT(transfers), .help = "bank: transfers in each non-semantic transaction"},
	{.name = "read-only-size", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = UINT32_MAX / 2,
	 .def = "0", .offset = AT(read_only_size),
	 .help = "bank: accounts each read-only balance inquiry reads, at most --accounts (0: 2 x "
		 "--transfers-per-tx, as many as a transfer touches; up to 255 drawn at random, more as a "
		 "run of consecutive accounts; --accounts: the whole bank, as CSMV's bank); gpustm "
		 "refuses more than its 8-word read set holds (prstm logs the reads past its set)"},
	{.name = "initial-balance", .kind = GB_OPT_UINT, .metavar = "B", .lo = 1, .hi = 100000000,
	 .def = "1000", .offset = AT(initial_balance),
	 .help = "bank: every account's starting balance; chain amounts are drawn from (B, 2B]"},
};

static uint32_t words(const void *opts)
{
	return (uint32_t)((const bank_opts *)opts)->accounts;
}

/* --read-only-size, 0 meaning as many accounts as a transfer of K legs touches (2K). */
static uint32_t read_only_size(const bank_opts *o)
{
	return o->read_only_size ? (uint32_t)o->read_only_size : 2 * (uint32_t)o->transfers;
}

/*
 * A transfer of K legs touches 2K accounts, a balance inquiry --read-only-size.
 * The inquiry counts even at --read-only 0: the generator makes an odd one out
 * of the non-semantic transfers an inquiry.
 */
static uint32_t max_set(const void *opts)
{
	const bank_opts *o = opts;
	uint32_t transfer = 2 * (uint32_t)o->transfers, inquiry = read_only_size(o);
	return inquiry > transfer ? inquiry : transfer;
}

/* What an update touches: the transfers' 2K accounts (csmv's inquiries keep no read set). */
static uint32_t max_update_set(const void *opts)
{
	return 2 * (uint32_t)((const bank_opts *)opts)->transfers;
}

static const char *max_set_by(const void *opts)
{
	const bank_opts *o = opts;
	return read_only_size(o) > 2 * (uint32_t)o->transfers ? "read-only-size" : "transfers-per-tx";
}

/*
 * Per account: the three host copies of the balances, the engine's data and
 * locks, the generator's budgets and inflows and the replay's balances; per
 * transaction the table (twice while it is placed), its placement, its status
 * (engine and host) and the replay order.
 */
static unsigned memory(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
		       gb_memory_term device[STM_MEMORY_TERMS])
{
	const bank_opts *o = opts;
	uint32_t listed = read_only_size(o) <= BANK_MAX_READ_ONLY ? read_only_size(o) : 0;
	uint64_t extra = (listed > max_update_set(opts) ? listed : max_update_set(opts)) - 2; /* per entry */
	uint64_t per_tx = 2 * sizeof(bank_entry) + 4 * sizeof(uint64_t) + 2 * sizeof(uint32_t) * extra +
			  TX_RESULT_WORDS * sizeof(uint32_t);

	host[0] = (gb_memory_term){.opt = "accounts", .value = o->accounts, .bytes_each = 40};
	host[1] = (gb_memory_term){.opt = "threads", .value = c->threads, .bytes_each = per_tx,
				   .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	device[0] = (gb_memory_term){.opt = "accounts", .value = o->accounts,
				     .bytes_each = 2 * sizeof(uint32_t)};
	device[1] = (gb_memory_term){.opt = "threads", .value = c->threads,
				     .bytes_each = (sizeof(bank_entry) + 8 + 4 * extra + TX_RESULT_WORDS * sizeof(uint32_t)),
				     .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	return 2;
}

static void *generate(const void *opts, const stm_table_cfg *c, char *err, size_t errlen)
{
	const bank_opts *o = opts;
	bank_workload *w = gb_xcalloc(1, sizeof(*w), "bank workload");
	bank_config bc = {
		.accounts = (uint32_t)o->accounts,
		.threads = c->threads,
		.tx_per_thread = c->tx_per_thread,
		.semantic_ratio = c->semantic_ratio,
		.read_only = c->read_only,
		.read_only_threads = c->read_only_threads,
		.transfers_per_tx = (uint32_t)o->transfers,
		.read_only_size = (uint32_t)o->read_only_size, /* 0: the generator's default, 2K */
		.initial_balance = (uint32_t)o->initial_balance,
		.presort = c->presort,
		.seed = c->seed,
	};

	if (bank_generate(w, &bc, err, errlen) != 0) {
		free(w);
		return NULL;
	}
	/* A sweep may keep --read-only-size across --read-only 0; said, not refused. */
	if (o->read_only_size && !bc.read_only)
		gb_note("note: bank: --read-only-size %llu has no effect: --read-only 0 runs no balance inquiries",
			(unsigned long long)o->read_only_size);
	/* Every thread gets the same number of inquiries, so the share is rounded per thread. */
	if (!bc.read_only_threads && (uint64_t)bc.tx_per_thread * bc.read_only % 100) {
		uint64_t per = tx_percent_of(bc.tx_per_thread, bc.read_only);
		gb_note("note: bank: --read-only %u of --tx-per-thread %u is %llu inquir%s a thread (%.3g%%); "
			"a --tx-per-thread that is a multiple of 100 gives any share exactly",
			bc.read_only, bc.tx_per_thread, (unsigned long long)per, per == 1 ? "y" : "ies",
			100.0 * (double)per / bc.tx_per_thread);
	}
	return w;
}

static void release(void *inst)
{
	bank_free(inst);
	free(inst);
}

static tx_input input(const void *inst)
{
	return bank_input_of(inst);
}

static void initial(const void *inst, uint32_t *balances)
{
	const bank_workload *w = inst;
	uint32_t i;
	for (i = 0; i < w->cfg.accounts; i++)
		balances[i] = w->cfg.initial_balance;
}

static int rounds_fit(const void *inst)
{
	return bank_rounds_fit(inst);
}

/* The bank's check as the registry's: the money it measured becomes the facts. */
static void to_stm_check(const bank_check *b, stm_check *out)
{
	snprintf(out->message, sizeof(out->message), "%s", b->message);
	out->ok = b->ok;
	out->committed_update = b->committed_update;
	out->committed_readonly = b->committed_readonly;
	out->abandoned = b->abandoned;
	out->facts[0] = (stm_fact){"money_before", (double)b->money_before};
	out->facts[1] = (stm_fact){"money_after", (double)b->money_after};
	out->facts[2] = (stm_fact){"min_balance", (double)b->min_balance};
	out->nfacts = 3;
}

/* Balances are 32-bit signed; the engines move them as data words of the same bits. */
static void verify_batch(const void *inst, uint32_t *state, const uint32_t *status, const uint32_t *after,
			 stm_check *out)
{
	bank_check b;
	bank_verify_batch(inst, (int32_t *)state, status, (const int32_t *)after, &b);
	to_stm_check(&b, out);
}

static void verify_counts(const void *inst, const uint32_t *start, const uint32_t *counts,
			  const uint32_t *after, stm_check *out)
{
	bank_check b;
	bank_verify_counts(inst, (const int32_t *)start, counts, (const int32_t *)after, &b);
	to_stm_check(&b, out);
}

/* Up to this many inquiries of a batch are checked against the replay at their snapshot. */
#define SNAPSHOT_SAMPLE 4096

static uint64_t verify_results(const void *inst, const uint32_t *before, const uint32_t *status,
			       const uint32_t *results, stm_check *out)
{
	bank_check b;
	uint64_t checked;
	bank_verify_snapshots(inst, (const int32_t *)before, status, results, SNAPSHOT_SAMPLE, &b, &checked);
	out->ok = b.ok;
	snprintf(out->message, sizeof(out->message), "%s", b.message);
	return checked;
}

static void config(const void *inst, cJSON *cfg)
{
	const bank_workload *w = inst;
	cJSON *bank = cJSON_AddObjectToObject(cfg, "bank");

	gb_json_u64(bank, "accounts", w->cfg.accounts);
	gb_json_u64(bank, "tx_per_thread", w->cfg.tx_per_thread);
	gb_json_u64(bank, "semantic_ratio", w->cfg.semantic_ratio);
	gb_json_u64(bank, "read_only", w->cfg.read_only);
	gb_json_u64(bank, "read_only_thread_count", w->cfg.threads - w->update_threads);
	gb_json_u64(bank, "transfers_per_tx", w->cfg.transfers_per_tx);
	gb_json_u64(bank, "read_only_size", w->cfg.read_only_size);
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

static void describe(const void *inst, char *buf, size_t len)
{
	snprintf(buf, len, "%u accounts", ((const bank_workload *)inst)->cfg.accounts);
}

const stm_workload stm_workload_bank = {
	.head.name = "bank",
	.head.summary = "accounts with deposit, withdraw, transfer and balance transactions; semantic "
		   "chains whose steps wait for money (Shen et al. section 4.1)",
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.opts_size = sizeof(bank_opts),
	.words = words,
	.words_option = "accounts",
	.max_set = max_set,
	.max_set_option = "transfers-per-tx",
	.max_set_by = max_set_by,
	.semantic = 1,
	.memory = memory,
	.generate = generate,
	.free = release,
	.input = input,
	.initial = initial,
	.rounds_fit = rounds_fit,
	.rounds_unfit = "rounds over the table could overflow a balance",
	.verify_batch = verify_batch,
	.verify_counts = verify_counts,
	.method_batch = "serial replay in commit-stamp order",
	.method_counts = "final balances = start + commit counts x amounts",
	.checked_batch = "replayed in commit order, money conserved, no negative balance",
	.checked_counts = "final balances equal the start plus every commit's amounts, money "
			  "conserved, no negative balance",
	.checksum_key = "balances_fnv1a",
	.config = config,
	.describe = describe,
	.max_update_set = max_update_set,
	.verify_results = verify_results,
	.checked_results = "read-only sums equal the replay at their snapshot",
};
