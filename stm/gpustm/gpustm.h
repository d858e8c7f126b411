/*
 * GPU-STM (Xu et al., CGO 2014) as the PR-STM paper describes and compares
 * against it (Shen et al., JPDC 2020, sections 2.6 and 4): the transaction
 * itself. Its scheduler is stm/gpustm/gpustm_sched.h.
 *
 * Written once as GB_HD functions: the GPU kernel and the CPU backend run this
 * exact code over the atomics layer in common/port.h.
 *
 * Lock word (32 bits): bit 31 locked, bits 0-30 the version. `hash` consecutive
 * data words share one lock, as in PR-STM.
 *
 * - Encounter-time lock sorting (section 2.6: "locks must be sorted whenever
 *   transactional reading or writing takes place, to avoid the possibility
 *   of livelock"): every read and every write searches the transaction's lock
 *   log and inserts its lock in ascending order, so the log is sorted when
 *   the transaction commits. This search on every access is the overhead the
 *   paper holds against GPU-STM.
 * - Reads are invisible until commit: a read loads the lock word (a locked
 *   word aborts the attempt) and then the value, and logs both. Writes are
 *   buffered.
 * - Commit locks every lock of the log, read and written alike, in ascending
 *   order, one CAS each; a lock held by another transaction aborts the
 *   attempt, which releases what it took. Since every transaction takes its
 *   locks in the same global order, two of them that need the same locks
 *   cannot each hold one the other waits for: the lockstep livelock that
 *   sorting removes.
 * - Hierarchical validation, while all locks are held: a read whose lock has
 *   the version it read is valid (time-based validation); only when the
 *   versions disagree is its value loaded again and compared with the value
 *   read (value-based validation), so a lock whose version moved for another
 *   reason (another word under the same lock, or a reader's release, below)
 *   does not abort. Holding every lock of the read set makes the value check
 *   of all reads one atomic snapshot.
 * - Release stores every lock with the next version, the locks of reads
 *   included: the paper notes that GPU-STM "modifies the version even with
 *   read operations" (section 4.7), which is what value-based validation
 *   then absorbs. A failed commit restores each lock it took unchanged.
 * - With a stamp counter, a committing update takes a ticket while it holds
 *   all its locks, so ticket order is a valid serial order (the oracle's
 *   replay), exactly as in PR-STM.
 *
 * Where a transaction's metadata lives. The lock table (one versioned lock
 * word per `hash` data words) is in global memory, shared by every thread.
 * A transaction's own metadata, its log (gpustm_log: the read set with each
 * read's version and value, the write set, and the sorted lock log with each
 * lock's word as taken at commit), is reached through the descriptor's `log`
 * pointer, so the same code runs wherever the log is:
 * - gpustm, as the original: "for GPU-STM, metadata is stored in global
 *   memory but the pointers to the data are in local memory" (Shen et al.
 *   section 4, after Xu et al.). Each thread's log is its record in a pool
 *   in global memory (gpustm_mem.logs, a record per thread, indexed by the
 *   thread); the descriptor (the pointer and the three counts) is the
 *   thread's own.
 * - gpustm-local, our variant: the log is a variable of the thread's step,
 *   in thread-local memory (registers and local memory on the GPU, the
 *   worker's stack on the CPU), as PR-STM keeps its sets, so that a
 *   comparison of the two engines measures their protocols and not where
 *   their logs live. The step chooses at compile time (GPUSTM_LOCAL_LOGS,
 *   stm/gpustm/gpustm_step.h), so neither build carries the other's code.
 * Where the papers are silent, the reading kept: a thread's record is
 * contiguous (the original's threads hold pointers to their own logs), so
 * the lanes of a warp that log their j-th read store a record apart (224
 * bytes with sets of 8 words).
 *
 * Deviations, each keeping the algorithm correct:
 * - Versions have 31 bits: 2^31 releases of one lock between a read and its
 *   validation would be needed to mistake a version, so no time limit is
 *   needed (PR-STM's 11-bit versions need one on the CPU).
 */
#ifndef GB_GPUSTM_H
#define GB_GPUSTM_H

#include <stdint.h>

#include "common/port.h"

#define GPUSTM_LOCK_BIT (1u << 31)
#define GPUSTM_VERSION_MASK 0x7FFFFFFFu
/* Threads it runs: PR-STM's limit, so that the two run the same configurations. */
#define GPUSTM_MAX_THREADS (1u << 19)
/* Capacity of the read set, the write set and the lock log of one transaction: 8, or
 * GPUSTM_WIDE_SET in the translation units of workloads with larger transactions
 * (stm/gpustm/gpustm_cpu_set16.c), which define it before including this file. */
