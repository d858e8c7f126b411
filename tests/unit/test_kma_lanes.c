/*
 * The KMA-style allocator and the semi-linked list with their threads
 * interleaved at every shared access (tests/unit/lanes.h): in lockstep, as
 * the lanes of a warp issue them, and in seeded random orders. Lockstep is
 * the interleaving under which a burst of allocations all find the stack of
 * their class empty at once; an allocator that then gives up when the pool
 * runs dry fails allocations while its stacks are full of blocks. These
 * tests fail on such an allocator: an allocation may fail only when its
 * class is exhausted.
 */
#include "tests/unit/lanes.h"

#include <stdlib.h>
#include <string.h>

#include "structures/kma_host.h"
#include "structures/list_apply.h"
#include "structures/list_engine.h"
#include "tests/unit/test.h"
#include "workloads/list/list_gen.h"
#include "workloads/list/list_oracle.h"

#define MAX_STEPS 200000000ull

typedef struct alloc_job {
	kma_heap h;
	uint32_t bytes;
	uint32_t per_lane;   /* blocks each lane asks for */
	uint32_t run;        /* > 1: in runs of this many (kma_malloc_run), as a warp's leader does */
	uint32_t *got;       /* per lane: blocks it received */
	int free_after;      /* give every block back after taking it */
} alloc_job;

static void alloc_lane(uint32_t lane, void *arg)
{
	alloc_job *j = arg;
	uint32_t asked = 0, got = 0;
	while (asked < j->per_lane) {
		uint32_t n = j->run > 1 ? j->run : 1, first, k, b;
		if (n > j->per_lane - asked)
			n = j->per_lane - asked;
		k = kma_malloc_run(j->h, j->bytes, n, &first);
		asked += n;
		got += k;
		for (b = first; k--; ) {
			uint32_t next = k ? *kma_word(j->h, b) : 0;
			*kma_word(j->h, b + 4) = lane; /* the block is ours: write in it */
			if (j->free_after)
				kma_free(j->h, b);
			b = next;
		}
	}
	j->got[lane] = got;
}

/* Run the job; the total handed out, with the heap checked afterwards. */
static uint64_t run_alloc(alloc_job *j, uint32_t lanes, unsigned order, uint64_t seed, kma_usage *u)
{
	char err[256];
	uint64_t total = 0;
	uint32_t i;
	j->got = calloc(lanes, sizeof(uint32_t));
	CHECK(lanes_run(lanes, alloc_lane, j, order, seed, MAX_STEPS) != 0);
	for (i = 0; i < lanes; i++)
		total += j->got[i];
	free(j->got);
	if (kma_check(j->h, u, err, sizeof(err)) != 0)
		tu_fail(__FILE__, __LINE__, "heap check: %s", err);
	return total;
}

TEST(kma_lanes_lockstep_burst_never_fails_while_blocks_are_free)
{
	/*
	 * The paper's 64 superblocks (63 for data), a quarter of its superblock size
	 * to keep the test quick: 4032 sixteen-byte blocks for 1024 lanes that each
	 * take one. An allocator that gives up when the pool runs dry keeps 63.
	 */
	kma_heap h = kma_host_create(64, 1024);
	alloc_job j = {.h = h, .bytes = 16, .per_lane = 1};
	kma_usage u;
	uint64_t total = run_alloc(&j, 1024, LANES_LOCKSTEP, 0, &u);
	CHECK_EQ(total, 1024u);
	CHECK_EQ(u.failed_allocs, 0u);
	CHECK_EQ(u.live_blocks, 1024u);
	kma_host_destroy(h);
}

TEST(kma_lanes_exhaustion_is_exact_in_every_order)
{
	/* 3 data superblocks of 16 blocks: exactly 48 of the blocks asked for can be had. */
	static const uint32_t runs[] = {1, 5, 32};
	unsigned order, r;
	uint64_t seed;
	for (order = LANES_LOCKSTEP; order <= LANES_RANDOM; order++)
		for (r = 0; r < 3; r++)
			for (seed = 0; seed < (order == LANES_RANDOM ? 8u : 1u); seed++) {
				kma_heap h = kma_host_create(4, 256);
				alloc_job j = {.h = h, .bytes = 16, .per_lane = 7, .run = runs[r]};
				kma_usage u;
				uint64_t total = run_alloc(&j, 40, order, seed, &u);
				CHECK_EQ(total, 48u);
				CHECK_EQ(u.failed_allocs, 40u * 7u - 48u);
				CHECK_EQ(u.live_blocks, 48u);
				CHECK_EQ(u.superblocks_free, 0u);
				kma_host_destroy(h);
			}
}

TEST(kma_lanes_alloc_free_churn_keeps_the_heap_sound)
{
	/* One superblock of 16 blocks for 64 lanes that each take and give back 5 times. */
	uint64_t seed;
	for (seed = 0; seed < 6; seed++) {
		kma_heap h = kma_host_create(2, 256);
		alloc_job j = {.h = h, .bytes = 16, .per_lane = 5, .free_after = 1};
		kma_usage u;
		uint64_t total = run_alloc(&j, 64, seed ? LANES_RANDOM : LANES_LOCKSTEP, seed, &u);
		/* With frees, failures are possible only while all 16 blocks are held. */
		CHECK(total >= 16u);
		CHECK_EQ(total + u.failed_allocs, 64u * 5u);
		CHECK_EQ(u.live_blocks, 0u);
		CHECK_EQ(u.free_blocks, 16u);
		kma_host_destroy(h);
	}
}

