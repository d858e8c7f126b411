/*
 * JVSTM's commit, as Nunes et al. ("Debunking the CPU+GPU processing with
 * transactional memory", section III-A) dissect it: the host baseline of
 * their comparison, and the algorithm CSMV builds on. Written as GB_HD
 * functions over the atomics layer; the CPU backend (stm/csmv/jvstm_cpu.c) runs
 * them on pthreads, JVSTM-GPU's kernel (stm/csmv/jvstm_gpu.cu) on GPU threads. docs/stm.md ("JVSTM") gives the design and the
 * correctness and progress arguments.
 *
 * What JVSTM shares with CSMV, and takes from it unchanged: the versioned
 * boxes (stm/csmv/csmv.h: a ring of CSMV_VERSIONS versions per data word), the
 * reclamation bound (announced snapshots, safe = min(GTS, every
 * announcement)), the transaction's execution (csmv_tx: reads on the start
 * snapshot, read-only transactions with no read set that never abort, update
 * transactions with read and write sets) and the lane's bookkeeping
 * (stm/csmv/csmv_sched.h). What is JVSTM's own is the commit, here:
 *
 * - The active transaction record (ATR): the write sets of the last
 *   JVSTM_ATR commits, and one word, `commit`, that is 2 x the commit
 *   timestamp (CTS) of the newest record, plus 1 while that record's
 *   write-back runs.
 * - Validation: an update transaction checks its read set against the write
 *   sets of the records committed after its snapshot, outside any lock.
 * - Insertion: a CAS of `commit` from 2c (record c complete, and validated
 *   against) to 2(c+1)+1 inserts the transaction as record c+1. When the CAS
 *   fails or `commit` has moved, either more records completed (validate
 *   against them, try again) or a record's write-back still runs (wait, try
 *   again): the section's two cases.
 * - Write-back: install the versions with CTS c+1, store GTS = c+1, then
 *   `commit` = 2(c+1), which completes the record.
 *
 * So the commit is lock-based: the CAS that inserts a record acquires the ATR
 * and the write-back's end releases it, as the paper describes JVSTM (its
 * "flags its entry ... which is equivalent conceptually to releasing a lock on
 * the ATR"). The later lock-free JVSTM, whose committers help each other's
 * write-backs, pays off only for transactions with many reads and writes (the
 * paper's footnote 1); the bank's are of 2 to 8 words.
 *
 * Deviations, each documented in docs/stm.md: the ATR is a ring of JVSTM_ATR
 * records, not JVSTM's garbage-collected list, so a transaction whose snapshot
 * is older than the ring (or whose records the ring reused while it validated)
 * aborts at validation; the versions of a word are a ring of CSMV_VERSIONS
 * (JVSTM keeps a list cut by its garbage collector), so a write-back may wait
 * for reclamation while it holds the ATR.
 */
#ifndef GB_JVSTM_H
#define GB_JVSTM_H

#include <stdint.h>

#include "common/port.h"
#include "stm/csmv/csmv.h"
#include "stm/csmv/csmv_sched.h"

#define JVSTM_ATR 4096

/* What an attempt to insert a record came to. */
enum jvstm_insert {
	JVSTM_INSERTED = 0, /* the ATR is held: the transaction is record *valid + 1 */
	JVSTM_CONFLICT,     /* a record after the snapshot wrote a word the transaction read */
	JVSTM_TOO_OLD,      /* the ring no longer holds every record after the snapshot */
	JVSTM_BUSY,         /* a record's write-back runs: wait, then try again */
};

typedef struct jvstm_record {
	uint32_t nw;
	uint32_t w[CSMV_MAX_SET];
} jvstm_record;

typedef struct jvstm_atr {
	uint32_t commit; /* 2 x CTS of the newest record, + 1 while its write-back runs */
	jvstm_record rec[JVSTM_ATR];
} jvstm_atr;

