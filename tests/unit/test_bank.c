/* workloads/stm/bank.c: the table generator and the serial-replay verifier. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/bank_run.h"
#include "tests/unit/test.h"
#include "workloads/stm/bank.h"

static bank_config base_config(void)
{
	bank_config c;
	memset(&c, 0, sizeof(c));
	c.accounts = 50;
	c.threads = 10;
	c.tx_per_thread = 30;
	c.semantic_ratio = 50;
	c.read_only = 20;
	c.transfers_per_tx = 2;
	c.initial_balance = 1000;
	c.presort = 0;
	c.seed = 7;
	return c;
}

/*
 * The serial reference: sweep the table in index order, committing every
 * entry that has the money, until all are committed or `max_updates` update
 * transactions have been. Status words get stamps 0, 1, ... in commit order.
 * Returns the number of update commits.
 */
static uint64_t serial_run(const bank_workload *w, const int32_t *initial, uint32_t *status,
			   int32_t *after, uint64_t max_updates)
{
	uint32_t n = w->cfg.accounts, j;
	int64_t *bal = malloc(n * sizeof(int64_t)), *tmp = malloc(n * sizeof(int64_t));
	uint64_t i, stamp = 0, left = w->ntx;
	int progress = 1;

	for (j = 0; j < n; j++)
		bal[j] = initial[j];
	memset(status, 0, w->ntx * sizeof(uint32_t));
	while (left && progress && stamp < max_updates) {
		progress = 0;
		for (i = 0; i < w->ntx && stamp < max_updates; i++) {
			const bank_entry *e = &w->tx[i];
			unsigned type = BANK_TYPE(e->meta), na = BANK_NACCT(e->meta), ok = 1;
			if (status[i])
				continue;
			memcpy(tmp, bal, n * sizeof(int64_t));
			if (type == BANK_DEPOSIT) {
				tmp[e->a] += e->amount;
			} else if (type == BANK_WITHDRAW) {
				ok = tmp[e->a] >= e->amount;
				tmp[e->a] -= e->amount;
			} else if (type == BANK_TRANSFER) {
				for (j = 0; j + 1 < na && ok; j += 2) {
					uint32_t s = bank_account(w, i, j), d = bank_account(w, i, j + 1);
					ok = tmp[s] >= e->amount;
					tmp[s] -= e->amount;
					tmp[d] += e->amount;
				}
			}
			if (!ok)
				continue;
			if (type == BANK_BALANCE) {
				status[i] = TX_STATUS_READONLY;
			} else {
				memcpy(bal, tmp, n * sizeof(int64_t));
				status[i] = (uint32_t)(stamp++ + 1);
			}
			left--;
			progress = 1;
		}
	}
	for (j = 0; j < n; j++)
		after[j] = (int32_t)bal[j];
	free(bal);
	free(tmp);
	return stamp;
}