#ifndef GPUSTM_MAX_SET
#define GPUSTM_MAX_SET 8
#endif
/* Attempts of one transaction before it is given up: the paper's setting (section 4.1). */
#define GPUSTM_RETRY_LIMIT 100

/* Why an attempt aborted. */
enum gpustm_abort {
	GPUSTM_OK = 0,
	GPUSTM_ABORT_LOCKED,     /* a read met a locked word, or a lock was held at commit */
	GPUSTM_ABORT_VALIDATION, /* a read's version and value both changed */
	GPUSTM_ABORT_CAPACITY,   /* more distinct words than GPUSTM_MAX_SET: a workload bug */
};

/* A transaction's metadata: its entries below the descriptor's counts are the ones in use. */
typedef struct gpustm_log {
	uint32_t r_addr[GPUSTM_MAX_SET], r_ver[GPUSTM_MAX_SET], r_val[GPUSTM_MAX_SET];
	uint32_t w_addr[GPUSTM_MAX_SET], w_val[GPUSTM_MAX_SET];
	uint32_t l_idx[GPUSTM_MAX_SET];  /* the lock log: distinct locks touched, ascending */
	uint32_t l_word[GPUSTM_MAX_SET]; /* at commit: each lock's word when this transaction took it */
} gpustm_log;

typedef struct gpustm_mem {
	uint32_t *locks;
	uint32_t *data;
	uint32_t hash;     /* data words per lock */
	gpustm_log *logs;  /* gpustm's pool of logs, a record per thread; gpustm-local has none (NULL) */
} gpustm_mem;

/* The descriptor a thread keeps: where its log is, and how much of it is in use. */
typedef struct gpustm_tx {
	uint32_t abort;
	uint32_t nr, nw, nl;
	gpustm_log *log;
} gpustm_tx;

GB_HD uint32_t gpustm_version(uint32_t w) { return w & GPUSTM_VERSION_MASK; }
GB_HD int gpustm_is_locked(uint32_t w) { return (w & GPUSTM_LOCK_BIT) != 0; }
GB_HD uint32_t gpustm_next_version(uint32_t w) { return (w + 1u) & GPUSTM_VERSION_MASK; }
GB_HD uint32_t gpustm_lock_of(const gpustm_mem *m, uint32_t addr)
{
	return m->hash == 1 ? addr : addr / m->hash;
}

/* Begin an attempt whose metadata goes to log. */
GB_HD void gpustm_tx_start(gpustm_tx *tx, gpustm_log *log)
{
	tx->log = log;
	tx->abort = GPUSTM_OK;
	tx->nr = tx->nw = tx->nl = 0;
}

/* Put lock idx in the log, in order, once: the search and insert of every access. */
GB_HD void gpustm_log_lock(gpustm_tx *tx, uint32_t idx)
{
	uint32_t j = tx->nl, k;

	while (j > 0 && tx->log->l_idx[j - 1] > idx)
		j--;
	if (j > 0 && tx->log->l_idx[j - 1] == idx)
		return;
	if (tx->nl == GPUSTM_MAX_SET) {
		tx->abort = GPUSTM_ABORT_CAPACITY;
		return;
	}
	for (k = tx->nl; k > j; k--)
		tx->log->l_idx[k] = tx->log->l_idx[k - 1];
	tx->log->l_idx[j] = idx;
	tx->nl++;
}

/* Position of lock idx in the log (it is there). */
GB_HD uint32_t gpustm_log_find(const gpustm_tx *tx, uint32_t idx)
{
	uint32_t j = 0;
	while (j + 1 < tx->nl && tx->log->l_idx[j] != idx)
		j++;
	return j;
}

GB_HD uint32_t gpustm_tx_read(gpustm_tx *tx, const gpustm_mem *m, uint32_t addr)
{
	uint32_t j, w, v, idx;

	if (tx->abort)
		return 0;
	for (j = 0; j < tx->nw; j++)
		if (tx->log->w_addr[j] == addr)
			return tx->log->w_val[j];
	for (j = 0; j < tx->nr; j++)
		if (tx->log->r_addr[j] == addr)
			return tx->log->r_val[j];
	if (tx->nr == GPUSTM_MAX_SET) {
		tx->abort = GPUSTM_ABORT_CAPACITY;
		return 0;
	}
	idx = gpustm_lock_of(m, addr);
	w = gb_ld_acquire_u32(m->locks + idx);
	if (gpustm_is_locked(w)) {
		tx->abort = GPUSTM_ABORT_LOCKED;
		return 0;
	}
	v = gb_ld_relaxed_u32(m->data + addr);
	tx->log->r_addr[tx->nr] = addr;
	tx->log->r_ver[tx->nr] = gpustm_version(w);
	tx->log->r_val[tx->nr] = v;
	tx->nr++;
	gpustm_log_lock(tx, idx);
	return v;
}

