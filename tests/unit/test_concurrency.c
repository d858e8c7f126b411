/*
 * The CPU backends of the STM engines (stm/prstm/prstm_cpu.c, stm/gpustm/gpustm_cpu.c)
 * under heavy oversubscription and contention: many more logical threads and
 * workers than cores, a handful of accounts, locks covering several accounts.
 * The invariants are checked through the serial-replay verifier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm_engines.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/prstm/prstm_params.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/entry.h"
#include "tests/unit/test.h"
#include "workloads/stm/bank.h"

typedef struct conc_case {
	uint32_t threads, workers, accounts, hash, tx_per_thread;
	uint32_t semantic, read_only, transfers, presort, use_tags, max_passes;
	uint32_t retry_limit; /* gpustm; 0: its default */
	uint32_t read_only_size; /* accounts a balance inquiry reads; 0: 2 x transfers */
	const char *engine; /* the engine whose options set the parameters; NULL: the one that runs ops */
} conc_case;

typedef struct conc_result {
	int generated;
	uint64_t batches_ok, ntx;
	uint64_t commits, abandoned, gave_up, timed_out, failed;
	uint64_t aborts_semantic, aborts_conflict, retry_limit_reached;
	int all_initial; /* final balances equal the initial ones */
} conc_result;

/* An engine's backend opened on a bank table. */
static void *open_bank(const stm_ops *ops, const bank_workload *w, const stm_params *p)
{
	tx_input in = bank_input_of(w);
	return ops->open(&in, p);
}

