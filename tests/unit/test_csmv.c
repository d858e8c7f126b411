/*
 * CSMV (stm/csmv/csmv.h, stm/csmv/csmv_sched.h): versioned boxes and their
 * reclamation bound, pre-validation, the server's decisions (the paper's ATR
 * of committed write sets and the index by word), and the six
 * engine names on the CPU backend at high contention with read-only
 * transactions over every account, checked by the bank's serial replay and
 * its snapshot check.
 */
#include <stdlib.h>
#include <string.h>

#include "stm/csmv/csmv.h"
#include "stm/csmv/csmv_engines.h"
#include "stm/csmv/csmv_server.h"
#include "tests/unit/bank_run.h"
#include "tests/unit/test.h"
#include "workloads/stm/bank.h"

#define NW 4
#define NG 2

typedef struct fixture {
	uint32_t head[NW];
	uint64_t ver[NW * CSMV_VERSIONS];
	uint32_t client_ts[NG];
	csmv_words words;
	csmv_mem m;
} fixture;

static void fixture_init(fixture *f)
{
	uint32_t i;
	memset(f, 0, sizeof(*f));
	f->m.head = f->head;
	f->m.ver = f->ver;
	f->m.g = &f->words;
	f->m.client_ts = f->client_ts;
	f->m.ngroups = NG;
	f->m.words = NW;
	for (i = 0; i < NG; i++)
		f->client_ts[i] = CSMV_IDLE;
	for (i = 0; i < NW; i++)
		csmv_box_init(&f->m, i, 100 + i);
}

/* A reader sees the newest version at or below its snapshot, and never a newer one. */
TEST(csmv_reads_the_version_of_its_snapshot)
{
	fixture f;
	uint32_t v = 0, kept = 0, ts;

	fixture_init(&f);
	for (ts = 1; ts <= 5; ts++)
		REQUIRE(csmv_install(&f.m, 2, ts * 10, 1000 + ts, 0, &kept));
	CHECK_EQ(f.head[2], 6u);
	CHECK(csmv_read_version(&f.m, 2, 0, &v) && v == 102u);
	CHECK(csmv_read_version(&f.m, 2, 9, &v) && v == 102u);
	CHECK(csmv_read_version(&f.m, 2, 10, &v) && v == 1001u);
	CHECK(csmv_read_version(&f.m, 2, 39, &v) && v == 1003u);
	CHECK(csmv_read_version(&f.m, 2, 1000, &v) && v == 1005u);
	CHECK_EQ(csmv_box_newest(&f.m, 2), 1005u);
	CHECK_EQ(kept, 6u); /* safe 0: every version is newer than it but the first, which is kept too */
}

/*
 * A read-only transaction reads a window of words ahead: words whose newest
 * version is in its snapshot come from the window, a word with a newer one
 * from its box; the window stops at the last word.
 */
TEST(csmv_read_only_reads_ahead)
{
	fixture f;
	csmv_tx tx;
	uint32_t kept = 0;

	fixture_init(&f);
	REQUIRE(csmv_install(&f.m, 1, 5, 501, 0, &kept));
	REQUIRE(csmv_install(&f.m, 2, 5, 502, 0, &kept));
	REQUIRE(csmv_install(&f.m, 2, 9, 902, 0, &kept)); /* newer than the snapshot below */
	f.words.gts = 9;
	csmv_tx_start(&tx, 6, 1);
	CHECK_EQ(csmv_tx_read(&tx, &f.m, 1), 501u);
	CHECK_EQ(tx.ahead_n, 0u); /* not asked for: word by word */
	csmv_tx_start(&tx, 6, 1);
	tx.ahead = 1;
	CHECK_EQ(csmv_tx_read(&tx, &f.m, 1), 501u);
	CHECK_EQ(tx.ahead_base, 1u);
	CHECK_EQ(tx.ahead_ok, 0x5u); /* words 1 and 3; word 2's newest is at 9 */
	CHECK_EQ(csmv_tx_read(&tx, &f.m, 2), 502u); /* from its box; the window stays */
	CHECK_EQ(tx.ahead_base, 1u);
	CHECK_EQ(tx.ahead_n, 3u); /* words 1 to 3, the last */
	CHECK_EQ(csmv_tx_read(&tx, &f.m, 3), 103u);
	CHECK_EQ(csmv_tx_read(&tx, &f.m, 0), 100u);
	CHECK_EQ(tx.ahead_base, 0u);
	CHECK_EQ(tx.ahead_ok, 0xBu);
	CHECK_EQ(tx.nr, 0u); /* no read set */
	CHECK_EQ(tx.abort, (uint32_t)CSMV_OK);
	csmv_tx_start(&tx, 9, 1);
	tx.ahead = 1;
	CHECK_EQ(csmv_tx_read(&tx, &f.m, 2), 902u);
}

