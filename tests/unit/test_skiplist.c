/*
 * The skiplist workload (workloads/stm/skiplist.c): the generator's table and
 * initial list, and the oracle, which must accept a correct run and name what
 * is wrong in a tampered one (an unsorted level, a level that is not a subset
 * of the one below, a lost insert, a deleted node left unmarked, an order
 * that could not have happened), for batches and for timed runs. Then both
 * engines' CPU backends on it at high contention (few keys, many threads),
 * with and without lookups, and PR-STM's timed rounds.
 */
#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm_engines.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/entry.h"
#include "tests/unit/test.h"
#include "workloads/stm/skiplist.h"
#include "workloads/stm/stm_workload.h"

static skiplist_config small_config(void)
{
	skiplist_config c;
	memset(&c, 0, sizeof(c));
	c.initial_keys = 30;
	c.key_range = 60;
	c.capacity = 1000;
	c.levels = 4;
	c.threads = 8;
	c.tx_per_thread = 30;
	c.read_only = 20;
	c.seed = 11;
	return c;
}

/* ------------------------------------------------------------------ a serial skip list of the test's own */

static uint32_t key_of(const skiplist_workload *w, uint32_t n)
{
	return SKIPLIST_KEY(w->header[n]);
}

/* The last node below key k on level l, walking from the head. */
static uint32_t walk_pred(const skiplist_workload *w, const uint32_t *s, uint32_t l, uint32_t k)
{
	uint32_t cur = SKIPLIST_HEAD, nx;
	while ((nx = s[skiplist_next_word(cur, l, w->stride)]) != SKIPLIST_NIL && key_of(w, nx) < k)
		cur = nx;
	return cur;
}

/* Apply entry i serially; returns 1 when it committed as an update, 0 when not possible. */
static int serial_apply(const skiplist_workload *w, uint32_t *s, uint64_t i)
{
	const skiplist_entry *e = &w->tx[i];
	uint32_t S = w->stride, p0 = walk_pred(w, s, 0, e->key), nx = s[skiplist_next_word(p0, 0, S)], l, h;
	int present = nx != SKIPLIST_NIL && key_of(w, nx) == e->key;

	if (SKIPLIST_OP(e->meta) == SKIPLIST_INSERT) {
		if (present)
			return 0;
		h = SKIPLIST_HEIGHT(w->header[e->node]);
		for (l = 0; l < h; l++) {
			uint32_t p = walk_pred(w, s, l, e->key);
			s[skiplist_next_word(e->node, l, S)] = s[skiplist_next_word(p, l, S)];
			s[skiplist_next_word(p, l, S)] = e->node;
		}
		return 1;
	}
	if (!present)
		return 0;
	h = SKIPLIST_HEIGHT(w->header[nx]);
	for (l = 0; l < h; l++) {
		uint32_t p = walk_pred(w, s, l, e->key), succ = s[skiplist_next_word(nx, l, S)];
		s[skiplist_next_word(p, l, S)] = succ;
		s[skiplist_next_word(nx, l, S)] = succ | SKIPLIST_MARK;
	}
	return 1;
}

typedef struct serial_run {
	skiplist_workload w;
	uint32_t *initial, *state, *after, *status;
} serial_run;

/* The whole table in table order (each key's updates are in order in one block): every update commits. */
static void run_serially(serial_run *r, const skiplist_config *c)
{
	char err[256];
	uint32_t stamp = 0;
	uint64_t i;

	memset(r, 0, sizeof(*r));
	if (skiplist_generate(&r->w, c, err, sizeof(err)) != 0)
		return;
	r->initial = calloc(r->w.words, sizeof(uint32_t));
	r->state = calloc(r->w.words, sizeof(uint32_t));
	r->after = calloc(r->w.words, sizeof(uint32_t));
	r->status = calloc(r->w.ntx, sizeof(uint32_t));
	skiplist_initial(&r->w, r->initial);
	memcpy(r->after, r->initial, r->w.words * sizeof(uint32_t));
	for (i = 0; i < r->w.ntx; i++) {
		if (SKIPLIST_OP(r->w.tx[i].meta) == SKIPLIST_LOOKUP)
			r->status[i] = TX_STATUS_READONLY;
		else if (serial_apply(&r->w, r->after, i))
			r->status[i] = ++stamp;
	}
}

