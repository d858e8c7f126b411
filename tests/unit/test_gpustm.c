/*
 * GPU-STM (stm/gpustm/gpustm.h, stm/gpustm/gpustm_sched.h): the lock word, the sorted lock
 * log, locking in order at commit, hierarchical validation, versions bumped
 * at release, and the retry limit of its scheduler on the CPU backend.
 */
#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm.h"
#include "stm/gpustm/gpustm_engines.h"
#include "stm/gpustm/gpustm_sched.h"
#include "stm/backend/stm_cpu.h"
#include "tests/unit/entry.h"
#include "tests/unit/test.h"
#include "workloads/stm/bank.h"

#define NWORDS 32

typedef struct fixture {
	uint32_t locks[NWORDS];
	uint32_t data[NWORDS];
	gpustm_log logs[2]; /* the pool of logs, a record per transaction, as gpustm keeps it */
	gpustm_mem m;
} fixture;

static void fixture_init(fixture *f, uint32_t hash)
{
	uint32_t i;
	memset(f->locks, 0, sizeof(f->locks));
	for (i = 0; i < NWORDS; i++)
		f->data[i] = 100 + i;
	f->m.locks = f->locks;
	f->m.data = f->data;
	f->m.hash = hash;
	f->m.logs = f->logs;
}

TEST(gpustm_lock_word)
{
	CHECK_EQ(GPUSTM_LOCK_BIT, 0x80000000u);
	CHECK_EQ(gpustm_version(0x80000005u), 5u);
	CHECK(gpustm_is_locked(0x80000005u));
	CHECK(!gpustm_is_locked(0x7FFFFFFFu));
	CHECK_EQ(gpustm_next_version(6), 7u);
	CHECK_EQ(gpustm_next_version(0x7FFFFFFFu), 0u);        /* 31 bits wrap */
	CHECK_EQ(gpustm_next_version(0x80000009u), 10u);       /* the lock bit is dropped */
	CHECK_EQ(GPUSTM_RETRY_LIMIT, 100);
}

/* Every access puts its lock in the log, which stays ascending and holds each lock once. */
TEST(gpustm_lock_log_is_sorted_at_every_access)
{
	fixture f;
	gpustm_tx tx;

	fixture_init(&f, 1);
	gpustm_tx_start(&tx, &f.logs[0]);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 9), 109u);
	gpustm_tx_write(&tx, &f.m, 3, 1);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 7), 107u);
	gpustm_tx_write(&tx, &f.m, 9, 2);               /* read before: its lock is there */
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 3), 1u);    /* its own write */
	gpustm_tx_write(&tx, &f.m, 0, 5);
	CHECK_EQ(tx.abort, GPUSTM_OK);
	CHECK_EQ(tx.nl, 4u);
	CHECK_EQ(f.logs[0].l_idx[0], 0u);
	CHECK_EQ(f.logs[0].l_idx[1], 3u);
	CHECK_EQ(f.logs[0].l_idx[2], 7u);
	CHECK_EQ(f.logs[0].l_idx[3], 9u);
	CHECK_EQ(tx.nr, 2u);
	CHECK_EQ(tx.nw, 3u);

	/* --hash 4: words 13, 1, 6, 2 are locks 3, 0, 1, 0 */
	fixture_init(&f, 4);
	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_read(&tx, &f.m, 13);
	gpustm_tx_write(&tx, &f.m, 1, 0);
	gpustm_tx_read(&tx, &f.m, 6);
	gpustm_tx_write(&tx, &f.m, 2, 0);
	CHECK_EQ(tx.nl, 3u);
	CHECK_EQ(f.logs[0].l_idx[0], 0u);
	CHECK_EQ(f.logs[0].l_idx[1], 1u);
	CHECK_EQ(f.logs[0].l_idx[2], 3u);
}