/* Run `batches` batches back to back (state carried over), verifying each. */
static void run_case(const stm_ops *ops, const conc_case *k, int batches, conc_result *res,
		     const char *label)
{
	bank_config bc;
	bank_workload w;
	stm_params p;
	char err[512], passes[32], retry[32];
	const char *const engine_opts[] = {passes, retry, k->use_tags ? "no-tags=0" : "no-tags=1",
					   "stall-timeout=10", NULL};
	int32_t *initial, *mirror, *after;
	uint32_t *status, j;
	void *ctx;
	int b;

	memset(res, 0, sizeof(*res));
	memset(&bc, 0, sizeof(bc));
	bc.accounts = k->accounts;
	bc.threads = k->threads;
	bc.tx_per_thread = k->tx_per_thread;
	bc.semantic_ratio = k->semantic;
	bc.read_only = k->read_only;
	bc.transfers_per_tx = k->transfers;
	bc.read_only_size = k->read_only_size;
	bc.initial_balance = 100000;
	bc.presort = (int)k->presort;
	bc.seed = 1000 + k->accounts + k->semantic;
	if (bank_generate(&w, &bc, err, sizeof(err)) != 0) {
		tu_fail(__FILE__, __LINE__, "%s: generation failed: %s", label, err);
		return;
	}
	res->generated = 1;
	res->ntx = w.ntx;

	memset(&p, 0, sizeof(p));
	p.threads = k->threads;
	p.hash = k->hash;
	p.cpu_workers = k->workers;
	p.timeout_ns = 120ull * 1000000000ull;
	snprintf(passes, sizeof(passes), "max-passes=%u", k->max_passes);
	snprintf(retry, sizeof(retry), "retry-limit=%u", k->retry_limit ? k->retry_limit : 100);
	tu_engine_params(&p, k->engine ? tu_stm_engine(k->engine) : tu_engine_of(ops), engine_opts);

	initial = malloc(bc.accounts * sizeof(int32_t));
	mirror = malloc(bc.accounts * sizeof(int32_t));
	after = malloc(bc.accounts * sizeof(int32_t));
	status = malloc(w.ntx * sizeof(uint32_t));
	for (j = 0; j < bc.accounts; j++)
		initial[j] = mirror[j] = (int32_t)bc.initial_balance;

	ctx = open_bank(ops, &w, &p);
	ops->load(ctx, (const uint32_t *)initial);
	for (b = 0; b < batches; b++) {
		stm_batch_result r;
		bank_check chk;
		uint64_t i, st_ro = 0, st_upd = 0, st_pending = 0;

		ops->run(ctx, p.timeout_ns, 0, &r);
		ops->fetch(ctx, (uint32_t *)after, status);
		for (i = 0; i < w.ntx; i++) {
			if (status[i] == TX_STATUS_PENDING)
				st_pending++;
			else if (status[i] == TX_STATUS_READONLY)
				st_ro++;
			else
				st_upd++;
		}
		bank_verify_batch(&w, mirror, status, after, &chk);
		if (!chk.ok)
			tu_fail(__FILE__, __LINE__, "%s batch %d: verification failed: %s", label, b,
				chk.message);
		else
			res->batches_ok++;
		if (chk.money_before != chk.money_after && chk.abandoned == 0)
			tu_fail(__FILE__, __LINE__, "%s batch %d: money %lld -> %lld with nothing abandoned",
				label, b, (long long)chk.money_before, (long long)chk.money_after);
		if (chk.min_balance < 0)
			tu_fail(__FILE__, __LINE__, "%s batch %d: negative balance %lld", label, b,
				(long long)chk.min_balance);
		/* counters against status words */
		if (r.c.commits_update != st_upd || r.c.commits_readonly != st_ro)
			tu_fail(__FILE__, __LINE__,
				"%s batch %d: counters %llu update + %llu read-only, status words %llu + %llu",
				label, b, (unsigned long long)r.c.commits_update,
				(unsigned long long)r.c.commits_readonly, (unsigned long long)st_upd,
				(unsigned long long)st_ro);
		if (chk.committed_update != st_upd || chk.committed_readonly != st_ro ||
		    chk.abandoned != st_pending)
			tu_fail(__FILE__, __LINE__, "%s batch %d: verifier counts disagree with status words",
				label, b);
		if (r.c.commits_update + r.c.commits_readonly + st_pending != w.ntx)
			tu_fail(__FILE__, __LINE__, "%s batch %d: commits %llu + abandoned %llu != %llu",
				label, b,
				(unsigned long long)(r.c.commits_update + r.c.commits_readonly),
				(unsigned long long)st_pending, (unsigned long long)w.ntx);
		if (r.seconds <= 0 || r.cycles_per_ns <= 0)
			tu_fail(__FILE__, __LINE__, "%s batch %d: seconds %g, cycles/ns %g", label, b,
				r.seconds, r.cycles_per_ns);
		res->commits += r.c.commits_update + r.c.commits_readonly;
		res->abandoned += st_pending;
		res->gave_up += r.c.threads_gave_up;
		res->timed_out += r.c.threads_timed_out;
		res->failed += r.c.threads_failed;
		res->aborts_semantic += r.c.aborts_semantic;
		res->aborts_conflict += r.c.aborts_locked + r.c.aborts_priority + r.c.aborts_validation;
		res->retry_limit_reached += r.c.retry_limit_reached;
	}
	res->all_initial = 1;
	for (j = 0; j < bc.accounts; j++)
		if (after[j] != (int32_t)bc.initial_balance)
			res->all_initial = 0;
	ops->close(ctx);
	free(initial);
	free(mirror);
	free(after);
	free(status);
	bank_free(&w);
}

/*
 * Shuffled semantic chains can reach a dead end: a chain's withdraw may commit
 * before its own transfer, on money another chain deposited, and leave two
 * transfers (a -> b and b -> a) that each need more than their source holds.
 * The scheduler then abandons them after --max-passes. Such a run must still
 * verify and account for every transaction; it may abandon only a few.
 */
static void expect_verified_few_abandoned(const conc_case *k, int batches, const char *label)
{
	conc_result res;
	run_case(&prstm_bank_cpu_ops, k, batches, &res, label);
	if (!res.generated)
		return;
	CHECK_EQ(res.batches_ok, (uint64_t)batches);
	CHECK_EQ(res.commits + res.abandoned, res.ntx * (uint64_t)batches);
	CHECK(res.abandoned * 100 <= res.ntx * (uint64_t)batches);
	CHECK(res.gave_up <= res.abandoned);
	CHECK_EQ(res.timed_out, 0u);
	CHECK_EQ(res.failed, 0u);
	if (res.abandoned == 0)
		CHECK(res.all_initial);
}

