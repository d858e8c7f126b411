/* PR-STM (stm/prstm/prstm.h): the lock word layout and single-thread transaction semantics. */
#include <string.h>

#include "stm/prstm/prstm.h"
#include "stm/prstm/prstm_sched.h"
#include "tests/unit/test.h"

#define NWORDS 32

typedef struct fixture {
	uint32_t locks[NWORDS];
	uint32_t data[NWORDS];
	prstm_mem m;
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
}

TEST(prstm_lock_word_layout)
{
	uint32_t w;

	CHECK_EQ(PRSTM_VERSION_MASK, 0x7FFu);
	CHECK_EQ(PRSTM_OWNER_MASK, 0x7FFFFu);
	CHECK_EQ(PRSTM_PRELOCK_BIT, 0x40000000u);
	CHECK_EQ(PRSTM_LOCK_BIT, 0x80000000u);
	CHECK_EQ(PRSTM_MAX_THREADS, 524288u);

	/* free words carry only the version */
	CHECK_EQ(prstm_free_word(0), 0u);
	CHECK_EQ(prstm_free_word(2047), 2047u);
	CHECK_EQ(prstm_free_word(2048), 0u);
	CHECK_EQ(prstm_free_word(2049), 1u);

	/* bits 0-10 version, 11-29 owner, 30 pre-lock, 31 lock */
	CHECK_EQ(prstm_prelocked_word(5, 3), 0x40000000u | (3u << 11) | 5u);
	CHECK_EQ(prstm_prelocked_word(0, 0), 0x40000000u);
	CHECK_EQ(prstm_locked_word(5, 3), 0x80000000u | (3u << 11) | 5u);
	CHECK_EQ(prstm_prelocked_word(2047, 0x7FFFF), 0x7FFFFFFFu);
	CHECK_EQ(prstm_locked_word(2047, 0x7FFFF), 0xBFFFFFFFu);
	/* fields do not bleed into each other */
	CHECK_EQ(prstm_prelocked_word(2048 + 7, 1), 0x40000000u | (1u << 11) | 7u);
	CHECK_EQ(prstm_locked_word(1, 0x80000 | 9), 0x80000000u | (9u << 11) | 1u);

	w = prstm_locked_word(1234, 456789);
	CHECK_EQ(prstm_version(w), 1234u);
	CHECK_EQ(prstm_owner(w), 456789u);
	CHECK(prstm_is_locked(w));
	CHECK(!prstm_is_prelocked(w));

	w = prstm_prelocked_word(2047, 524287);
	CHECK_EQ(prstm_version(w), 2047u);
	CHECK_EQ(prstm_owner(w), 524287u);
	CHECK(!prstm_is_locked(w));
	CHECK(prstm_is_prelocked(w));

	w = prstm_free_word(77);
	CHECK_EQ(prstm_version(w), 77u);
	CHECK_EQ(prstm_owner(w), 0u);
	CHECK(!prstm_is_locked(w));
	CHECK(!prstm_is_prelocked(w));

	CHECK_EQ(prstm_version(0xFFFFFFFFu), 2047u);
	CHECK_EQ(prstm_owner(0xFFFFFFFFu), 0x7FFFFu);
}

TEST(prstm_next_version_wraps)
{
	uint32_t v = 0, i;
	CHECK_EQ(prstm_next_version(0), 1u);
	CHECK_EQ(prstm_next_version(1), 2u);
	CHECK_EQ(prstm_next_version(2046), 2047u);
	CHECK_EQ(prstm_next_version(2047), 0u);
	for (i = 0; i < 2048; i++)
		v = prstm_next_version(v);
	CHECK_EQ(v, 0u);
	for (i = 0; i < 5000; i++)
		v = prstm_next_version(v);
	CHECK_EQ(v, 5000u % 2048u);
}

