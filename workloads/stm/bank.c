/* Bank table generation and the serial-replay verifier (see bank.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/stm/bank.h"
#include "workloads/stm/stm_order.h"

#define NONSEM_MAX_AMOUNT 10
#define PICK_TRIES 64

static const char *const type_names[BANK_NTYPES] = {
	[BANK_DEPOSIT] = "deposit", [BANK_WITHDRAW] = "withdraw", [BANK_TRANSFER] = "transfer",
	[BANK_BALANCE] = "balance",
};

const char *bank_type_name(unsigned type)
{
	return type < BANK_NTYPES ? type_names[type] : "unknown";
}

static uint32_t tag_of(unsigned type)
{
	switch (type) {
	case BANK_DEPOSIT:
		return 2;
	case BANK_WITHDRAW:
		return 0;
	default:
		return 1;
	}
}

static void set_entry(bank_workload *w, uint64_t i, unsigned type, unsigned nacct, int chain,
		      int32_t amount, uint32_t a, uint32_t b)
{
	w->tx[i].meta = BANK_META(type, tag_of(type), nacct, chain ? 1 : 0);
	w->tx[i].amount = amount;
	w->tx[i].a = a;
	w->tx[i].b = b;
	w->count[type]++;
}

static void set_account(bank_workload *w, uint64_t i, unsigned j, uint32_t acct)
{
	if (j == 0)
		w->tx[i].a = acct;
	else if (j == 1)
		w->tx[i].b = acct;
	else
		w->extra[i * w->extra_stride + j - 2] = acct;
}

typedef struct gen {
	bank_workload *w;
	gb_rng rng;
	uint32_t *budget;  /* what each account may still send in non-semantic transfers */
	uint64_t *inflow;  /* the most each account can receive: bounds its balance */
} gen;

static uint32_t pick_other(gen *g, uint32_t x)
{
	uint32_t n = g->w->cfg.accounts;
	uint32_t y = (uint32_t)gb_rng_below(&g->rng, n - 1);
	return y >= x ? y + 1 : y;
}

/* A non-semantic transfer and its reverse, at entries i and r. */
static int make_pair(gen *g, uint64_t i, uint64_t r, char *err, size_t errlen)
{
	bank_workload *w = g->w;
	uint32_t k, legs = w->cfg.transfers_per_tx, n = w->cfg.accounts;
	int32_t amount = (int32_t)gb_rng_range(&g->rng, 1, NONSEM_MAX_AMOUNT);

	set_entry(w, i, BANK_TRANSFER, 2 * legs, 0, amount, 0, 0);
	set_entry(w, r, BANK_TRANSFER, 2 * legs, 0, amount, 0, 0);
	for (k = 0; k < legs; k++) {
		uint32_t x = 0, y = 0, t;
		for (t = 0; t < 2 * PICK_TRIES; t++) {
			if (t == PICK_TRIES)
				amount = 1; /* budgets are thin: settle for the smallest amount */
			x = (uint32_t)gb_rng_below(&g->rng, n);
			y = pick_other(g, x);
			if (g->budget[x] >= (uint32_t)amount && g->budget[y] >= (uint32_t)amount)
				break;
		}
		if (t == 2 * PICK_TRIES) {
			snprintf(err, errlen,
				 "--initial-balance %u is too small for %" PRIu64
				 " non-semantic transfers over %u accounts (raise --initial-balance or --accounts)",
				 w->cfg.initial_balance, w->nonsemantic, n);
			return -1;
		}
		w->tx[i].amount = w->tx[r].amount = amount;
		g->budget[x] -= (uint32_t)amount;
		g->budget[y] -= (uint32_t)amount;
		g->inflow[x] += (uint64_t)amount;
		g->inflow[y] += (uint64_t)amount;
		set_account(w, i, 2 * k, x);
		set_account(w, i, 2 * k + 1, y);
		set_account(w, r, 2 * k, y);
		set_account(w, r, 2 * k + 1, x);
	}
	return 0;
}