static void expect_all_committed_by(const stm_ops *ops, const conc_case *k, int batches,
				    const char *label)
{
	conc_result res;
	run_case(ops, k, batches, &res, label);
	if (!res.generated)
		return;
	CHECK_EQ(res.batches_ok, (uint64_t)batches);
	CHECK_EQ(res.commits, res.ntx * (uint64_t)batches);
	CHECK_EQ(res.abandoned, 0u);
	CHECK_EQ(res.gave_up, 0u);
	CHECK_EQ(res.timed_out, 0u);
	CHECK_EQ(res.failed, 0u);
	/* a fully committed table nets to zero on every account */
	CHECK(res.all_initial);
}

static void expect_all_committed(const conc_case *k, int batches, const char *label)
{
	expect_all_committed_by(&prstm_bank_cpu_ops, k, batches, label);
}

TEST(cpu_backend_oversubscribed_no_semantic)
{
	conc_case k = {2000, 32, 8, 4, 8, 0, 20, 2, 0, 1, 1000000, 0, 0, NULL};
	expect_all_committed(&k, 3, "8 accounts hash 4 semantic 0");
	k.accounts = 64;
	k.hash = 16;
	k.transfers = 4;
	expect_all_committed(&k, 1, "64 accounts hash 16 semantic 0 K=4");
}

TEST(cpu_backend_oversubscribed_semantic_50)
{
	conc_case k = {2000, 64, 16, 8, 8, 50, 20, 1, 0, 1, 1000000, 0, 0, NULL};
	expect_verified_few_abandoned(&k, 3, "16 accounts hash 8 semantic 50");
	k.presort = 1;
	expect_all_committed(&k, 1, "16 accounts hash 8 semantic 50 presort");
}

TEST(cpu_backend_oversubscribed_semantic_100)
{
	conc_case k = {2000, 32, 64, 4, 6, 100, 0, 1, 1, 1, 1000000, 0, 0, NULL};
	expect_all_committed(&k, 3, "64 accounts hash 4 semantic 100 presort");
	k.accounts = 32;
	k.hash = 16;
	k.presort = 0;
	k.threads = 600;
	k.read_only = 20;
	expect_verified_few_abandoned(&k, 2, "32 accounts hash 16 semantic 100 shuffled");
	k.use_tags = 0;
	expect_verified_few_abandoned(&k, 2, "32 accounts hash 16 semantic 100 shuffled no tags");
}

/*
 * PR-STM without its semantic contention manager (prstm-nocm) on the same
 * oversubscribed, contended tables: with nothing semantic, and with semantic
 * chains presorted so that each withdrawal follows the deposit it needs in
 * its thread's block, everything commits and every batch replays.
 */
TEST(prstm_nocm_cpu_backend_oversubscribed)
{
	conc_case k = {2000, 32, 8, 4, 8, 0, 20, 2, 0, 1, 1000000, 0, 0, "prstm-nocm"};
	expect_all_committed_by(&prstm_bank_cpu_ops, &k, 2, "prstm-nocm 8 accounts hash 4 semantic 0");
	k.accounts = 64;
	k.hash = 4;
	k.tx_per_thread = 6;
	k.semantic = 100;
	k.read_only = 0;
	k.transfers = 1;
	k.presort = 1;
	expect_all_committed_by(&prstm_bank_cpu_ops, &k, 2, "prstm-nocm 64 accounts hash 4 semantic 100 presort");
}

/*
 * Balance inquiries as large as the engines' read sets (8 words), half the
 * table, on a few hot accounts: each engine commits everything and every batch
 * verifies, and a read set that is full does not spill.
 */
TEST(cpu_backend_read_only_size_at_capacity)
{
	conc_case k = {1000, 32, 16, 2, 8, 0, 50, 1, 0, 1, 1000000, 1000000000, 8, NULL};
	expect_all_committed_by(&prstm_bank_cpu_ops, &k, 2, "prstm: inquiries of 8 accounts");
	expect_all_committed_by(&gpustm_bank_cpu_ops, &k, 2, "gpustm: inquiries of 8 accounts");
	k.semantic = 100;
	k.presort = 1;
	k.read_only_size = 5;
	expect_all_committed_by(&prstm_bank_cpu_ops, &k, 1, "prstm: inquiries of 5 accounts, chains");
}