TEST(prstm_lock_of_hash)
{
	prstm_mem m = {.locks = NULL, .data = NULL, .hash = 1};
	CHECK_EQ(prstm_lock_of(&m, 0), 0u);
	CHECK_EQ(prstm_lock_of(&m, 13), 13u);
	CHECK_EQ(prstm_lock_of(&m, 0xFFFFFFFFu), 0xFFFFFFFFu);
	m.hash = 4;
	CHECK_EQ(prstm_lock_of(&m, 0), 0u);
	CHECK_EQ(prstm_lock_of(&m, 3), 0u);
	CHECK_EQ(prstm_lock_of(&m, 4), 1u);
	CHECK_EQ(prstm_lock_of(&m, 7), 1u);
	CHECK_EQ(prstm_lock_of(&m, 8), 2u);
	CHECK_EQ(prstm_lock_of(&m, 1001), 250u);
	m.hash = 3;
	CHECK_EQ(prstm_lock_of(&m, 2), 0u);
	CHECK_EQ(prstm_lock_of(&m, 3), 1u);
	CHECK_EQ(prstm_lock_of(&m, 8), 2u);
	CHECK_EQ(prstm_lock_of(&m, 9), 3u);
}

TEST(prstm_commit_bumps_version_and_publishes)
{
	fixture f;
	prstm_tx tx;
	uint32_t stamp_counter = 41, v, stamp;

	fixture_init(&f, 1);
	f.locks[3] = prstm_free_word(9);
	prstm_tx_start(&tx, 5);
	CHECK_EQ(tx.prio, 5u);
	CHECK_EQ(tx.abort, PRSTM_OK);
	v = prstm_tx_read(&tx, &f.m, 3);
	CHECK_EQ(v, 103u);
	CHECK_EQ(tx.nr, 1u);
	CHECK_EQ(tx.r_ver[0], 9u);
	prstm_tx_write(&tx, &f.m, 3, v + 10);
	prstm_tx_write(&tx, &f.m, 7, 555);
	CHECK_EQ(tx.nw, 2u);
	CHECK_EQ(tx.nl, 2u);
	/* buffered: memory unchanged until commit, read-your-writes inside */
	CHECK_EQ(f.data[3], 103u);
	CHECK_EQ(f.data[7], 107u);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 3), 113u);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 7), 555u);
	/* a second write to the same word replaces the buffered value */
	prstm_tx_write(&tx, &f.m, 7, 556);
	CHECK_EQ(tx.nw, 2u);
	REQUIRE(prstm_tx_validate(&tx, &f.m) == 1);
	CHECK_EQ(tx.abort, PRSTM_OK);
	/* after validation both locks are held (locked, owner = prio, same version) */
	CHECK_EQ(f.locks[3], prstm_locked_word(9, 5));
	CHECK_EQ(f.locks[7], prstm_locked_word(0, 5));
	stamp = prstm_tx_commit(&tx, &f.m, &stamp_counter);
	CHECK_EQ(stamp, 41u);
	CHECK_EQ(stamp_counter, 42u);
	CHECK_EQ(f.data[3], 113u);
	CHECK_EQ(f.data[7], 556u);
	CHECK_EQ(f.locks[3], prstm_free_word(10));
	CHECK_EQ(f.locks[7], prstm_free_word(1));
	/* untouched words and locks stay as they were */
	CHECK_EQ(f.data[4], 104u);
	CHECK_EQ(f.locks[4], 0u);

	/* without a stamp counter commit returns 0 and still publishes */
	prstm_tx_start(&tx, 6);
	prstm_tx_write(&tx, &f.m, 3, 1);
	REQUIRE(prstm_tx_validate(&tx, &f.m));
	CHECK_EQ(prstm_tx_commit(&tx, &f.m, NULL), 0u);
	CHECK_EQ(f.data[3], 1u);
	CHECK_EQ(f.locks[3], prstm_free_word(11));
	CHECK_EQ(stamp_counter, 42u);
}