/*
 * A full ring overwrites its oldest version only once the version after it
 * is visible at the bound: a reader of the oldest snapshot still finds its
 * version, and the bound follows the announcements.
 */
TEST(csmv_reclaims_only_what_no_snapshot_reads)
{
	fixture f;
	uint32_t v = 0, kept = 0, ts;

	fixture_init(&f);
	for (ts = 1; ts < CSMV_VERSIONS; ts++)
		REQUIRE(csmv_install(&f.m, 0, ts, 200 + ts, 0, &kept));
	/* the ring is full (versions 0..7); version 1 has timestamp 1 > safe 0 */
	CHECK(!csmv_install(&f.m, 0, CSMV_VERSIONS, 999, 0, &kept));
	CHECK_EQ(f.head[0], (uint32_t)CSMV_VERSIONS);
	CHECK(csmv_read_version(&f.m, 0, 0, &v) && v == 100u);
	/* group 1 reads snapshot 0: the bound stays 0 whatever GTS is */
	f.words.gts = 7;
	f.client_ts[1] = 0;
	CHECK_EQ(csmv_refresh_safe(&f.m), 0u);
	f.client_ts[1] = CSMV_IDLE;
	CHECK_EQ(csmv_refresh_safe(&f.m), 7u);
	CHECK(csmv_install(&f.m, 0, CSMV_VERSIONS, 999, f.words.safe, &kept));
	CHECK(!csmv_read_version(&f.m, 0, 0, &v)); /* snapshot 0's version is gone, as allowed */
	CHECK(csmv_read_version(&f.m, 0, 1, &v) && v == 201u);
	CHECK(csmv_read_version(&f.m, 0, 100, &v) && v == 999u);
	CHECK_EQ(kept, 2u); /* the new version and version 7, the newest at the bound */
	/* the bound only rises */
	f.client_ts[0] = 3;
	CHECK_EQ(csmv_refresh_safe(&f.m), 7u);
}

/* A lane conflicts with an earlier submitted lane that writes what it reads or writes. */
TEST(csmv_prevalidation)
{
	static csmv_req q;
	memset(&q, 0, sizeof(q));
	q.nr[0] = 1, q.r[0][0] = 5, q.nw[0] = 1, q.w[0][0] = 5;
	q.nr[1] = 1, q.r[1][0] = 5, q.nw[1] = 1, q.w[1][0] = 6; /* reads what lane 0 writes */
	q.nr[2] = 1, q.r[2][0] = 7, q.nw[2] = 1, q.w[2][0] = 6; /* writes what lane 1 writes */
	q.nr[3] = 1, q.r[3][0] = 6, q.nw[3] = 0;                /* reads what lane 1 writes */
	q.nr[4] = 1, q.r[4][0] = 9, q.nw[4] = 1, q.w[4][0] = 5; /* writes what lane 0 writes */
	CHECK(csmv_prevalidate(&q, 0, 0x1Fu));
	CHECK(!csmv_prevalidate(&q, 1, 0x1Fu));
	CHECK(!csmv_prevalidate(&q, 2, 0x1Fu));
	CHECK(csmv_prevalidate(&q, 2, 0x1Du)); /* lane 1 not submitted */
	CHECK(!csmv_prevalidate(&q, 3, 0x1Fu));
	CHECK(csmv_prevalidate(&q, 3, 0x19u));
	CHECK(!csmv_prevalidate(&q, 4, 0x1Fu)); /* write-write with lane 0 */
}

/*
 * The server: a transaction aborts when a commit after its snapshot wrote
 * what it read or writes, however long ago its snapshot was taken.
 * Batched, the lanes of one request are judged against the ATR as it came;
 * one by one (onlycs), a lane also against the lanes inserted before it.
 */