TEST(cpu_backend_max_passes_abandons_but_verifies)
{
	conc_case k = {256, 8, 16, 2, 6, 100, 0, 1, 0, 1, 1, 0, 0, NULL};
	conc_result res;
	run_case(&prstm_bank_cpu_ops, &k, 1, &res, "max passes 1");
	REQUIRE(res.generated);
	CHECK_EQ(res.batches_ok, 1u);
	CHECK(res.abandoned > 0);
	CHECK(res.gave_up > 0);
	CHECK_EQ(res.commits + res.abandoned, res.ntx);
	CHECK_EQ(res.failed, 0u);
}

TEST(cpu_backend_single_thread_matches_serial_state)
{
	/* one logical thread on one worker: no other transaction to conflict with. An attempt
	 * can still abort once when the worker is preempted past PR-STM's attempt time limit
	 * (20 us, stm/prstm/prstm_cpu.h), as it was on a machine loaded by parallel builds; it
	 * is counted as a conflict. So a few such aborts, never one per transaction. */
	conc_case k = {1, 1, 10, 1, 60, 50, 20, 2, 0, 1, 1000000, 0, 0, NULL};
	conc_result res;
	run_case(&prstm_bank_cpu_ops, &k, 1, &res, "single thread");
	REQUIRE(res.generated);
	CHECK_EQ(res.batches_ok, 1u);
	CHECK_EQ(res.commits, 60u);
	CHECK(res.aborts_conflict <= 3u);
	CHECK(res.all_initial);
}

/*
 * GPU-STM at high contention, oversubscribed: with a retry limit no attempt
 * can reach, everything commits; with the paper's 100, semantic chains
 * spread over threads are given up, every one of them counted, and what
 * committed still replays.
 */
TEST(gpustm_cpu_backend_oversubscribed)
{
	conc_case k = {2000, 32, 8, 4, 8, 0, 20, 2, 0, 1, 1000000, 1000000000, 0, NULL};
	conc_result res;

	expect_all_committed_by(&gpustm_bank_cpu_ops, &k, 2, "gpustm 8 accounts hash 4 semantic 0");
	expect_all_committed_by(&gpustm_local_bank_cpu_ops, &k, 2, "gpustm-local 8 accounts hash 4 semantic 0");
	k.accounts = 64;
	k.hash = 16;
	k.transfers = 4;
	expect_all_committed_by(&gpustm_bank_cpu_ops, &k, 1, "gpustm 64 accounts hash 16 semantic 0 K=4");
	k.accounts = 16;
	k.hash = 1;
	k.transfers = 1;
	k.semantic = 50;
	k.presort = 1;
	expect_all_committed_by(&gpustm_bank_cpu_ops, &k, 1, "gpustm 16 accounts semantic 50 presort");

	k.threads = 600;
	k.accounts = 32;
	k.hash = 8;
	k.semantic = 100;
	k.presort = 0;
	k.retry_limit = 0; /* the default, 100 */
	run_case(&gpustm_bank_cpu_ops, &k, 2, &res, "gpustm 32 accounts hash 8 semantic 100 shuffled");
	REQUIRE(res.generated);
	CHECK_EQ(res.batches_ok, 2u);
	CHECK_EQ(res.commits + res.abandoned, 2 * res.ntx);
	CHECK(res.abandoned > 0);
	CHECK_EQ(res.retry_limit_reached, res.abandoned); /* its only way to leave one */
	CHECK(res.aborts_semantic + res.aborts_conflict >= 100 * res.retry_limit_reached);
	CHECK_EQ(res.timed_out, 0u);
	CHECK_EQ(res.failed, 0u);
}

/*
 * A withdrawal nothing can ever fund, beside work that can commit: with a
 * huge --max-passes only the stall detector ends the run, and it must do so
 * soon after the last commit, leaving exactly that transaction abandoned.
 */