TEST(prstm_commit_version_wraps_2047_to_0)
{
	fixture f;
	prstm_tx tx;

	fixture_init(&f, 1);
	f.locks[2] = prstm_free_word(2047);
	prstm_tx_start(&tx, 0);
	prstm_tx_write(&tx, &f.m, 2, prstm_tx_read(&tx, &f.m, 2) + 1);
	REQUIRE(prstm_tx_validate(&tx, &f.m));
	prstm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.locks[2], 0u);
	CHECK_EQ(f.data[2], 103u);
}

TEST(prstm_read_only_commit)
{
	fixture f;
	prstm_tx tx;

	fixture_init(&f, 1);
	f.locks[1] = prstm_free_word(4);
	prstm_tx_start(&tx, 2);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 1), 101u);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 2), 102u);
	/* a repeated read is answered from the read set */
	f.data[1] = 9999;
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 1), 101u);
	CHECK_EQ(tx.nr, 2u);
	CHECK_EQ(tx.nw, 0u);
	CHECK_EQ(tx.nl, 0u);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 1);
	CHECK_EQ(f.locks[1], prstm_free_word(4));
	CHECK_EQ(f.locks[2], 0u);
}

TEST(prstm_read_of_locked_word_aborts)
{
	fixture f;
	prstm_tx tx;
	uint32_t w;

	fixture_init(&f, 1);
	w = f.locks[2] = prstm_locked_word(7, 3);
	prstm_tx_start(&tx, 1);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 2), 0u);
	CHECK_EQ(tx.abort, PRSTM_ABORT_LOCKED);
	CHECK_EQ(tx.nr, 0u);
	/* an aborted transaction does nothing more */
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 5), 0u);
	CHECK_EQ(tx.nr, 0u);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(f.locks[2], w);

	/* a pre-locked (not locked) word can be read */
	f.locks[4] = prstm_prelocked_word(6, 0);
	prstm_tx_start(&tx, 1);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 4), 104u);
	CHECK_EQ(tx.abort, PRSTM_OK);
	CHECK_EQ(tx.r_ver[0], 6u);

	/* a write of a locked word aborts too */
	prstm_tx_start(&tx, 1);
	prstm_tx_write(&tx, &f.m, 2, 1);
	CHECK_EQ(tx.abort, PRSTM_ABORT_LOCKED);
	CHECK_EQ(tx.nw, 0u);

	/* so does a prefetch that meets a locked word */
	{
		uint32_t addrs[3] = {0, 2, 3};
		prstm_tx_start(&tx, 1);
		prstm_tx_prefetch(&tx, &f.m, addrs, 3);
		CHECK_EQ(tx.abort, PRSTM_ABORT_LOCKED);
		CHECK_EQ(tx.nr, 0u);
	}
}

TEST(prstm_prefetch_fills_read_set)
{
	fixture f;
	prstm_tx tx;
	uint32_t addrs[4] = {3, 9, 3, 12};

	fixture_init(&f, 1);
	f.locks[9] = prstm_free_word(33);
	prstm_tx_start(&tx, 1);
	prstm_tx_prefetch(&tx, &f.m, addrs, 4);
	CHECK_EQ(tx.abort, PRSTM_OK);
	CHECK_EQ(tx.nr, 3u); /* address 3 once */
	CHECK_EQ(tx.r_addr[1], 9u);
	CHECK_EQ(tx.r_ver[1], 33u);
	CHECK_EQ(tx.r_val[1], 109u);
	f.data[9] = 0;
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 9), 109u);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 12), 112u);
}