TEST(bank_generate_counts)
{
	bank_config c = base_config();
	bank_workload w;
	char err[512] = "";
	uint64_t i, types[BANK_NTYPES] = {0}, chain_flags = 0;
	int bad_acct = 0, bad_nacct = 0, bad_amount = 0, bad_tag = 0;

	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	/* per block of 30: 6 read-only, 24 updates, 4 chains (12 entries), 12 transfers */
	CHECK_EQ(w.ntx, 300u);
	CHECK_EQ(w.chains, 40u);
	CHECK_EQ(w.nonsemantic, 120u);
	CHECK_EQ(w.count[BANK_DEPOSIT], 40u);
	CHECK_EQ(w.count[BANK_WITHDRAW], 40u);
	CHECK_EQ(w.count[BANK_TRANSFER], 160u);
	CHECK_EQ(w.count[BANK_BALANCE], 60u);
	CHECK_EQ(w.max_tag, 2u);
	CHECK_EQ(w.extra_stride, 2u);
	for (i = 0; i < w.ntx; i++) {
		const bank_entry *e = &w.tx[i];
		unsigned t = BANK_TYPE(e->meta), na = BANK_NACCT(e->meta), j;
		REQUIRE(t < BANK_NTYPES);
		types[t]++;
		chain_flags += BANK_IS_CHAIN(e->meta);
		for (j = 0; j < na; j++)
			bad_acct += bank_account(&w, i, j) >= c.accounts;
		switch (t) {
		case BANK_DEPOSIT:
		case BANK_WITHDRAW:
			bad_nacct += na != 1;
			bad_tag += BANK_TAG(e->meta) != (t == BANK_DEPOSIT ? 2u : 0u);
			bad_amount += e->amount <= (int32_t)c.initial_balance ||
				      e->amount > 2 * (int32_t)c.initial_balance;
			bad_amount += !BANK_IS_CHAIN(e->meta);
			break;
		case BANK_TRANSFER:
			bad_tag += BANK_TAG(e->meta) != 1;
			if (BANK_IS_CHAIN(e->meta)) {
				bad_nacct += na != 2;
				bad_amount += e->amount <= (int32_t)c.initial_balance;
				bad_acct += e->a == e->b;
			} else {
				bad_nacct += na != 2 * c.transfers_per_tx;
				bad_amount += e->amount < 1 || e->amount > 10;
				for (j = 0; j < na; j += 2)
					bad_acct += bank_account(&w, i, j) == bank_account(&w, i, j + 1);
			}
			break;
		default:
			bad_tag += BANK_TAG(e->meta) != 1;
			bad_nacct += na != 2 * c.transfers_per_tx;
			bad_amount += BANK_IS_CHAIN(e->meta);
			break;
		}
	}
	CHECK_EQ(types[BANK_DEPOSIT], w.count[BANK_DEPOSIT]);
	CHECK_EQ(types[BANK_WITHDRAW], w.count[BANK_WITHDRAW]);
	CHECK_EQ(types[BANK_TRANSFER], w.count[BANK_TRANSFER]);
	CHECK_EQ(types[BANK_BALANCE], w.count[BANK_BALANCE]);
	CHECK_EQ(chain_flags, 3 * w.chains);
	CHECK_EQ(bad_acct, 0);
	CHECK_EQ(bad_nacct, 0);
	CHECK_EQ(bad_amount, 0);
	CHECK_EQ(bad_tag, 0);
	CHECK_STR_EQ(bank_type_name(BANK_WITHDRAW), "withdraw");
	CHECK_STR_EQ(bank_type_name(99), "unknown");
	bank_free(&w);

	/* no semantic, no read-only, odd non-semantic count: the odd one is read-only */
	c = base_config();
	c.semantic_ratio = 0;
	c.read_only = 0;
	c.threads = 3;
	c.tx_per_thread = 5;
	c.transfers_per_tx = 1;
	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.ntx, 15u);
	CHECK_EQ(w.chains, 0u);
	CHECK_EQ(w.nonsemantic, 14u);
	CHECK_EQ(w.count[BANK_TRANSFER], 14u);
	CHECK_EQ(w.count[BANK_BALANCE], 1u);
	CHECK_EQ(w.count[BANK_DEPOSIT] + w.count[BANK_WITHDRAW], 0u);
	CHECK_EQ(w.max_tag, 1u);
	CHECK_EQ(w.extra_stride, 0u);
	bank_free(&w);

	/* all semantic */
	c = base_config();
	c.semantic_ratio = 100;
	c.read_only = 0;
	c.tx_per_thread = 9;
	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.chains, 30u);
	CHECK_EQ(w.count[BANK_DEPOSIT], 30u);
	CHECK_EQ(w.count[BANK_WITHDRAW], 30u);
	CHECK_EQ(w.count[BANK_TRANSFER], 30u);
	bank_free(&w);
}

TEST(bank_generate_deterministic)
{
	bank_config c = base_config();
	bank_workload a, b;
	char err[512];

	REQUIRE(bank_generate(&a, &c, err, sizeof(err)) == 0);
	REQUIRE(bank_generate(&b, &c, err, sizeof(err)) == 0);
	CHECK(memcmp(a.tx, b.tx, a.ntx * sizeof(bank_entry)) == 0);
	CHECK(memcmp(a.extra, b.extra, a.ntx * a.extra_stride * sizeof(uint32_t)) == 0);
	bank_free(&b);
	c.seed = 8;
	REQUIRE(bank_generate(&b, &c, err, sizeof(err)) == 0);
	CHECK(memcmp(a.tx, b.tx, a.ntx * sizeof(bank_entry)) != 0);
	bank_free(&a);
	bank_free(&b);
}