TEST(cpu_backend_stall_abandons_unfundable_withdrawal)
{
	bank_workload w;
	bank_config bc;
	stm_params p;
	stm_batch_result r;
	bank_check chk;
	int32_t initial[4] = {1000, 1000, 1000, 1000}, after[4], mirror[4];
	uint32_t status[8];
	void *ctx;
	uint64_t i;

	memset(&w, 0, sizeof(w));
	memset(&bc, 0, sizeof(bc));
	bc.accounts = 4;
	bc.threads = 2;
	bc.tx_per_thread = 4;
	bc.transfers_per_tx = 1;
	bc.initial_balance = 1000;
	w.cfg = bc;
	w.ntx = 8;
	w.tx = calloc(8, sizeof(bank_entry));
	REQUIRE(w.tx != NULL);
	for (i = 0; i < 8; i++) {
		w.tx[i].meta = BANK_META(BANK_DEPOSIT, 2, 1, 0);
		w.tx[i].amount = 5;
		w.tx[i].a = (uint32_t)(i % 4);
	}
	w.tx[5].meta = BANK_META(BANK_WITHDRAW, 0, 1, 0);
	w.tx[5].amount = 1000000; /* far beyond all the money there is */
	w.max_tag = 2;

	memset(&p, 0, sizeof(p));
	p.threads = 2;
	p.hash = 1;
	p.cpu_workers = 2;
	p.timeout_ns = 60ull * 1000000000ull;
	prstm_params_rw(&p)->max_passes = 1000000000;
	prstm_params_rw(&p)->use_tags = 1;
	prstm_params_rw(&p)->stall_ns = 50ull * 1000000ull;

	ctx = open_bank(&prstm_bank_cpu_ops, &w, &p);
	prstm_bank_cpu_ops.load(ctx, (const uint32_t *)initial);
	prstm_bank_cpu_ops.run(ctx, p.timeout_ns, 0, &r);
	prstm_bank_cpu_ops.fetch(ctx, (uint32_t *)after, status);
	prstm_bank_cpu_ops.close(ctx);

	CHECK_EQ(r.c.threads_stalled, 1u);
	CHECK_EQ(r.c.threads_gave_up, 0u);
	CHECK_EQ(r.c.threads_timed_out, 0u);
	CHECK_EQ(r.c.commits_update, 7u);
	CHECK_EQ(status[5], TX_STATUS_PENDING);
	CHECK(r.seconds < 5.0);
	memcpy(mirror, initial, sizeof(mirror));
	bank_verify_batch(&w, mirror, status, after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.abandoned, 1u);
	free(w.tx);
}

/*
 * A hand-made bank table of two accounts at 1000 on PR-STM's CPU backend,
 * with the parameters engine's options (opts) set and a 50 ms stall timeout;
 * checks the outcome with the bank's oracle and returns the counters.
 */