TEST(gpustm_commit_publishes_and_bumps_every_version)
{
	fixture f;
	gpustm_tx tx;
	uint32_t stamp_counter = 7;

	fixture_init(&f, 1);
	f.locks[4] = 11;
	f.locks[6] = 20;
	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_write(&tx, &f.m, 4, gpustm_tx_read(&tx, &f.m, 4) + 1);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 6), 106u); /* read only */
	gpustm_tx_write(&tx, &f.m, 2, 42);             /* written only, never read */
	/* buffered: nothing visible yet */
	CHECK_EQ(f.data[4], 104u);
	CHECK_EQ(f.data[2], 102u);
	REQUIRE(gpustm_tx_validate(&tx, &f.m));
	/* every lock of the log is held, read and written alike */
	CHECK_EQ(f.locks[2], GPUSTM_LOCK_BIT);
	CHECK_EQ(f.locks[4], GPUSTM_LOCK_BIT | 11u);
	CHECK_EQ(f.locks[6], GPUSTM_LOCK_BIT | 20u);
	CHECK_EQ(gpustm_tx_commit(&tx, &f.m, &stamp_counter), 7u);
	CHECK_EQ(stamp_counter, 8u);
	CHECK_EQ(f.data[4], 105u);
	CHECK_EQ(f.data[2], 42u);
	CHECK_EQ(f.data[6], 106u);
	/* released with the next version, the read's lock too ("modifies the version even with read operations") */
	CHECK_EQ(f.locks[2], 1u);
	CHECK_EQ(f.locks[4], 12u);
	CHECK_EQ(f.locks[6], 21u);
	CHECK_EQ(f.locks[5], 0u);

	/* a read-only transaction locks and bumps too, and takes no stamp */
	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_read(&tx, &f.m, 6);
	gpustm_tx_read(&tx, &f.m, 8);
	REQUIRE(gpustm_tx_validate(&tx, &f.m));
	CHECK_EQ(gpustm_tx_commit(&tx, &f.m, &stamp_counter), 0u);
	CHECK_EQ(stamp_counter, 8u);
	CHECK_EQ(f.locks[6], 22u);
	CHECK_EQ(f.locks[8], 1u);
}

/* A read of a locked word aborts; a write does not look at the lock until commit. */
TEST(gpustm_locked_word_aborts_the_read)
{
	fixture f;
	gpustm_tx tx;

	fixture_init(&f, 1);
	f.locks[3] = GPUSTM_LOCK_BIT | 4u;
	gpustm_tx_start(&tx, &f.logs[0]);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 3), 0u);
	CHECK_EQ(tx.abort, GPUSTM_ABORT_LOCKED);
	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(f.locks[3], GPUSTM_LOCK_BIT | 4u);

	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_write(&tx, &f.m, 3, 1);
	CHECK_EQ(tx.abort, GPUSTM_OK);
	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 0); /* at commit it is still held */
	CHECK_EQ(tx.abort, GPUSTM_ABORT_LOCKED);

	/* prefetch is reads in order: it stops at the locked one */
	{
		uint32_t addrs[3] = {1, 3, 5};
		gpustm_tx_start(&tx, &f.logs[0]);
		gpustm_tx_prefetch(&tx, &f.m, addrs, 3);
		CHECK_EQ(tx.abort, GPUSTM_ABORT_LOCKED);
		CHECK_EQ(tx.nr, 1u);
	}
}

/*
 * Locks are taken in ascending order whatever the access order; a lock held
 * by another aborts the commit, and only the locks taken before it, the
 * smaller ones, are given back, as they were.
 */
TEST(gpustm_commit_locks_in_order_and_gives_back_on_failure)
{
	fixture f;
	gpustm_tx tx;

	fixture_init(&f, 1);
	f.locks[2] = 30;
	f.locks[5] = GPUSTM_LOCK_BIT | 8u; /* someone else is committing it */
	f.locks[9] = GPUSTM_LOCK_BIT | 1u; /* and this one: never reached */
	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_write(&tx, &f.m, 9, 1);
	gpustm_tx_write(&tx, &f.m, 2, 1);
	gpustm_tx_write(&tx, &f.m, 5, 1);
	CHECK_EQ(gpustm_lock_all(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, GPUSTM_ABORT_LOCKED);
	CHECK_EQ(f.locks[2], 30u); /* taken, then restored unchanged */
	CHECK_EQ(f.locks[5], GPUSTM_LOCK_BIT | 8u);
	CHECK_EQ(f.locks[9], GPUSTM_LOCK_BIT | 1u);
	CHECK_EQ(f.logs[0].l_word[0], 30u); /* the word it took lock 2 at */
	CHECK_EQ(f.data[2], 102u);

	/* freed: the retry takes all three, in order */
	f.locks[5] = 9;
	f.locks[9] = 2;
	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_write(&tx, &f.m, 9, 1);
	gpustm_tx_write(&tx, &f.m, 5, 1);
	gpustm_tx_write(&tx, &f.m, 2, 1);
	REQUIRE(gpustm_tx_validate(&tx, &f.m));
	CHECK_EQ(f.logs[0].l_word[0], 30u);
	CHECK_EQ(f.logs[0].l_word[1], 9u);
	CHECK_EQ(f.logs[0].l_word[2], 2u);
	gpustm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.locks[2], 31u);
	CHECK_EQ(f.locks[5], 10u);
	CHECK_EQ(f.locks[9], 3u);
}

