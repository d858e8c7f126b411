/*
 * The bank workload (Shen et al. section 4.1): accounts of 32-bit balances
 * and a table of deposit, withdraw, transfer and balance (read-only)
 * transactions, split into one contiguous block per thread.
 *
 * Generation (the paper gives the mix but not the generator; this one is
 * built so every table has a semantically valid serial order, i.e. an
 * execution that commits everything exists; a concurrent execution can
 * still strand some of it, see stm/prstm/prstm_sched.h):
 * - every account starts with --initial-balance B;
 * - non-semantic transactions are transfers of 1..10 (K legs each, K =
 *   --transfers-per-tx) made in pairs with their reverse, and each account's
 *   total outflow over them is kept within B, so no order can overdraw it
 *   and a fully committed table leaves every balance where it started;
 * - semantic transactions (--semantic-ratio percent of the update
 *   transactions) come as chains deposit(a, d) -> transfer(a->b, d) ->
 *   withdraw(b, d) with d in (B, 2B]: a step usually finds too little money
 *   until the step before it has committed, which is the paper's semantic
 *   conflict. Chains also net to zero;
 * - --read-only percent of the transactions are balance inquiries (that share
 *   of every thread's block, or with read_only_threads that share of the
 *   threads, the last ones, whose blocks hold nothing else) that read
 *   --read-only-size balances (default 2K): up to BANK_MAX_READ_ONLY accounts
 *   drawn at random, listed in the entry; more than that, a run of that many
 *   consecutive accounts from a random one, wrapping (all of them at
 *   --read-only-size = --accounts, the sum of the bank as in CSMV's bank,
 *   Nunes et al. section IV-A); an inquiry gives the sum it read as its
 *   result (TX_RESULT);
 * - without --presort the whole table is shuffled (the update threads'
 *   blocks among themselves with read_only_threads); with it, each chain's
 *   three steps go to one thread in order (randomly interleaved with that
 *   thread's other transactions), which is the application pre-ordering the
 *   table so that program order resolves every semantic dependence.
 * Priority tags (section 3.3): deposit 2, transfer and balance 1, withdraw 0;
 * the scheduler runs higher tags first within each pass over a block.
 */
#ifndef GB_BANK_H
#define GB_BANK_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

enum bank_type {
	BANK_DEPOSIT = 0,
	BANK_WITHDRAW = 1,
	BANK_TRANSFER = 2,
	BANK_BALANCE = 3, /* read-only */
	BANK_NTYPES
};

#define BANK_MAX_TRANSFERS 4
/* accounts a balance inquiry lists: the meta word counts accounts in 8 bits; a larger
 * inquiry reads a run of consecutive accounts instead (BANK_IS_RANGE) */
#define BANK_MAX_READ_ONLY 255

/* meta word: type (bits 0-3), priority tag (4-7, where api/tx_table.h has it), accounts touched
 * (8-15), semantic chain step (16), a balance inquiry over a run of accounts (17: it reads
 * `amount` accounts from `a` on, wrapping at `b` = the number of accounts; bits 8-15 are 0),
 * and TX_ENTRY_READONLY (31) on a balance inquiry, set here so that loading an entry is a plain
 * copy: an engine loads the next entry ahead of time, and deriving the flag from the loaded
 * word as it arrives would make the thread wait for that load at once */
#define BANK_META(type, tag, nacct, chain)                                                                 \
	((uint32_t)(type) | ((uint32_t)(tag) << 4) | ((uint32_t)(nacct) << 8) | ((uint32_t)(chain) << 16) | \
	 ((type) == BANK_BALANCE ? TX_ENTRY_READONLY : 0u))
#define BANK_RANGE_BIT (1u << 17)
#define BANK_IS_RANGE(meta) (((meta) >> 17) & 1u)
#define BANK_TYPE(meta) ((meta) & 0xFu)
#define BANK_TAG(meta) TX_ENTRY_TAG(meta)
#define BANK_NACCT(meta) (((meta) >> 8) & 0xFFu)
#define BANK_IS_CHAIN(meta) (((meta) >> 16) & 1u)

typedef struct bank_entry {
	uint32_t meta;
	int32_t amount;
	uint32_t a, b;   /* first two accounts; more in the extra array */
} bank_entry;

/*
 * The engines see the table as a tx_table (api/tx_table.h): entries are
 * bank_entry, accounts 3.. of entry i are at aux[i * aux_stride + j - 2], and
 * the status words are api/tx_table.h's TX_STATUS_*.
 */

typedef struct bank_config {
	uint32_t accounts;
	uint32_t threads;
	uint32_t tx_per_thread;
	uint32_t semantic_ratio;   /* percent of update transactions in chains */
	uint32_t read_only;        /* percent of all transactions */
	int read_only_threads;     /* that share as whole threads, the last ones (else of every block) */
	uint32_t transfers_per_tx; /* K */
	uint32_t read_only_size;   /* accounts a balance inquiry reads, up to --accounts; 0: 2K */
	uint32_t initial_balance;
	int presort;
	uint64_t seed;
} bank_config;