static stm_counters run_hand_table(const bank_entry *tx, uint32_t ntx, uint32_t threads, const char *engine,
				   const char *const *opts, uint32_t *status, int32_t *after)
{
	bank_workload w;
	stm_params p;
	stm_batch_result r;
	bank_check chk;
	int32_t initial[2] = {1000, 1000}, mirror[2] = {1000, 1000};
	void *ctx;

	memset(&w, 0, sizeof(w));
	w.cfg.accounts = 2;
	w.cfg.threads = threads;
	w.cfg.tx_per_thread = ntx / threads;
	w.cfg.transfers_per_tx = 1;
	w.cfg.initial_balance = 1000;
	w.ntx = ntx;
	w.tx = (bank_entry *)tx;
	w.max_tag = 2;
	memset(&p, 0, sizeof(p));
	p.threads = threads;
	p.hash = 1;
	p.cpu_workers = threads;
	p.timeout_ns = 60ull * 1000000000ull;
	tu_engine_params(&p, tu_stm_engine(engine), opts);
	ctx = open_bank(&prstm_bank_cpu_ops, &w, &p);
	prstm_bank_cpu_ops.load(ctx, (const uint32_t *)initial);
	prstm_bank_cpu_ops.run(ctx, p.timeout_ns, 0, &r);
	prstm_bank_cpu_ops.fetch(ctx, (uint32_t *)after, status);
	prstm_bank_cpu_ops.close(ctx);
	bank_verify_batch(&w, mirror, status, after, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s: verification failed: %s", engine, chk.message);
	CHECK(r.seconds < 5.0);
	CHECK_EQ(r.c.threads_timed_out, 0u);
	CHECK_EQ(r.c.threads_failed, 0u);
	return r.c;
}

/*
 * What the semantic contention manager changes. One thread's block: a
 * withdrawal of 1500 from account 0 (1000 there), then the deposit of 1000
 * that funds it, then a deposit to account 1. prstm sweeps its tags (deposits
 * first) and meets no conflict; with --no-tags it postpones the withdrawal
 * once, commits the deposits and the withdrawal on its next pass.
 * prstm-nocm retries the withdrawal in place: the deposit behind it never
 * runs, nothing commits, and the stall timeout abandons the whole block
 * after many semantic aborts. With the funding deposit in another thread's
 * block, prstm-nocm's retries wait for it and everything commits.
 */
TEST(prstm_nocm_retries_a_semantic_conflict_in_place)
{
	static const char *const stall[] = {"stall-timeout=0.05", NULL};
	static const char *const no_tags[] = {"stall-timeout=0.05", "no-tags=1", NULL};
	bank_entry tx[4];
	uint32_t status[4];
	int32_t after[2];
	stm_counters c;

	memset(tx, 0, sizeof(tx));
	tx[0].meta = BANK_META(BANK_WITHDRAW, 0, 1, 0);
	tx[0].amount = 1500;
	tx[0].a = 0;
	tx[1].meta = BANK_META(BANK_DEPOSIT, 2, 1, 0);
	tx[1].amount = 1000;
	tx[1].a = 0;
	tx[2].meta = BANK_META(BANK_DEPOSIT, 2, 1, 0);
	tx[2].amount = 5;
	tx[2].a = 1;

	c = run_hand_table(tx, 3, 1, "prstm", stall, status, after);
	CHECK_EQ(c.commits_update, 3u);
	CHECK_EQ(c.aborts_semantic, 0u);
	CHECK_EQ(status[1], 1u); /* the deposits' tag first: stamps 0 and 1, then the withdrawal */
	CHECK_EQ(status[2], 2u);
	CHECK_EQ(status[0], 3u);

	c = run_hand_table(tx, 3, 1, "prstm", no_tags, status, after);
	CHECK_EQ(c.commits_update, 3u);
	CHECK_EQ(c.aborts_semantic, 1u); /* postponed once */
	CHECK_EQ(c.passes_max, 1u);
	CHECK_EQ(c.threads_stalled, 0u);
	CHECK_EQ(status[0], 3u); /* committed on the second pass */
	CHECK_EQ_I(after[0], 500);
	CHECK_EQ_I(after[1], 1005);

	c = run_hand_table(tx, 3, 1, "prstm-nocm", stall, status, after);
	CHECK_EQ(c.commits_update, 0u);
	CHECK(c.aborts_semantic >= 2u); /* retried, never postponed */
	CHECK_EQ(c.passes_max, 0u);
	CHECK_EQ(c.threads_stalled, 1u);
	CHECK_EQ(c.threads_gave_up, 0u);
	CHECK_EQ(status[0], TX_STATUS_PENDING);
	CHECK_EQ(status[1], TX_STATUS_PENDING);
	CHECK_EQ(status[2], TX_STATUS_PENDING);
	CHECK_EQ_I(after[0], 1000);
	CHECK_EQ_I(after[1], 1000);

	/* thread 0: the withdrawal, a deposit to account 1; thread 1: the funding deposit, another */
	tx[1].amount = 5;
	tx[1].a = 1;
	tx[2].amount = 1000;
	tx[2].a = 0;
	tx[3] = tx[1];
	c = run_hand_table(tx, 4, 2, "prstm-nocm", stall, status, after);
	CHECK_EQ(c.commits_update, 4u);
	CHECK_EQ(c.threads_stalled, 0u);
	CHECK(status[0] > status[2]); /* the withdrawal after its deposit */
	CHECK(status[1] > status[0]); /* and thread 0's deposit after its withdrawal, in table order */
	CHECK_EQ_I(after[0], 500);
	CHECK_EQ_I(after[1], 1010);
}

/* Generate a table, open the CPU backend on it and load the initial balances. */
static void *open_cpu(bank_workload *w, const bank_config *bc, uint32_t hash, uint32_t workers,
		      stm_params *p, int32_t **initial)
{
	char err[512];
	uint32_t j;
	void *ctx;

	if (bank_generate(w, bc, err, sizeof(err)) != 0) {
		tu_fail(__FILE__, __LINE__, "generation failed: %s", err);
		return NULL;
	}
	memset(p, 0, sizeof(*p));
	p->threads = bc->threads;
	p->hash = hash;
	p->cpu_workers = workers;
	p->timeout_ns = 60ull * 1000000000ull;
	prstm_params_rw(p)->max_passes = 1000000;
	prstm_params_rw(p)->use_tags = 1;
	prstm_params_rw(p)->stall_ns = 1000000000ull;
	*initial = malloc(bc->accounts * sizeof(int32_t));
	for (j = 0; j < bc->accounts; j++)
		(*initial)[j] = (int32_t)bc->initial_balance;
	ctx = open_bank(&prstm_bank_cpu_ops, w, p);
	prstm_bank_cpu_ops.load(ctx, (const uint32_t *)*initial);
	return ctx;
}

/*
 * A timed run: threads sweep their blocks round after round until the run's
 * end; the status words count each entry's commits, the counts stay within 2
 * of each other (the round gate), and the final state is the start plus every
 * commit's amounts.
 */
static void timed_run_case(uint32_t threads, uint32_t accounts, uint32_t hash, uint32_t semantic,
			   int presort, const char *label)
{
	bank_workload w;
	bank_config bc;
	stm_params p;
	stm_batch_result r;
	bank_check chk;
	int32_t *initial = NULL, *after;
	uint32_t *counts, lo = UINT32_MAX, hi = 0;
	uint64_t i, sum = 0;
	void *ctx;

	memset(&bc, 0, sizeof(bc));
	bc.accounts = accounts;
	bc.threads = threads;
	bc.tx_per_thread = 12;
	bc.semantic_ratio = semantic;
	bc.read_only = 20;
	bc.transfers_per_tx = 2;
	bc.initial_balance = 100000;
	bc.presort = presort;
	bc.seed = 77;
	ctx = open_cpu(&w, &bc, hash, 8, &p, &initial);
	REQUIRE(ctx != NULL);
	REQUIRE(prstm_bank_cpu_ops.rounds_ok(ctx));
	REQUIRE(bank_rounds_fit(&w));
	prstm_bank_cpu_ops.run(ctx, p.timeout_ns, 150000000ull, &r);
	after = malloc(accounts * sizeof(int32_t));
	counts = malloc(w.ntx * sizeof(uint32_t));
	prstm_bank_cpu_ops.fetch(ctx, (uint32_t *)after, counts);
	prstm_bank_cpu_ops.close(ctx);
	for (i = 0; i < w.ntx; i++) {
		sum += counts[i];
		lo = counts[i] < lo ? counts[i] : lo;
		hi = counts[i] > hi ? counts[i] : hi;
	}
	bank_verify_counts(&w, initial, counts, after, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", label, chk.message);
	CHECK_EQ(r.c.commits_update + r.c.commits_readonly, sum);
	CHECK_EQ(chk.committed_update, r.c.commits_update);
	CHECK_EQ(chk.committed_readonly, r.c.commits_readonly);
	CHECK_EQ(r.c.threads_timed_out, 0u);
	CHECK_EQ(r.c.threads_failed, 0u);
	CHECK(hi >= 3);      /* blocks were swept round after round */
	CHECK(hi - lo <= 2); /* no thread ran more than the gate allows ahead */
	CHECK(r.seconds >= 0.15 && r.seconds < 5.0);
	free(after);
	free(counts);
	free(initial);
	bank_free(&w);
}

TEST(cpu_backend_timed_run_rounds)
{
	timed_run_case(64, 1000, 1, 0, 0, "64 threads, low contention");
	timed_run_case(200, 64, 8, 0, 0, "200 threads, 8 locks, two-leg transfers");
	timed_run_case(96, 300, 1, 60, 1, "96 threads, presorted semantic chains");
}

/* --timeout stops a batch between transactions: what committed is a valid prefix. */
TEST(cpu_backend_timeout_stops_a_batch)
{
	bank_workload w;
	bank_config bc;
	stm_params p;
	stm_batch_result r;
	bank_check chk;
	int32_t *initial = NULL, *after, *mirror;
	uint32_t *status;
	void *ctx;

	memset(&bc, 0, sizeof(bc));
	bc.accounts = 20000;
	bc.threads = 16;
	bc.tx_per_thread = 100000;
	bc.semantic_ratio = 0;
	bc.transfers_per_tx = 1;
	bc.initial_balance = 100000;
	bc.seed = 5;
	/* one worker for 16 logical threads: no machine commits 1.6 million
	 * transactions that way within the 20 ms timeout */
	ctx = open_cpu(&w, &bc, 1, 1, &p, &initial);
	REQUIRE(ctx != NULL);
	prstm_bank_cpu_ops.run(ctx, 20000000ull, 0, &r);
	after = malloc(bc.accounts * sizeof(int32_t));
	mirror = malloc(bc.accounts * sizeof(int32_t));
	status = malloc(w.ntx * sizeof(uint32_t));
	prstm_bank_cpu_ops.fetch(ctx, (uint32_t *)after, status);
	prstm_bank_cpu_ops.close(ctx);
	CHECK_EQ(r.c.threads_timed_out, 16u);
	CHECK(r.seconds < 1.0);
	CHECK(r.c.commits_update > 0 && r.c.commits_update < w.ntx);
	memcpy(mirror, initial, bc.accounts * sizeof(int32_t));
	bank_verify_batch(&w, mirror, status, after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.committed_update, r.c.commits_update);
	CHECK_EQ(chk.abandoned, w.ntx - r.c.commits_update);
	free(after);
	free(mirror);
	free(status);
	free(initial);
	bank_free(&w);
}

/*
 * A timed run in which one thread can never finish its round (a withdrawal
 * nothing funds): it stalls and halts the run, so the other thread, waiting
 * at the round gate, stops too, long before the run's end.
 */
TEST(cpu_backend_timed_run_halts_on_a_stall)
{
	bank_workload w;
	stm_params p;
	stm_batch_result r;
	bank_check chk;
	int32_t initial[4] = {1000, 1000, 1000, 1000}, after[4];
	uint32_t counts[8];
	void *ctx;
	uint64_t i;

	memset(&w, 0, sizeof(w));
	w.cfg.accounts = 4;
	w.cfg.threads = 2;
	w.cfg.tx_per_thread = 4;
	w.cfg.transfers_per_tx = 1;
	w.cfg.initial_balance = 1000;
	w.ntx = 8;
	w.tx = calloc(8, sizeof(bank_entry));
	REQUIRE(w.tx != NULL);
	for (i = 0; i < 8; i++) {
		w.tx[i].meta = BANK_META(BANK_DEPOSIT, 2, 1, 0);
		w.tx[i].amount = 5;
		w.tx[i].a = (uint32_t)(i % 4);
	}
	w.tx[5].meta = BANK_META(BANK_WITHDRAW, 0, 1, 0);
	w.tx[5].amount = 1000000000; /* far beyond all the money there can be */
	w.max_tag = 2;

	memset(&p, 0, sizeof(p));
	p.threads = 2;
	p.hash = 1;
	p.cpu_workers = 2;
	p.timeout_ns = 60ull * 1000000000ull;
	prstm_params_rw(&p)->max_passes = 1000000000;
	prstm_params_rw(&p)->use_tags = 1;
	prstm_params_rw(&p)->stall_ns = 50ull * 1000000ull;

	ctx = open_bank(&prstm_bank_cpu_ops, &w, &p);
	prstm_bank_cpu_ops.load(ctx, (const uint32_t *)initial);
	prstm_bank_cpu_ops.run(ctx, p.timeout_ns, 30ull * 1000000000ull, &r);
	prstm_bank_cpu_ops.fetch(ctx, (uint32_t *)after, counts);
	prstm_bank_cpu_ops.close(ctx);

	CHECK_EQ(r.c.threads_stalled, 1u);
	CHECK_EQ(r.c.threads_timed_out, 0u);
	CHECK(r.seconds < 5.0);
	CHECK_EQ(counts[5], 0u);
	CHECK(counts[0] >= 1 && counts[0] <= 3); /* thread 0 got at most 2 rounds ahead */
	bank_verify_counts(&w, initial, counts, after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.committed_update, r.c.commits_update);
	free(w.tx);
}