/* GPU-STM reads one word at a time: a batch is its reads in order. */
GB_HD void gpustm_tx_prefetch(gpustm_tx *tx, const gpustm_mem *m, const uint32_t *addr, uint32_t n)
{
	uint32_t j;
	for (j = 0; j < n && !tx->abort; j++)
		(void)gpustm_tx_read(tx, m, addr[j]);
}

GB_HD void gpustm_tx_write(gpustm_tx *tx, const gpustm_mem *m, uint32_t addr, uint32_t val)
{
	uint32_t j;

	if (tx->abort)
		return;
	for (j = 0; j < tx->nw; j++)
		if (tx->log->w_addr[j] == addr) {
			tx->log->w_val[j] = val;
			return;
		}
	if (tx->nw == GPUSTM_MAX_SET) {
		tx->abort = GPUSTM_ABORT_CAPACITY;
		return;
	}
	tx->log->w_addr[tx->nw] = addr;
	tx->log->w_val[tx->nw] = val;
	tx->nw++;
	gpustm_log_lock(tx, gpustm_lock_of(m, addr));
}

/* Give back the first n locks of the log as they were taken (nothing was written). */
GB_HD void gpustm_restore_locks(const gpustm_tx *tx, const gpustm_mem *m, uint32_t n)
{
	uint32_t j;
	for (j = 0; j < n; j++)
		gb_st_relaxed_u32(m->locks + tx->log->l_idx[j], tx->log->l_word[j]);
}

/* Lock the whole log in ascending order; a lock held by another aborts the attempt. */
GB_HD int gpustm_lock_all(gpustm_tx *tx, const gpustm_mem *m)
{
	uint32_t j;

	for (j = 0; j < tx->nl; j++) {
		uint32_t *lock = m->locks + tx->log->l_idx[j];
		uint32_t expect = gb_ld_relaxed_u32(lock), got;
		for (;;) {
			if (gpustm_is_locked(expect)) {
				tx->abort = GPUSTM_ABORT_LOCKED;
				gpustm_restore_locks(tx, m, j);
				return 0;
			}
			got = gb_cas_u32(lock, expect, expect | GPUSTM_LOCK_BIT);
			if (got == expect)
				break;
			expect = got; /* someone released it meanwhile: try its new word */
		}
		tx->log->l_word[j] = expect;
	}
	return 1;
}

/*
 * Hierarchical validation of the read set, every lock held: the version
 * first; the value only when the version moved.
 */
GB_HD int gpustm_validate(gpustm_tx *tx, const gpustm_mem *m)
{
	uint32_t j, fenced = 0;

	for (j = 0; j < tx->nr; j++) {
		uint32_t k = gpustm_log_find(tx, gpustm_lock_of(m, tx->log->r_addr[j]));
		if (gpustm_version(tx->log->l_word[k]) == tx->log->r_ver[j])
			continue;
		if (!fenced) {
			gb_fence(); /* the loads below see what the lock's last holder wrote */
			fenced = 1;
		}
		if (gb_ld_relaxed_u32(m->data + tx->log->r_addr[j]) != tx->log->r_val[j]) {
			tx->abort = GPUSTM_ABORT_VALIDATION;
			gpustm_restore_locks(tx, m, tx->nl);
			return 0;
		}
	}
	return 1;
}

/* Lock the log and validate: on success the transaction holds every lock and may commit. */
GB_HD int gpustm_tx_validate(gpustm_tx *tx, const gpustm_mem *m)
{
	if (tx->abort)
		return 0;
	return gpustm_lock_all(tx, m) && gpustm_validate(tx, m);
}

/*
 * Publish the write set, then release every lock with its next version. With
 * a stamp counter and something written, the transaction takes a ticket while
 * it holds its locks and returns it.
 */
GB_HD uint32_t gpustm_tx_commit(gpustm_tx *tx, const gpustm_mem *m, uint32_t *stamp_counter)
{
	uint32_t j, stamp = 0;
	gb_ticket t = {0, 0, 0, 0};
	int stamped = stamp_counter && tx->nw > 0;

	if (stamped)
		t = gb_ticket_begin(stamp_counter);
	for (j = 0; j < tx->nw; j++)
		gb_st_relaxed_u32(m->data + tx->log->w_addr[j], tx->log->w_val[j]);
	gb_fence(); /* the values are visible before the locks open */
	if (stamped)
		stamp = gb_ticket_end(&t);
	for (j = 0; j < tx->nl; j++)
		gb_st_relaxed_u32(m->locks + tx->log->l_idx[j], gpustm_next_version(tx->log->l_word[j]));
	return stamp;
}

#endif