/* Words sharing a lock (--hash 4) get that lock's version, loaded once, in the order given. */
TEST(prstm_prefetch_shared_locks)
{
	fixture f;
	prstm_tx tx;
	uint32_t addrs[6] = {5, 13, 4, 12, 1, 7};

	fixture_init(&f, 4);
	f.locks[1] = prstm_free_word(21); /* words 4..7 */
	f.locks[3] = prstm_prelocked_word(8, 9); /* words 12..15: pre-locked, still readable */
	f.locks[0] = prstm_free_word(2); /* words 0..3 */
	prstm_tx_start(&tx, 1);
	prstm_tx_prefetch(&tx, &f.m, addrs, 6);
	CHECK_EQ(tx.abort, PRSTM_OK);
	CHECK_EQ(tx.nr, 6u);
	CHECK_EQ(tx.r_addr[0], 5u);
	CHECK_EQ(tx.r_ver[0], 21u);
	CHECK_EQ(tx.r_ver[1], 8u);
	CHECK_EQ(tx.r_ver[2], 21u);
	CHECK_EQ(tx.r_ver[3], 8u);
	CHECK_EQ(tx.r_ver[4], 2u);
	CHECK_EQ(tx.r_ver[5], 21u);
	CHECK_EQ(tx.r_val[3], 112u);
	CHECK_EQ(tx.r_val[5], 107u);

	/* a locked shared word aborts, whichever of its words comes first */
	f.locks[1] = prstm_locked_word(21, 3);
	prstm_tx_start(&tx, 1);
	prstm_tx_prefetch(&tx, &f.m, addrs + 1, 5);
	CHECK_EQ(tx.abort, PRSTM_ABORT_LOCKED);
	CHECK_EQ(tx.nr, 0u);
}

TEST(prstm_higher_priority_prelock_wins)
{
	fixture f;
	prstm_tx tx;
	uint32_t held;

	fixture_init(&f, 1);
	/* thread 2 (higher priority than 5) pre-locked word 4 at version 0 */
	held = f.locks[4] = prstm_prelocked_word(0, 2);
	prstm_tx_start(&tx, 5);
	prstm_tx_write(&tx, &f.m, 4, 1);
	prstm_tx_write(&tx, &f.m, 6, 1);
	CHECK_EQ(tx.abort, PRSTM_OK);
	CHECK_EQ(prstm_try_prelock(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_PRIORITY);
	CHECK_EQ(f.locks[4], held);
	/* the pre-lock it did take on word 6 is released */
	CHECK_EQ(f.locks[6], prstm_free_word(0));
	CHECK_EQ(f.data[4], 104u);

	/* the same through validate */
	prstm_tx_start(&tx, 5);
	prstm_tx_write(&tx, &f.m, 6, 1);
	prstm_tx_write(&tx, &f.m, 4, 1);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_PRIORITY);
	CHECK_EQ(f.locks[4], held);
	CHECK_EQ(f.locks[6], 0u);

	/* a word locked (not just pre-locked) by a lower priority also wins:
	 * a lock is never stolen */
	f.locks[8] = prstm_locked_word(0, 9);
	prstm_tx_start(&tx, 5);
	prstm_tx_read(&tx, &f.m, 7); /* keep the write's own lock check out of the way */
	f.locks[8] = 0;
	prstm_tx_write(&tx, &f.m, 8, 1);
	f.locks[8] = prstm_locked_word(0, 9);
	CHECK_EQ(prstm_try_prelock(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_PRIORITY);
	CHECK_EQ(f.locks[8], prstm_locked_word(0, 9));
}

TEST(prstm_lower_priority_prelock_is_stolen)
{
	fixture f;
	prstm_tx tx;

	fixture_init(&f, 1);
	f.locks[4] = prstm_prelocked_word(3, 9);
	f.locks[5] = prstm_prelocked_word(0, 6);
	prstm_tx_start(&tx, 5);
	prstm_tx_write(&tx, &f.m, 4, 7);
	prstm_tx_write(&tx, &f.m, 5, 8);
	CHECK_EQ(tx.l_ver[0], 3u);
	REQUIRE(prstm_try_prelock(&tx, &f.m) == 1);
	CHECK_EQ(f.locks[4], prstm_prelocked_word(3, 5));
	CHECK_EQ(f.locks[5], prstm_prelocked_word(0, 5));
	REQUIRE(prstm_try_lock(&tx, &f.m) == 1);
	CHECK_EQ(f.locks[4], prstm_locked_word(3, 5));
	CHECK_EQ(f.locks[5], prstm_locked_word(0, 5));
	prstm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.locks[4], prstm_free_word(4));
	CHECK_EQ(f.locks[5], prstm_free_word(1));
	CHECK_EQ(f.data[4], 7u);
	CHECK_EQ(f.data[5], 8u);

	/* the victim's try_lock then fails, and its release must not disturb the new owner */
	{
		prstm_tx victim;
		fixture_init(&f, 1);
		prstm_tx_start(&victim, 9);
		prstm_tx_write(&victim, &f.m, 4, 1);
		prstm_tx_write(&victim, &f.m, 6, 1);
		REQUIRE(prstm_try_prelock(&victim, &f.m));
		CHECK_EQ(f.locks[4], prstm_prelocked_word(0, 9));
		prstm_tx_start(&tx, 5);
		prstm_tx_write(&tx, &f.m, 4, 2);
		REQUIRE(prstm_try_prelock(&tx, &f.m));
		CHECK_EQ(f.locks[4], prstm_prelocked_word(0, 5));
		CHECK_EQ(prstm_try_lock(&victim, &f.m), 0);
		CHECK_EQ(victim.abort, PRSTM_ABORT_PRIORITY);
		CHECK_EQ(f.locks[4], prstm_prelocked_word(0, 5)); /* still the thief's */
		CHECK_EQ(f.locks[6], prstm_free_word(0));         /* victim's other lock released */
		REQUIRE(prstm_try_lock(&tx, &f.m));
		prstm_tx_commit(&tx, &f.m, NULL);
		CHECK_EQ(f.locks[4], prstm_free_word(1));
		CHECK_EQ(f.data[4], 2u);
	}
}

