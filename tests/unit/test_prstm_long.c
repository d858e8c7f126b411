/*
 * PR-STM's read log (stm/prstm/prstm.h, "Long reads"): reads past the 8-word read
 * set are logged in a slot of the log and validated with the others; the
 * build of stm/prstm/prstm_cpu_long.c and stm/prstm/prstm_gpu_long.cu.
 */
/* GCC cannot follow prstm_tx's set counts into the readers' loop: it takes write-set entries below
 * nw, which is 0 there, for maybe uninitialized. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRSTM_LONG_READS 1
#include "common/rng.h"
#include "stm/prstm/prstm.h"
#include "tests/unit/test.h"

#define NWORDS 64
#define CAP 24   /* log entries per slot */
#define SLOTS 3

typedef struct fixture {
	uint32_t locks[NWORDS];
	uint32_t data[NWORDS];
	uint32_t log[2 * CAP * SLOTS]; /* addresses, then versions */
	prstm_mem m;
} fixture;

/* The CPU's layout (slots contiguous) or the GPU's (entries interleaved). */
static void fixture_init(fixture *f, int interleaved)
{
	uint32_t i;
	memset(f, 0, sizeof(*f));
	for (i = 0; i < NWORDS; i++)
		f->data[i] = 100 + i;
	f->m.locks = f->locks;
	f->m.data = f->data;
	f->m.hash = 1;
	prstm_read_log_attach(&f->m, f->log, CAP, SLOTS, interleaved);
}

/* A read-only transaction of n words from `first`: the sum it read. */
static uint32_t read_run(prstm_tx *tx, fixture *f, uint32_t first, uint32_t n)
{
	uint32_t j, sum = 0;
	for (j = 0; j < n; j++)
		sum += prstm_tx_read(tx, &f->m, first + j);
	return sum;
}

TEST(prstm_long_reads_go_to_the_log_of_their_slot)
{
	fixture f;
	prstm_tx tx;
	uint32_t j;
	int layout;

	for (layout = 0; layout < 2; layout++) {
		fixture_init(&f, layout);
		f.locks[20] = prstm_free_word(7);
		prstm_tx_start(&tx, 4); /* slot 4 % 3 = 1 */
		CHECK_EQ(read_run(&tx, &f, 0, 8 + CAP), (uint32_t)(100 * (8 + CAP) + (8 + CAP - 1) * (8 + CAP) / 2));
		CHECK_EQ(tx.abort, PRSTM_OK);
		CHECK_EQ(tx.nr, 8u);
		CHECK_EQ(tx.nlong, (uint32_t)CAP);
		for (j = 0; j < CAP; j++) {
			size_t at = layout ? (size_t)j * SLOTS + 1 : (size_t)CAP + j;
			CHECK_EQ(f.log[at], 8 + j);
			CHECK_EQ(f.log[CAP * SLOTS + at], 8 + j == 20 ? 7u : 0u);
		}
		/* no other slot was touched */
		for (j = 0; j < CAP * SLOTS; j++)
			if (layout ? j % SLOTS != 1 : j / CAP != 1)
				CHECK_EQ(f.log[j], 0u);
		CHECK_EQ(prstm_tx_validate(&tx, &f.m), 1);
		CHECK_EQ(tx.nw, 0u);
	}
}

TEST(prstm_long_reads_are_validated)
{
	fixture f;
	prstm_tx tx;
	uint32_t victim;

	/* a version change or a lock on the first, a middle and the last logged word aborts */
	for (victim = 8; victim < 8 + CAP; victim += CAP / 2 - 1) {
		fixture_init(&f, 0);
		prstm_tx_start(&tx, 0);
		read_run(&tx, &f, 0, 8 + CAP);
		f.locks[victim] = prstm_free_word(1);
		CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
		CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);

		fixture_init(&f, 1);
		prstm_tx_start(&tx, 0);
		read_run(&tx, &f, 0, 8 + CAP);
		f.locks[victim] = prstm_locked_word(0, 9);
		CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
		CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	}
	/* a version that went round 2048 commits is not seen: the wrap the CPU's time limit guards */
	fixture_init(&f, 0);
	prstm_tx_start(&tx, 0);
	read_run(&tx, &f, 0, 8 + CAP);
	f.locks[30] = prstm_free_word(2048);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 1);
}

