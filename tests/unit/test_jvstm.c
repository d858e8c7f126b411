/*
 * JVSTM (stm/csmv/jvstm.h, stm/csmv/jvstm_cpu.c): the ATR's validation and insertion,
 * and the CPU backend at high contention with read-only transactions over
 * every account, checked by the bank's serial replay in commit order and its
 * snapshot check.
 */
#include <string.h>

#include "stm/csmv/jvstm.h"
#include "stm/csmv/jvstm_engines.h"
#include "tests/unit/bank_run.h"
#include "tests/unit/test.h"
#include "workloads/stm/bank.h"

static jvstm_atr atr;

static void tx_reading(csmv_tx *tx, uint32_t snap, uint32_t a, uint32_t b)
{
	csmv_tx_start(tx, snap, 0);
	tx->nr = 2;
	tx->r_addr[0] = a;
	tx->r_addr[1] = b;
	tx->nw = 1;
	tx->w_addr[0] = a;
	tx->w_val[0] = 1;
}

/* Insertion validates against the records after the snapshot, waits on a running write-back, locks. */
TEST(jvstm_atr_validation_and_insertion)
{
	uint32_t valid;
	csmv_words g;
	csmv_mem m;
	csmv_tx t1, t2, t3, t4;

	memset(&atr, 0, sizeof(atr));
	memset(&g, 0, sizeof(g));
	memset(&m, 0, sizeof(m));
	m.g = &g;
	tx_reading(&t1, 0, 5, 6);
	tx_reading(&t2, 0, 7, 8);
	tx_reading(&t3, 0, 5, 9);
	tx_reading(&t4, 0, 100, 101);
	valid = 0;
	CHECK_EQ(jvstm_insert(&atr, &t1, &valid), (uint32_t)JVSTM_INSERTED);
	CHECK_EQ(valid, 0u);
	CHECK_EQ(atr.commit, 3u); /* record 1, write-back running */
	/* a second committer waits while record 1 is written back */
	valid = 0;
	CHECK_EQ(jvstm_insert(&atr, &t2, &valid), (uint32_t)JVSTM_BUSY);
	jvstm_record_fill(&atr, 1, &t1);
	jvstm_publish(&atr, &m, 1);
	CHECK_EQ(g.gts, 1u);
	CHECK_EQ(atr.commit, 2u);
	/* t2 read neither word of record 1: validated through 1, inserted as 2 */
	CHECK_EQ(jvstm_insert(&atr, &t2, &valid), (uint32_t)JVSTM_INSERTED);
	CHECK_EQ(valid, 1u);
	jvstm_record_fill(&atr, 2, &t2);
	jvstm_publish(&atr, &m, 2);
	/* t3 read word 5, which record 1 wrote after t3's snapshot */
	valid = 0;
	CHECK_EQ(jvstm_insert(&atr, &t3, &valid), (uint32_t)JVSTM_CONFLICT);
	/* from snapshot 1 it does not conflict */
	t3.snap = 1;
	valid = 1;
	CHECK_EQ(jvstm_insert(&atr, &t3, &valid), (uint32_t)JVSTM_INSERTED);
	CHECK_EQ(valid, 2u);
	jvstm_record_fill(&atr, 3, &t3);
	jvstm_publish(&atr, &m, 3);
	/* a snapshot older than the ring aborts; one the ring still covers is validated through */
	atr.commit = 2u * (JVSTM_ATR + 5);
	valid = 4;
	CHECK_EQ(jvstm_insert(&atr, &t4, &valid), (uint32_t)JVSTM_TOO_OLD);
	valid = 6;
	CHECK_EQ(jvstm_insert(&atr, &t4, &valid), (uint32_t)JVSTM_INSERTED);
	CHECK_EQ(valid, JVSTM_ATR + 5u);
}

/*
 * 300 accounts, 200 threads on 3 workers, semantic chains and 40% inquiries
 * over every account: everything commits, the replay in CTS order matches,
 * every inquiry's sum is the bank's at its snapshot, and a tampered sum or
 * snapshot is caught.
 */
TEST(jvstm_cpu_backend_inquiries_over_every_account)
{
	bank_config cfg = {.accounts = 300, .threads = 200, .tx_per_thread = 30, .semantic_ratio = 30,
			   .read_only = 40, .transfers_per_tx = 2, .read_only_size = 300,
			   .initial_balance = 100000, .seed = 11};
	bank_workload w;
	bank_run o;
	char err[256];
	uint64_t i, ro = 0;

	REQUIRE(bank_generate(&w, &cfg, err, sizeof(err)) == 0);
	bank_run_cpu(&jvstm_bank_cpu_ops, &w, 3, &o);
	for (i = 0; i < w.ntx; i++)
		ro += BANK_TYPE(w.tx[i].meta) == BANK_BALANCE;
	CHECK(ro > 1000);
	CHECK_EQ(bank_run_verify(&w, &o, "jvstm"), ro);
	bank_run_check_tampering(&w, &o);
	bank_run_free(&o);
	bank_free(&w);
}

/*
 * High contention: 8 accounts, 256 threads on 6 workers (more workers than
 * the test machine's cores, so a worker is preempted while it holds the ATR),
 * inquiries over all 8: the version rings fill and everything still verifies.
 * Whether two workers' attempts overlap is up to the OS, so the conflicts
 * themselves are checked above, deterministically.
 */
TEST(jvstm_cpu_backend_high_contention)
{
	bank_config cfg = {.accounts = 8, .threads = 256, .tx_per_thread = 100, .semantic_ratio = 0,
			   .read_only = 30, .transfers_per_tx = 1, .read_only_size = 8,
			   .initial_balance = 100000, .seed = 3};
	bank_workload w;
	bank_run o;
	char err[256];

	REQUIRE(bank_generate(&w, &cfg, err, sizeof(err)) == 0);
	bank_run_cpu(&jvstm_bank_cpu_ops, &w, 6, &o);
	CHECK(bank_run_verify(&w, &o, "jvstm") > 0);
	CHECK(o.r.c.commits_update > 8u * CSMV_VERSIONS); /* every ring wrapped, on average */
	CHECK_EQ(o.r.c.aborts_locked, 0u); /* JVSTM never aborts at an access */
	bank_run_free(&o);
	bank_free(&w);
}
