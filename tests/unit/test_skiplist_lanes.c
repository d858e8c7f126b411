/*
 * The skiplist bodies on both engines with their threads interleaved at every
 * shared access (tests/unit/lanes.h), the search's loads outside the
 * transaction included: in lockstep, as the lanes of a warp issue them, and
 * in seeded random orders. A search then routinely walks through a list that
 * a commit is halfway through changing, through nodes deleted under it and
 * nodes whose pointers are not visible yet; only the window the body reads
 * transactionally may decide. Each run is one batch through the engine's own
 * scheduler step, verified by the oracle's serial replay in stamp order
 * (workloads/stm/skiplist.c), with every entry committed.
 */
#include "tests/unit/lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GCC cannot follow the sets' counts through the skiplist body's branches (see stm/prstm/prstm_cpu_set16.c). */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define PRSTM_MAX_SET 16
#define GPUSTM_MAX_SET 16
#include "stm/gpustm/gpustm_step.h"
#include "stm/prstm/prstm_step.h"
#include "tests/unit/test.h"
#include "workloads/stm/skiplist.h"

#define MAX_STEPS 200000000ull

typedef struct sl_job {
	skiplist_workload w;
	uint32_t *data, *locks, *status, *initial;
	tx_table table;
	stm_params p;
	stm_shared sh;
	int engine; /* 0: prstm, 1: gpustm */
	uint32_t states[64];
	gpustm_log logs[64]; /* gpustm's pool of logs, a record per lane */
	uint64_t aborts; /* concurrent conflicts over all lanes */
} sl_job;

static void sl_lane(uint32_t lane, void *arg)
{
	sl_job *j = arg;
	uint64_t timeout = 600ull * 1000000000ull;

	if (j->engine == 0) {
		prstm_mem m = {.locks = j->locks, .data = j->data, .hash = j->p.hash};
		prstm_sched s;
		prstm_sched_init(&s, lane, &j->table, &j->p, timeout, 0, &j->sh, gb_clock_ns());
		while (prstm_step(STM_WORKLOAD_skiplist, &s, &m, &j->table, &j->p, &j->sh) == STM_RUNNING)
			if (s.wait_ns)
				lanes_yield(); /* backing off: let the others run meanwhile */
		j->states[lane] = s.state;
		j->aborts += s.c.aborts_locked + s.c.aborts_priority + s.c.aborts_validation;
	} else {
		gpustm_mem m = {j->locks, j->data, j->p.hash, j->logs};
		gpustm_sched s;
		gpustm_sched_init(&s, lane, &j->table, timeout, &j->sh, gb_clock_ns());
		while (gpustm_step(STM_WORKLOAD_skiplist, &s, &m, &j->table, &j->p, &j->sh) == STM_RUNNING)
			;
		j->states[lane] = s.state;
		j->aborts += s.c.aborts_locked + s.c.aborts_validation;
	}
}

static void sl_run(int engine, uint32_t lanes, uint32_t hash, uint32_t read_only, unsigned order, uint64_t seed,
		   const char *label)
{
	sl_job *j = calloc(1, sizeof(*j));
	skiplist_config c;
	skiplist_check chk;
	char err[256];
	uint32_t l;

	REQUIRE(j != NULL);
	memset(&c, 0, sizeof(c));
	c.initial_keys = 8;
	c.key_range = 16;
	c.capacity = 600;
	c.levels = 3;
	c.threads = lanes;
	c.tx_per_thread = 10;
	c.read_only = read_only;
	c.seed = seed;
	REQUIRE(skiplist_generate(&j->w, &c, err, sizeof(err)) == 0);
	j->engine = engine;
	j->data = calloc(j->w.words, sizeof(uint32_t));
	j->initial = calloc(j->w.words, sizeof(uint32_t));
	j->locks = calloc((j->w.words + hash - 1) / hash, sizeof(uint32_t));
	j->status = calloc(j->w.ntx, sizeof(uint32_t));
	REQUIRE(j->data && j->initial && j->locks && j->status);
	skiplist_initial(&j->w, j->data);
	memcpy(j->initial, j->data, j->w.words * sizeof(uint32_t));
	j->table.entries = j->w.tx;
	j->table.status = j->status;
	j->table.tx_per_thread = c.tx_per_thread;
	j->table.ntx = (uint32_t)j->w.ntx;
	j->p.threads = lanes;
	j->p.hash = hash;
	if (engine == 0) {
		prstm_params_rw(&j->p)->max_passes = 1000000000;
		prstm_params_rw(&j->p)->use_tags = 1;
		prstm_params_rw(&j->p)->stall_ns = 60ull * 1000000000ull;
	} else {
		gpustm_params_rw(&j->p)->retry_limit = 1000000000;
	}
	if (!lanes_run(lanes, sl_lane, j, order, seed, MAX_STEPS)) {
		tu_fail(__FILE__, __LINE__, "%s: the lanes did not finish (livelock?)", label);
	} else {
		for (l = 0; l < lanes; l++)
			CHECK_EQ(j->states[l], (uint32_t)STM_DONE);
		skiplist_verify_batch(&j->w, j->initial, j->status, j->data, &chk);
		if (!chk.ok)
			tu_fail(__FILE__, __LINE__, "%s: %s", label, chk.message);
		CHECK_EQ(chk.abandoned, 0u);
		CHECK_EQ(chk.committed_update + chk.committed_readonly, j->w.ntx);
		CHECK(j->aborts > 0); /* the lanes did meet each other */
		if (getenv("SKIPLIST_LANES_VERBOSE"))
			printf("%s: %llu aborts over %llu transactions\n", label, (unsigned long long)j->aborts,
			       (unsigned long long)j->w.ntx);
	}
	free(j->data);
	free(j->initial);
	free(j->locks);
	free(j->status);
	skiplist_free(&j->w);
	free(j);
}

TEST(skiplist_lanes_prstm_lockstep_and_random)
{
	sl_run(0, 32, 1, 0, LANES_LOCKSTEP, 1, "prstm, lockstep");
	sl_run(0, 32, 1, 30, LANES_LOCKSTEP, 2, "prstm, lockstep, lookups");
	sl_run(0, 24, 2, 20, LANES_RANDOM, 3, "prstm, random, hash 2");
	sl_run(0, 24, 1, 20, LANES_RANDOM, 4, "prstm, random");
	sl_run(0, 16, 1, 0, LANES_RANDOM, 5, "prstm, random, updates only");
}

TEST(skiplist_lanes_gpustm_lockstep_and_random)
{
	sl_run(1, 32, 1, 0, LANES_LOCKSTEP, 1, "gpustm, lockstep");
	sl_run(1, 32, 1, 30, LANES_LOCKSTEP, 2, "gpustm, lockstep, lookups");
	sl_run(1, 24, 3, 20, LANES_RANDOM, 3, "gpustm, random, hash 3");
	sl_run(1, 24, 1, 20, LANES_RANDOM, 4, "gpustm, random");
	sl_run(1, 16, 1, 0, LANES_RANDOM, 5, "gpustm, random, updates only");
}

/* One lane kept going for bursts of up to 256 accesses while the others wait: it can hold its locks, or run far ahead, that long. */
TEST(skiplist_lanes_bursty)
{
	uint64_t seed;
	for (seed = 1; seed <= 4; seed++) {
		sl_run(0, 32, 1, 20, LANES_BURSTY, seed, "prstm, bursty");
		sl_run(1, 32, 1, 20, LANES_BURSTY, seed, "gpustm, bursty");
		sl_run(1, 32, 8, 0, LANES_BURSTY, seed + 10, "gpustm, bursty, hash 8, updates only");
	}
}
