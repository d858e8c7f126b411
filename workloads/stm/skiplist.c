/*
 * Skiplist table generation and its oracle (see skiplist.h): a structural
 * check of the list in the data words, a serial replay in commit-stamp order
 * on a skip list of the oracle's own, and the check of timed runs from
 * commit counts. Shares no code with the transaction bodies.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/stm/skiplist.h"
#include "workloads/stm/stm_order.h"

static const char *const op_names[SKIPLIST_NOPS] = {"insert", "delete", "lookup"};

const char *skiplist_op_name(unsigned op)
{
	return op < SKIPLIST_NOPS ? op_names[op] : "unknown";
}

/* Geometric height, p = 1/2, at most `levels`. */
static uint32_t random_height(gb_rng *r, uint32_t levels)
{
	uint64_t bits = gb_rng_next(r);
	uint32_t h = 1;
	while (h < levels && (bits & 1u)) {
		h++;
		bits >>= 1;
	}
	return h;
}

/* ------------------------------------------------------------------ generation */

/* A thread's keys: where they are and which node holds each while the block is simulated. */
typedef struct gen_key {
	uint32_t key;
	uint32_t node; /* 0: not in the list */
} gen_key;

int skiplist_generate(skiplist_workload *w, const skiplist_config *cfg, char *err, size_t errlen)
{
	uint64_t P = cfg->tx_per_thread, T = cfg->threads, U, words, nodes, inserts = 0, b, k;
	uint32_t R = cfg->key_range, I = cfg->initial_keys, L = cfg->levels, lookups_b, updates_b;
	uint32_t *perm = NULL, *node_of = NULL, *slots = NULL, next_node;
	uint8_t *present = NULL;
	gen_key *mine = NULL;
	gb_rng r;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	w->ntx = P * T;
	w->stride = L + 1;
	if (L < 1 || L > SKIPLIST_MAX_LEVELS || R < 1 || R > SKIPLIST_MAX_KEY) {
		snprintf(err, errlen, "--levels %u or --key-range %u out of range (1..%u, 1..%u)", L, R,
			 SKIPLIST_MAX_LEVELS, SKIPLIST_MAX_KEY);
		return -1;
	}
	if (I > R) {
		snprintf(err, errlen,
			 "--initial-keys %u exceeds --key-range %u: the initial keys are distinct keys of 1..%u; "
			 "raise --key-range (0 gives twice --initial-keys)", I, R, R);
		return -1;
	}
	words = (uint64_t)cfg->capacity * w->stride;
	if (words > UINT32_MAX / 2 || cfg->capacity >= SKIPLIST_NIL) {
		snprintf(err, errlen,
			 "--capacity %u x (--levels %u + 1) = %" PRIu64 " data words exceeds the limit of %u: use a "
			 "smaller capacity or fewer levels", cfg->capacity, L, words, UINT32_MAX / 2);
		return -1;
	}
	w->words = (uint32_t)words;
	/* The read-only share: of every block, or (read_only_threads) whole blocks, the last ones. */
	U = T - (cfg->read_only_threads ? tx_percent_of(T, cfg->read_only) : 0);
	w->update_threads = (uint32_t)U;
	lookups_b = cfg->read_only_threads ? 0 : (uint32_t)tx_percent_of(P, cfg->read_only);
	updates_b = (uint32_t)(P - lookups_b);
	updates_b -= updates_b % 2; /* pairs of toggles: a block nets to zero */

	/* Every thread's inserts need their own node: count them before allocating anything large. */
	{
		uint64_t owners = U < R ? U : R;
		inserts = owners * (uint64_t)(updates_b / 2);
		nodes = 1 + (uint64_t)I + inserts;
		w->owners = (uint32_t)owners;
	}
	if (nodes > cfg->capacity) {
		snprintf(err, errlen,
			 "the table inserts %" PRIu64 " keys (%" PRIu64 " threads owning keys x %u inserts each), and "
			 "each insert has its own node: with the head and --initial-keys %u that is %" PRIu64
			 " nodes, more than --capacity %u; raise --capacity or lower --tx-per-thread or "
			 "--read-only's complement", inserts, (uint64_t)w->owners, updates_b / 2, I, nodes,
			 cfg->capacity);
		return -1;
	}
	w->nodes_used = (uint32_t)nodes;
	w->tx = gb_xcalloc(w->ntx ? w->ntx : 1, sizeof(skiplist_entry), "transaction table");
	w->header = gb_xcalloc(nodes, sizeof(uint32_t), "node headers");
	gb_rng_init(&r, cfg->seed, 0);

	/* The initial keys: a uniform sample of 1..R in ascending order (selection sampling), in nodes
	 * 1..I. */
	present = gb_xcalloc((size_t)R + 1, 1, "key presence");
	node_of = gb_xcalloc((size_t)R + 1, sizeof(uint32_t), "node of each key");
	w->header[SKIPLIST_HEAD] = SKIPLIST_HEADER(0, L);
	next_node = 1;
	{
		uint32_t need = I, key;
		for (key = 1; key <= R && need; key++)
			if (gb_rng_below(&r, R - key + 1) < need) {
				uint32_t h = random_height(&r, L);
				present[key] = 1;
				node_of[key] = next_node;
				w->header[next_node++] = SKIPLIST_HEADER(key, h);
				if (h > w->max_height)
					w->max_height = h;
				need--;
			}
	}

	/* Owners: the keys shuffled and dealt round robin over the update threads, so thread t < U owns
	 * perm[t], perm[t + U], ... */
	perm = gb_xmalloc((size_t)R * sizeof(uint32_t), "key permutation");
	for (k = 0; k < R; k++)
		perm[k] = (uint32_t)k + 1;
	for (k = R; k > 1; k--) {
		uint64_t j = gb_rng_below(&r, k);
		uint32_t t = perm[k - 1];
		perm[k - 1] = perm[j];
		perm[j] = t;
	}
	mine = gb_xmalloc(((size_t)R / (U ? U : 1) + 1) * sizeof(gen_key), "a thread's keys");
	slots = gb_xmalloc(((size_t)updates_b + 1) * sizeof(uint32_t), "a block's updates");

	for (b = 0; b < T && !gb_stop_requested(); b++) {
		uint64_t base = b * P, nmine = 0, done = 0, j;
		uint32_t ups = 0;

		for (k = b; b < U && k < R; k += U) {
			mine[nmine].key = perm[k];
			mine[nmine].node = present[perm[k]] ? node_of[perm[k]] : 0;
			nmine++;
		}
		if (nmine) {
			/* pairs of toggles of random keys of this thread, in random order */
			ups = updates_b;
			for (j = 0; j < ups; j += 2)
				slots[j] = slots[j + 1] = (uint32_t)gb_rng_below(&r, nmine);
			for (j = ups; j > 1; j--) {
				uint64_t q = gb_rng_below(&r, j);
				uint32_t t = slots[j - 1];
				slots[j - 1] = slots[q];
				slots[q] = t;
			}
		}
		/* the update positions are a uniform sample of the block, taken in order */
		for (k = 0; k < P && !GB_STOP_EVERY(k); k++) {
			skiplist_entry *e = &w->tx[base + k];
			e->nodes = cfg->capacity;
			if (done < ups && gb_rng_below(&r, P - k) < ups - done) {
				gen_key *g = &mine[slots[done++]];
				e->key = g->key;
				if (g->node) {
					e->meta = SKIPLIST_META(SKIPLIST_DELETE, L, 0);
					e->node = g->node;
					g->node = 0;
					w->count[SKIPLIST_DELETE]++;
				} else {
					uint32_t h = random_height(&r, L);
					e->meta = SKIPLIST_META(SKIPLIST_INSERT, L, h);
					e->node = next_node;
					w->header[next_node++] = SKIPLIST_HEADER(g->key, h);
					if (h > w->max_height)
						w->max_height = h;
					g->node = e->node;
					w->count[SKIPLIST_INSERT]++;
				}
			} else {
				e->meta = SKIPLIST_META(SKIPLIST_LOOKUP, L, 0);
				e->key = (uint32_t)gb_rng_range(&r, 1, R);
				e->node = 0;
				w->count[SKIPLIST_LOOKUP]++;
			}
		}
	}
	free(slots);
	free(mine);
	free(perm);
	free(node_of);
	free(present);
	if (gb_stop_check(err, errlen) != 0) { /* the table is not whole */
		skiplist_free(w);
		return -1;
	}
	if (next_node != w->nodes_used)
		gb_die(GB_EXIT_RUNTIME, "skiplist generator: %u nodes used, %u counted", next_node, w->nodes_used);
	return 0;
}