TEST(prstm_version_change_aborts_validation)
{
	fixture f;
	prstm_tx tx;

	/* a read whose version changed before validation */
	fixture_init(&f, 1);
	prstm_tx_start(&tx, 5);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 1), 101u);
	prstm_tx_write(&tx, &f.m, 2, 1);
	f.locks[1] = prstm_free_word(1); /* someone committed word 1 */
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[2], prstm_free_word(0));
	CHECK_EQ(f.data[2], 102u);

	/* a read whose word is locked (same version) at validation */
	fixture_init(&f, 1);
	prstm_tx_start(&tx, 5);
	prstm_tx_read(&tx, &f.m, 1);
	prstm_tx_write(&tx, &f.m, 2, 1);
	f.locks[1] = prstm_locked_word(0, 9);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[2], 0u);
	CHECK_EQ(f.locks[1], prstm_locked_word(0, 9));

	/* a read-only transaction is validated too */
	fixture_init(&f, 1);
	prstm_tx_start(&tx, 5);
	prstm_tx_read(&tx, &f.m, 3);
	f.locks[3] = prstm_free_word(1);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);

	/* a read-modify-write whose word changed: the pre-lock CAS sees it */
	fixture_init(&f, 1);
	prstm_tx_start(&tx, 5);
	prstm_tx_write(&tx, &f.m, 4, prstm_tx_read(&tx, &f.m, 4) + 1);
	f.locks[4] = prstm_free_word(1);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[4], prstm_free_word(1));
	CHECK_EQ(f.data[4], 104u);

	/* a pre-lock of another version by a lower priority is not stolen: validation */
	fixture_init(&f, 1);
	prstm_tx_start(&tx, 5);
	prstm_tx_write(&tx, &f.m, 4, 1);
	f.locks[4] = prstm_prelocked_word(1, 9);
	CHECK_EQ(prstm_try_prelock(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[4], prstm_prelocked_word(1, 9));
}