TEST(csmv_server_decisions)
{
	static csmv_atr a;
	static csmv_req q;
	static uint32_t wcts[4096];
	uint32_t base = 0, c;

	memset(&q, 0, sizeof(q));
	memset(wcts, 0, sizeof(wcts));
	a.tail = 0, a.wcts = wcts;
	q.snap = 0;
	q.nr[0] = 1, q.r[0][0] = 1, q.nw[0] = 1, q.w[0][0] = 1;
	q.nr[1] = 1, q.r[1][0] = 1, q.nw[1] = 1, q.w[1][0] = 2; /* reads lane 0's write */
	c = csmv_decide(&a, &q, 0x3u, CSMV_FULL, &base);
	CHECK_EQ(c, 0x3u); /* batched: pre-validation is the client's job */
	CHECK_EQ(base, 1u);
	CHECK_EQ(a.tail, 2u);
	CHECK_EQ(wcts[1], 1u);
	CHECK_EQ(wcts[2], 2u);
	memset(wcts, 0, sizeof(wcts));
	a.tail = 0;
	c = csmv_decide(&a, &q, 0x3u, CSMV_ONLYCS, &base);
	CHECK_EQ(c, 0x1u); /* one by one: lane 1 meets lane 0's commit */
	CHECK_EQ(a.tail, 1u);
	CHECK_EQ(wcts[2], 0u); /* an aborted lane leaves no trace */
	/* a request on snapshot 0 now meets commit 1 (word 1) */
	q.nr[0] = 1, q.r[0][0] = 3, q.nw[0] = 1, q.w[0][0] = 1; /* blind write of word 1: write-write */
	c = csmv_decide(&a, &q, 0x1u, CSMV_FULL, &base);
	CHECK_EQ(c, 0u);
	q.snap = 1; /* its snapshot includes commit 1 */
	c = csmv_decide(&a, &q, 0x1u, CSMV_FULL, &base);
	CHECK_EQ(c, 0x1u);
	CHECK_EQ(base, 2u);
	/* thousands of commits since the snapshot, none to its words: it commits */
	a.tail = 5000;
	wcts[3000] = 4;
	q.snap = 4;
	q.r[0][0] = 3000, q.w[0][0] = 3001;
	CHECK_EQ(csmv_decide(&a, &q, 0x1u, CSMV_FULL, &base), 0x1u);
	CHECK_EQ(base, 5001u);
	CHECK_EQ(wcts[3001], 5001u);
	q.snap = 3; /* commit 4 wrote word 3000 after this snapshot */
	CHECK_EQ(csmv_decide(&a, &q, 0x1u, CSMV_FULL, &base), 0u);
	CHECK_EQ(csmv_cts_of(0x16u, 10, 4), 12u);
}

/*
 * The paper's ATR (stm/csmv/csmv_server.h): a record is read only once
 * written, a reused slot reads as gone, a transaction is checked against the
 * records after its snapshot only (its read and write sets alike), and one
 * whose snapshot is older than the ring aborts.
 */
TEST(csmv_ring_records_and_validation)
{
	static csmv_record rec[4];
	static csmv_req q;
	csmv_ring r = {.tail = 0, .size = 4, .rec = rec};
	uint32_t w1[2] = {10, 11}, w2[1] = {12}, w3[1] = {13}, a = 10, b = 12, from;

	memset(rec, 0, sizeof(rec));
	memset(&q, 0, sizeof(q));
	CHECK_EQ_I(csmv_record_meets(&r, 1, &a, 1), CSMV_REC_WAIT); /* reserved, not written */
	csmv_record_write(&r, 1, w1, 2);
	csmv_record_write(&r, 2, w2, 1);
	CHECK_EQ_I(csmv_record_meets(&r, 1, &a, 1), CSMV_REC_HIT);
	CHECK_EQ_I(csmv_record_meets(&r, 2, &a, 1), CSMV_REC_CLEAR);
	CHECK_EQ_I(csmv_record_meets(&r, 2, &b, 1), CSMV_REC_HIT);
	CHECK_EQ_I(csmv_record_meets(&r, 3, &b, 1), CSMV_REC_WAIT);
	/* a transaction on snapshot 1 that reads 10 (written by commit 1) and writes 13 */
	q.snap = 1, q.nr[0] = 1, q.r[0][0] = 10, q.nw[0] = 1, q.w[0][0] = 13;
	from = 1;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 2), 1);
	CHECK_EQ(from, 2u);
	q.snap = 0, from = 0;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 2), 0); /* commit 1 wrote what it read */
	q.snap = 1, q.r[0][0] = 12, from = 1;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 2), 0); /* commit 2 wrote it */
	q.r[0][0] = 14, q.w[0][0] = 12, from = 1;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 2), 0); /* write-write with commit 2 */
	q.w[0][0] = 13, from = 1;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 3), -1); /* commit 3 reserved, not written */
	CHECK_EQ(from, 2u); /* resumes at it */
	csmv_record_write(&r, 3, w3, 1);
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 3), 0); /* commit 3 writes 13 */
	/* commits 4 and 5: slot 1 now holds commit 5, commit 1 is gone */
	csmv_record_write(&r, 4, w2, 1);
	csmv_record_write(&r, 5, w2, 1);
	CHECK_EQ_I(csmv_record_meets(&r, 1, &a, 1), CSMV_REC_GONE);
	q.snap = 0, q.r[0][0] = 99, q.w[0][0] = 98, from = 0;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 5), 0); /* 5 commits since the snapshot, 4 records */
	q.snap = 1, from = 1;
	CHECK_EQ_I(csmv_ring_validate(&r, &q, 0, &from, 5), 1); /* commits 2 to 5 are all there */
	CHECK_EQ(csmv_rank(0x16u, 4), 2u);
}