/* Net effect of every update transaction on each account (all committed). */
TEST(bank_generate_nets_to_zero)
{
	bank_config c = base_config();
	bank_workload w;
	char err[512];
	int64_t *net;
	uint64_t i;
	uint32_t j, nonzero = 0;

	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	net = calloc(c.accounts, sizeof(int64_t));
	for (i = 0; i < w.ntx; i++) {
		const bank_entry *e = &w.tx[i];
		unsigned t = BANK_TYPE(e->meta), na = BANK_NACCT(e->meta);
		if (t == BANK_DEPOSIT)
			net[e->a] += e->amount;
		else if (t == BANK_WITHDRAW)
			net[e->a] -= e->amount;
		else if (t == BANK_TRANSFER)
			for (j = 0; j + 1 < na; j += 2) {
				net[bank_account(&w, i, j)] -= e->amount;
				net[bank_account(&w, i, j + 1)] += e->amount;
			}
	}
	for (j = 0; j < c.accounts; j++)
		nonzero += net[j] != 0;
	CHECK_EQ(nonzero, 0u);
	free(net);
	bank_free(&w);
}

/*
 * Match chains: each deposit(a, d) with a transfer(a -> b, d) and a
 * withdraw(b, d), all chain-flagged and unused. With `block` set, the three
 * must lie in one block of tx_per_thread entries in step order. Returns the
 * number of chains matched.
 */
static uint64_t match_chains(const bank_workload *w, int block, uint64_t *in_order)
{
	uint64_t P = w->cfg.tx_per_thread, i, k, matched = 0;
	char *used = calloc(w->ntx, 1);

	*in_order = 0;
	for (i = 0; i < w->ntx; i++) {
		const bank_entry *d = &w->tx[i];
		uint64_t lo = 0, hi = w->ntx, t = UINT64_MAX, x = UINT64_MAX;
		if (BANK_TYPE(d->meta) != BANK_DEPOSIT)
			continue;
		if (block) {
			lo = i + 1;
			hi = (i / P + 1) * P;
		}
		for (k = lo; k < hi && t == UINT64_MAX; k++)
			if (!used[k] && BANK_TYPE(w->tx[k].meta) == BANK_TRANSFER &&
			    BANK_IS_CHAIN(w->tx[k].meta) && w->tx[k].a == d->a &&
			    w->tx[k].amount == d->amount)
				t = k;
		if (t == UINT64_MAX)
			continue;
		if (block)
			lo = t + 1;
		for (k = lo; k < hi && x == UINT64_MAX; k++)
			if (!used[k] && BANK_TYPE(w->tx[k].meta) == BANK_WITHDRAW &&
			    w->tx[k].a == w->tx[t].b && w->tx[k].amount == d->amount)
				x = k;
		if (x == UINT64_MAX)
			continue;
		used[t] = used[x] = 1;
		matched++;
		if (i / P == t / P && t / P == x / P && i < t && t < x)
			(*in_order)++;
	}
	free(used);
	return matched;
}