void skiplist_free(skiplist_workload *w)
{
	free(w->tx);
	free(w->header);
	memset(w, 0, sizeof(*w));
}

tx_input skiplist_input_of(const skiplist_workload *w)
{
	tx_input in;
	in.words = w->words;
	in.max_words = w->count[SKIPLIST_INSERT] + w->count[SKIPLIST_DELETE] ? 2 * w->max_height : 1;
	in.ntx = w->ntx;
	in.tx_per_thread = w->cfg.tx_per_thread;
	in.max_tag = 0;
	in.entries = w->tx;
	in.entry_size = sizeof(skiplist_entry);
	in.aux = NULL;
	in.aux_stride = 0;
	return in;
}

void skiplist_initial(const skiplist_workload *w, uint32_t *words)
{
	uint32_t S = w->stride, L = w->cfg.levels, I = w->cfg.initial_keys, n, l;
	uint32_t last[SKIPLIST_MAX_LEVELS];

	memset(words, 0, (size_t)w->words * sizeof(uint32_t));
	for (n = 0; n < w->nodes_used; n++) {
		uint32_t h = SKIPLIST_HEIGHT(w->header[n]);
		words[skiplist_header_word(n, S)] = w->header[n];
		for (l = 0; l < h; l++)
			words[skiplist_next_word(n, l, S)] = n <= I ? SKIPLIST_NIL : SKIPLIST_MARK | SKIPLIST_NIL;
	}
	/* nodes 0..I are the head and the initial keys in ascending order: link each level */
	for (l = 0; l < L; l++)
		last[l] = SKIPLIST_HEAD;
	for (n = 1; n <= I; n++)
		for (l = 0; l < SKIPLIST_HEIGHT(w->header[n]); l++) {
			words[skiplist_next_word(last[l], l, S)] = n;
			last[l] = n;
		}
}