TEST(prstm_long_reads_repeat_and_overflow)
{
	fixture f;
	prstm_tx tx;
	uint32_t j;

	/* a word read again past the set is logged again, and both copies are validated */
	fixture_init(&f, 0);
	prstm_tx_start(&tx, 2);
	read_run(&tx, &f, 0, 10);
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 9), 109u);
	CHECK_EQ(tx.nlong, 3u);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 1);
	prstm_tx_start(&tx, 2);
	read_run(&tx, &f, 0, 10);
	f.locks[9] = prstm_free_word(1);
	f.data[9] = 5;
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 9), 5u); /* the new value, under the new version */
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0); /* the first copy's version is gone */
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	/* a read in the set is still answered from it */
	fixture_init(&f, 0);
	prstm_tx_start(&tx, 2);
	read_run(&tx, &f, 0, 10);
	f.data[3] = 9999;
	CHECK_EQ(prstm_tx_read(&tx, &f.m, 3), 103u);
	CHECK_EQ(tx.nlong, 2u);

	/* past the set and the slot: a capacity abort */
	fixture_init(&f, 1);
	prstm_tx_start(&tx, 2);
	read_run(&tx, &f, 0, 8 + CAP);
	CHECK_EQ(tx.abort, PRSTM_OK);
	prstm_tx_read(&tx, &f.m, 8 + CAP);
	CHECK_EQ(tx.abort, PRSTM_ABORT_CAPACITY);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	for (j = 0; j < NWORDS; j++)
		CHECK_EQ(f.locks[j], 0u);
}

TEST(prstm_long_reads_in_an_update)
{
	fixture f;
	prstm_tx tx;

	/* an update that reads past its set and writes a word it logged: its own pre-lock passes */
	fixture_init(&f, 0);
	prstm_tx_start(&tx, 1);
	read_run(&tx, &f, 0, 12);
	prstm_tx_write(&tx, &f.m, 10, 1);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 1);
	prstm_tx_commit(&tx, &f.m, NULL);
	CHECK_EQ(f.data[10], 1u);
	CHECK_EQ(f.locks[10], prstm_free_word(1));

	/* the logged word changed before the write looked at it: the log's version disagrees */
	fixture_init(&f, 0);
	prstm_tx_start(&tx, 1);
	read_run(&tx, &f, 0, 12);
	f.locks[10] = prstm_free_word(1);
	prstm_tx_write(&tx, &f.m, 10, 1);
	CHECK_EQ(prstm_tx_validate(&tx, &f.m), 0);
	CHECK_EQ(tx.abort, PRSTM_ABORT_VALIDATION);
	CHECK_EQ(f.locks[10], prstm_free_word(1));
}

/*
 * Under real concurrency: writers move money between accounts, readers sum
 * every account in one read-only transaction (8 words in the set, the rest in
 * the log). Each inquiry that validates must see the total. Few enough
 * commits that no lock's 11-bit version can wrap during an inquiry.
 */
#define C_ACCOUNTS 200
#define C_WRITERS 2
#define C_READERS 2
#define C_TRANSFERS 20000

typedef struct conc {
	uint32_t locks[C_ACCOUNTS], data[C_ACCOUNTS];
	uint32_t log[2 * C_READERS * C_ACCOUNTS];
	uint32_t stamp, writers_done;
	uint64_t committed[C_READERS], wrong[C_READERS];
	uint64_t during[C_READERS]; /* of committed: while the writers ran */
} conc;