/*
 * Whether a record with CTS in (from, to] wrote a word of tx's read set.
 * Records are read with relaxed loads: one being reused meanwhile is caught
 * by the caller's check of `commit` after this.
 */
GB_HD int jvstm_conflicts(const jvstm_atr *a, const csmv_tx *tx, uint32_t from, uint32_t to)
{
	uint32_t c, j, k;
	for (c = from + 1; c - 1 != to; c++) {
		const jvstm_record *r = &a->rec[c % JVSTM_ATR];
		uint32_t nw = gb_ld_relaxed_u32(&r->nw);
		for (k = 0; k < nw && k < CSMV_MAX_SET; k++) {
			uint32_t w = gb_ld_relaxed_u32(&r->w[k]);
			for (j = 0; j < tx->nr; j++)
				if (tx->r_addr[j] == w)
					return 1;
		}
	}
	return 0;
}

/*
 * Validate tx and insert it into the ATR. *valid: the CTS through which tx is
 * validated (its snapshot at first); on JVSTM_INSERTED the caller holds the
 * ATR as record *valid + 1. JVSTM_BUSY returns to the caller, which waits (a
 * CPU thread yields) and calls again with the same *valid.
 */
GB_HD uint32_t jvstm_insert(jvstm_atr *a, const csmv_tx *tx, uint32_t *valid)
{
	for (;;) {
		uint32_t c = gb_ld_acquire_u32(&a->commit), done = c >> 1;
		if (c & 1u)
			return JVSTM_BUSY;
		if (done != *valid) {
			if (done - *valid > JVSTM_ATR)
				return JVSTM_TOO_OLD;
			if (jvstm_conflicts(a, tx, *valid, done))
				return JVSTM_CONFLICT;
			gb_fence(); /* the records' loads before the check that none was reused */
			/* record c + JVSTM_ATR reuses record c's slot: none of (*valid, done] may be gone */
			if ((gb_ld_relaxed_u32(&a->commit) >> 1) - *valid > JVSTM_ATR)
				return JVSTM_TOO_OLD;
			*valid = done;
			continue;
		}
		if (gb_cas_u32(&a->commit, c, 2u * (done + 1u) + 1u) == c)
			return JVSTM_INSERTED;
	}
}

/* The inserted transaction's write set into its record (the ATR is held). */
GB_HD void jvstm_record_fill(jvstm_atr *a, uint32_t cts, const csmv_tx *tx)
{
	jvstm_record *r = &a->rec[cts % JVSTM_ATR];
	uint32_t k;
	gb_st_relaxed_u32(&r->nw, tx->nw);
	for (k = 0; k < tx->nw; k++)
		gb_st_relaxed_u32(&r->w[k], tx->w_addr[k]);
}

/*
 * After the write-back: GTS = cts makes the versions visible to transactions
 * that start from now, then the record is complete and the ATR free.
 */
GB_HD void jvstm_publish(jvstm_atr *a, const csmv_mem *m, uint32_t cts)
{
	gb_fence(); /* the versions and the record before what makes them visible */
	gb_st_relaxed_u32(&m->g->gts, cts);
	gb_st_relaxed_u32(&a->commit, 2u * cts);
}

/*
 * The end of lane l's commit as record cts, once its versions are installed:
 * the record, timed as the paper's "record insert" (Tables I and III), then
 * the publication. The commit's phases of a lane (csmv_lane_outcome): from the
 * end of execution to the insertion its validation, waits for the ATR
 * included (cycles_validate); from there the write-back and the record
 * (cycles_commit, of which cycles_record).
 */
GB_HD void jvstm_record_publish(jvstm_atr *a, const csmv_mem *m, csmv_lane *l, uint32_t cts)
{
	uint64_t t = gb_cycles();
	jvstm_record_fill(a, cts, &l->tx);
	l->c.cycles_record += gb_cycles() - t;
	jvstm_publish(a, m, cts);
}

#endif