/* ------------------------------------------------------------------ the oracle's own ordered sets */

/*
 * The keys on one level as a bit set with summaries (bit i of layer q + 1
 * says word i of layer q is not zero), for the replay's "largest key below
 * k on level l" in a few word operations.
 */
typedef struct keyset {
	uint64_t *w[6];
	uint64_t n[6];
	unsigned layers;
} keyset;

static void keyset_init(keyset *s, uint64_t bits)
{
	unsigned q = 0;
	memset(s, 0, sizeof(*s));
	do {
		s->n[q] = (bits + 63) / 64;
		s->w[q] = gb_xcalloc(s->n[q], sizeof(uint64_t), "oracle key set");
		bits = s->n[q];
		q++;
	} while (s->n[q - 1] > 1);
	s->layers = q;
}

static void keyset_free(keyset *s)
{
	unsigned q;
	for (q = 0; q < s->layers; q++)
		free(s->w[q]);
	memset(s, 0, sizeof(*s));
}

static int keyset_has(const keyset *s, uint64_t k)
{
	return (s->w[0][k >> 6] >> (k & 63)) & 1u;
}

static void keyset_set(keyset *s, uint64_t k)
{
	unsigned q;
	for (q = 0; q < s->layers; q++) {
		s->w[q][k >> 6] |= 1ull << (k & 63);
		k >>= 6;
	}
}

static void keyset_clear(keyset *s, uint64_t k)
{
	unsigned q;
	for (q = 0; q < s->layers; q++) {
		s->w[q][k >> 6] &= ~(1ull << (k & 63));
		if (s->w[q][k >> 6])
			break;
		k >>= 6;
	}
}

static int top_bit(uint64_t x)
{
	return 63 - __builtin_clzll(x);
}

/* Largest element below x in layer q, or -1. */
static int64_t keyset_pred_in(const keyset *s, unsigned q, uint64_t x)
{
	uint64_t i = x >> 6, m = s->w[q][i] & ((1ull << (x & 63)) - 1);
	int64_t j;
	if (m)
		return (int64_t)((i << 6) | (uint64_t)top_bit(m));
	if (q + 1 == s->layers)
		return -1;
	j = keyset_pred_in(s, q + 1, i);
	if (j < 0)
		return -1;
	return (int64_t)(((uint64_t)j << 6) | (uint64_t)top_bit(s->w[q][j]));
}