TEST(prstm_failed_validate_releases_every_prelock)
{
	fixture f;
	prstm_tx tx;
	uint32_t i;

	fixture_init(&f, 1);
	f.locks[0] = prstm_free_word(3);
	f.locks[1] = prstm_free_word(4);
	f.locks[2] = prstm_free_word(5);
	f.locks[3] = prstm_free_word(2047);
	prstm_tx_start(&tx, 7);
	prstm_tx_read(&tx, &f.m, 6);
	for (i = 0; i < 4; i++)
		prstm_tx_write(&tx, &f.m, i, 1000 + i);
	CHECK_EQ(tx.nl, 4u);
	f.locks[6] = prstm_free_word(1);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[0], prstm_free_word(3));
	CHECK_EQ(f.locks[1], prstm_free_word(4));
	CHECK_EQ(f.locks[2], prstm_free_word(5));
	CHECK_EQ(f.locks[3], prstm_free_word(2047));
	for (i = 0; i < 4; i++)
		CHECK_EQ(f.data[i], 100 + i);

	/* a priority failure on the last lock releases the first three */
	fixture_init(&f, 1);
	f.locks[3] = prstm_prelocked_word(0, 1);
	prstm_tx_start(&tx, 7);
	for (i = 0; i < 4; i++)
		prstm_tx_write(&tx, &f.m, i, 1000 + i);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_PRIORITY);
	for (i = 0; i < 3; i++)
		CHECK_EQ(f.locks[i], 0u);
	CHECK_EQ(f.locks[3], prstm_prelocked_word(0, 1));

	/* a transaction retried after the abort commits normally */
	f.locks[3] = 0;
	prstm_tx_start(&tx, 7);
	for (i = 0; i < 4; i++)
		prstm_tx_write(&tx, &f.m, i, 1000 + i);
	REQUIRE(prstm_tx_validate(&tx, &f.m));
	prstm_tx_commit(&tx, &f.m, NULL);
	for (i = 0; i < 4; i++) {
		CHECK_EQ(f.locks[i], 1u);
		CHECK_EQ(f.data[i], 1000 + i);
	}
}

TEST(prstm_hash_dedupes_lock_set)
{
	fixture f;
	prstm_tx tx;
	uint32_t a, b;

	fixture_init(&f, 4);
	f.locks[1] = prstm_free_word(12);
	prstm_tx_start(&tx, 3);
	a = prstm_tx_read(&tx, &f.m, 4);
	b = prstm_tx_read(&tx, &f.m, 5);
	CHECK_EQ(a, 104u);
	CHECK_EQ(b, 105u);
	prstm_tx_write(&tx, &f.m, 4, a - 10);
	prstm_tx_write(&tx, &f.m, 5, b + 10);
	prstm_tx_write(&tx, &f.m, 7, 1); /* a third word of the same lock */
	CHECK_EQ(tx.nw, 3u);
	CHECK_EQ(tx.nl, 1u);
	CHECK_EQ(tx.l_idx[0], 1u);
	CHECK_EQ(tx.l_ver[0], 12u);
	REQUIRE(prstm_tx_validate(&tx, &f.m) == 1);
	CHECK_EQ(f.locks[1], prstm_locked_word(12, 3));
	prstm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.locks[1], prstm_free_word(13)); /* bumped once */
	CHECK_EQ(f.locks[0], 0u);
	CHECK_EQ(f.locks[2], 0u);
	CHECK_EQ(f.data[4], 94u);
	CHECK_EQ(f.data[5], 115u);
	CHECK_EQ(f.data[7], 1u);
	CHECK_EQ(f.data[6], 106u);

	/* words of different locks under hash 4 take two lock entries */
	prstm_tx_start(&tx, 3);
	prstm_tx_write(&tx, &f.m, 3, 0);
	prstm_tx_write(&tx, &f.m, 8, 0);
	prstm_tx_write(&tx, &f.m, 11, 0);
	CHECK_EQ(tx.nl, 2u);
	CHECK_EQ(tx.l_idx[0], 0u);
	CHECK_EQ(tx.l_idx[1], 2u);

	/* a commit by someone else to another word of the same lock invalidates a read */
	fixture_init(&f, 4);
	prstm_tx_start(&tx, 3);
	prstm_tx_read(&tx, &f.m, 4);
	prstm_tx_write(&tx, &f.m, 9, 1);
	{
		prstm_tx other;
		prstm_tx_start(&other, 1);
		prstm_tx_write(&other, &f.m, 6, 0); /* same lock (1) as word 4 */
		REQUIRE(prstm_tx_validate(&other, &f.m));
		prstm_tx_commit(&other, &f.m, NULL);
	}
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[2], 0u);
}

