/*
 * GPU-STM's transactions (stm/gpustm/gpustm.h) with their threads interleaved at
 * every shared access (tests/unit/lanes.h): in lockstep, as the lanes of a
 * warp issue them, and in seeded random orders. Lockstep is where locking in
 * access order livelocks (every lane takes its first lock, none its second);
 * locking in sorted order must commit. Transfers are replayed in stamp order
 * against the final data, and every read-only transaction must see the money
 * of one consistent state: value-based validation has to be an atomic check.
 */
#include "tests/unit/lanes.h"

#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm.h"
#include "tests/unit/test.h"

#define MAX_STEPS 50000000ull
#define MAX_LANES 32
#define MAX_LOG 4096
#define MAX_ACCOUNTS 8

typedef struct transfer_log {
	uint32_t from, to, amount;
} transfer_log;

typedef struct bank_job {
	uint32_t locks[MAX_ACCOUNTS], data[MAX_ACCOUNTS], initial[MAX_ACCOUNTS];
	gpustm_log logs[MAX_LANES]; /* the pool of logs, a record per lane, as gpustm keeps it */
	gpustm_mem m;
	uint32_t accounts, per_lane, total;
	uint32_t stamp;
	transfer_log log[MAX_LOG];
	uint32_t snapshots, snapshots_bad;
	uint32_t attempts[MAX_LANES];
	uint64_t seed;
} bank_job;

static uint32_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 32);
}

/* Transfers between random accounts, and every third transaction a read of them all. */
static void bank_lane(uint32_t lane, void *arg)
{
	bank_job *j = arg;
	uint64_t rng = j->seed * 0x9E3779B97F4A7C15ull + lane + 1;
	uint32_t k;

	for (k = 0; k < j->per_lane; k++) {
		gpustm_tx tx;
		if (k % 3 == 2) {
			uint32_t sum, a;
			do {
				gpustm_tx_start(&tx, &j->m.logs[lane]);
				for (sum = 0, a = 0; a < j->accounts; a++)
					sum += gpustm_tx_read(&tx, &j->m, a);
				j->attempts[lane]++;
			} while (!gpustm_tx_validate(&tx, &j->m));
			gpustm_tx_commit(&tx, &j->m, NULL);
			j->snapshots++;
			j->snapshots_bad += sum != j->total;
		} else {
			uint32_t from = next_rand(&rng) % j->accounts, to = next_rand(&rng) % (j->accounts - 1);
			uint32_t amount = 1 + next_rand(&rng) % 5, stamp;
			to += to >= from;
			do {
				gpustm_tx_start(&tx, &j->m.logs[lane]);
				gpustm_tx_write(&tx, &j->m, from, gpustm_tx_read(&tx, &j->m, from) - amount);
				gpustm_tx_write(&tx, &j->m, to, gpustm_tx_read(&tx, &j->m, to) + amount);
				j->attempts[lane]++;
			} while (!gpustm_tx_validate(&tx, &j->m));
			stamp = gpustm_tx_commit(&tx, &j->m, &j->stamp);
			if (stamp < MAX_LOG)
				j->log[stamp] = (transfer_log){from, to, amount};
		}
	}
}