TEST(bank_presort_keeps_chains_in_one_block_in_order)
{
	bank_config c = base_config();
	bank_workload w;
	char err[512];
	uint64_t in_order, b;

	c.presort = 1;
	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(match_chains(&w, 1, &in_order), w.chains);
	CHECK_EQ(in_order, w.chains);
	/* every block holds its own 4 chains, 12 transfers and 6 balances */
	for (b = 0; b < c.threads; b++) {
		uint64_t i, cnt[BANK_NTYPES] = {0};
		for (i = b * c.tx_per_thread; i < (b + 1) * c.tx_per_thread; i++)
			cnt[BANK_TYPE(w.tx[i].meta)]++;
		CHECK_EQ(cnt[BANK_DEPOSIT], 4u);
		CHECK_EQ(cnt[BANK_WITHDRAW], 4u);
		CHECK_EQ(cnt[BANK_TRANSFER], 16u);
		CHECK_EQ(cnt[BANK_BALANCE], 6u);
	}
	/* not simply chains first: the steps are interleaved with other entries */
	{
		uint64_t i, first_nonchain = w.ntx;
		for (i = 0; i < c.tx_per_thread; i++)
			if (!BANK_IS_CHAIN(w.tx[i].meta)) {
				first_nonchain = i;
				break;
			}
		CHECK(first_nonchain < 12);
	}
	bank_free(&w);
}

TEST(bank_no_presort_still_has_every_chain)
{
	bank_config c = base_config();
	bank_workload w;
	char err[512];
	uint64_t in_order;

	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(match_chains(&w, 0, &in_order), w.chains);
	/* shuffled over the whole table: most chains leave their block */
	CHECK(in_order < w.chains / 2);
	bank_free(&w);
}