/* deposit(a, d) -> transfer(a -> b, d) -> withdraw(b, d) at entries e[0..2]. */
static void make_chain(gen *g, const uint64_t e[3])
{
	bank_workload *w = g->w;
	uint32_t bal = w->cfg.initial_balance;
	uint32_t a = (uint32_t)gb_rng_below(&g->rng, w->cfg.accounts), b = pick_other(g, a);
	int32_t d = (int32_t)gb_rng_range(&g->rng, (uint64_t)bal + 1, 2 * (uint64_t)bal);

	set_entry(w, e[0], BANK_DEPOSIT, 1, 1, d, a, 0);
	set_entry(w, e[1], BANK_TRANSFER, 2, 1, d, a, b);
	set_entry(w, e[2], BANK_WITHDRAW, 1, 1, d, b, 0);
	g->inflow[a] += (uint64_t)d;
	g->inflow[b] += (uint64_t)d;
}

static void make_balance(gen *g, uint64_t i)
{
	bank_workload *w = g->w;
	uint32_t j, n = w->cfg.read_only_size;
	if (n > BANK_MAX_READ_ONLY) { /* a run of n accounts from a random one */
		set_entry(w, i, BANK_BALANCE, 0, 0, (int32_t)n,
			  (uint32_t)gb_rng_below(&g->rng, w->cfg.accounts), w->cfg.accounts);
		w->tx[i].meta |= BANK_RANGE_BIT;
		return;
	}
	set_entry(w, i, BANK_BALANCE, n, 0, 0, 0, 0);
	for (j = 0; j < n; j++)
		set_account(w, i, j, (uint32_t)gb_rng_below(&g->rng, w->cfg.accounts));
}

/* Steps of a shuffle or a gather whose random slot is fetched ahead of its use. */
#define GEN_AHEAD 16

/*
 * Fisher-Yates. Each step swaps with a random slot of a large table, a cache
 * miss, and the draws depend on nothing but the stream: they are taken
 * GEN_AHEAD steps early, in the same order, and their slots prefetched, so the
 * table is the one the plain loop makes. A stop (common/stop.h) leaves it part
 * done: the caller sees the stop too.
 */