/* ------------------------------------------------------------------ structure */

#define FAIL(...)                                                        \
	do {                                                             \
		snprintf(out->message, sizeof(out->message), __VA_ARGS__); \
		rc = -1;                                                 \
		goto done;                                               \
	} while (0)

/* The structure check; with lv, also which nodes are on level 0. */
static int check_structure(const skiplist_workload *w, const uint32_t *s, skiplist_check *out, uint8_t *lv)
{
	uint32_t S = w->stride, L = w->cfg.levels, U = w->nodes_used, n, l;
	uint8_t *live = lv ? lv : gb_xcalloc(U, 1, "nodes on level 0");
	int rc = 0;

	if (lv)
		memset(live, 0, U);
	out->keys = 0;
	out->top_level = 0;
	for (n = 0; n < U; n++)
		if (s[skiplist_header_word(n, S)] != w->header[n])
			FAIL("node %u's header is %#x, written by no transaction, was %#x", n,
			     s[skiplist_header_word(n, S)], w->header[n]);
	for (n = U; n < w->cfg.capacity; n++)
		for (l = 0; l < S; l++)
			if (s[n * S + l] != 0)
				FAIL("data word %u of node %u, which no entry uses, is %#x", n * S + l, n, s[n * S + l]);
	/* every level from the bottom: sorted, only nodes taller than it, and (above level 0) exactly the
	 * nodes of the level below that are taller than it, walked side by side with it */
	for (l = 0; l < L; l++) {
		uint32_t cur = SKIPLIST_HEAD, below = SKIPLIST_HEAD, steps = 0;
		for (;;) {
			uint32_t nx = s[skiplist_next_word(cur, l, S)];
			if (nx & SKIPLIST_MARK)
				FAIL("level %u: node %u (key %u) is on the level but its next pointer %#x is marked",
				     l, cur, SKIPLIST_KEY(w->header[cur]), nx);
			if (nx != SKIPLIST_NIL) {
				if (nx >= U || nx == SKIPLIST_HEAD)
					FAIL("level %u: node %u (key %u) points to %u, not a node of the table", l, cur,
					     SKIPLIST_KEY(w->header[cur]), nx);
				if (SKIPLIST_KEY(w->header[nx]) <= SKIPLIST_KEY(w->header[cur]))
					FAIL("level %u is not sorted: node %u (key %u) is followed by node %u (key %u)",
					     l, cur, SKIPLIST_KEY(w->header[cur]), nx, SKIPLIST_KEY(w->header[nx]));
				if (SKIPLIST_HEIGHT(w->header[nx]) <= l)
					FAIL("level %u holds node %u (key %u), whose height is %u", l, nx,
					     SKIPLIST_KEY(w->header[nx]), SKIPLIST_HEIGHT(w->header[nx]));
			}
			if (l > 0) {
				/* the next node of level l - 1 (checked already) that is taller than l */
				do
					below = s[skiplist_next_word(below, l - 1, S)];
				while (below != SKIPLIST_NIL && SKIPLIST_HEIGHT(w->header[below]) <= l);
				if (nx != below) {
					if (below == SKIPLIST_NIL ||
					    (nx != SKIPLIST_NIL && SKIPLIST_KEY(w->header[nx]) < SKIPLIST_KEY(w->header[below])))
						FAIL("level %u is not a subset of level %u: node %u (key %u) is on level %u "
						     "but not on level %u", l, l - 1, nx, SKIPLIST_KEY(w->header[nx]), l, l - 1);
					FAIL("node %u (key %u, height %u) is on level %u but missing from level %u", below,
					     SKIPLIST_KEY(w->header[below]), SKIPLIST_HEIGHT(w->header[below]), l - 1, l);
				}
			}
			if (nx == SKIPLIST_NIL)
				break;
			if (l == 0) {
				live[nx] = 1;
				out->keys++;
			}
			if (++steps > U)
				FAIL("level %u does not end", l);
			cur = nx;
		}
		if (steps)
			out->top_level = l + 1;
	}
	/* marks: a node is linked exactly when its pointers below its height are unmarked */
	for (n = 1; n < U; n++) {
		uint32_t h = SKIPLIST_HEIGHT(w->header[n]);
		for (l = 0; l < S - 1; l++) {
			uint32_t v = s[skiplist_next_word(n, l, S)];
			if (l >= h) {
				if (v != 0)
					FAIL("node %u of height %u has %#x in its level-%u word, above its height", n, h,
					     v, l);
			} else if (!live[n] && !(v & SKIPLIST_MARK)) {
				FAIL("node %u (key %u) is not in the list but its level-%u pointer %#x is unmarked", n,
				     SKIPLIST_KEY(w->header[n]), l, v);
			}
		}
	}
done:
	if (!lv)
		free(live);
	return rc;
}