static void free_serial(serial_run *r)
{
	free(r->initial);
	free(r->state);
	free(r->after);
	free(r->status);
	skiplist_free(&r->w);
}

static void check_of(serial_run *r, skiplist_check *chk)
{
	memcpy(r->state, r->initial, r->w.words * sizeof(uint32_t));
	skiplist_verify_batch(&r->w, r->state, r->status, r->after, chk);
}

/* ------------------------------------------------------------------ generator */

TEST(skiplist_generate_owners_toggles_and_nodes)
{
	skiplist_config c = small_config();
	skiplist_workload w;
	char err[256];
	uint64_t i, b, k;
	uint32_t *owner, *node_of, *seen_node;
	skiplist_check chk;
	uint32_t *words;

	REQUIRE(skiplist_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.ntx, 240u);
	CHECK_EQ(w.stride, 5u);
	CHECK_EQ(w.words, 5000u);
	CHECK_EQ(w.owners, 8u);
	/* per block: 6 lookups, 24 updates, half of them inserts */
	CHECK_EQ(w.count[SKIPLIST_LOOKUP], 8u * 6);
	CHECK_EQ(w.count[SKIPLIST_INSERT], 8u * 12);
	CHECK_EQ(w.count[SKIPLIST_DELETE], 8u * 12);
	CHECK_EQ(w.nodes_used, 1u + 30 + 96);
	CHECK(w.max_height >= 1 && w.max_height <= c.levels);
	CHECK_EQ(skiplist_input_of(&w).max_words, 2 * w.max_height);

	owner = calloc(c.key_range + 1, sizeof(uint32_t));
	node_of = calloc(c.key_range + 1, sizeof(uint32_t));
	seen_node = calloc(w.nodes_used, sizeof(uint32_t));
	REQUIRE(owner && node_of && seen_node);
	for (i = 1; i <= c.initial_keys; i++) {
		uint32_t key = SKIPLIST_KEY(w.header[i]);
		CHECK(key >= 1 && key <= c.key_range);
		CHECK(i == 1 || key > SKIPLIST_KEY(w.header[i - 1])); /* initial nodes in key order */
		node_of[key] = (uint32_t)i;
	}
	for (b = 0; b < c.threads; b++)
		for (k = 0; k < c.tx_per_thread; k++) {
			uint64_t idx = b * c.tx_per_thread + k;
			const skiplist_entry *e = &w.tx[idx];
			unsigned op = SKIPLIST_OP(e->meta);
			CHECK_EQ(TX_ENTRY_TAG(e->meta), 0u);
			CHECK_EQ(SKIPLIST_LEVELS(e->meta), c.levels);
			CHECK_EQ(e->nodes, c.capacity);
			CHECK(e->key >= 1 && e->key <= c.key_range);
			if (op == SKIPLIST_LOOKUP)
				continue;
			/* one owner per key */
			if (!owner[e->key])
				owner[e->key] = (uint32_t)b + 1;
			CHECK_EQ(owner[e->key], b + 1);
			/* valid in program order: insert an absent key, delete a present one */
			if (op == SKIPLIST_INSERT) {
				CHECK_EQ(node_of[e->key], 0u);
				CHECK(e->node > c.initial_keys && e->node < w.nodes_used);
				CHECK_EQ(seen_node[e->node]++, 0u); /* every insert has its own node */
				CHECK_EQ(SKIPLIST_KEY(w.header[e->node]), e->key);
				CHECK_EQ(SKIPLIST_HEIGHT(w.header[e->node]), SKIPLIST_ENTRY_HEIGHT(e->meta));
				node_of[e->key] = e->node;
			} else {
				CHECK(node_of[e->key] != 0);
				node_of[e->key] = 0;
			}
		}
	/* every block nets to zero: the keys present are the initial ones again */
	for (k = 1; k <= c.key_range; k++) {
		int was = 0;
		for (i = 1; i <= c.initial_keys; i++)
			was |= SKIPLIST_KEY(w.header[i]) == k;
		CHECK_EQ_I(node_of[k] != 0, was);
	}

	/* the initial list is well formed and holds the initial keys */
	words = calloc(w.words, sizeof(uint32_t));
	REQUIRE(words != NULL);
	skiplist_initial(&w, words);
	memset(&chk, 0, sizeof(chk));
	CHECK_EQ_I(skiplist_check_structure(&w, words, &chk), 0);
	CHECK_EQ(chk.keys, c.initial_keys);
	CHECK(chk.top_level >= 1 && chk.top_level <= c.levels);
	free(words);
	free(owner);
	free(node_of);
	free(seen_node);
	skiplist_free(&w);
}