TEST(bank_generate_rejects_impossible_configs)
{
	bank_config c = base_config();
	bank_workload w;
	char err[512] = "";

	c.accounts = 2;
	c.initial_balance = 1;
	c.semantic_ratio = 0;
	c.read_only = 0;
	c.threads = 100;
	c.tx_per_thread = 10;
	CHECK_EQ_I(bank_generate(&w, &c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "--initial-balance 1");
	CHECK_CONTAINS(err, "too small");

	c = base_config();
	c.accounts = 1;
	err[0] = '\0';
	CHECK_EQ_I(bank_generate(&w, &c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "at least 2 accounts");

	/* chain deposits that could push a balance past 32 bits */
	c = base_config();
	c.accounts = 2;
	c.initial_balance = 100000000;
	c.semantic_ratio = 100;
	c.read_only = 0;
	c.threads = 100;
	c.tx_per_thread = 30;
	err[0] = '\0';
	CHECK_EQ_I(bank_generate(&w, &c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "beyond 32 bits");

	/* the same with enough headroom works */
	c.initial_balance = 1000;
	CHECK_EQ_I(bank_generate(&w, &c, err, sizeof(err)), 0);
	bank_free(&w);
}

/* ---- the verifier ---- */

typedef struct replay {
	bank_workload w;
	int32_t *initial, *mirror, *after;
	uint32_t *status;
	uint64_t updates;
} replay;

static int replay_setup(replay *r, const bank_config *c, uint64_t max_updates)
{
	char err[512];
	if (bank_generate(&r->w, c, err, sizeof(err)) != 0)
		return -1;
	r->initial = bank_run_initial(&r->w);
	r->mirror = bank_run_initial(&r->w);
	r->after = malloc(c->accounts * sizeof(int32_t));
	r->status = malloc(r->w.ntx * sizeof(uint32_t));
	r->updates = serial_run(&r->w, r->initial, r->status, r->after, max_updates);
	return 0;
}

static void replay_free(replay *r)
{
	bank_free(&r->w);
	free(r->initial);
	free(r->mirror);
	free(r->after);
	free(r->status);
}

static void verify(replay *r, bank_check *chk)
{
	memcpy(r->mirror, r->initial, r->w.cfg.accounts * sizeof(int32_t));
	bank_verify_batch(&r->w, r->mirror, r->status, r->after, chk);
}

TEST(bank_verify_accepts_correct_replay)
{
	bank_config c = base_config();
	replay r;
	bank_check chk;
	uint32_t j;
	int same = 1;

	c.presort = 0;
	REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
	CHECK_EQ(r.updates, r.w.ntx - r.w.count[BANK_BALANCE]);
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_STR_EQ(chk.message, "");
	CHECK_EQ(chk.committed_update, r.updates);
	CHECK_EQ(chk.committed_readonly, r.w.count[BANK_BALANCE]);
	CHECK_EQ(chk.abandoned, 0u);
	CHECK_EQ_I(chk.money_before, 50 * 1000);
	CHECK_EQ_I(chk.money_after, 50 * 1000);
	/* everything committed: every balance is back where it started */
	for (j = 0; j < c.accounts; j++)
		same &= r.after[j] == 1000 && r.mirror[j] == r.after[j];
	CHECK(same);
	CHECK_EQ_I(chk.min_balance, 1000);
	replay_free(&r);
}

/* --read-only-threads: the share as whole threads, the last ones, with and without presort. */
TEST(bank_read_only_threads_are_whole_blocks)
{
	int presort;

	for (presort = 0; presort < 2; presort++) {
		bank_config c = base_config();
		replay r;
		bank_check chk;
		uint64_t b, i, ro_in_updates = 0, not_ro_in_ro = 0, in_order;

		c.presort = presort;
		c.read_only_threads = 1;
		REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
		/* 20% of 10 threads: threads 8 and 9 run only inquiries; each of the others 5 chains and 15
		 * transfers (semantic 50% of 30 updates), the same 60 inquiries and 40 chains in all */
		CHECK_EQ(r.w.update_threads, 8u);
		CHECK_EQ(r.w.count[BANK_BALANCE], 60u);
		CHECK_EQ(r.w.chains, 40u);
		CHECK_EQ(r.w.nonsemantic, 120u);
		for (b = 0; b < c.threads; b++)
			for (i = b * c.tx_per_thread; i < (b + 1) * c.tx_per_thread; i++) {
				int ro = BANK_TYPE(r.w.tx[i].meta) == BANK_BALANCE;
				ro_in_updates += b < 8 && ro;
				not_ro_in_ro += b >= 8 && !ro;
			}
		CHECK_EQ(ro_in_updates, 0u);
		CHECK_EQ(not_ro_in_ro, 0u);
		CHECK_EQ(match_chains(&r.w, presort, &in_order), r.w.chains);
		if (presort)
			CHECK_EQ(in_order, r.w.chains);
		else
			CHECK(in_order < r.w.chains / 2); /* still shuffled over the update threads */
		verify(&r, &chk); /* a serial run commits everything and nets to zero */
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.committed_readonly, 60u);
		CHECK_EQ(chk.abandoned, 0u);
		CHECK_EQ_I(chk.money_after, 50 * 1000);
		replay_free(&r);
	}
	/* the default: every block holds its share, all threads update */
	{
		bank_config c = base_config();
		bank_workload w;
		char err[512];
		REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
		CHECK_EQ(w.update_threads, 10u);
		bank_free(&w);
	}
}

TEST(bank_verify_partial_batch)
{
	bank_config c = base_config();
	replay r;
	bank_check chk;
	uint32_t j;
	int64_t sum = 0, dep = 0, wd = 0, min = INT64_MAX;
	uint64_t i, pending = 0, ro = 0;
	int same = 1;

	c.semantic_ratio = 100;
	c.read_only = 20;
	REQUIRE(replay_setup(&r, &c, 25) == 0);
	CHECK_EQ(r.updates, 25u);
	for (i = 0; i < r.w.ntx; i++) {
		pending += r.status[i] == TX_STATUS_PENDING;
		ro += r.status[i] == TX_STATUS_READONLY;
		if (r.status[i] && r.status[i] != TX_STATUS_READONLY) {
			if (BANK_TYPE(r.w.tx[i].meta) == BANK_DEPOSIT)
				dep += r.w.tx[i].amount;
			if (BANK_TYPE(r.w.tx[i].meta) == BANK_WITHDRAW)
				wd += r.w.tx[i].amount;
		}
	}
	for (j = 0; j < c.accounts; j++) {
		sum += r.after[j];
		if (r.after[j] < min)
			min = r.after[j];
	}
	CHECK(dep > 0);
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.committed_update, 25u);
	CHECK_EQ(chk.committed_readonly, ro);
	CHECK_EQ(chk.abandoned, pending);
	CHECK(pending > 0);
	CHECK_EQ_I(chk.money_before, 50000);
	CHECK_EQ_I(chk.money_after, sum);
	CHECK_EQ_I(chk.money_after, 50000 + dep - wd);
	CHECK_EQ_I(chk.min_balance, min);
	/* the mirror was advanced to the state after the batch */
	for (j = 0; j < c.accounts; j++)
		same &= r.mirror[j] == r.after[j];
	CHECK(same);
	replay_free(&r);
}

TEST(bank_verify_rejects_tampered_state)
{
	bank_config c = base_config();
	replay r;
	bank_check chk;

	REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
	r.after[3] += 1;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "differ");
	CHECK_CONTAINS(chk.message, "account 3");

	/* money conserved but moved between accounts: still a different state */
	r.after[3] -= 1;
	r.after[10] -= 5;
	r.after[11] += 5;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_EQ_I(chk.money_after, chk.money_before);
	CHECK_CONTAINS(chk.message, "2 balances differ");
	replay_free(&r);
}