int skiplist_check_structure(const skiplist_workload *w, const uint32_t *words, skiplist_check *out)
{
	return check_structure(w, words, out, NULL);
}

/* ------------------------------------------------------------------ the serial replay */

typedef struct replay {
	const skiplist_workload *w;
	uint32_t *s;          /* the data words, advanced */
	keyset level[SKIPLIST_MAX_LEVELS];
	uint32_t *node_of;    /* node holding each key, while it is in the list */
} replay;

static void replay_init(replay *rp, const skiplist_workload *w, uint32_t *s, const uint8_t *live)
{
	uint32_t n, l;
	rp->w = w;
	rp->s = s;
	rp->node_of = gb_xcalloc((size_t)w->cfg.key_range + 1, sizeof(uint32_t), "oracle node of each key");
	for (l = 0; l < w->cfg.levels; l++)
		keyset_init(&rp->level[l], (uint64_t)w->cfg.key_range + 1);
	for (n = 1; n < w->nodes_used; n++)
		if (live[n]) {
			uint32_t k = SKIPLIST_KEY(w->header[n]);
			rp->node_of[k] = n;
			for (l = 0; l < SKIPLIST_HEIGHT(w->header[n]); l++)
				keyset_set(&rp->level[l], k);
		}
}

static void replay_free(replay *rp)
{
	uint32_t l;
	for (l = 0; l < rp->w->cfg.levels; l++)
		keyset_free(&rp->level[l]);
	free(rp->node_of);
}

/* The node before key k on level l. */
static uint32_t replay_pred(const replay *rp, uint32_t l, uint32_t k)
{
	int64_t p = keyset_pred_in(&rp->level[l], 0, k);
	return p <= 0 ? SKIPLIST_HEAD : rp->node_of[p];
}

/* Apply committed entry i (stamp `stamp`); -1 with a message when it could not have committed there. */
static int replay_apply(replay *rp, uint64_t i, uint64_t stamp, char *msg, size_t len)
{
	const skiplist_workload *w = rp->w;
	const skiplist_entry *e = &w->tx[i];
	uint32_t S = w->stride, k = e->key, l, h;
	uint32_t *s = rp->s;

	if (SKIPLIST_OP(e->meta) == SKIPLIST_INSERT) {
		uint32_t n = e->node;
		if (keyset_has(&rp->level[0], k)) {
			snprintf(msg, len, "insert of key %u (entry %" PRIu64 ", stamp %" PRIu64 ") committed, but in "
				 "the serial replay the key is already in the list (node %u)", k, i, stamp,
				 rp->node_of[k]);
			return -1;
		}
		h = SKIPLIST_HEIGHT(w->header[n]);
		for (l = 0; l < h; l++) {
			uint32_t p = replay_pred(rp, l, k);
			s[skiplist_next_word(n, l, S)] = s[skiplist_next_word(p, l, S)];
			s[skiplist_next_word(p, l, S)] = n;
			keyset_set(&rp->level[l], k);
		}
		rp->node_of[k] = n;
		return 0;
	}
	if (!keyset_has(&rp->level[0], k)) {
		snprintf(msg, len, "delete of key %u (entry %" PRIu64 ", stamp %" PRIu64 ") committed, but in the "
			 "serial replay the key is not in the list", k, i, stamp);
		return -1;
	}
	{
		uint32_t x = rp->node_of[k];
		h = SKIPLIST_HEIGHT(w->header[x]);
		for (l = 0; l < h; l++) {
			uint32_t p = replay_pred(rp, l, k), succ = s[skiplist_next_word(x, l, S)];
			s[skiplist_next_word(p, l, S)] = succ;
			s[skiplist_next_word(x, l, S)] = succ | SKIPLIST_MARK;
			keyset_clear(&rp->level[l], k);
		}
		rp->node_of[k] = 0;
	}
	return 0;
}