/* Hierarchical validation: the version decides when it agrees; the value only when it does not. */
TEST(gpustm_hierarchical_validation)
{
	fixture f;
	gpustm_tx tx;
	uint32_t i;

	/* the version agrees: valid, the value is not looked at */
	fixture_init(&f, 1);
	f.locks[4] = 6;
	gpustm_tx_start(&tx, &f.logs[0]);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 4), 104u);
	gpustm_tx_write(&tx, &f.m, 10, 1);
	f.data[4] = 999; /* behind the versions' back: shows which check decides */
	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 1);
	gpustm_tx_commit(&tx, &f.m, NULL);

	/* the version moved but the value is the one read: valid by value */
	fixture_init(&f, 1);
	gpustm_tx_start(&tx, &f.logs[0]);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 4), 104u);
	gpustm_tx_write(&tx, &f.m, 10, 1);
	f.locks[4] = 3; /* three releases, say readers' */
	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 1);
	CHECK_EQ(tx.abort, GPUSTM_OK);
	gpustm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.locks[4], 4u);
	CHECK_EQ(f.data[10], 1u);

	/* the version moved and so did the value: abort, every lock given back unchanged */
	fixture_init(&f, 1);
	gpustm_tx_start(&tx, &f.logs[0]);
	gpustm_tx_read(&tx, &f.m, 4);
	gpustm_tx_read(&tx, &f.m, 1);
	gpustm_tx_write(&tx, &f.m, 10, 1);
	f.locks[4] = 1;
	f.data[4] = 5;
	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, GPUSTM_ABORT_VALIDATION);
	for (i = 0; i < NWORDS; i++)
		CHECK_EQ(f.locks[i], i == 4 ? 1u : 0u);
	CHECK_EQ(f.data[10], 110u);
}

/*
 * --hash 4: another transaction commits a different word under the same lock.
 * The version of the read's lock moves, its value does not: GPU-STM commits
 * where a version-only check (PR-STM) would abort on the false conflict.
 */
TEST(gpustm_value_validation_absorbs_a_false_conflict)
{
	fixture f;
	gpustm_tx tx, other;

	fixture_init(&f, 4);
	gpustm_tx_start(&tx, &f.logs[0]);
	CHECK_EQ(gpustm_tx_read(&tx, &f.m, 4), 104u); /* lock 1 */
	gpustm_tx_write(&tx, &f.m, 8, 7);             /* lock 2 */

	gpustm_tx_start(&other, &f.logs[1]);
	gpustm_tx_write(&other, &f.m, 5, 55);         /* lock 1 too */
	REQUIRE(gpustm_tx_validate(&other, &f.m));
	gpustm_tx_commit(&other, &f.m, NULL);
	CHECK_EQ(f.locks[1], 1u);

	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 1);
	gpustm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.data[8], 7u);
	CHECK_EQ(f.data[5], 55u);
	CHECK_EQ(f.locks[1], 2u);
	CHECK_EQ(f.locks[2], 1u);
}

TEST(gpustm_capacity_overflow)
{
	fixture f;
	gpustm_tx tx;
	uint32_t i;

	fixture_init(&f, 1);
	CHECK_EQ(GPUSTM_MAX_SET, 8);
	gpustm_tx_start(&tx, &f.logs[0]);
	for (i = 0; i < GPUSTM_MAX_SET; i++)
		gpustm_tx_write(&tx, &f.m, i, i);
	CHECK_EQ(tx.abort, GPUSTM_OK);
	gpustm_tx_write(&tx, &f.m, GPUSTM_MAX_SET, 1);
	CHECK_EQ(tx.abort, GPUSTM_ABORT_CAPACITY);

	/* four reads and five other writes: nine locks for an eight-lock log */
	gpustm_tx_start(&tx, &f.logs[0]);
	for (i = 0; i < 4; i++)
		gpustm_tx_read(&tx, &f.m, 20 + i);
	for (i = 0; i < 5; i++)
		gpustm_tx_write(&tx, &f.m, i, i);
	CHECK_EQ(tx.abort, GPUSTM_ABORT_CAPACITY);
	CHECK_EQ(gpustm_tx_validate(&tx, &f.m), 0);
	for (i = 0; i < NWORDS; i++)
		CHECK_EQ(f.locks[i], 0u);
}

