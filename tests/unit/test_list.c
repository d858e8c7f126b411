/*
 * The lock-free list (structures/semilist.h) on CPU threads, far more
 * threads than cores, checked by the oracle (workloads/list/list_oracle.h):
 * concurrent insertion, concurrent deletion of adjacent nodes, mixed
 * operations, deletion of the last node while adds run, heap exhaustion;
 * the tail variant's last-node policy step by step; and the oracle itself
 * catching broken lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "structures/list_apply.h"
#include "structures/list_engine.h"
#include "tests/unit/entry.h"
#include "tests/unit/test.h"
#include "workloads/list/list_gen.h"
#include "workloads/list/list_oracle.h"

/* Run w through engine name; returns the verdict and fills *r (caller frees with free_run). */
static list_verdict run_engine(const char *name, const list_workload *w, uint32_t workers,
			       uint32_t sb_count, list_run *r)
{
	const list_engine *e = tu_entry("list", NULL, name);
	uint64_t cells = (uint64_t)w->steps * w->threads;
	list_params p = {.sb_count = sb_count, .sb_size = 4096, .cpu_workers = workers};
	list_verdict v;
	char err[256];

	memset(&v, 0, sizeof(v));
	memset(r, 0, sizeof(*r));
	if (!e || e->head.unavailable) {
		tu_fail(__FILE__, __LINE__, "no engine %s", name);
		return v;
	}
	r->outcome = calloc(cells, 1);
	r->op_ns = calloc(cells, sizeof(uint32_t));
	r->op_steps = calloc(cells, sizeof(uint32_t));
	if (e->run(w, &p, r, err, sizeof(err)) != 0) {
		tu_fail(__FILE__, __LINE__, "%s: %s", name, err);
		return v;
	}
	if (r->broken[0]) {
		snprintf(v.message, sizeof(v.message), "%s", r->broken);
		return v;
	}
	list_verify(w, r->outcome, &r->snap, &v);
	if (!v.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", name, v.message);
	return v;
}

static void free_run(list_run *r)
{
	free(r->outcome);
	free(r->op_ns);
	free(r->op_steps);
	free(r->snap.keys);
}

/* The walk steps of the direct calls below, which these tests do not look at. */
static uint32_t steps;

static const char *const lockfree[] = {"cpu-lockfree", "cpu-lockfree-tail"};
static const char *const every_cpu[] = {"cpu", "cpu-tail", "cpu-lockfree", "cpu-lockfree-tail"};

TEST(list_concurrent_insertion_many_threads)
{
	list_config c = {LIST_INSERT, 5000, 700, 0, 1};
	list_workload w;
	char err[256];
	unsigned k;
	REQUIRE(list_generate(&c, &w, err, sizeof(err)) == 0);
	for (k = 0; k < 4; k++) {
		list_run r;
		list_verdict v = run_engine(every_cpu[k], &w, 16, 64, &r);
		CHECK(v.ok);
		CHECK_EQ(v.expected_nodes, 5000u);
		CHECK_EQ(r.snap.nkeys, 5000u);
		CHECK_EQ(r.snap.counted, 5000u);
		CHECK_EQ(r.snap.live_blocks, 5000u);
		free_run(&r);
	}
	list_workload_free(&w);
}

TEST(list_concurrent_deletion_of_adjacent_nodes)
{
	list_config c = {LIST_DELETE, 4000, 4000, 0, 1};
	list_workload w;
	char err[256];
	unsigned k, rep;
	REQUIRE(list_generate(&c, &w, err, sizeof(err)) == 0);
	/* Keys 1..4000 in order, key k by thread k-1: every neighbour of a node goes concurrently. */
	CHECK_EQ(w.steps, 1u);
	CHECK_EQ(w.nprefill, 4000u);
	for (rep = 0; rep < 3; rep++)
		for (k = 0; k < 4; k++) {
			list_run r;
			list_verdict v = run_engine(every_cpu[k], &w, 24, 64, &r);
			CHECK(v.ok);
			CHECK_EQ(r.snap.nkeys, 0u);
			CHECK_EQ(r.snap.live_blocks, r.snap.in_deletion);
			CHECK(r.snap.in_deletion <= 1);
			if (r.has_heap)
				CHECK_EQ(r.heap.failed_allocs, 0u);
			free_run(&r);
		}
	list_workload_free(&w);
}

TEST(list_mixed_operations_high_contention)
{
	uint64_t seed;
	unsigned k;
	for (seed = 1; seed <= 6; seed++) {
		list_config c = {LIST_MIXED, 150, 96, 24000, seed};
		list_workload w;
		char err[256];
		REQUIRE(list_generate(&c, &w, err, sizeof(err)) == 0);
		CHECK(w.count[LIST_ADD] > 1000 && w.count[LIST_GET] > 1000 && w.count[LIST_DEL] > 1000);
		for (k = 0; k < 4; k++) {
			list_run r;
			list_verdict v = run_engine(every_cpu[k], &w, 16, 64, &r);
			CHECK(v.ok);
			CHECK_EQ(v.nomem, 0u);
			free_run(&r);
		}
		list_workload_free(&w);
	}
}

/* Thread 0 adds a key and deletes it again, over and over, while 63 threads append. */
TEST(list_delete_last_node_while_adds_run)
{
	list_workload w;
	uint32_t t, i;
	unsigned k, rep;

	memset(&w, 0, sizeof(w));
	w.threads = 64;
	w.steps = 400;
	w.keyspace = 64 * 400;
	w.ops = calloc((size_t)w.steps * w.threads, sizeof(uint32_t));
	for (i = 0; i < w.steps; i++)
		for (t = 0; t < w.threads; t++) {
			uint32_t op = t ? LIST_OP(LIST_ADD, i * w.threads + t + 1)
					: LIST_OP(i % 2 ? LIST_DEL : LIST_ADD, (i / 2) * w.threads + 1);
			w.ops[(uint64_t)i * w.threads + t] = op;
			w.count[LIST_OP_OF(op)]++;
		}
	for (rep = 0; rep < 4; rep++)
		for (k = 0; k < 2; k++) {
			list_run r;
			list_verdict v = run_engine(lockfree[k], &w, 16, 256, &r);
			CHECK(v.ok);
			CHECK_EQ(v.expected_nodes, 63u * 400u);
			free_run(&r);
		}
	free(w.ops);
}

TEST(list_heap_exhaustion_fails_adds_cleanly)
{
	/* 4 superblocks of 4096 bytes: 3 hold data, 768 nodes of 16 bytes, for 2000 adds. */
	list_config c = {LIST_INSERT, 2000, 300, 0, 1};
	list_workload w;
	char err[256];
	unsigned k;
	REQUIRE(list_generate(&c, &w, err, sizeof(err)) == 0);
	for (k = 0; k < 2; k++) {
		list_run r;
		list_verdict v = run_engine(lockfree[k], &w, 12, 4, &r);
		CHECK(v.ok);
		CHECK_EQ(r.snap.nkeys, 768u);
		CHECK_EQ(v.nomem, 2000u - 768u);
		CHECK_EQ(r.heap.failed_allocs, 2000u - 768u);
		CHECK_EQ(r.heap.superblocks_free, 0u);
		free_run(&r);
	}
	list_workload_free(&w);
}

/*
 * An allocator that refuses a node while its heap has room: the run is
 * replayed serially with thread 5's first add refused as such an allocator
 * would, and the oracle must reject it, naming the room left.
 */
TEST(list_verify_catches_an_allocation_failed_with_room_left)
{
	list_config c = {LIST_INSERT, 64, 16, 0, 1};
	list_params p = {.sb_count = 64, .sb_size = 4096};
	list_workload w;
	list_run r;
	list_verdict v;
	kma_heap h;
	char err[256];
	uint8_t *out;
	uint64_t cells, i;

	REQUIRE(list_generate(&c, &w, err, sizeof(err)) == 0);
	REQUIRE(list_heap_build(&w, &p, 0, &h, err, sizeof(err)) == 0);
	cells = (uint64_t)w.steps * w.threads;
	out = calloc(cells, 1);
	for (i = 0; i < cells; i++)
		if (w.ops[i])
			out[i] = i == 5 ? LIST_NOMEM : list_apply(h, w.ops[i], 0, &steps);
	memset(&r, 0, sizeof(r));
	list_heap_finish(h, &r);
	REQUIRE(!r.broken[0]);
	CHECK(r.snap.heap_known);
	CHECK(r.snap.heap_room > 0);
	list_verify(&w, out, &r.snap, &v);
	CHECK(!v.ok);
	CHECK_EQ(v.nomem, 1u);
	CHECK(strstr(v.message, "the allocator failed while it had free blocks") != NULL);
	free(r.snap.keys);
	free(out);
	kma_host_destroy(h);
	list_workload_free(&w);
}

TEST(list_tail_variant_last_node_policy)
{
	kma_heap h = kma_host_create(8, 4096);
	uint32_t a, b, c;
	list_snapshot s;
	char err[256];

	sl_init(h);
	CHECK_EQ(list_apply_add(h, 10, 1, &steps), LIST_DONE);
	CHECK_EQ(list_apply_add(h, 20, 1, &steps), LIST_DONE);
	a = sl_get(h, 10);
	b = sl_get(h, 20);
	REQUIRE(a && b);
	CHECK_EQ(*kma_word(h, SL_TAIL_WORD), b);
	/* Deleting the last node leaves it linked and marked, with the tail word on it. */
	CHECK(sl_tail_delete(h, 0, b));
	CHECK_EQ(*sl_next(h, b), SL_MARK);
	CHECK_EQ(*kma_word(h, SL_TAIL_WORD), b);
	CHECK_EQ(sl_get(h, 20), 0u);
	CHECK_EQ(sl_count(h), 1u);
	CHECK(!sl_tail_delete(h, 0, b)); /* already deleted */
	/* The next append links behind it, moves the tail and removes it. */
	CHECK_EQ(list_apply_add(h, 30, 1, &steps), LIST_DONE);
	c = sl_get(h, 30);
	REQUIRE(c);
	CHECK_EQ(*sl_next(h, a), c);
	CHECK_EQ(*kma_word(h, SL_TAIL_WORD), c);
	CHECK_EQ(sl_count(h), 2u);
	REQUIRE(list_walk_heap(h, &s, err, sizeof(err)) == 0);
	CHECK_EQ(s.nkeys, 2u);
	CHECK_EQ(s.keys[0], 10u);
	CHECK_EQ(s.keys[1], 30u);
	CHECK_EQ(s.in_deletion, 0u);
	free(s.keys);
	/* A deleted inner node moves the tail word off itself before it is freed. */
	*kma_word(h, SL_TAIL_WORD) = a; /* as if the tail lagged */
	CHECK(sl_tail_delete(h, 0, a));
	CHECK_EQ(*kma_word(h, SL_TAIL_WORD), c);
	CHECK_EQ(sl_count(h), 1u);
	kma_host_destroy(h);
}

TEST(list_plain_variant_delete_last_and_readd)
{
	kma_heap h = kma_host_create(8, 4096);
	uint32_t a, b, p = 0;
	sl_init(h);
	REQUIRE(sl_insert(h, 1, &steps) && sl_insert(h, 2, &steps));
	a = sl_get(h, 1);
	b = sl_get(h, 2);
	CHECK(sl_delete(h, a, b));
	CHECK_EQ(*sl_next(h, a), 0u);
	CHECK(!sl_delete(h, a, b)); /* a freed node keeps its marked next word: a late delete is refused */
	CHECK_EQ(sl_count(h), 1u);
	CHECK_EQ(sl_insert(h, 3, &steps), b); /* the freed block is reused */
	CHECK_EQ(sl_get(h, 3), b);
	CHECK_EQ(sl_get_validated(h, 3, &p, &steps), b);
	CHECK_EQ(p, a);
	CHECK_EQ(sl_get_validated(h, 2, &p, &steps), 0u);
	CHECK_EQ(sl_count(h), 2u);
	kma_host_destroy(h);
}

/* The walk steps the list's report counts: an add reads the next words up to the end, a hit the
 * nodes up to its own, a miss the whole list twice (the fast walk to its end, then the validated
 * walk to the last node). */
TEST(list_walk_steps)
{
	kma_heap h = kma_host_create(8, 4096);
	uint32_t k, n, p = 0;
	sl_init(h);
	for (k = 1; k <= 4; k++) {
		n = 0;
		REQUIRE(sl_insert(h, k, &n));
		CHECK_EQ(n, k); /* the anchor's next word and the k - 1 nodes' before it */
	}
	n = 0;
	CHECK(sl_find(h, 3, &p, &n));
	CHECK_EQ(n, 3u);
	n = 0;
	CHECK_EQ(sl_find(h, 9, &p, &n), 0u);
	CHECK_EQ(n, 9u);
	n = 0;
	CHECK_EQ(list_apply(h, LIST_OP(LIST_GET, 4), 0, &n), LIST_DONE);
	CHECK_EQ(n, 4u);
	kma_host_destroy(h);
}

/* The predecessor hint of a delete is tried with one CAS; a wrong or stale hint changes nothing. */
TEST(list_delete_predecessor_hint)
{
	kma_heap h = kma_host_create(8, 4096);
	uint32_t a, b, c, d, p = 0;
	sl_init(h);
	REQUIRE(sl_insert(h, 1, &steps) && sl_insert(h, 2, &steps) && sl_insert(h, 3, &steps) && sl_insert(h, 4, &steps));
	a = sl_find(h, 1, &p, &steps);
	CHECK_EQ(p, SL_ANCHOR);
	c = sl_find(h, 3, &p, &steps);
	b = sl_get(h, 2);
	CHECK_EQ(p, b);
	d = sl_get(h, 4);
	REQUIRE(a && b && c && d);
	/* A wrong hint (a's next word holds b, not c): the walk finds b and unlinks c there. */
	CHECK(sl_delete(h, a, c));
	CHECK_EQ(*sl_next(h, a), b);
	CHECK_EQ(*sl_next(h, b), d);
	/* A stale hint: c was freed, its marked next word refuses the CAS. */
	CHECK(sl_delete(h, c, d));
	CHECK_EQ(*sl_next(h, b), 0u);
	/* The right hint unlinks with its one CAS. */
	CHECK_EQ(sl_find(h, 2, &p, &steps), b);
	CHECK_EQ(p, a);
	CHECK(sl_delete(h, p, b));
	CHECK_EQ(*sl_next(h, a), 0u);
	CHECK_EQ(sl_count(h), 1u);
	kma_host_destroy(h);
}

TEST(list_oracle_catches_broken_lists)
{
	list_config c = {LIST_INSERT, 50, 5, 0, 1};
	list_workload w;
	list_run r;
	list_verdict v;
	uint32_t orig[50];
	char err[256];
	REQUIRE(list_generate(&c, &w, err, sizeof(err)) == 0);
	v = run_engine("cpu-lockfree", &w, 2, 8, &r);
	REQUIRE(r.snap.nkeys == 50);
	REQUIRE(v.ok);
	memcpy(orig, r.snap.keys, sizeof(orig));
	r.snap.keys[7] = r.snap.keys[3]; /* a duplicate and a lost key */
	list_verify(&w, r.outcome, &r.snap, &v);
	CHECK(!v.ok);
	CHECK_CONTAINS(v.message, "twice");
	r.snap.keys[7] = 999; /* a key never added */
	list_verify(&w, r.outcome, &r.snap, &v);
	CHECK_CONTAINS(v.message, "never added");
	memcpy(r.snap.keys, orig, sizeof(orig));
	r.snap.keys[7] = r.snap.keys[--r.snap.nkeys]; /* a lost key */
	list_verify(&w, r.outcome, &r.snap, &v);
	CHECK_CONTAINS(v.message, "cannot be reached");
	memcpy(r.snap.keys, orig, sizeof(orig));
	r.snap.nkeys++;
	r.snap.live_blocks++; /* a leaked block */
	list_verify(&w, r.outcome, &r.snap, &v);
	CHECK_CONTAINS(v.message, "live blocks");
	r.snap.live_blocks--;
	list_verify(&w, r.outcome, &r.snap, &v);
	CHECK(v.ok);
	r.outcome[3] = LIST_MISS; /* a wrong outcome */
	list_verify(&w, r.outcome, &r.snap, &v);
	CHECK_CONTAINS(v.message, "the replay says done");
	free_run(&r);
	list_workload_free(&w);
}