/* The last committed update of key k in stamp order, for a message; UINT64_MAX when none. */
static uint64_t last_update_of(const skiplist_workload *w, const uint64_t *order, uint64_t nupd, uint32_t k)
{
	uint64_t j;
	for (j = nupd; j-- > 0;)
		if (w->tx[order[j]].key == k)
			return j;
	return UINT64_MAX;
}

/* Level 0 of `after` against the keys and nodes expected (node_of[k], 0 = absent); 0 or -1. */
static int compare_keys(const skiplist_workload *w, const uint8_t *live, const uint32_t *node_of, char *msg,
			size_t len, uint32_t *bad_key)
{
	uint32_t k, n, *found = gb_xcalloc((size_t)w->cfg.key_range + 1, sizeof(uint32_t), "keys found");
	int rc = 0;

	for (n = 1; n < w->nodes_used; n++)
		if (live[n])
			found[SKIPLIST_KEY(w->header[n])] = n;
	for (k = 1; k <= w->cfg.key_range && rc == 0; k++) {
		if (found[k] == node_of[k])
			continue;
		*bad_key = k;
		if (!found[k])
			snprintf(msg, len, "key %u is missing from the final list; the replay has it in node %u", k,
				 node_of[k]);
		else if (!node_of[k])
			snprintf(msg, len, "key %u is in the final list (node %u); the replay does not have it", k,
				 found[k]);
		else
			snprintf(msg, len, "key %u is in node %u of the final list; the replay has it in node %u", k,
				 found[k], node_of[k]);
		rc = -1;
	}
	free(found);
	return rc;
}

/* A lookup may not carry a stamp. */
static int skiplist_may_stamp(const void *ctx, uint64_t i)
{
	return SKIPLIST_OP(((const skiplist_workload *)ctx)->tx[i].meta) != SKIPLIST_LOOKUP;
}

/* Count the status words; 0 or -1 when the stamps are out of place. Fills order (stamp -> entry). */
static int read_stamps(const skiplist_workload *w, const uint32_t *status, skiplist_check *out, uint64_t **order,
		       uint64_t *nupd_out)
{
	stm_order o;
	int ok = stm_order_of(&o, status, w->ntx, skiplist_may_stamp, w);

	out->abandoned = o.pending;
	out->committed_readonly = o.readonly;
	out->committed_update = *nupd_out = o.updates;
	*order = o.entry;
	if (ok)
		return 0;
	snprintf(out->message, sizeof(out->message),
		 "commit stamps are not a permutation of the committed inserts and deletes: entry %" PRIu64
		 " (%s of key %u) has status %u", o.bad, skiplist_op_name(SKIPLIST_OP(w->tx[o.bad].meta)),
		 w->tx[o.bad].key, status[o.bad]);
	return -1;
}

void skiplist_verify_batch(const skiplist_workload *w, uint32_t *state, const uint32_t *status,
			   const uint32_t *after, skiplist_check *out)
{
	uint64_t *order = NULL, nupd = 0, i;
	uint8_t *live = gb_xcalloc(w->nodes_used, 1, "nodes on level 0");
	replay rp;
	int have_replay = 0;
	uint32_t bad_key = 0;
	char msg[400];

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	if (read_stamps(w, status, out, &order, &nupd) != 0)
		goto fail;
	if (check_structure(w, state, out, live) != 0) {
		char was[sizeof(out->message)];
		memcpy(was, out->message, sizeof(was));
		snprintf(out->message, sizeof(out->message), "the state before the batch: %.400s", was);
		goto fail;
	}
	replay_init(&rp, w, state, live);
	have_replay = 1;
	for (i = 0; i < nupd; i++)
		if (replay_apply(&rp, order[i], i, out->message, sizeof(out->message)) != 0)
			goto fail;
	if (check_structure(w, after, out, live) != 0)
		goto fail;
	if (compare_keys(w, live, rp.node_of, msg, sizeof(msg), &bad_key) != 0) {
		uint64_t j = last_update_of(w, order, nupd, bad_key);
		if (j == UINT64_MAX)
			snprintf(out->message, sizeof(out->message), "%s (no committed update of it)", msg);
		else
			snprintf(out->message, sizeof(out->message), "%s (last committed update: %s of entry %" PRIu64
				 ", stamp %" PRIu64 ")", msg, skiplist_op_name(SKIPLIST_OP(w->tx[order[j]].meta)),
				 order[j], j);
		goto fail;
	}
	for (i = 0; i < w->words; i++)
		if (state[i] != after[i]) {
			snprintf(out->message, sizeof(out->message),
				 "data word %" PRIu64 " (node %" PRIu64 ", %s %" PRIu64 ") is %#x on the device, %#x in the "
				 "serial replay", i, i / w->stride, i % w->stride ? "level" : "header",
				 i % w->stride ? i % w->stride - 1 : 0, after[i], state[i]);
			goto fail;
		}
	goto done;
fail:
	out->ok = 0;
done:
	if (have_replay)
		replay_free(&rp);
	free(live);
	free(order);
}