TEST(prstm_capacity_overflow)
{
	fixture f;
	prstm_tx tx;
	uint32_t i;

	fixture_init(&f, 1);
	CHECK_EQ(PRSTM_MAX_SET, 8);
	/* writes */
	prstm_tx_start(&tx, 1);
	for (i = 0; i < PRSTM_MAX_SET; i++)
		prstm_tx_write(&tx, &f.m, i, i);
	CHECK_EQ(tx.abort, PRSTM_OK);
	CHECK_EQ(tx.nw, (uint32_t)PRSTM_MAX_SET);
	prstm_tx_write(&tx, &f.m, 3, 33); /* an old word: no new entry */
	CHECK_EQ(tx.abort, PRSTM_OK);
	prstm_tx_write(&tx, &f.m, PRSTM_MAX_SET, 1);
	CHECK_EQ(tx.abort, PRSTM_ABORT_CAPACITY);
	CHECK_EQ(tx.nw, (uint32_t)PRSTM_MAX_SET);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	for (i = 0; i <= PRSTM_MAX_SET; i++)
		CHECK_EQ(f.locks[i], 0u);

	/* reads */
	prstm_tx_start(&tx, 1);
	for (i = 0; i < PRSTM_MAX_SET; i++)
		CHECK_EQ(prstm_tx_read(&tx, &f.m, 10 + i), 110 + i);
	CHECK_EQ(tx.abort, PRSTM_OK);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 10), 110u); /* from the read set */
	CHECK_EQ(tx.abort, PRSTM_OK);
	prstm_tx_read(&tx, &f.m, 10 + PRSTM_MAX_SET);
	CHECK_EQ(tx.abort, PRSTM_ABORT_CAPACITY);

	/* prefetch beyond a partly filled read set */
	{
		uint32_t addrs[PRSTM_MAX_SET];
		prstm_tx_start(&tx, 1);
		prstm_tx_read(&tx, &f.m, 0);
		for (i = 0; i < PRSTM_MAX_SET; i++)
			addrs[i] = 20 + i;
		prstm_tx_prefetch(&tx, &f.m, addrs, PRSTM_MAX_SET);
		CHECK_EQ(tx.abort, PRSTM_ABORT_CAPACITY);
	}
}

/* Backoff: none after the first conflict, then a random wait in [span/2, 3 span/2) with the span doubling up to its cap. */
TEST(prstm_backoff_doubles_up_to_its_cap)
{
	prstm_sched s;
	stm_shared sh;
	stm_params p;
	tx_table v;
	uint32_t k;

	memset(&sh, 0, sizeof(sh));
	memset(&p, 0, sizeof(p));
	memset(&v, 0, sizeof(v));
	v.tx_per_thread = 4;
	v.ntx = 32;
	p.threads = 8;
	prstm_sched_init(&s, 3, &v, &p, 1000000000ull, 0, &sh, gb_clock_ns());
	CHECK_EQ(s.begin, 12u);
	CHECK_EQ(s.stop_ns, UINT64_MAX);
	prstm_backoff(&s);
	CHECK_EQ(s.wake_ns, 0u);
	for (k = 0; k < 12; k++) {
		uint32_t shift = k < PRSTM_BACKOFF_MAX_SHIFT ? k : PRSTM_BACKOFF_MAX_SHIFT;
		uint64_t span = (uint64_t)PRSTM_BACKOFF_BASE_NS << shift, before = gb_clock_ns(), after;
		prstm_backoff(&s);
		after = gb_clock_ns();
		CHECK(s.wake_ns >= before + span / 2);
		CHECK(s.wake_ns < after + span / 2 + span);
	}
	CHECK_EQ(s.conflicts, 13u);
}