TEST(skiplist_generate_refuses_what_cannot_work)
{
	skiplist_config c = small_config();
	skiplist_workload w;
	char err[512];

	/* more initial keys than keys */
	c.initial_keys = 61;
	CHECK(skiplist_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "--initial-keys 61 exceeds --key-range 60");

	/* the inserts' nodes do not fit the pool */
	c = small_config();
	c.capacity = 100;
	CHECK(skiplist_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "more than --capacity 100");

	/* more threads than keys: the others run lookups only; an odd count of updates gives a lookup */
	c = small_config();
	c.key_range = 5;
	c.initial_keys = 2;
	c.tx_per_thread = 7;
	c.read_only = 0;
	REQUIRE(skiplist_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.owners, 5u);
	CHECK_EQ(w.count[SKIPLIST_INSERT] + w.count[SKIPLIST_DELETE], 5u * 6);
	CHECK_EQ(w.count[SKIPLIST_LOOKUP], 5u * 1 + 3u * 7);
	skiplist_free(&w);

	/* all lookups: transactions of one word */
	c = small_config();
	c.read_only = 100;
	REQUIRE(skiplist_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(skiplist_input_of(&w).max_words, 1u);
	skiplist_free(&w);
}

/* ------------------------------------------------------------------ the oracle */

TEST(skiplist_verify_accepts_a_serial_run)
{
	skiplist_config c = small_config();
	serial_run r;
	skiplist_check chk;

	run_serially(&r, &c);
	REQUIRE(r.status != NULL);
	check_of(&r, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	CHECK_EQ(chk.committed_update, 192u);
	CHECK_EQ(chk.committed_readonly, 48u);
	CHECK_EQ(chk.abandoned, 0u);
	CHECK_EQ(chk.keys, c.initial_keys); /* blocks net to zero */
	CHECK(memcmp(r.state, r.after, r.w.words * sizeof(uint32_t)) == 0);

	/* the next batch from there (the nodes holding the keys have changed) */
	memcpy(r.initial, r.after, r.w.words * sizeof(uint32_t));
	{
		uint32_t stamp = 0;
		uint64_t i;
		for (i = 0; i < r.w.ntx; i++)
			if (SKIPLIST_OP(r.w.tx[i].meta) != SKIPLIST_LOOKUP) {
				CHECK_EQ_I(serial_apply(&r.w, r.after, i), 1);
				r.status[i] = ++stamp;
			}
	}
	check_of(&r, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "second batch: %s", chk.message);
	free_serial(&r);
}

/* --read-only-threads: the share as whole threads, the last ones, which own no key. */
TEST(skiplist_read_only_threads_are_whole_blocks)
{
	skiplist_config c = small_config();
	serial_run r;
	skiplist_check chk;
	uint64_t b, i, lookups_in_updates = 0, updates_in_ro = 0;

	c.read_only_threads = 1;
	run_serially(&r, &c);
	REQUIRE(r.status != NULL);
	/* 20% of 8 threads is 1.6: threads 6 and 7 look up only; 6 threads own the 60 keys, 10 each */
	CHECK_EQ(r.w.update_threads, 6u);
	CHECK_EQ(r.w.owners, 6u);
	CHECK_EQ(r.w.count[SKIPLIST_LOOKUP], 2u * 30);
	CHECK_EQ(r.w.count[SKIPLIST_INSERT] + r.w.count[SKIPLIST_DELETE], 6u * 30);
	for (b = 0; b < c.threads; b++)
		for (i = b * c.tx_per_thread; i < (b + 1) * c.tx_per_thread; i++) {
			int look = SKIPLIST_OP(r.w.tx[i].meta) == SKIPLIST_LOOKUP;
			lookups_in_updates += b < 6 && look;
			updates_in_ro += b >= 6 && !look;
		}
	CHECK_EQ(lookups_in_updates, 0u);
	CHECK_EQ(updates_in_ro, 0u);
	check_of(&r, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	CHECK_EQ(chk.committed_update, 180u);
	CHECK_EQ(chk.committed_readonly, 60u);
	CHECK_EQ(chk.keys, c.initial_keys); /* blocks net to zero */
	free_serial(&r);
}

/* A node on level 0 with its two neighbours around it, all of height 1 when possible. */
static uint32_t live_short_node(const serial_run *r, uint32_t *pred)
{
	uint32_t S = r->w.stride, p = SKIPLIST_HEAD, n = r->after[skiplist_next_word(SKIPLIST_HEAD, 0, S)];
	while (n != SKIPLIST_NIL) {
		uint32_t nx = r->after[skiplist_next_word(n, 0, S)];
		if (SKIPLIST_HEIGHT(r->w.header[n]) == 1 && nx != SKIPLIST_NIL &&
		    SKIPLIST_HEIGHT(r->w.header[nx]) == 1) {
			*pred = p;
			return n;
		}
		p = n;
		n = nx;
	}
	return SKIPLIST_NIL;
}

TEST(skiplist_verify_catches_corruption)
{
	skiplist_config c = small_config();
	serial_run r;
	skiplist_check chk;
	uint32_t S, p, a, b, after_b, x = SKIPLIST_NIL, px = SKIPLIST_HEAD, n;
	uint32_t *keep;
	uint64_t i, ins = UINT64_MAX;

	c.levels = 3;
	c.initial_keys = 40;
	c.key_range = 60;
	run_serially(&r, &c);
	REQUIRE(r.status != NULL);
	S = r.w.stride;
	keep = malloc(r.w.words * sizeof(uint32_t));
	REQUIRE(keep != NULL);
	memcpy(keep, r.after, r.w.words * sizeof(uint32_t));

	/* an unsorted level: p -> a -> b -> c becomes p -> b -> a -> c on level 0 */
	a = live_short_node(&r, &p);
	REQUIRE(a != SKIPLIST_NIL);
	b = r.after[skiplist_next_word(a, 0, S)];
	after_b = r.after[skiplist_next_word(b, 0, S)];
	r.after[skiplist_next_word(p, 0, S)] = b;
	r.after[skiplist_next_word(b, 0, S)] = a;
	r.after[skiplist_next_word(a, 0, S)] = after_b;
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "level 0 is not sorted");
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	/* a level that is not a subset of the one below: a tall node taken off level 0 only */
	n = r.after[skiplist_next_word(SKIPLIST_HEAD, 0, S)];
	while (n != SKIPLIST_NIL && x == SKIPLIST_NIL) {
		if (SKIPLIST_HEIGHT(r.w.header[n]) >= 2)
			x = n;
		else
			px = n;
		n = r.after[skiplist_next_word(n, 0, S)];
	}
	REQUIRE(x != SKIPLIST_NIL);
	r.after[skiplist_next_word(px, 0, S)] = r.after[skiplist_next_word(x, 0, S)];
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "level 1 is not a subset of level 0");
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	/* the other way: the same node taken off level 1 only, so level 1 misses a node taller than it */
	px = walk_pred(&r.w, r.after, 1, SKIPLIST_KEY(r.w.header[x]));
	r.after[skiplist_next_word(px, 1, S)] = r.after[skiplist_next_word(x, 1, S)];
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "missing from level 1");
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	/* a lost insert: the last committed insert of a key still in the list, unlinked and marked as if
	 * it never happened (a well-formed list, one key short) */
	for (i = 0; i < r.w.ntx; i++)
		if (SKIPLIST_OP(r.w.tx[i].meta) == SKIPLIST_INSERT &&
		    r.after[skiplist_next_word(r.w.tx[i].node, 0, S)] != (SKIPLIST_MARK | SKIPLIST_NIL) &&
		    !(r.after[skiplist_next_word(r.w.tx[i].node, 0, S)] & SKIPLIST_MARK))
			ins = i;
	REQUIRE(ins != UINT64_MAX);
	{
		uint32_t node = r.w.tx[ins].node, key = r.w.tx[ins].key, l;
		for (l = 0; l < SKIPLIST_HEIGHT(r.w.header[node]); l++) {
			uint32_t pl = walk_pred(&r.w, r.after, l, key);
			r.after[skiplist_next_word(pl, l, S)] = r.after[skiplist_next_word(node, l, S)];
			r.after[skiplist_next_word(node, l, S)] |= SKIPLIST_MARK;
		}
		memset(&chk, 0, sizeof(chk));
		CHECK_EQ_I(skiplist_check_structure(&r.w, r.after, &chk), 0); /* well formed */
		check_of(&r, &chk);
		CHECK_EQ_I(chk.ok, 0);
		CHECK_CONTAINS(chk.message, "is missing from the final list");
		CHECK_CONTAINS(chk.message, "last committed update: insert of entry");
	}
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	/* a deleted node whose pointers lost their mark */
	for (i = 0; i < r.w.ntx; i++)
		if (SKIPLIST_OP(r.w.tx[i].meta) == SKIPLIST_INSERT &&
		    (r.after[skiplist_next_word(r.w.tx[i].node, 0, S)] & SKIPLIST_MARK)) {
			r.after[skiplist_next_word(r.w.tx[i].node, 0, S)] &= ~SKIPLIST_MARK;
			break;
		}
	REQUIRE(i < r.w.ntx);
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "is not in the list but its level-0 pointer");
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	/* a deleted node's marked pointer to another successor than the replay's */
	r.after[skiplist_next_word(r.w.tx[i].node, 0, S)] ^= 1;
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "in the serial replay");
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	/* an order that could not have happened: a delete stamped before the insert it undoes */
	for (i = 0; i < r.w.ntx; i++)
		if (SKIPLIST_OP(r.w.tx[i].meta) == SKIPLIST_INSERT) {
			uint64_t j;
			for (j = i + 1; j < r.w.ntx; j++)
				if (SKIPLIST_OP(r.w.tx[j].meta) == SKIPLIST_DELETE && r.w.tx[j].key == r.w.tx[i].key)
					break;
			if (j < r.w.ntx) {
				uint32_t t = r.status[i];
				r.status[i] = r.status[j];
				r.status[j] = t;
				check_of(&r, &chk);
				CHECK_EQ_I(chk.ok, 0);
				CHECK_CONTAINS(chk.message, "the key is not in the list");
				r.status[j] = r.status[i];
				r.status[i] = t;
				break;
			}
		}
	CHECK(i < r.w.ntx);

	/* a lookup with a stamp */
	for (i = 0; i < r.w.ntx; i++)
		if (SKIPLIST_OP(r.w.tx[i].meta) == SKIPLIST_LOOKUP)
			break;
	REQUIRE(i < r.w.ntx);
	r.status[i] = 1;
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "commit stamps");
	r.status[i] = TX_STATUS_READONLY;

	/* a header written */
	r.after[skiplist_header_word(1, S)] ^= 4;
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "header");
	memcpy(r.after, keep, r.w.words * sizeof(uint32_t));

	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 1);
	free(keep);
	free_serial(&r);
}