/*
 * The scan reads CSMV_SCAN records between two fences: a hit, a record not
 * written yet and a reused slot are found past a chunk's boundary, and *from
 * stops at the last record checked.
 */
TEST(csmv_ring_scan_across_chunks)
{
	static csmv_record rec[32];
	csmv_ring r = {.tail = 0, .size = 32, .rec = rec};
	uint32_t c, w[1], x = 113, none = 999, from;

	CHECK(CSMV_SCAN < 13);
	memset(rec, 0, sizeof(rec));
	for (c = 1; c <= 20; c++) {
		w[0] = 100 + c;
		csmv_record_write(&r, c, w, 1);
	}
	from = 0;
	CHECK_EQ_I(csmv_ring_scan(&r, &from, 20, &none, 1, NULL, 0), CSMV_REC_CLEAR);
	CHECK_EQ(from, 20u);
	from = 0;
	CHECK_EQ_I(csmv_ring_scan(&r, &from, 20, &none, 1, &x, 1), CSMV_REC_HIT); /* record 13 writes 113 */
	from = 13;
	CHECK_EQ_I(csmv_ring_scan(&r, &from, 20, &none, 1, &x, 1), CSMV_REC_CLEAR);
	from = 10;
	CHECK_EQ_I(csmv_ring_scan(&r, &from, 22, &none, 1, NULL, 0), CSMV_REC_WAIT); /* 21 reserved, not written */
	CHECK_EQ(from, 20u);
	w[0] = 121;
	csmv_record_write(&r, 21, w, 1);
	w[0] = 122;
	csmv_record_write(&r, 22, w, 1);
	CHECK_EQ_I(csmv_ring_scan(&r, &from, 22, &none, 1, NULL, 0), CSMV_REC_CLEAR);
	CHECK_EQ(from, 22u);
	/* commit 41 takes record 9's slot: a scan from 0 meets it gone */
	w[0] = 141;
	csmv_record_write(&r, 41, w, 1);
	from = 0;
	CHECK_EQ_I(csmv_ring_scan(&r, &from, 20, &none, 1, NULL, 0), CSMV_REC_GONE);
	CHECK_EQ_I(csmv_record_meets(&r, 9, &none, 1), CSMV_REC_GONE);
	CHECK_EQ_I(csmv_record_meets(&r, 10, &none, 1), CSMV_REC_CLEAR);
}

/*
 * A scan with a step (a collaborative scan's slice): the slices of a step
 * together check every record once, a slice that starts below 0 modulo 2^32
 * works, one with no record in range is clear, and a hit or a record not
 * written yet is found in the slice that holds it.
 */
TEST(csmv_ring_scan_step_slices)
{
	static csmv_record rec[64];
	csmv_ring r = {.tail = 0, .size = 64, .rec = rec};
	uint32_t c, w[2], s, step, from, none = 999, x;

	memset(rec, 0, sizeof(rec));
	for (c = 1; c <= 40; c++) {
		w[0] = 100 + c;
		w[1] = 500 + c;
		csmv_record_write(&r, c, w, 2);
	}
	for (step = 1; step <= 32; step++) {
		uint32_t hits = 0;
		for (s = 0; s < step; s++) {
			from = 0u + 1u + s - step; /* records 1 + s, 1 + s + step, ... */
			CHECK_EQ_I(csmv_ring_scan_step(&r, &from, 40, step, &none, 1, NULL, 0), CSMV_REC_CLEAR);
			x = 517; /* record 17's second word */
			from = 0u + 1u + s - step;
			hits += csmv_ring_scan_step(&r, &from, 40, step, &none, 1, &x, 1) == CSMV_REC_HIT;
			CHECK(s != 16u % step || hits == 1); /* slice 16 % step holds 17 and hit it */
		}
		CHECK_EQ(hits, 1u);
	}
	/* snapshot 30, tail 33: slices of 8, only three of them hold a record */
	for (s = 0; s < 8; s++) {
		from = 30u + 1u + s - 8u;
		CHECK_EQ_I(csmv_ring_scan_step(&r, &from, 33, 8, &none, 1, NULL, 0), CSMV_REC_CLEAR);
		CHECK_EQ(from, s < 3 ? 31u + s : 23u + s);
	}
	/* 42 reserved, not written: the slice holding it waits on it, the others are clear */
	from = 40u + 1u + 1u - 4u;
	CHECK_EQ_I(csmv_ring_scan_step(&r, &from, 44, 4, &none, 1, NULL, 0), CSMV_REC_WAIT);
	CHECK_EQ(from, 38u);
	from = 40u + 1u + 0u - 4u;
	CHECK_EQ_I(csmv_ring_scan_step(&r, &from, 44, 4, &none, 1, NULL, 0), CSMV_REC_WAIT); /* 41 is not written either */
	w[0] = 141;
	csmv_record_write(&r, 41, w, 1);
	from = 40u + 1u + 0u - 4u;
	CHECK_EQ_I(csmv_ring_scan_step(&r, &from, 44, 4, &none, 1, NULL, 0), CSMV_REC_CLEAR);
	CHECK_EQ(from, 41u);
}