typedef struct conc_arg {
	conc *c;
	uint32_t index;
} conc_arg;

static prstm_mem conc_mem(conc *c)
{
	prstm_mem m;
	memset(&m, 0, sizeof(m));
	m.locks = c->locks;
	m.data = c->data;
	m.hash = 1;
	prstm_read_log_attach(&m, c->log, C_ACCOUNTS, C_READERS, 0);
	return m;
}

static void *conc_writer(void *arg)
{
	conc_arg *a = arg;
	prstm_mem m = conc_mem(a->c);
	gb_rng rng;
	uint32_t n = 0;

	gb_rng_init(&rng, 1 + a->index, 0);
	while (n < C_TRANSFERS) {
		prstm_tx tx;
		uint32_t from = (uint32_t)gb_rng_below(&rng, C_ACCOUNTS), to = (uint32_t)gb_rng_below(&rng, C_ACCOUNTS);
		uint32_t b;
		/* priorities above every reader's, so readers never steal a writer's pre-lock */
		prstm_tx_start(&tx, C_READERS + a->index);
		b = prstm_tx_read(&tx, &m, from);
		prstm_tx_write(&tx, &m, from, b - 1);
		b = prstm_tx_read(&tx, &m, to);
		prstm_tx_write(&tx, &m, to, b + 1);
		if (!tx.abort && prstm_tx_validate(&tx, &m)) {
			prstm_tx_commit(&tx, &m, &a->c->stamp);
			n++;
		}
	}
	gb_add_u32(&a->c->writers_done, 1);
	return NULL;
}

static void *conc_reader(void *arg)
{
	conc_arg *a = arg;
	prstm_mem m = conc_mem(a->c);

	/* until the writers are done, then until one inquiry has committed after them */
	for (;;) {
		prstm_tx tx;
		uint32_t j, sum = 0, running = gb_ld_acquire_u32(&a->c->writers_done) < C_WRITERS;
		if (!running && a->c->committed[a->index] > a->c->during[a->index])
			break;
		prstm_tx_start(&tx, a->index);
		for (j = 0; j < C_ACCOUNTS && !tx.abort; j++)
			sum += prstm_tx_read(&tx, &m, j);
		if (!tx.abort && prstm_tx_validate(&tx, &m)) {
			a->c->committed[a->index]++;
			a->c->during[a->index] += running;
			if (sum != 1000u * C_ACCOUNTS)
				a->c->wrong[a->index]++;
		}
	}
	return NULL;
}

TEST(prstm_long_reads_see_a_consistent_bank)
{
	static conc c;
	conc_arg args[C_WRITERS + C_READERS];
	pthread_t th[C_WRITERS + C_READERS];
	uint32_t i, total = 0;
	uint64_t committed = 0, during = 0, wrong = 0;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < C_ACCOUNTS; i++)
		c.data[i] = 1000;
	for (i = 0; i < C_WRITERS + C_READERS; i++) {
		args[i].c = &c;
		args[i].index = i < C_READERS ? i : i - C_READERS;
		REQUIRE(pthread_create(&th[i], NULL, i < C_READERS ? conc_reader : conc_writer, &args[i]) == 0);
	}
	for (i = 0; i < C_WRITERS + C_READERS; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < C_READERS; i++) {
		committed += c.committed[i];
		during += c.during[i];
		wrong += c.wrong[i];
	}
	for (i = 0; i < C_ACCOUNTS; i++)
		total += c.data[i];
	CHECK_EQ(total, 1000u * C_ACCOUNTS);
	CHECK_EQ(c.stamp, (uint32_t)(C_WRITERS * C_TRANSFERS));
	CHECK(committed >= C_READERS);
	CHECK_EQ(wrong, 0u);
	if (getenv("UNIT_VERBOSE"))
		fprintf(stderr, "prstm long reads: %llu inquiries committed, %llu while the writers ran\n",
			(unsigned long long)committed, (unsigned long long)during);
}