void skiplist_verify_counts(const skiplist_workload *w, const uint32_t *start, const uint32_t *counts,
			    const uint32_t *after, skiplist_check *out)
{
	uint64_t P = w->cfg.tx_per_thread, T = w->cfg.threads, b, k;
	uint8_t *live = gb_xcalloc(w->nodes_used, 1, "nodes on level 0");
	uint32_t *node_of = gb_xcalloc((size_t)w->cfg.key_range + 1, sizeof(uint32_t), "expected node of each key");
	uint32_t n, bad_key = 0;
	char msg[400];

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	if (check_structure(w, start, out, live) != 0) {
		char was[sizeof(out->message)];
		memcpy(was, out->message, sizeof(was));
		snprintf(out->message, sizeof(out->message), "the state before the run: %.400s", was);
		goto fail;
	}
	for (n = 1; n < w->nodes_used; n++)
		if (live[n])
			node_of[SKIPLIST_KEY(w->header[n])] = n;
	for (b = 0; b < T; b++) {
		const uint32_t *c = counts + b * P;
		const skiplist_entry *e = w->tx + b * P;
		uint32_t r = c[0], pass;
		uint64_t cut = P;
		for (k = 0; k < P; k++) {
			if (SKIPLIST_OP(e[k].meta) == SKIPLIST_LOOKUP)
				out->committed_readonly += c[k];
			else
				out->committed_update += c[k];
			if (c[k] == c[0] && cut == P)
				continue;
			if (cut == P && c[k] + 1 == c[0]) {
				cut = k; /* entries [0, k) committed once more than the rest */
				r = c[k];
				continue;
			}
			if (cut < P && c[k] == r)
				continue;
			snprintf(out->message, sizeof(out->message),
				 "thread %" PRIu64 " did not commit its block in order: entry %" PRIu64 " committed %u "
				 "times, entry %" PRIu64 " (the first of the block) %u times", b, b * P + k, c[k], b * P,
				 c[0]);
			goto fail;
		}
		/* after r full blocks the thread's keys are as after one (a block nets to zero), then the
		 * prefix [0, cut) of the next one when counts are r + 1 there */
		for (pass = 0; pass < 2; pass++) {
			uint64_t upto = pass == 0 ? (r >= 1 ? P : 0) : (cut < P ? cut : 0);
			for (k = 0; k < upto; k++) {
				const skiplist_entry *x = &e[k];
				if (SKIPLIST_OP(x->meta) == SKIPLIST_INSERT) {
					if (node_of[x->key]) {
						snprintf(out->message, sizeof(out->message),
							 "entry %" PRIu64 " inserts key %u, which its block's order leaves in "
							 "the list", b * P + k, x->key);
						goto fail;
					}
					node_of[x->key] = x->node;
				} else if (SKIPLIST_OP(x->meta) == SKIPLIST_DELETE) {
					if (!node_of[x->key]) {
						snprintf(out->message, sizeof(out->message),
							 "entry %" PRIu64 " deletes key %u, which its block's order leaves out "
							 "of the list", b * P + k, x->key);
						goto fail;
					}
					node_of[x->key] = 0;
				}
			}
		}
	}
	if (check_structure(w, after, out, live) != 0)
		goto fail;
	if (compare_keys(w, live, node_of, msg, sizeof(msg), &bad_key) != 0) {
		snprintf(out->message, sizeof(out->message), "%s", msg);
		goto fail;
	}
	goto done;
fail:
	out->ok = 0;
done:
	free(node_of);
	free(live);
}