/*
 * 300 accounts, 200 threads (7 groups, the last partial) on 3 workers,
 * two-leg transfers and semantic chains, 40% inquiries over every account.
 * Each engine name must commit everything, replay exactly in commit order and
 * give every inquiry the bank's sum at its snapshot; tampering with one sum
 * or one snapshot must be caught.
 */
TEST(csmv_cpu_backend_inquiries_over_every_account)
{
	const stm_ops *ops[6] = {&csmv_bank_cpu_ops,       &csmv_nocv_bank_cpu_ops,       &csmv_onlycs_bank_cpu_ops,
				 &csmv_index_bank_cpu_ops, &csmv_index_nocv_bank_cpu_ops, &csmv_index_onlycs_bank_cpu_ops};
	const char *names[6] = {"csmv", "csmv-nocv", "csmv-onlycs", "csmv-index", "csmv-index-nocv", "csmv-index-onlycs"};
	bank_config cfg = {.accounts = 300, .threads = 200, .tx_per_thread = 30, .semantic_ratio = 30,
			   .read_only = 40, .transfers_per_tx = 2, .read_only_size = 300,
			   .initial_balance = 100000, .seed = 7};
	bank_workload w;
	char err[256];
	uint64_t i, ro = 0;
	unsigned k;

	REQUIRE(bank_generate(&w, &cfg, err, sizeof(err)) == 0);
	for (i = 0; i < w.ntx; i++)
		ro += BANK_TYPE(w.tx[i].meta) == BANK_BALANCE;
	CHECK(ro > 1000);
	for (k = 0; k < 6; k++) {
		bank_run o;
		bank_check snap;
		int32_t *before = bank_run_initial(&w);
		uint64_t checked = 0;

		bank_run_cpu(ops[k], &w, 3, &o);
		CHECK_EQ(bank_run_verify(&w, &o, names[k]), ro);
		/* the sample checks fewer, spread out */
		bank_verify_snapshots(&w, before, o.status, o.results, 100, &snap, &checked);
		CHECK_EQ_I(snap.ok, 1);
		CHECK(checked <= 100 && checked >= 50);
		bank_run_check_tampering(&w, &o);
		bank_run_free(&o);
		free(before);
	}
	bank_free(&w);
}

/* Few accounts and many writers: the rings fill, write-backs wait for reclamation, all still verifies. */
TEST(csmv_cpu_backend_reclaims_under_pressure)
{
	const stm_ops *ops[4] = {&csmv_bank_cpu_ops, &csmv_onlycs_bank_cpu_ops, &csmv_index_bank_cpu_ops,
				 &csmv_index_onlycs_bank_cpu_ops};
	const char *names[4] = {"csmv", "csmv-onlycs", "csmv-index", "csmv-index-onlycs"};
	bank_config cfg = {.accounts = 8, .threads = 128, .tx_per_thread = 60, .semantic_ratio = 0,
			   .read_only = 30, .transfers_per_tx = 1, .read_only_size = 8,
			   .initial_balance = 100000, .seed = 3};
	bank_workload w;
	char err[256];
	unsigned k;

	REQUIRE(bank_generate(&w, &cfg, err, sizeof(err)) == 0);
	for (k = 0; k < 4; k++) {
		bank_run o;

		bank_run_cpu(ops[k], &w, 4, &o);
		CHECK(bank_run_verify(&w, &o, names[k]) > 0);
		CHECK(o.r.c.aborts_validation > 0); /* 8 accounts: conflicts happen */
		bank_run_free(&o);
	}
	bank_free(&w);
}