typedef struct list_job {
	kma_heap h;
	const list_workload *w;
	uint8_t *outcome;
	int tail;
} list_job;

static void list_lane(uint32_t lane, void *arg)
{
	list_job *j = arg;
	uint32_t i;
	for (i = 0; i < j->w->steps; i++) {
		uint64_t c = (uint64_t)i * j->w->threads + lane;
		uint32_t steps = 0;
		if (j->w->ops[c])
			j->outcome[c] = list_apply(j->h, j->w->ops[c], j->tail, &steps);
	}
}

/*
 * A workload on lanes, checked by the oracle: every outcome, the final list,
 * the heap. *steps: the lanes' switches (port primitives run).
 */
static void run_list_counted(unsigned kind, uint32_t nodes, uint32_t threads, int tail, unsigned order,
			     uint64_t seed, uint32_t sb_count, uint64_t *steps)
{
	list_config cfg = {.kind = kind, .nodes = nodes, .threads = threads, .seed = seed + 1};
	list_params p = {.sb_count = sb_count, .sb_size = 4096};
	list_workload w;
	list_run r;
	list_verdict v;
	list_job j;
	char err[256];

	REQUIRE(list_generate(&cfg, &w, err, sizeof(err)) == 0);
	REQUIRE(list_heap_build(&w, &p, tail, &j.h, err, sizeof(err)) == 0);
	j.w = &w;
	j.tail = tail;
	j.outcome = calloc((uint64_t)w.steps * w.threads, 1);
	*steps = lanes_run(threads, list_lane, &j, order, seed, MAX_STEPS);
	CHECK(*steps != 0);
	memset(&r, 0, sizeof(r));
	list_heap_finish(j.h, &r);
	CHECK_EQ(r.broken[0], 0);
	if (r.broken[0])
		tu_fail(__FILE__, __LINE__, "%s", r.broken);
	list_verify(&w, j.outcome, &r.snap, &v);
	if (!v.ok)
		tu_fail(__FILE__, __LINE__, "%s list, %s order, seed %llu: %s", tail ? "tail" : "plain",
			order == LANES_RANDOM ? "random" : "lockstep", (unsigned long long)seed, v.message);
	CHECK_EQ(v.nomem, 0u);
	free(r.snap.keys);
	free(j.outcome);
	kma_host_destroy(j.h);
	list_workload_free(&w);
}

static void run_list(unsigned kind, uint32_t nodes, uint32_t threads, int tail, unsigned order, uint64_t seed,
		     uint32_t sb_count)
{
	uint64_t steps;
	run_list_counted(kind, nodes, threads, tail, order, seed, sb_count, &steps);
}

TEST(list_lanes_insert_on_the_papers_heap)
{
	/* 512 adds at once on 64 superblocks: on the GPU, such a run once kept 63 nodes. */
	run_list(LIST_INSERT, 512, 512, 0, LANES_LOCKSTEP, 0, 64);
	run_list(LIST_INSERT, 512, 512, 1, LANES_LOCKSTEP, 0, 64);
	run_list(LIST_INSERT, 300, 100, 1, LANES_RANDOM, 3, 64);
}

TEST(list_lanes_mixed_and_delete_in_many_orders)
{
	uint64_t seed;
	int tail;
	for (tail = 0; tail <= 1; tail++) {
		run_list(LIST_MIXED, 96, 48, tail, LANES_LOCKSTEP, 0, 64);
		run_list(LIST_DELETE, 96, 48, tail, LANES_LOCKSTEP, 0, 64);
		for (seed = 1; seed <= 6; seed++) {
			run_list(LIST_MIXED, 64, 24, tail, LANES_RANDOM, seed, 64);
			run_list(LIST_DELETE, 64, 32, tail, LANES_RANDOM, seed, 64);
		}
	}
}

TEST(list_lanes_many_deletes_in_flight_finish)
{
	/*
	 * Every lane deletes at once in lockstep, so each walk meets nodes other
	 * lanes have marked and waits at their predecessors (sl_back): every
	 * outcome and the final list must still match the replay.
	 */
	run_list(LIST_DELETE, 600, 300, 0, LANES_LOCKSTEP, 0, 64);
	run_list(LIST_MIXED, 600, 300, 0, LANES_LOCKSTEP, 0, 64);
	run_list(LIST_MIXED, 600, 300, 1, LANES_LOCKSTEP, 0, 64);
}

TEST(list_lanes_mixed_walks_stay_near_one_pass)
{
	/*
	 * Half as many lanes as nodes, all at once: an operation should cost about
	 * one walk of the list, a few primitives a node (ops x nodes x 2.3 here),
	 * however many deletions are in flight. Deletes that held their mark for a
	 * walk from the head, and validated gets that started over from the head
	 * at every change, cost 9x that in lockstep at 600 nodes and did not end
	 * within MAX_STEPS in a random order at 3000.
	 */
	const uint32_t nodes = 1000, ops = 1000; /* mixed: --ops defaults to --nodes */
	const uint64_t bound = 4ull * ops * nodes;
	uint64_t steps;
	int tail;
	for (tail = 0; tail <= 1; tail++) {
		run_list_counted(LIST_MIXED, nodes, nodes / 2, tail, LANES_LOCKSTEP, 0, 256, &steps);
		CHECK(steps <= bound);
		run_list_counted(LIST_MIXED, nodes, nodes / 2, tail, LANES_RANDOM, 1 + tail, 256, &steps);
		CHECK(steps <= bound);
	}
}