static void shuffle_u64(gb_rng *r, uint64_t *a, uint64_t n)
{
	uint64_t drawn[GEN_AHEAD], i, d = n; /* d: the step whose draw comes next */

	for (i = n; i > 1 && !GB_STOP_EVERY(i); i--) {
		uint64_t j, t;
		for (; d > 1 && d + GEN_AHEAD > i; d--) {
			drawn[d % GEN_AHEAD] = gb_rng_below(r, d);
			__builtin_prefetch(&a[drawn[d % GEN_AHEAD]], 1);
		}
		j = drawn[i % GEN_AHEAD];
		t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

/*
 * Where each entry goes. Entries are laid out block by block as
 * [chains in step order | non-semantic | read-only]; the placement then
 * shuffles the update threads' blocks (all of them but read-only threads')
 * together, or (presort) each block with every chain's steps kept in order.
 */
static void place(gen *g, uint64_t *slot, uint32_t chains_b)
{
	bank_workload *w = g->w;
	uint64_t ntx = w->ntx, P = w->cfg.tx_per_thread, b, i;

	for (i = 0; i < ntx; i++)
		slot[i] = i;
	if (!w->cfg.presort) {
		shuffle_u64(&g->rng, slot, (uint64_t)w->update_threads * P);
		return;
	}
	for (b = 0; b < w->cfg.threads; b++) {
		uint64_t *s = slot + b * P, base = b * P;
		uint32_t *seen = chains_b ? gb_xcalloc(chains_b, sizeof(uint32_t), "chain steps") : NULL;
		shuffle_u64(&g->rng, s, P);
		/* The k-th slot holding any step of chain c gets step k of c. */
		for (i = 0; i < P; i++) {
			uint64_t local = s[i] - base;
			if (local < 3ull * chains_b) {
				uint64_t c = local / 3;
				s[i] = base + 3 * c + seen[c]++;
			}
		}
		free(seen);
	}
}

int bank_generate(bank_workload *w, const bank_config *cfg, char *err, size_t errlen)
{
	uint64_t P = cfg->tx_per_thread, T = cfg->threads, U, b, i, k, ns_total, next;
	uint32_t ro_b, u_b, chains_b, ns_b;
	uint64_t *slot;
	bank_workload layout;
	gen g;
	int rc = 0;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	w->ntx = P * T;
	if (cfg->accounts < 2) {
		snprintf(err, errlen, "the bank needs at least 2 accounts");
		return -1;
	}
	/* Given, it is at most --accounts, as its help says (a run past 255 must be of distinct accounts;
	 * up to 255 they are drawn at random, and more than the bank holds would only repeat them); the
	 * default, a transfer's 2K, may exceed a bank of fewer accounts. */
	if (cfg->read_only_size > cfg->accounts) {
		snprintf(err, errlen, "--read-only-size %u exceeds --accounts %u: an inquiry reads at most every "
			 "account", cfg->read_only_size, cfg->accounts);
		return -1;
	}
	if (!w->cfg.read_only_size)
		w->cfg.read_only_size = 2 * cfg->transfers_per_tx;
	/* Room for the accounts past the entry's two, in the largest transaction that lists them. */
	w->extra_stride = 2 * cfg->transfers_per_tx;
	if (w->cfg.read_only_size <= BANK_MAX_READ_ONLY && w->cfg.read_only_size > w->extra_stride)
		w->extra_stride = w->cfg.read_only_size;
	w->extra_stride = w->extra_stride > 2 ? w->extra_stride - 2 : 0;
	/* The read-only share: of every block, or (read_only_threads) whole blocks, the last ones. */
	U = T - (cfg->read_only_threads ? tx_percent_of(T, cfg->read_only) : 0);
	w->update_threads = (uint32_t)U;
	ro_b = cfg->read_only_threads ? 0 : (uint32_t)tx_percent_of(P, cfg->read_only);
	u_b = (uint32_t)P - ro_b;
	chains_b = (uint32_t)((u_b * (uint64_t)cfg->semantic_ratio / 100) / 3);
	ns_b = u_b - 3 * chains_b;
	ns_total = ns_b * U;
	w->chains = chains_b * U;
	w->nonsemantic = ns_total - (ns_total & 1);

	/* Fill `layout` in block order, then move entries to their slots. */
	layout = *w;
	layout.tx = gb_xcalloc(w->ntx, sizeof(bank_entry), "transaction table");
	layout.extra = w->extra_stride ? gb_xcalloc(w->ntx * w->extra_stride, sizeof(uint32_t),
						     "transaction accounts") : NULL;
	g.w = &layout;
	gb_rng_init(&g.rng, cfg->seed, 0);
	g.budget = gb_xmalloc((size_t)cfg->accounts * sizeof(uint32_t), "account budgets");
	g.inflow = gb_xcalloc(cfg->accounts, sizeof(uint64_t), "account inflows");
	for (i = 0; i < cfg->accounts; i++)
		g.budget[i] = cfg->initial_balance;

	/* Non-semantic entries of all blocks, paired in the order they appear. */
	{
		uint64_t prev = UINT64_MAX, made = 0;
		for (b = 0; b < U && rc == 0 && !gb_stop_requested(); b++)
			for (k = 0; k < ns_b && rc == 0 && !GB_STOP_EVERY(k); k++) {
				uint64_t e = b * P + 3ull * chains_b + k;
				if (made == w->nonsemantic) {
					make_balance(&g, e); /* an odd one out becomes read-only */
					continue;
				}
				if (prev == UINT64_MAX) {
					prev = e;
					continue;
				}
				rc = make_pair(&g, prev, e, err, errlen);
				made += 2;
				prev = UINT64_MAX;
			}
	}
	for (b = 0; b < T && rc == 0 && !gb_stop_requested(); b++) {
		if (b >= U) { /* a read-only thread's block */
			for (k = 0; k < P && !GB_STOP_EVERY(k); k++)
				make_balance(&g, b * P + k);
			continue;
		}
		for (k = 0; k < chains_b && !GB_STOP_EVERY(k); k++) {
			uint64_t e[3];
			e[0] = b * P + 3 * k;
			e[1] = e[0] + 1;
			e[2] = e[0] + 2;
			make_chain(&g, e);
		}
		for (k = 0; k < ro_b; k++)
			make_balance(&g, b * P + 3ull * chains_b + ns_b + k);
	}
	if (rc == 0)
		rc = gb_stop_check(err, errlen); /* the table is not whole */
	for (i = 0; i < cfg->accounts && rc == 0; i++)
		if ((uint64_t)cfg->initial_balance + g.inflow[i] > INT32_MAX) {
			snprintf(err, errlen,
				 "account %" PRIu64 " could reach a balance of %" PRIu64
				 ", beyond 32 bits: use more --accounts, fewer transactions or a smaller --initial-balance",
				 i, (uint64_t)cfg->initial_balance + g.inflow[i]);
			rc = -1;
		}
	free(g.budget);
	free(g.inflow);
	if (rc) {
		free(layout.tx);
		free(layout.extra);
		return -1;
	}

	slot = gb_xmalloc(w->ntx * sizeof(uint64_t), "table placement");
	place(&g, slot, chains_b);
	if (gb_stop_check(err, errlen) != 0) {
		free(slot);
		free(layout.tx);
		free(layout.extra);
		return -1;
	}
	w->tx = gb_xmalloc(w->ntx * sizeof(bank_entry), "transaction table");
	w->extra = w->extra_stride ? gb_xmalloc(w->ntx * w->extra_stride * sizeof(uint32_t),
						"transaction accounts") : NULL;
	for (next = 0; next < w->ntx; next++) {
		uint64_t from = slot[next];
		if (next + GEN_AHEAD < w->ntx) { /* a random entry: fetched ahead */
			uint64_t later = slot[next + GEN_AHEAD];
			__builtin_prefetch(&layout.tx[later]);
			if (w->extra_stride)
				__builtin_prefetch(&layout.extra[later * w->extra_stride]);
		}
		w->tx[next] = layout.tx[from];
		if (w->extra_stride)
			memcpy(w->extra + next * w->extra_stride, layout.extra + from * w->extra_stride,
			       w->extra_stride * sizeof(uint32_t));
	}
	memcpy(w->count, layout.count, sizeof(w->count));
	for (i = 0; i < BANK_NTYPES; i++)
		if (w->count[i] && tag_of((unsigned)i) > w->max_tag)
			w->max_tag = tag_of((unsigned)i);
	free(slot);
	free(layout.tx);
	free(layout.extra);
	return 0;
}

void bank_free(bank_workload *w)
{
	free(w->tx);
	free(w->extra);
	memset(w, 0, sizeof(*w));
}

tx_input bank_input_of(const bank_workload *w)
{
	tx_input in;
	uint64_t i;

	in.max_words = 0;
	for (i = 0; i < w->ntx; i++) {
		uint32_t n = BANK_IS_RANGE(w->tx[i].meta) ? (uint32_t)w->tx[i].amount : BANK_NACCT(w->tx[i].meta);
		if (n > in.max_words)
			in.max_words = n;
	}
	in.words = w->cfg.accounts;
	in.ntx = w->ntx;
	in.tx_per_thread = w->cfg.tx_per_thread;
	in.max_tag = w->max_tag;
	in.entries = w->tx;
	in.entry_size = sizeof(bank_entry);
	in.aux = w->extra;
	in.aux_stride = w->extra_stride;
	return in;
}

/* Apply entry i to bal; a debit beyond the balance fails. Returns 0 or -1. */
static int apply(const bank_workload *w, uint64_t i, int64_t *bal, char *msg, size_t msglen,
		 uint64_t stamp)
{
	const bank_entry *e = &w->tx[i];
	unsigned type = BANK_TYPE(e->meta), n = BANK_NACCT(e->meta), j;
	int64_t amt = e->amount;

	switch (type) {
	case BANK_DEPOSIT:
		bal[e->a] += amt;
		return 0;
	case BANK_WITHDRAW:
		if (bal[e->a] < amt) {
			snprintf(msg, msglen,
				 "withdraw of %" PRId64 " from account %u (entry %" PRIu64 ", stamp %" PRIu64
				 ") committed, but the serial replay has only %" PRId64 " there",
				 amt, e->a, i, stamp, bal[e->a]);
			return -1;
		}
		bal[e->a] -= amt;
		return 0;
	case BANK_TRANSFER:
		for (j = 0; j + 1 < n; j += 2) {
			uint32_t s = bank_account(w, i, j), d = bank_account(w, i, j + 1);
			if (bal[s] < amt) {
				snprintf(msg, msglen,
					 "transfer of %" PRId64 " from account %u (entry %" PRIu64 ", stamp %" PRIu64
					 ") committed, but the serial replay has only %" PRId64 " there",
					 amt, s, i, stamp, bal[s]);
				return -1;
			}
			bal[s] -= amt;
			bal[d] += amt;
		}
		return 0;
	default:
		return 0;
	}
}

/* The checks both verifiers end with: money conserved given the committed amounts, none negative. */
static void check_money(bank_check *out, int64_t deposits, int64_t withdrawals)
{
	if (out->ok && out->money_after != out->money_before + deposits - withdrawals) {
		snprintf(out->message, sizeof(out->message),
			 "money not conserved: %" PRId64 " before, %" PRId64 " after, committed deposits %" PRId64
			 " and withdrawals %" PRId64,
			 out->money_before, out->money_after, deposits, withdrawals);
		out->ok = 0;
	}
	if (out->ok && out->min_balance < 0) {
		snprintf(out->message, sizeof(out->message), "a balance is negative (%" PRId64 ")",
			 out->min_balance);
		out->ok = 0;
	}
}

void bank_verify_batch(const bank_workload *w, int32_t *balances, const uint32_t *status,
		       const int32_t *device_after, bank_check *out)
{
	uint32_t n = w->cfg.accounts;
	int64_t *bal = gb_xmalloc((size_t)n * sizeof(int64_t), "replay balances");
	stm_order o;
	uint64_t *order = NULL, i, nupd = 0, bad = 0, first_bad = 0;
	int64_t deposits = 0, withdrawals = 0;

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	for (i = 0; i < n; i++) {
		bal[i] = balances[i];
		out->money_before += balances[i];
	}
	out->ok = stm_order_of(&o, status, w->ntx, NULL, NULL);
	out->abandoned = o.pending;
	out->committed_readonly = o.readonly;
	out->committed_update = nupd = o.updates;
	order = o.entry;
	if (!out->ok)
		snprintf(out->message, sizeof(out->message),
			 "commit stamps are not a permutation of 0..%" PRIu64 ": entry %" PRIu64 " has status %u",
			 nupd ? nupd - 1 : 0, o.bad, status[o.bad]);
	for (i = 0; i < w->ntx; i++) {
		unsigned type = BANK_TYPE(w->tx[i].meta);
		if (status[i] == TX_STATUS_PENDING || status[i] == TX_STATUS_READONLY)
			continue;
		if (type == BANK_DEPOSIT)
			deposits += w->tx[i].amount;
		else if (type == BANK_WITHDRAW)
			withdrawals += w->tx[i].amount;
	}
	for (i = 0; i < nupd && out->ok; i++)
		if (apply(w, order[i], bal, out->message, sizeof(out->message), i) != 0)
			out->ok = 0;

	out->min_balance = INT64_MAX;
	for (i = 0; i < n; i++) {
		out->money_after += device_after[i];
		if (device_after[i] < out->min_balance)
			out->min_balance = device_after[i];
		if (out->ok && bal[i] != device_after[i]) {
			if (bad++ == 0)
				first_bad = i;
		}
	}
	if (out->ok && bad) {
		snprintf(out->message, sizeof(out->message),
			 "%" PRIu64 " balances differ from the serial replay; first: account %" PRIu64
			 " is %d on the device, %" PRId64 " in the replay",
			 bad, first_bad, device_after[first_bad], bal[first_bad]);
		out->ok = 0;
	}
	check_money(out, deposits, withdrawals);
	for (i = 0; i < n; i++)
		balances[i] = (int32_t)bal[i];
	free(bal);
	free(order);
}

/* The sum inquiry i reads in `bal`, modulo 2^32 as the engines add 32-bit balances. */
static uint32_t inquiry_sum(const bank_workload *w, uint64_t i, const int64_t *bal)
{
	const bank_entry *e = &w->tx[i];
	uint32_t sum = 0, j;

	if (BANK_IS_RANGE(e->meta)) {
		uint32_t acct = e->a;
		for (j = 0; j < (uint32_t)e->amount; j++) {
			sum += (uint32_t)bal[acct];
			acct = acct + 1 == w->cfg.accounts ? 0 : acct + 1;
		}
		return sum;
	}
	for (j = 0; j < BANK_NACCT(e->meta); j++)
		sum += (uint32_t)bal[bank_account(w, i, j)];
	return sum;
}

static int by_snapshot(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

void bank_verify_snapshots(const bank_workload *w, const int32_t *before, const uint32_t *status,
			   const uint32_t *results, uint64_t sample, bank_check *out, uint64_t *checked)
{
	uint32_t n = w->cfg.accounts;
	uint64_t i, nro = 0, nupd = 0, every, k, s, picked = 0;
	uint64_t *order, *ro; /* update entries by stamp; (snapshot, entry) of the sampled inquiries */
	int64_t *bal;

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	*checked = 0;
	for (i = 0; i < w->ntx; i++) {
		if (status[i] == TX_STATUS_READONLY && BANK_TYPE(w->tx[i].meta) == BANK_BALANCE)
			nro++;
		else if (status[i] != TX_STATUS_PENDING && status[i] != TX_STATUS_READONLY)
			nupd++;
	}
	if (!nro)
		return;
	every = sample && nro > sample ? (nro + sample - 1) / sample : 1;
	order = gb_xmalloc((nupd ? nupd : 1) * sizeof(uint64_t), "replay order");
	ro = gb_xmalloc(2 * ((nro + every - 1) / every) * sizeof(uint64_t), "sampled inquiries");
	for (i = 0, k = 0; i < w->ntx; i++) {
		uint32_t st = status[i];
		if (st != TX_STATUS_PENDING && st != TX_STATUS_READONLY && st - 1u < nupd)
			order[st - 1u] = i;
		if (st != TX_STATUS_READONLY || BANK_TYPE(w->tx[i].meta) != BANK_BALANCE)
			continue;
		if (k++ % every == 0) {
			ro[2 * picked] = results[(size_t)i * TX_RESULT_WORDS];
			ro[2 * picked + 1] = i;
			picked++;
		}
	}
	qsort(ro, picked, 2 * sizeof(uint64_t), by_snapshot);
	bal = gb_xmalloc((size_t)n * sizeof(int64_t), "replay balances");
	for (i = 0; i < n; i++)
		bal[i] = before[i];
	/* Walk the stamps; at point s (s updates applied) check the inquiries of snapshot s. */
	for (s = 0, k = 0; k < picked && out->ok; s++) {
		while (k < picked && ro[2 * k] == s && out->ok) {
			uint64_t e = ro[2 * k + 1];
			uint32_t got = results[(size_t)e * TX_RESULT_WORDS + 1], want = inquiry_sum(w, e, bal);
			if (got != want) {
				snprintf(out->message, sizeof(out->message),
					 "read-only inquiry %" PRIu64 " with snapshot %" PRIu64 " read a sum of %u, but "
					 "the serial replay after %" PRIu64 " update commits has %u: not a consistent "
					 "snapshot",
					 e, s, got, s, want);
				out->ok = 0;
			}
			k++;
			(*checked)++;
		}
		if (k == picked || !out->ok)
			break;
		if (s >= nupd) {
			snprintf(out->message, sizeof(out->message),
				 "read-only inquiry %" PRIu64 " has snapshot %" PRIu64 ", beyond the %" PRIu64
				 " update commits of the batch", ro[2 * k + 1], ro[2 * k], nupd);
			out->ok = 0;
			break;
		}
		if (apply(w, order[s], bal, out->message, sizeof(out->message), s) != 0)
			out->ok = 0;
	}
	free(bal);
	free(ro);
	free(order);
}

/* Add count x entry i's deltas to bal (no funds check: the order is unknown). */
static void add_deltas(const bank_workload *w, uint64_t i, int64_t count, int64_t *bal,
		       int64_t *deposits, int64_t *withdrawals)
{
	const bank_entry *e = &w->tx[i];
	unsigned type = BANK_TYPE(e->meta), n = BANK_NACCT(e->meta), j;
	int64_t amt = count * (int64_t)e->amount;

	switch (type) {
	case BANK_DEPOSIT:
		bal[e->a] += amt;
		*deposits += amt;
		break;
	case BANK_WITHDRAW:
		bal[e->a] -= amt;
		*withdrawals += amt;
		break;
	case BANK_TRANSFER:
		for (j = 0; j + 1 < n; j += 2) {
			bal[bank_account(w, i, j)] -= amt;
			bal[bank_account(w, i, j + 1)] += amt;
		}
		break;
	default:
		break;
	}
}

void bank_verify_counts(const bank_workload *w, const int32_t *balances, const uint32_t *counts,
			const int32_t *device_after, bank_check *out)
{
	uint32_t n = w->cfg.accounts;
	int64_t *bal = gb_xmalloc((size_t)n * sizeof(int64_t), "expected balances");
	int64_t deposits = 0, withdrawals = 0;
	uint64_t i, bad = 0, first_bad = 0;

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	for (i = 0; i < n; i++) {
		bal[i] = balances[i];
		out->money_before += balances[i];
	}
	for (i = 0; i < w->ntx; i++) {
		if (!counts[i])
			continue;
		if (BANK_TYPE(w->tx[i].meta) == BANK_BALANCE) {
			out->committed_readonly += counts[i];
			continue;
		}
		out->committed_update += counts[i];
		add_deltas(w, i, counts[i], bal, &deposits, &withdrawals);
	}
	out->min_balance = INT64_MAX;
	for (i = 0; i < n; i++) {
		out->money_after += device_after[i];
		if (device_after[i] < out->min_balance)
			out->min_balance = device_after[i];
		if (bal[i] != device_after[i] && bad++ == 0)
			first_bad = i;
	}
	if (bad) {
		snprintf(out->message, sizeof(out->message),
			 "%" PRIu64 " balances differ from the start plus the committed transactions' "
			 "amounts; first: account %" PRIu64 " is %d on the device, %" PRId64 " expected",
			 bad, first_bad, device_after[first_bad], bal[first_bad]);
		out->ok = 0;
	}
	check_money(out, deposits, withdrawals);
	free(bal);
}

int bank_rounds_fit(const bank_workload *w)
{
	uint32_t n = w->cfg.accounts;
	int64_t *in = gb_xcalloc(n, sizeof(int64_t), "account inflows");
	uint64_t i;
	int fit = 1;

	for (i = 0; i < w->ntx; i++) {
		const bank_entry *e = &w->tx[i];
		unsigned type = BANK_TYPE(e->meta), k = BANK_NACCT(e->meta), j;
		if (type == BANK_DEPOSIT)
			in[e->a] += e->amount;
		else if (type == BANK_TRANSFER)
			for (j = 0; j + 1 < k; j += 2)
				in[bank_account(w, i, j + 1)] += e->amount;
	}
	for (i = 0; i < n && fit; i++)
		if ((int64_t)w->cfg.initial_balance + 2 * in[i] > INT32_MAX)
			fit = 0;
	free(in);
	return fit;
}