/* The scheduler retries a failed attempt until the limit, then gives the entry up and counts it. */
TEST(gpustm_sched_gives_up_at_the_retry_limit)
{
	gpustm_sched s;
	stm_shared sh;
	stm_params p;
	tx_table v;
	uint32_t k;

	memset(&sh, 0, sizeof(sh));
	memset(&p, 0, sizeof(p));
	memset(&v, 0, sizeof(v));
	v.tx_per_thread = 5;
	v.ntx = 20;
	gpustm_params_rw(&p)->retry_limit = 3;
	gpustm_sched_init(&s, 2, &v, 1000000000ull, &sh, gb_clock_ns());
	CHECK_EQ(s.pos, 10u);
	CHECK_EQ(s.end, 15u);
	for (k = 0; k < 2; k++) {
		gpustm_sched_failed(&s, &p);
		CHECK_EQ(s.pos, 10u);
	}
	gpustm_sched_failed(&s, &p); /* the third failure */
	CHECK_EQ(s.pos, 11u);
	CHECK_EQ(s.attempts, 0u);
	CHECK_EQ(s.c.retry_limit_reached, 1u);
}

/*
 * A bank table on the CPU backend of ops (four accounts of 1000), run once.
 * With pool, the first `threads` records of the engine's pool of logs are
 * copied there before it closes; returns whether it had a pool.
 */
static int run_bank_on(const stm_ops *ops, const bank_entry *tx, uint32_t ntx, uint32_t threads,
		       uint32_t retry_limit, stm_batch_result *r, uint32_t *status, int32_t *after, gpustm_log *pool)
{
	bank_workload w;
	stm_params p;
	tx_input in;
	int32_t initial[4] = {1000, 1000, 1000, 1000};
	void *ctx;
	int had_pool;

	memset(&w, 0, sizeof(w));
	w.cfg.accounts = 4;
	w.cfg.threads = threads;
	w.cfg.tx_per_thread = ntx / threads;
	w.cfg.initial_balance = 1000;
	w.ntx = ntx;
	w.tx = (bank_entry *)tx;
	w.max_tag = 2;
	memset(&p, 0, sizeof(p));
	p.threads = threads;
	p.hash = 1;
	gpustm_params_rw(&p)->retry_limit = retry_limit;
	p.cpu_workers = threads;
	in = bank_input_of(&w);
	ctx = ops->open(&in, &p);
	ops->load(ctx, (const uint32_t *)initial);
	ops->run(ctx, 60ull * 1000000000ull, 0, r);
	ops->fetch(ctx, (uint32_t *)after, status);
	had_pool = ((stm_cpu *)ctx)->engine != NULL;
	if (pool && had_pool)
		memcpy(pool, ((stm_cpu *)ctx)->engine, threads * sizeof(gpustm_log));
	ops->close(ctx);
	return had_pool;
}

static void run_bank(const bank_entry *tx, uint32_t ntx, uint32_t threads, uint32_t retry_limit,
		     stm_batch_result *r, uint32_t *status, int32_t *after)
{
	run_bank_on(&gpustm_bank_cpu_ops, tx, ntx, threads, retry_limit, r, status, after, NULL);
}

/*
 * A withdrawal nothing can fund: GPU-STM retries it --retry-limit times,
 * counts it given up and goes on; everything else commits, and the oracle
 * accounts for the one left.
 */