typedef struct bank_workload {
	bank_config cfg;
	bank_entry *tx;
	uint32_t *extra;         /* accounts 3.. of entry i at extra[i * extra_stride + j - 2] */
	uint32_t extra_stride;
	uint64_t ntx;
	uint64_t count[BANK_NTYPES];
	uint64_t chains, nonsemantic;
	uint32_t max_tag;
	uint32_t update_threads; /* threads whose blocks hold the updates: all but --read-only-threads' */
} bank_workload;

/* Build the table. Returns 0, or -1 with a usage message in err (sizes that cannot work). */
int bank_generate(bank_workload *w, const bank_config *cfg, char *err, size_t errlen);
void bank_free(bank_workload *w);
tx_input bank_input_of(const bank_workload *w);
const char *bank_type_name(unsigned type);

/* Account j (0-based) of entry e = table[i]: a, b, then the extra array. */
GB_HD uint32_t bank_entry_account(const bank_entry *e, const uint32_t *extra, uint32_t stride,
				  uint64_t i, uint32_t j)
{
	if (j == 0)
		return e->a;
	if (j == 1)
		return e->b;
	return extra[i * stride + j - 2];
}

/* The scheduler's copy of entry i (api/tx_table.h), and the
 * entry back from it. */
GB_HD void bank_load_entry(const tx_table *t, uint32_t i, tx_entry *out)
{
	bank_entry e = ((const bank_entry *)t->entries)[i];
	out->w[0] = e.meta; /* TX_ENTRY_READONLY already set on an inquiry (BANK_META) */
	out->w[1] = (uint32_t)e.amount;
	out->w[2] = e.a;
	out->w[3] = e.b;
}

GB_HD bank_entry bank_entry_of(const tx_entry *x)
{
	bank_entry e;
	e.meta = x->w[0];
	e.amount = (int32_t)x->w[1];
	e.a = x->w[2];
	e.b = x->w[3];
	return e;
}

static inline uint32_t bank_account(const bank_workload *w, uint64_t i, unsigned j)
{
	return bank_entry_account(&w->tx[i], w->extra, w->extra_stride, i, j);
}

/* Result of checking one batch against the serial replay. */
typedef struct bank_check {
	int ok;
	char message[512];
	uint64_t committed_update, committed_readonly, abandoned;
	int64_t money_before, money_after;
	int64_t min_balance;
} bank_check;

/*
 * Verify a batch: `balances` holds the state before it and is advanced to the
 * state after it by replaying the committed update transactions in stamp
 * order, checking every debit had the money at that point. Then the replayed
 * state must equal `device_after` exactly, money must be conserved
 * (deposits and withdrawals accounted), and no balance may be negative.
 * Read-only commits are counted, not replayed.
 */
void bank_verify_batch(const bank_workload *w, int32_t *balances, const uint32_t *status,
		       const int32_t *device_after, bank_check *out);

/*
 * Check the results engines recorded for read-only inquiries (api/tx_table.h:
 * per entry its snapshot and the sum it read): `before` is the state before
 * the batch; the committed updates are replayed in stamp order, and every
 * sampled inquiry with snapshot k must have read, as its sum modulo 2^32, the
 * sum of its accounts after the first k of them. Up to `sample` committed
 * inquiries are checked, spread evenly over the table (0: all). Fills ok,
 * message and, in *checked, how many were checked; run it on a batch that
 * bank_verify_batch passed.
 */
void bank_verify_snapshots(const bank_workload *w, const int32_t *before, const uint32_t *status,
			   const uint32_t *results, uint64_t sample, bank_check *out, uint64_t *checked);

/*
 * Verify a timed run, where every entry may have committed many times and
 * counts[i] says how often (read-only entries included). The check is
 * order-free and exact for the bank's fixed-delta transactions: each
 * committed update adds its fixed amounts to its accounts whatever the
 * order, so the device's final balances must equal balances + sum over
 * entries of counts[i] x (the entry's deltas) exactly; money must be
 * conserved and no balance negative. A lost update (a write computed from a
 * stale read, or overwritten) leaves a balance off by the missing delta.
 * Fills committed_update and committed_readonly; abandoned stays 0.
 */
void bank_verify_counts(const bank_workload *w, const int32_t *balances, const uint32_t *counts,
			const int32_t *device_after, bank_check *out);

/*
 * Whether a timed run's balances stay within 32 bits: with the round gate
 * (stm/prstm/prstm_sched.h) any two entries' commit counts differ by at most 2, and
 * a fully committed table nets to zero on every account, so an account can
 * rise at most twice its inflow over one table above its start.
 */
int bank_rounds_fit(const bank_workload *w);

#endif