TEST(bank_verify_rejects_bad_stamps)
{
	bank_config c = base_config();
	replay r;
	bank_check chk;
	uint64_t i, a = UINT64_MAX, b = UINT64_MAX;
	uint32_t save;

	REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
	for (i = 0; i < r.w.ntx; i++)
		if (r.status[i] != TX_STATUS_READONLY) {
			if (a == UINT64_MAX)
				a = i;
			else if (b == UINT64_MAX)
				b = i;
		}
	REQUIRE(b != UINT64_MAX);

	/* a duplicated stamp */
	save = r.status[b];
	r.status[b] = r.status[a];
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "permutation");
	r.status[b] = save;

	/* a stamp beyond the number of update commits */
	r.status[b] = (uint32_t)r.updates + 1;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "permutation");
	r.status[b] = save;

	/* an update transaction marked as a read-only commit: a stamp goes missing */
	r.status[b] = TX_STATUS_READONLY;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	r.status[b] = save;

	/* restored: accepted again */
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 1);
	replay_free(&r);
}

TEST(bank_verify_rejects_overdrawing_order)
{
	/* one thread, three entries: one chain deposit(a, d) -> transfer(a -> b, d) -> withdraw(b, d) */
	bank_config c = base_config();
	replay r;
	bank_check chk;
	uint64_t i, dep = 0, tr = 0, wd = 0;

	c.threads = 1;
	c.tx_per_thread = 3;
	c.semantic_ratio = 100;
	c.read_only = 0;
	c.presort = 1;
	c.accounts = 4;
	REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
	REQUIRE(r.w.chains == 1);
	for (i = 0; i < 3; i++) {
		unsigned t = BANK_TYPE(r.w.tx[i].meta);
		if (t == BANK_DEPOSIT)
			dep = i;
		else if (t == BANK_TRANSFER)
			tr = i;
		else
			wd = i;
	}
	CHECK(dep < tr && tr < wd);
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(r.status[dep], 1u);
	CHECK_EQ(r.status[tr], 2u);
	CHECK_EQ(r.status[wd], 3u);

	/* the same final state, but the withdraw stamped before the transfer:
	 * it would have overdrawn account b */
	r.status[tr] = 3;
	r.status[wd] = 2;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "withdraw");
	CHECK_CONTAINS(chk.message, "serial replay has only 1000");

	/* the transfer before the deposit overdraws account a */
	r.status[dep] = 2;
	r.status[tr] = 1;
	r.status[wd] = 3;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "transfer");

	/* a device state that shows a negative balance is rejected */
	r.status[dep] = 1;
	r.status[tr] = 2;
	r.status[wd] = 0; /* withdraw abandoned: b keeps d */
	r.after[r.w.tx[wd].a] = -5;
	verify(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_EQ_I(chk.min_balance, -5);
	CHECK_EQ(chk.abandoned, 1u);
	replay_free(&r);
}

/* ---- the order-free check of timed runs ---- */