TEST(gpustm_cpu_backend_gives_up_an_unfundable_withdrawal)
{
	bank_entry tx[8];
	stm_batch_result r;
	uint32_t status[8], limits[2] = {GPUSTM_RETRY_LIMIT, 7}, k, i;
	int32_t after[4], mirror[4];
	bank_check chk;
	bank_workload w;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < 8; i++) {
			tx[i].meta = BANK_META(BANK_DEPOSIT, 2, 1, 0);
			tx[i].amount = 5;
			tx[i].a = i % 4;
			tx[i].b = 0;
		}
		tx[5].meta = BANK_META(BANK_WITHDRAW, 0, 1, 0);
		tx[5].amount = 1000000;
		run_bank(tx, 8, 2, limits[k], &r, status, after);
		/* the withdrawal is given up; so, rarely, is a deposit whose account's lock the
		 * other worker held while the machine descheduled it (limits[k] conflicts in a row) */
		CHECK(r.c.retry_limit_reached >= 1u);
		CHECK_EQ(r.c.commits_update + r.c.retry_limit_reached, 8u);
		/* limits[k] attempts of the withdrawal, each semantic unless a concurrent
		 * deposit to its account made it a conflict instead */
		CHECK(r.c.aborts_semantic <= limits[k]);
		CHECK(r.c.aborts_semantic + r.c.aborts_locked + r.c.aborts_validation >= limits[k] * r.c.retry_limit_reached);
		CHECK_EQ(r.c.threads_timed_out, 0u);
		CHECK_EQ(status[5], TX_STATUS_PENDING);
		memset(&w, 0, sizeof(w));
		w.cfg.accounts = 4;
		w.ntx = 8;
		w.tx = tx;
		for (i = 0; i < 4; i++)
			mirror[i] = 1000;
		bank_verify_batch(&w, mirror, status, after, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.abandoned, r.c.retry_limit_reached);
		CHECK_EQ(chk.committed_update, r.c.commits_update);
	}
}

/*
 * gpustm and gpustm-local: two engines of the registry, with backends of their
 * own and GPU-STM's option, that both commit and verify a bank table. gpustm's
 * metadata is in its pool, a record per thread: after the batch each thread's
 * record holds its last transaction, a deposit (read and write of its account,
 * its lock in the lock log); gpustm-local has no pool, its logs being the
 * step's own.
 */
TEST(gpustm_and_gpustm_local_are_distinct_engines_that_both_verify)
{
	const stm_engine *g = tu_stm_engine("gpustm"), *l = tu_stm_engine("gpustm-local");
	const stm_ops *const ops[2] = {&gpustm_bank_cpu_ops, &gpustm_local_bank_cpu_ops};
	bank_entry tx[8];
	stm_batch_result r;
	uint32_t status[8], k, i, t;
	int32_t after[4], mirror[4];
	gpustm_log pool[2];
	bank_check chk;
	bank_workload w;

	REQUIRE(g != NULL && l != NULL);
	CHECK(g != l);
	CHECK_STR_EQ(l->head.name, "gpustm-local");
	CHECK(g->options == l->options); /* --retry-limit means the same for both */
	CHECK(stm_engine_run_of(g, &stm_workload_bank)->cpu == &gpustm_bank_cpu_ops);
	CHECK(stm_engine_run_of(l, &stm_workload_bank)->cpu == &gpustm_local_bank_cpu_ops);
	CHECK(ops[0] != ops[1] && ops[0]->open != ops[1]->open);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 8; i++) {
			tx[i].meta = BANK_META(BANK_DEPOSIT, 2, 1, 0);
			tx[i].amount = 10 + i;
			tx[i].a = (i / 2) % 4; /* thread 0 ends on account 1, thread 1 on account 3 */
			tx[i].b = 0;
		}
		memset(pool, 0xFF, sizeof(pool));
		/* a limit no attempt reaches: a worker descheduled while it holds a lock must not
		 * make the other give a transaction up on a loaded machine */
		CHECK_EQ_I(run_bank_on(ops[k], tx, 8, 2, 1000000000u, &r, status, after, pool), k == 0);
		CHECK_EQ(r.c.commits_update, 8u);
		CHECK_EQ(r.c.retry_limit_reached, 0u);
		memset(&w, 0, sizeof(w));
		w.cfg.accounts = 4;
		w.ntx = 8;
		w.tx = tx;
		for (i = 0; i < 4; i++)
			mirror[i] = 1000;
		bank_verify_batch(&w, mirror, status, after, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.abandoned, 0u);
		CHECK_EQ(chk.committed_update, 8u);
		CHECK_EQ_I(after[0] + after[1] + after[2] + after[3], 4000 + 8 * 10 + 28);
		if (k != 0)
			continue;
		for (t = 0; t < 2; t++) {
			uint32_t acct = tx[4 * t + 3].a;
			CHECK_EQ(pool[t].r_addr[0], acct);
			CHECK_EQ(pool[t].w_addr[0], acct);
			CHECK_EQ(pool[t].l_idx[0], acct); /* --hash 1: the account's own lock */
			CHECK_EQ(pool[t].w_val[0], pool[t].r_val[0] + tx[4 * t + 3].amount);
			CHECK(!gpustm_is_locked(pool[t].l_word[0]));
		}
		CHECK(pool[0].w_addr[0] != pool[1].w_addr[0]); /* each thread its own record */
	}
}