/* Timed runs: per thread r full blocks and a prefix of the next, checked from the counts. */
TEST(skiplist_verify_counts_accepts_prefixes_and_catches_the_rest)
{
	skiplist_config c = small_config();
	skiplist_workload w;
	skiplist_check chk;
	uint32_t *start, *after, *counts, *keep;
	char err[256];
	uint64_t b, k, P = c.tx_per_thread, upd = 0, ro = 0;

	REQUIRE(skiplist_generate(&w, &c, err, sizeof(err)) == 0);
	start = calloc(w.words, sizeof(uint32_t));
	after = calloc(w.words, sizeof(uint32_t));
	keep = calloc(w.words, sizeof(uint32_t));
	counts = calloc(w.ntx, sizeof(uint32_t));
	REQUIRE(start && after && keep && counts);
	skiplist_initial(&w, start);
	memcpy(after, start, w.words * sizeof(uint32_t));
	/* thread b: b % 3 full rounds, then a prefix of 7 * b % P entries; threads are independent (each
	 * owns its keys), so applying them one after another is a valid interleaving */
	for (b = 0; b < c.threads; b++) {
		uint32_t rounds = (uint32_t)(b % 3), round;
		uint64_t cut = (7 * b) % P;
		for (round = 0; round <= rounds; round++)
			for (k = 0; k < (round < rounds ? P : cut); k++) {
				uint64_t i = b * P + k;
				counts[i]++;
				if (SKIPLIST_OP(w.tx[i].meta) == SKIPLIST_LOOKUP)
					ro++;
				else {
					upd++;
					CHECK_EQ_I(serial_apply(&w, after, i), 1);
				}
			}
	}
	skiplist_verify_counts(&w, start, counts, after, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	CHECK_EQ(chk.committed_update, upd);
	CHECK_EQ(chk.committed_readonly, ro);
	memcpy(keep, after, w.words * sizeof(uint32_t));

	/* counts that are not a prefix: thread 4 (1 round, a prefix of 28) with a hole */
	counts[4 * P + 3]--;
	skiplist_verify_counts(&w, start, counts, after, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "thread 4 did not commit its block in order");
	counts[4 * P + 3]++;

	/* an update counted that did not happen: thread 2's prefix one longer than its list says */
	{
		uint64_t j = 2 * P + (7 * 2) % P;
		while (j < 3 * P && SKIPLIST_OP(w.tx[j].meta) == SKIPLIST_LOOKUP)
			j++;
		REQUIRE(j < 3 * P);
		for (k = 2 * P + (7 * 2) % P; k <= j; k++)
			counts[k]++;
		skiplist_verify_counts(&w, start, counts, after, &chk);
		CHECK_EQ_I(chk.ok, 0);
		CHECK_CONTAINS(chk.message, "key");
		for (k = 2 * P + (7 * 2) % P; k <= j; k++)
			counts[k]--;
	}

	/* an unsorted level in the final list */
	{
		uint32_t S = w.stride, p = SKIPLIST_HEAD, n = after[skiplist_next_word(SKIPLIST_HEAD, 0, S)], nx;
		while (n != SKIPLIST_NIL) {
			nx = after[skiplist_next_word(n, 0, S)];
			if (SKIPLIST_HEIGHT(w.header[n]) == 1 && nx != SKIPLIST_NIL && SKIPLIST_HEIGHT(w.header[nx]) == 1)
				break;
			p = n;
			n = nx;
		}
		REQUIRE(n != SKIPLIST_NIL);
		nx = after[skiplist_next_word(n, 0, S)];
		after[skiplist_next_word(p, 0, S)] = nx;
		after[skiplist_next_word(n, 0, S)] = after[skiplist_next_word(nx, 0, S)];
		after[skiplist_next_word(nx, 0, S)] = n;
		skiplist_verify_counts(&w, start, counts, after, &chk);
		CHECK_EQ_I(chk.ok, 0);
		CHECK_CONTAINS(chk.message, "level 0 is not sorted");
		memcpy(after, keep, w.words * sizeof(uint32_t));
	}
	skiplist_verify_counts(&w, start, counts, after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	free(start);
	free(after);
	free(keep);
	free(counts);
	skiplist_free(&w);
}

/* ------------------------------------------------------------------ both engines, CPU backend */

/* A hot table: few keys, many threads, more workers than cores. */
static void run_engine(const stm_ops *ops, uint32_t retry_limit, uint32_t read_only, uint32_t levels,
		       uint64_t run_ns, const char *label)
{
	skiplist_config c = small_config();
	skiplist_workload w;
	char retry[32];
	const char *const engine_opts[] = {"max-passes=1000000000", "stall-timeout=10", retry, NULL};
	stm_params p;
	stm_batch_result r;
	skiplist_check chk;
	tx_input in;
	uint32_t *initial, *state, *after, *status;
	char err[256];
	void *ctx;

	c.threads = 96;
	c.tx_per_thread = 24;
	c.initial_keys = 24;
	c.key_range = 48;
	c.capacity = 4000;
	c.levels = levels;
	c.read_only = read_only;
	REQUIRE(skiplist_generate(&w, &c, err, sizeof(err)) == 0);
	memset(&p, 0, sizeof(p));
	p.threads = c.threads;
	p.hash = 1;
	p.cpu_workers = 32;
	snprintf(retry, sizeof(retry), "retry-limit=%u", retry_limit);
	tu_engine_params(&p, tu_engine_of(ops), engine_opts);
	initial = calloc(w.words, sizeof(uint32_t));
	state = calloc(w.words, sizeof(uint32_t));
	after = calloc(w.words, sizeof(uint32_t));
	status = calloc(w.ntx, sizeof(uint32_t));
	skiplist_initial(&w, initial);
	in = skiplist_input_of(&w);
	ctx = ops->open(&in, &p);
	ops->load(ctx, initial);
	ops->run(ctx, 60ull * 1000000000ull, run_ns, &r);
	ops->fetch(ctx, after, status);
	ops->close(ctx);
	memcpy(state, initial, w.words * sizeof(uint32_t));
	if (run_ns)
		skiplist_verify_counts(&w, state, status, after, &chk);
	else
		skiplist_verify_batch(&w, state, status, after, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", label, chk.message);
	CHECK_EQ(chk.committed_update, r.c.commits_update);
	CHECK_EQ(chk.committed_readonly, r.c.commits_readonly);
	CHECK_EQ(chk.abandoned, r.c.retry_limit_reached);
	CHECK_EQ(r.c.threads_timed_out + r.c.threads_failed + r.c.threads_stalled + r.c.threads_gave_up, 0u);
	CHECK_EQ(r.c.aborts_semantic, 0u); /* program order never asks for an impossible update */
	if (!run_ns && retry_limit >= 1000000)
		CHECK_EQ(chk.committed_update + chk.committed_readonly, w.ntx);
	free(initial);
	free(state);
	free(after);
	free(status);
	skiplist_free(&w);
}

TEST(skiplist_cpu_backends_at_high_contention)
{
	run_engine(&prstm_skiplist_cpu_ops, 0, 0, 4, 0, "prstm, updates only");
	run_engine(&prstm_skiplist_cpu_ops, 0, 20, 4, 0, "prstm, 20% lookups");
	run_engine(&prstm_skiplist_cpu_ops, 0, 20, 8, 0, "prstm, 8 levels: 16-word sets");
	run_engine(&gpustm_skiplist_cpu_ops, 1000000000, 0, 4, 0, "gpustm, updates only");
	run_engine(&gpustm_skiplist_cpu_ops, 1000000000, 20, 4, 0, "gpustm, 20% lookups");
	run_engine(&gpustm_skiplist_cpu_ops, 1000000000, 20, 8, 0, "gpustm, 8 levels: 16-word sets");
	run_engine(&prstm_skiplist_cpu_ops, 0, 20, 5, 50000000ull, "prstm, timed rounds");
}

/* The registry: PR-STM and GPU-STM run it with 16-word sets; their other workloads keep 8. */
TEST(skiplist_registered_with_wide_sets)
{
	static const char *const names[] = {"prstm", "gpustm", NULL};
	int i;
	REQUIRE(tu_stm_workload("skiplist") == &stm_workload_skiplist);
	for (i = 0; names[i]; i++) {
		const stm_engine *e = tu_stm_engine(names[i]);
		const stm_engine_run *r;
		REQUIRE(e != NULL);
		r = stm_engine_run_of(e, &stm_workload_skiplist);
		REQUIRE(r != NULL);
		CHECK_EQ(r->max_set, 16u);
		CHECK_EQ(stm_engine_run_of(e, &stm_workload_bank)->max_set, 8u);
		/* the engine's widest: the graph builds hold 64 words */
		CHECK_EQ(e->max_set, 64u);
		CHECK_EQ(stm_engine_run_of(e, &stm_workload_graph)->max_set, 64u);
	}
}