/* The round gate opens round r + 2 only when every thread has completed round r. */
TEST(prstm_round_gate)
{
	prstm_sched s;
	stm_shared sh;
	stm_params p;

	memset(&sh, 0, sizeof(sh));
	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	p.threads = 3;
	s.round = 1;
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 1);
	s.round = 2; /* needs round 0 complete everywhere */
	sh.round_done[0] = 2;
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 0);
	sh.round_done[0] = 3;
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 1);
	s.round = 6; /* round 4 shares slot 0 with round 0 */
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 0);
	sh.round_done[0] = 5;
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 0);
	sh.round_done[0] = 6;
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 1);
	s.round = 5; /* round 3: slot 3 */
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 0);
	sh.round_done[3] = 3;
	CHECK_EQ_I(prstm_round_open(&s, &p, &sh), 1);
}

/* A transaction past its time limit at validation aborts and gives its pre-locks back. */
TEST(prstm_late_transaction_aborts_at_validation)
{
	fixture f;
	prstm_tx tx;

	fixture_init(&f, 1);
	prstm_tx_start(&tx, 2);
	CHECK_EQ(tx.late, 0u);
	prstm_tx_write(&tx, &f.m, 3, 7);
	prstm_tx_write(&tx, &f.m, 5, 8);
	tx.late = 1; /* long past */
	CHECK_EQ_I(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[3], prstm_free_word(0));
	CHECK_EQ(f.locks[5], prstm_free_word(0));

	prstm_tx_start(&tx, 2);
	prstm_tx_write(&tx, &f.m, 3, 7);
	tx.late = gb_cycles() + 1000000000ull; /* far ahead */
	CHECK_EQ_I(prstm_tx_validate(&tx, &f.m), 1);
	CHECK_EQ(f.locks[3], prstm_locked_word(0, 2));
}

/* The time limit runs from an attempt's first transactional access: what the body does before it (a
 * skiplist's search, outside the transaction) does not count. */
TEST(prstm_time_limit_starts_at_the_first_access)
{
	fixture f;
	prstm_tx tx;
	uint64_t first;

	fixture_init(&f, 1);
	prstm_tx_start(&tx, 2);
	CHECK_EQ(tx.window, 0u);
	tx.window = 1000000000ull;
	CHECK_EQ(tx.late, 0u);
	(void)prstm_tx_read(&tx, &f.m, 3);
	first = tx.late;
	CHECK(first > tx.window);
	prstm_tx_write(&tx, &f.m, 5, 8);
	(void)prstm_tx_read(&tx, &f.m, 4);
	CHECK_EQ(tx.late, first); /* not restarted by later accesses */
	CHECK_EQ_I(prstm_tx_validate(&tx, &f.m), 1);

	/* a write first starts it too; no window, no limit */
	prstm_tx_start(&tx, 2);
	tx.window = 1000000000ull;
	prstm_tx_write(&tx, &f.m, 6, 1);
	CHECK(tx.late > 0);
	prstm_tx_start(&tx, 2);
	(void)prstm_tx_read(&tx, &f.m, 7);
	CHECK_EQ(tx.late, 0u);
}

/* A thread's totals hold every counter: those PR-STM does not keep are 0, whatever its state held. */
TEST(prstm_thread_totals_zero_what_prstm_does_not_count)
{
	prstm_sched s;
	stm_counters c;
	memset(&s, 0xAB, sizeof(s));
	s.state = STM_DONE;
	c = prstm_thread_totals(&s);
	CHECK_EQ(c.retry_limit_reached, 0u);
	CHECK_EQ(c.threads_gave_up, 0u);
	CHECK_EQ(c.commits_update, s.c.commits_update);
}