static void run_bank(uint32_t lanes, uint32_t accounts, uint32_t hash, uint32_t per_lane, unsigned order,
		     uint64_t seed, const char *label)
{
	bank_job *j = calloc(1, sizeof(*j));
	uint32_t replay[MAX_ACCOUNTS], a, s, updates = 0;

	REQUIRE(j != NULL);
	j->accounts = accounts;
	j->per_lane = per_lane;
	j->seed = seed;
	j->m.locks = j->locks;
	j->m.data = j->data;
	j->m.hash = hash;
	j->m.logs = j->logs;
	for (a = 0; a < accounts; a++) {
		j->data[a] = j->initial[a] = 1000 + 7 * a;
		j->total += j->data[a];
	}
	for (a = 0; a < per_lane; a++)
		updates += a % 3 != 2;
	updates *= lanes;
	if (!lanes_run(lanes, bank_lane, j, order, seed, MAX_STEPS)) {
		tu_fail(__FILE__, __LINE__, "%s: the lanes livelocked", label);
		free(j);
		return;
	}
	if (j->stamp != updates)
		tu_fail(__FILE__, __LINE__, "%s: %u stamps for %u transfers", label, j->stamp, updates);
	if (j->snapshots_bad)
		tu_fail(__FILE__, __LINE__, "%s: %u of %u read-only transactions saw money appear or vanish",
			label, j->snapshots_bad, j->snapshots);
	memcpy(replay, j->initial, sizeof(replay));
	for (s = 0; s < j->stamp && s < MAX_LOG; s++) {
		replay[j->log[s].from] -= j->log[s].amount;
		replay[j->log[s].to] += j->log[s].amount;
	}
	for (a = 0; a < accounts; a++)
		if (replay[a] != j->data[a]) {
			tu_fail(__FILE__, __LINE__, "%s: account %u is %u, the replay in stamp order says %u",
				label, a, j->data[a], replay[a]);
			break;
		}
	for (a = 0; a < (accounts + hash - 1) / hash; a++)
		if (gpustm_is_locked(j->locks[a]))
			tu_fail(__FILE__, __LINE__, "%s: lock %u left locked", label, a);
	free(j);
}

TEST(gpustm_lanes_transfers_serialize_in_lockstep)
{
	run_bank(32, 4, 1, 30, LANES_LOCKSTEP, 1, "32 lanes lockstep, 4 accounts");
	run_bank(32, 8, 2, 30, LANES_LOCKSTEP, 2, "32 lanes lockstep, 8 accounts, hash 2");
	run_bank(32, 2, 1, 30, LANES_LOCKSTEP, 3, "32 lanes lockstep, 2 accounts");
}

TEST(gpustm_lanes_transfers_serialize_in_random_orders)
{
	uint64_t seed;
	for (seed = 1; seed <= 6; seed++) {
		run_bank(16, 4, 1, 30, LANES_RANDOM, seed, "16 lanes random, 4 accounts");
		run_bank(16, 6, 3, 30, LANES_RANDOM, seed + 100, "16 lanes random, 6 accounts, hash 3");
		run_bank(32, 4, 1, 30, LANES_BURSTY, seed, "32 lanes bursty, 4 accounts");
	}
}

/* Two lanes that touch the same two words in opposite orders. */
typedef struct pair_job {
	uint32_t locks[2], data[2];
	gpustm_log logs[2];
	gpustm_mem m;
	uint32_t attempts[2];
} pair_job;

static void pair_lane(uint32_t lane, void *arg)
{
	pair_job *j = arg;
	gpustm_tx tx;
	uint32_t first = lane, second = 1 - lane;

	do {
		gpustm_tx_start(&tx, &j->m.logs[lane]);
		gpustm_tx_write(&tx, &j->m, first, gpustm_tx_read(&tx, &j->m, first) + 1);
		gpustm_tx_write(&tx, &j->m, second, gpustm_tx_read(&tx, &j->m, second) + 1);
		j->attempts[lane]++;
	} while (!gpustm_tx_validate(&tx, &j->m) && j->attempts[lane] < 1000);
	if (!tx.abort)
		gpustm_tx_commit(&tx, &j->m, NULL);
}

/*
 * In lockstep both lanes reach commit together. Locked in access order each
 * would take its first word's lock and fail on the other's, forever; sorted,
 * both go for the same lock first, one wins and commits at its first attempt,
 * the other retries.
 */
TEST(gpustm_lanes_opposite_orders_do_not_livelock_in_lockstep)
{
	pair_job j;

	memset(&j, 0, sizeof(j));
	j.m.locks = j.locks;
	j.m.data = j.data;
	j.m.hash = 1;
	j.m.logs = j.logs;
	REQUIRE(lanes_run(2, pair_lane, &j, LANES_LOCKSTEP, 0, MAX_STEPS) != 0);
	CHECK_EQ(j.data[0], 2u);
	CHECK_EQ(j.data[1], 2u);
	CHECK_EQ(j.attempts[0], 1u); /* its compare-and-swap on the smaller lock came first */
	CHECK(j.attempts[1] < 1000); /* the other retried while the first committed, then committed */
	CHECK(!gpustm_is_locked(j.locks[0]) && !gpustm_is_locked(j.locks[1]));
}