/* Two serial sweeps of the table, the second cut short: every entry committed 0, 1 or 2 times. */
TEST(bank_verify_counts_accepts_repeated_commits_and_catches_a_lost_update)
{
	bank_config c = base_config();
	replay r;
	bank_check chk;
	uint32_t *second, *counts;
	int32_t *mid;
	uint64_t i, victim = UINT64_MAX, total = 0, ro = 0;

	c.semantic_ratio = 0;
	REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
	second = malloc(r.w.ntx * sizeof(uint32_t));
	counts = malloc(r.w.ntx * sizeof(uint32_t));
	mid = malloc(c.accounts * sizeof(int32_t));
	memcpy(mid, r.after, c.accounts * sizeof(int32_t));
	serial_run(&r.w, mid, second, r.after, r.updates / 2);
	for (i = 0; i < r.w.ntx; i++) {
		counts[i] = (r.status[i] != 0) + (second[i] != 0);
		total += counts[i];
		if (BANK_TYPE(r.w.tx[i].meta) == BANK_BALANCE)
			ro += counts[i];
		if (counts[i] == 2 && BANK_TYPE(r.w.tx[i].meta) == BANK_TRANSFER && victim == UINT64_MAX)
			victim = i;
	}
	REQUIRE(victim != UINT64_MAX);
	bank_verify_counts(&r.w, r.initial, counts, r.after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_STR_EQ(chk.message, "");
	CHECK_EQ(chk.committed_update + chk.committed_readonly, total);
	CHECK_EQ(chk.committed_readonly, ro);
	CHECK_EQ(chk.abandoned, 0u);
	CHECK_EQ_I(chk.money_before, chk.money_after);

	/* a lost update: the victim's debit of its source account never landed */
	r.after[r.w.tx[victim].a] += r.w.tx[victim].amount;
	bank_verify_counts(&r.w, r.initial, counts, r.after, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "balances differ");
	r.after[r.w.tx[victim].a] -= r.w.tx[victim].amount;

	/* a commit counted that did not happen */
	counts[victim]--;
	bank_verify_counts(&r.w, r.initial, counts, r.after, &chk);
	CHECK_EQ_I(chk.ok, 0);
	counts[victim]++;

	/* money appearing from nowhere */
	r.after[0] += 1;
	bank_verify_counts(&r.w, r.initial, counts, r.after, &chk);
	CHECK_EQ_I(chk.ok, 0);
	r.after[0] -= 1;

	bank_verify_counts(&r.w, r.initial, counts, r.after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	free(second);
	free(counts);
	free(mid);
	replay_free(&r);
}

TEST(bank_rounds_fit_bounds_twice_the_inflow)
{
	bank_workload w;
	bank_entry tx[2];

	memset(&w, 0, sizeof(w));
	w.cfg.accounts = 2;
	w.cfg.initial_balance = 1000;
	w.ntx = 2;
	w.tx = tx;
	tx[0].meta = BANK_META(BANK_DEPOSIT, 2, 1, 1);
	tx[0].a = 1;
	tx[1].meta = BANK_META(BANK_WITHDRAW, 0, 1, 1);
	tx[1].a = 1;
	tx[0].amount = tx[1].amount = 1000000000;
	CHECK_EQ_I(bank_rounds_fit(&w), 1); /* 1000 + 2e9 < 2^31 */
	tx[0].amount = tx[1].amount = 1100000000;
	CHECK_EQ_I(bank_rounds_fit(&w), 0);
}

/*
 * --read-only-size: every balance inquiry reads exactly that many accounts,
 * kept in the entry's extra array beside the transfers' legs, and the oracle
 * counts them as read-only commits of a correct serial run (sets far larger
 * than any engine's read set: the generator and oracle do not depend on one).
 */
TEST(bank_read_only_size_large_sets)
{
	static const uint32_t sizes[] = {1, 3, 64, BANK_MAX_READ_ONLY};
	unsigned s;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		bank_config c = base_config();
		replay r;
		bank_check chk;
		tx_input in;
		uint64_t i, inquiries = 0, in_range = 1, right_size = 1, transfers_ok = 1;

		c.accounts = 300;
		c.read_only = 40;
		c.read_only_size = sizes[s];
		REQUIRE(replay_setup(&r, &c, UINT64_MAX) == 0);
		CHECK_EQ(r.w.cfg.read_only_size, sizes[s]);
		CHECK_EQ(r.w.extra_stride, sizes[s] > 4 ? sizes[s] - 2 : 2u);
		for (i = 0; i < r.w.ntx; i++) {
			unsigned type = BANK_TYPE(r.w.tx[i].meta), n = BANK_NACCT(r.w.tx[i].meta), j;
			if (type == BANK_BALANCE) {
				inquiries++;
				right_size &= n == sizes[s];
				for (j = 0; j < n; j++)
					in_range &= bank_account(&r.w, i, j) < c.accounts;
			} else if (type == BANK_TRANSFER && !BANK_IS_CHAIN(r.w.tx[i].meta)) {
				transfers_ok &= n == 2 * c.transfers_per_tx;
			}
		}
		CHECK_EQ(inquiries, r.w.count[BANK_BALANCE]);
		CHECK(inquiries >= 10u * 12); /* 40% of 30 per thread, 10 threads */
		CHECK(right_size);
		CHECK(in_range);
		CHECK(transfers_ok);
		in = bank_input_of(&r.w);
		CHECK_EQ(in.max_words, sizes[s] > 4 ? sizes[s] : 4u);
		CHECK_EQ(in.aux_stride, r.w.extra_stride);
		verify(&r, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.committed_readonly, inquiries);
		CHECK_EQ(chk.committed_update, r.w.ntx - inquiries);
		/* an inquiry stamped as an update is caught, however many accounts it read */
		for (i = 0; i < r.w.ntx && BANK_TYPE(r.w.tx[i].meta) != BANK_BALANCE; i++)
			;
		REQUIRE(i < r.w.ntx);
		r.status[i] = 1;
		verify(&r, &chk);
		CHECK_EQ_I(chk.ok, 0);
		replay_free(&r);
	}
}

TEST(bank_read_only_size_defaults_to_a_transfers_accounts_and_has_a_limit)
{
	bank_config c = base_config();
	bank_workload w;
	char err[256];

	c.read_only_size = 0;
	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.cfg.read_only_size, 2 * c.transfers_per_tx);
	bank_free(&w);
	c.read_only_size = BANK_MAX_READ_ONLY + 1;
	if (c.accounts < c.read_only_size) {
		CHECK_EQ_I(bank_generate(&w, &c, err, sizeof(err)), -1);
		CHECK_CONTAINS(err, "exceeds --accounts");
	}
	/* a listed inquiry too is at most --accounts, when given; the default 2K may exceed a tiny bank */
	{
		uint32_t accounts = c.accounts;
		c.accounts = 4;
		c.read_only_size = 5;
		CHECK_EQ_I(bank_generate(&w, &c, err, sizeof(err)), -1);
		CHECK_CONTAINS(err, "--read-only-size 5 exceeds --accounts 4");
		c.read_only_size = 4;
		REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
		bank_free(&w);
		c.transfers_per_tx = BANK_MAX_TRANSFERS;
		c.read_only_size = 0;
		REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
		CHECK_EQ(w.cfg.read_only_size, 2u * BANK_MAX_TRANSFERS);
		bank_free(&w);
		c.accounts = accounts;
		c.transfers_per_tx = base_config().transfers_per_tx;
	}
	/* beyond the listed ones, an inquiry reads a run of consecutive accounts, wrapping */
	c.accounts = 1000;
	c.read_only = 50;
	c.read_only_size = 1000;
	REQUIRE(bank_generate(&w, &c, err, sizeof(err)) == 0);
	{
		uint64_t i, ro = 0;
		for (i = 0; i < w.ntx; i++)
			if (BANK_TYPE(w.tx[i].meta) == BANK_BALANCE) {
				ro++;
				CHECK(BANK_IS_RANGE(w.tx[i].meta));
				CHECK_EQ(w.tx[i].amount, 1000);
				CHECK_EQ(w.tx[i].b, 1000u);
				CHECK(w.tx[i].a < 1000u);
			}
		CHECK(ro > 0);
		CHECK_EQ(bank_input_of(&w).max_words, 1000u);
	}
	bank_free(&w);
}
