/*
 * PR-STM: priority-rule based software transactional memory
 * (Shen et al., JPDC 2020, section 3.1-3.2, Algorithms 1 and 2).
 *
 * Written once as GB_HD functions: the GPU kernel and the CPU backend run this
 * exact code over the atomics layer in common/port.h.
 *
 * Lock word (32 bits, as the paper lays it out, bit 1 = least significant):
 *   bits  1-11  version, incremented by every committing writer, wraps at 2048
 *   bits 12-30  priority (thread index) of the pre-lock owner; lower wins
 *   bit  31     pre-locked
 *   bit  32     locked
 * `hash` consecutive data words share one lock (the paper's lock coverage).
 *
 * Reads are invisible (validated by version), writes are buffered, locks are
 * taken at commit: pre-lock every lock of the write set (stealing pre-locks
 * only from lower priorities), validate the read set, then turn each pre-lock
 * into a lock with a CAS that fails if a higher priority stole it.
 *
 * Deviations from the printed pseudocode, each keeping the algorithm correct:
 * - txRead takes the version from the same lock-word load that checked the
 *   lock bit (Algorithm 1 loads the word twice) and loads the value after it
 *   with acquire ordering, so a concurrent commit is caught by validation.
 *   The read set keeps the value (as the paper's readSet does) and a repeated
 *   read is answered from it.
 * - prstm_tx_prefetch reads several words whose addresses the body knows in
 *   advance as one batch: all lock words (acquire loads, one per distinct
 *   lock), then all values together. Same outcome as reading them one by one, with fewer dependent
 *   memory round trips. (Relaxed lock loads followed by one acquire fence
 *   measured slower on the H100 than the acquire loads.)
 * - Validation also rejects a read whose lock is currently held (locked bit)
 *   by another transaction. Checking the version alone would let a read-only
 *   transaction commit a snapshot mixing a writer's new and old words while
 *   that writer is between its data stores and its version bumps.
 * - A read whose lock is in the lock set with the same version is not loaded
 *   again at validation: the successful pre-lock CAS compared that very
 *   version, and after it only a higher priority can change the word, which
 *   makes tryLock fail.
 * - txWrite on an address already in the read set reuses the version read
 *   there instead of loading the lock word again; a later change is caught by
 *   the pre-lock version check, as Algorithm 1's own check would be.
 * - The lock set holds each lock index once (hash > 1 maps several written
 *   words to one lock; pre-locking one lock twice would fail against itself).
 * - tryPreLock and tryLock issue the CAS of every lock of the lock set before
 *   looking at any result (independent atomics overlap in the memory system),
 *   then apply Algorithm 2's rules to each: a pre-lock CAS that found a lower
 *   priority's pre-lock with the expected version is retried to steal it; any
 *   other mismatch aborts and releases what was taken. The decisions are the
 *   paper's; only the order of independent CASes differs. The first pre-lock
 *   CAS expects the free word (version, no owner), so the common case costs
 *   one atomic instead of a load plus an atomic.
 * - Releasing a pre-lock restores the free word with the same version
 *   (Algorithm 2 line 25 prints "preLockVal-1", which would corrupt the
 *   version); releasing a lock after a failed tryLock likewise keeps the
 *   version. A commit releases each lock by storing the next version.
 * - The fences are acquire-release fences at device scope rather than
 *   __threadfence(): they are what the read (acquire) and commit (release)
 *   orderings need.
 * - A 2048-commit wrap between a read and its validation is not detected by
 *   the versions (the paper's 11-bit version has the same window). A
 *   transaction may carry a time limit (tx->late) past which validation
 *   aborts it: the CPU backend sets one, since a preempted worker can sleep
 *   through thousands of commits; a GPU warp is not preempted, and its
 *   window of a few round trips is far shorter than 2048 commits on one lock.
 *   On the CPU the limit (tx->window) counts from the attempt's first
 *   transactional access, so what a body does before it (a skiplist's search,
 *   outside the transaction) does not count; device code has none of this.
 * - Long reads (builds with PRSTM_LONG_READS: stm/prstm/prstm_gpu_long.cu,
 *   stm/prstm/prstm_cpu_long.c). The read set holds PRSTM_MAX_SET entries where the
 *   kernel keeps them in registers; a transaction that reads more (the CSMV
 *   paper's inquiries over every account, a GET over 256 ways) logs the rest
 *   in a read log in global memory, m->long_cap (address, version) pairs per
 *   slot, and validation checks every one of them like the others. Two
 *   departures from the readSet, both for the long part only: a word read
 *   again is loaded and logged again rather than looked up (a search over
 *   thousands of entries on every read would make a long read quadratic;
 *   both copies are validated, so a word that changed between them aborts
 *   the transaction as the first copy alone would), and the value is not
 *   kept (nothing looks it up). A slot serves one running attempt: on the
 *   GPU a thread's (prio % threads), its entries interleaved with the other
 *   threads' (entry j at j * threads + slot) so the lanes of a warp writing
 *   their j-th entry touch consecutive words; on the CPU a worker's (prio %
 *   workers: the backend deals logical thread t to worker t % workers, which
 *   runs one attempt at a time), its entries contiguous, so workers share no
 *   cache line.
 */
#ifndef GB_PRSTM_H
#define GB_PRSTM_H

#include <stddef.h>
#include <stdint.h>

#include "common/port.h"

#define PRSTM_VERSION_BITS 11u
#define PRSTM_VERSION_MASK 0x7FFu
#define PRSTM_OWNER_SHIFT 11u
#define PRSTM_OWNER_MASK 0x7FFFFu
#define PRSTM_PRELOCK_BIT (1u << 30)
#define PRSTM_LOCK_BIT (1u << 31)
#define PRSTM_MAX_THREADS (1u << 19)
/* Capacity of each of the read, write and lock sets of one transaction. */
#ifndef PRSTM_MAX_SET
#define PRSTM_MAX_SET 8 /* a GPU kernel may be built with less: stm/prstm/prstm_gpu.cuh; with more
			 * (PRSTM_WIDE_SET, PRSTM_HUGE_SET) for workloads with larger transactions:
			 * stm/prstm/prstm_cpu_set16.c, stm/prstm/prstm_cpu_set64.c */
#endif

/* A set of entries of the read, write or lock set, bit j for entry j: 64 bits past 32 entries. */
#if PRSTM_MAX_SET > 64
#error "PR-STM's sets hold at most 64 words"
#elif PRSTM_MAX_SET > 32
typedef uint64_t prstm_mask;
#else
typedef uint32_t prstm_mask;
#endif
#define PRSTM_BIT(j) ((prstm_mask)1 << (j))
/* entries 0..n-1 (n <= PRSTM_MAX_SET), without shifting by the mask's width */
#define PRSTM_FIRST(n) ((n) ? ((prstm_mask)~(prstm_mask)0 >> (8 * sizeof(prstm_mask) - (n))) : (prstm_mask)0)

/* Why an attempt aborted. */
enum prstm_abort {
	PRSTM_OK = 0,
	PRSTM_ABORT_LOCKED,     /* met a locked word while reading or writing */
	PRSTM_ABORT_PRIORITY,   /* pre-lock held by a higher priority, or stolen before tryLock */
	PRSTM_ABORT_VALIDATION, /* a version changed since it was read */
	PRSTM_ABORT_CAPACITY,   /* more distinct words than PRSTM_MAX_SET: a workload bug */
};

typedef struct prstm_mem {
	uint32_t *locks;
	uint32_t *data;
	uint32_t hash; /* data words per lock */
	/* the read log of PRSTM_LONG_READS builds (above); other builds leave it zero and never read it:
	 * entry j of slot s is at [s * long_slot_step + j * long_step] of each array */
	uint32_t long_cap;   /* entries per slot */
	uint32_t long_slots; /* a transaction's slot is prio % long_slots */
	uint32_t long_step, long_slot_step;
	uint32_t *long_addr, *long_ver;
} prstm_mem;

typedef struct prstm_tx {
	uint32_t prio; /* static priority: the thread index; lower value wins */
	uint64_t late; /* gb_cycles() past which validation gives up (0: never), see prstm_tx_validate */
#if !defined(__CUDA_ARCH__)
	/* cycles an attempt may take from its first access to validation (0: no limit); the CPU
	 * backend's only, so device code (which never sets a limit) keeps none of it */
	uint64_t window;
	/* past the window, the proof that no version wrapped all the same (prstm_versions_held):
	 * the update commits' ticket counter (NULL: none), its value when the window started, the
	 * commits that may be in flight then (one a worker), and the cycles within which the
	 * 32-bit counter cannot wrap */
	const uint32_t *commits;
	uint32_t commits0, inflight;
	uint64_t counted;
#endif
	uint32_t abort;
	uint32_t nr, nw, nl;
	uint32_t r_addr[PRSTM_MAX_SET], r_ver[PRSTM_MAX_SET], r_val[PRSTM_MAX_SET];
	uint32_t w_addr[PRSTM_MAX_SET], w_val[PRSTM_MAX_SET];
	uint32_t l_idx[PRSTM_MAX_SET], l_ver[PRSTM_MAX_SET];
#ifdef PRSTM_LONG_READS
	uint32_t nlong; /* entries in the read log */
	size_t lbase;   /* where its slot starts, set at the first entry */
#endif
} prstm_tx;

/*
 * The read log of a table whose longest transaction touches max_words, on
 * a build whose sets hold `capacity`: the entries one slot needs (at least
 * one), and the words of a log of `slots` slots (addresses, then versions).
 */
GB_HD uint32_t prstm_read_log_cap(uint32_t max_words, uint32_t capacity)
{
	return max_words > capacity ? max_words - capacity : 1;
}

GB_HD size_t prstm_read_log_words(uint32_t cap, uint32_t slots)
{
	return 2 * (size_t)cap * slots;
}

/*
 * Point m at a read log of prstm_read_log_words(cap, slots) words: the
 * GPU's interleaved (entry j of slot s at j * slots + s, so a warp's lanes
 * logging their j-th read store to consecutive words), the CPU's with each
 * slot's entries contiguous (workers share no cache line).
 */
GB_HD void prstm_read_log_attach(prstm_mem *m, uint32_t *log, uint32_t cap, uint32_t slots, int interleaved)
{
	m->long_cap = cap;
	m->long_slots = slots;
	m->long_step = interleaved ? slots : 1;
	m->long_slot_step = interleaved ? 1 : cap;
	m->long_addr = log;
	m->long_ver = log + (size_t)cap * slots;
}

GB_HD uint32_t prstm_version(uint32_t w) { return w & PRSTM_VERSION_MASK; }
GB_HD uint32_t prstm_owner(uint32_t w) { return (w >> PRSTM_OWNER_SHIFT) & PRSTM_OWNER_MASK; }
GB_HD int prstm_is_locked(uint32_t w) { return (w & PRSTM_LOCK_BIT) != 0; }
GB_HD int prstm_is_prelocked(uint32_t w) { return (w & PRSTM_PRELOCK_BIT) != 0; }
GB_HD uint32_t prstm_free_word(uint32_t version) { return version & PRSTM_VERSION_MASK; }
GB_HD uint32_t prstm_prelocked_word(uint32_t version, uint32_t owner)
{
	return PRSTM_PRELOCK_BIT | ((owner & PRSTM_OWNER_MASK) << PRSTM_OWNER_SHIFT) |
	       (version & PRSTM_VERSION_MASK);
}
GB_HD uint32_t prstm_locked_word(uint32_t version, uint32_t owner)
{
	return PRSTM_LOCK_BIT | ((owner & PRSTM_OWNER_MASK) << PRSTM_OWNER_SHIFT) |
	       (version & PRSTM_VERSION_MASK);
}
GB_HD uint32_t prstm_next_version(uint32_t version)
{
	return (version + 1u) & PRSTM_VERSION_MASK;
}
GB_HD uint32_t prstm_lock_of(const prstm_mem *m, uint32_t addr)
{
	return m->hash == 1 ? addr : addr / m->hash;
}

GB_HD void prstm_tx_start(prstm_tx *tx, uint32_t prio)
{
	tx->prio = prio;
	tx->late = 0;
#if !defined(__CUDA_ARCH__)
	tx->window = 0;
	tx->commits = NULL;
	tx->commits0 = tx->inflight = 0;
	tx->counted = 0;
#endif
	tx->abort = PRSTM_OK;
	tx->nr = tx->nw = tx->nl = 0;
#ifdef PRSTM_LONG_READS
	tx->nlong = 0;
	tx->lbase = 0;
#endif
}

/*
 * Start the time limit at the first transactional access of an attempt, on
 * the CPU backend (the only one that sets a window; the GPU kernels carry
 * none of this).
 */
GB_HD void prstm_start_window(prstm_tx *tx)
{
#if !defined(__CUDA_ARCH__)
	if (tx->window && tx->nr == 0 && tx->nl == 0) {
		tx->late = gb_cycles() + tx->window;
		if (tx->commits) /* before the first lock load: acquire keeps that load after it */
			tx->commits0 = gb_ld_acquire_u32(tx->commits);
	}
#else
	(void)tx;
#endif
}

/* Index of addr in the read set, or nr. */
GB_HD uint32_t prstm_find_read(const prstm_tx *tx, uint32_t addr)
{
	uint32_t j;
	for (j = 0; j < tx->nr; j++)
		if (tx->r_addr[j] == addr)
			break;
	return j;
}

GB_HD void prstm_add_read(prstm_tx *tx, const prstm_mem *m, uint32_t addr, uint32_t ver, uint32_t val)
{
	if (tx->nr == PRSTM_MAX_SET) {
#ifdef PRSTM_LONG_READS
		if (tx->nlong < m->long_cap) {
			size_t at;
			if (tx->nlong == 0)
				tx->lbase = (size_t)(tx->prio % m->long_slots) * m->long_slot_step;
			at = tx->lbase + (size_t)tx->nlong * m->long_step;
			m->long_addr[at] = addr;
			m->long_ver[at] = ver;
			tx->nlong++;
			return;
		}
#else
		(void)m;
#endif
		tx->abort = PRSTM_ABORT_CAPACITY;
		return;
	}
	tx->r_addr[tx->nr] = addr;
	tx->r_ver[tx->nr] = ver;
	tx->r_val[tx->nr] = val;
	tx->nr++;
}

GB_HD uint32_t prstm_tx_read(prstm_tx *tx, const prstm_mem *m, uint32_t addr)
{
	uint32_t j, w, v;

	if (tx->abort)
		return 0;
	for (j = 0; j < tx->nw; j++)
		if (tx->w_addr[j] == addr)
			return tx->w_val[j];
	j = prstm_find_read(tx, addr);
	if (j < tx->nr)
		return tx->r_val[j];
	prstm_start_window(tx);
	w = gb_ld_acquire_u32(m->locks + prstm_lock_of(m, addr));
	if (prstm_is_locked(w)) {
		tx->abort = PRSTM_ABORT_LOCKED;
		return 0;
	}
	v = gb_ld_relaxed_u32(m->data + addr);
	prstm_add_read(tx, m, addr, prstm_version(w), v);
	return v;
}

/*
 * Read n (<= PRSTM_MAX_SET) words into the read set as one batch, for bodies
 * that know their addresses up front; later txRead calls of them are answered
 * from the read set. Call it before any write.
 */
GB_HD void prstm_tx_prefetch(prstm_tx *tx, const prstm_mem *m, const uint32_t *addr, uint32_t n)
{
	uint32_t w[PRSTM_MAX_SET] = {0}, v[PRSTM_MAX_SET] = {0}, idx[PRSTM_MAX_SET] = {0};
	uint32_t j, k, locked = 0;
	prstm_mask again = 0;

	if (tx->abort)
		return;
	prstm_start_window(tx);
	/* One load per distinct lock word: with --hash > 1 several words share a
	 * lock, and at high contention every extra load of a hot lock word
	 * queues behind the others at its memory slice. */
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n) {
			idx[j] = prstm_lock_of(m, addr[j]);
			if (m->hash > 1) {
				GB_UNROLL
				for (k = 0; k < j; k++)
					if (idx[k] == idx[j])
						again |= PRSTM_BIT(j);
			}
		}
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n && !(again & PRSTM_BIT(j)))
			w[j] = gb_ld_acquire_u32(m->locks + idx[j]);
	GB_UNROLL
	for (j = 1; j < PRSTM_MAX_SET; j++)
		if (again & PRSTM_BIT(j)) {
			GB_UNROLL
			for (k = 0; k < j; k++)
				if (idx[k] == idx[j] && !(again & PRSTM_BIT(k)))
					w[j] = w[k];
		}
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n)
			locked |= w[j] & PRSTM_LOCK_BIT;
	if (locked) {
		tx->abort = PRSTM_ABORT_LOCKED;
		return;
	}
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n)
			v[j] = gb_ld_relaxed_u32(m->data + addr[j]);
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n && prstm_find_read(tx, addr[j]) == tx->nr)
			prstm_add_read(tx, m, addr[j], prstm_version(w[j]), v[j]);
}

GB_HD void prstm_tx_write(prstm_tx *tx, const prstm_mem *m, uint32_t addr, uint32_t val)
{
	uint32_t j, idx, ver;

	if (tx->abort)
		return;
	for (j = 0; j < tx->nw; j++)
		if (tx->w_addr[j] == addr) {
			tx->w_val[j] = val;
			return;
		}
	idx = prstm_lock_of(m, addr);
	j = prstm_find_read(tx, addr);
	if (j < tx->nr) {
		ver = tx->r_ver[j];
	} else {
		uint32_t w;
		prstm_start_window(tx);
		w = gb_ld_relaxed_u32(m->locks + idx);
		if (prstm_is_locked(w)) {
			tx->abort = PRSTM_ABORT_LOCKED;
			return;
		}
		ver = prstm_version(w);
	}
	if (tx->nw == PRSTM_MAX_SET) {
		tx->abort = PRSTM_ABORT_CAPACITY;
		return;
	}
	tx->w_addr[tx->nw] = addr;
	tx->w_val[tx->nw] = val;
	tx->nw++;
	for (j = 0; j < tx->nl; j++)
		if (tx->l_idx[j] == idx)
			return;
	tx->l_idx[tx->nl] = idx;
	tx->l_ver[tx->nl] = ver;
	tx->nl++;
}

/* Give back the locks of the lock set marked in `locked` and `prelocked` (bit j = entry j). */
GB_HD void prstm_release_locks(const prstm_tx *tx, const prstm_mem *m, prstm_mask locked,
			       prstm_mask prelocked)
{
	uint32_t j;
	for (j = 0; j < tx->nl; j++) {
		if (locked & PRSTM_BIT(j))
			gb_st_relaxed_u32(m->locks + tx->l_idx[j], prstm_free_word(tx->l_ver[j]));
		else if (prelocked & PRSTM_BIT(j))
			/* A CAS: a higher priority may have stolen it meanwhile. */
			gb_cas_u32(m->locks + tx->l_idx[j],
				   prstm_prelocked_word(tx->l_ver[j], tx->prio),
				   prstm_free_word(tx->l_ver[j]));
	}
}

GB_HD int prstm_try_prelock(prstm_tx *tx, const prstm_mem *m)
{
	uint32_t seen[PRSTM_MAX_SET] = {0}, j, n = tx->nl;
	prstm_mask held = 0;

	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n)
			seen[j] = gb_cas_u32(m->locks + tx->l_idx[j], prstm_free_word(tx->l_ver[j]),
					     prstm_prelocked_word(tx->l_ver[j], tx->prio));
	/* Unrolled like the loop above, so that seen[] stays in registers: indexed at run time
	 * it lived in local memory, and storing each CAS result there made the warp wait for
	 * that CAS before issuing the next, n round trips instead of one (docs/stm.md, "The
	 * floor of a transaction"). */
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++) {
		uint32_t ver, mine, expect, got;
		if (j >= n)
			break;
		ver = tx->l_ver[j];
		mine = prstm_prelocked_word(ver, tx->prio);
		expect = prstm_free_word(ver);
		got = seen[j];
		while (got != expect && !tx->abort) {
			if (prstm_version(got) != ver) {
				tx->abort = PRSTM_ABORT_VALIDATION;
			} else if (prstm_is_locked(got) ||
				   (prstm_is_prelocked(got) && prstm_owner(got) < tx->prio)) {
				tx->abort = PRSTM_ABORT_PRIORITY;
			} else { /* a lower priority's pre-lock: steal it */
				expect = got;
				got = gb_cas_u32(m->locks + tx->l_idx[j], expect, mine);
			}
		}
		if (got == expect)
			held |= PRSTM_BIT(j);
	}
	if (tx->abort) {
		prstm_release_locks(tx, m, 0, held);
		return 0;
	}
	return 1;
}

GB_HD int prstm_try_lock(prstm_tx *tx, const prstm_mem *m)
{
	uint32_t seen[PRSTM_MAX_SET] = {0}, j, n = tx->nl;
	prstm_mask locked = 0;

	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n)
			seen[j] = gb_cas_u32(m->locks + tx->l_idx[j],
					     prstm_prelocked_word(tx->l_ver[j], tx->prio),
					     prstm_locked_word(tx->l_ver[j], tx->prio));
	GB_UNROLL
	for (j = 0; j < PRSTM_MAX_SET; j++)
		if (j < n && seen[j] == prstm_prelocked_word(tx->l_ver[j], tx->prio))
			locked |= PRSTM_BIT(j);
	if (locked != PRSTM_FIRST(n)) {
		/* A higher priority stole a pre-lock: every other entry is locked by us. */
		tx->abort = PRSTM_ABORT_PRIORITY;
		prstm_release_locks(tx, m, locked, 0);
		return 0;
	}
	return 1;
}

#ifdef PRSTM_LONG_READS
/*
 * The read log's part of validation: every logged word's lock still has the
 * version read and is not locked. A word this transaction has pre-locked
 * shows the pre-lock bit and its version, which passes as it should. The
 * loads are independent: 8 issue before the first comparison.
 */
GB_HD int prstm_validate_long(const prstm_tx *tx, const prstm_mem *m, uint32_t fenced)
{
	uint32_t j, k, bad = 0;

	if (!fenced)
		gb_fence(); /* the body's value loads stay before these lock loads */
	for (j = 0; j < tx->nlong && !bad; j += 8) {
		uint32_t w[8] = {0}, ver[8] = {0};
		GB_UNROLL
		for (k = 0; k < 8; k++)
			if (j + k < tx->nlong) {
				size_t at = tx->lbase + (size_t)(j + k) * m->long_step;
				ver[k] = m->long_ver[at];
				w[k] = gb_ld_relaxed_u32(m->locks + prstm_lock_of(m, m->long_addr[at]));
			}
		GB_UNROLL
		for (k = 0; k < 8; k++)
			if (j + k < tx->nlong && (prstm_version(w[k]) != ver[k] || prstm_is_locked(w[k])))
				bad = 1;
	}
	return !bad;
}
#endif

/*
 * Whether an attempt past its time window may still trust its versions (the
 * CPU backend's; device code never sets a window). The window is a guess that
 * 2048 commits on one lock take longer than it; a long read (a whole-bank
 * inquiry, a GET over 256 ways) can take longer than any such window, and one
 * that always does would abort for ever even alone. The commits can be
 * counted instead: every update commit takes a ticket from the stamp counter
 * before it releases its locks with the next version, so a lock bumped after
 * the window started was bumped by a commit counted since then or by one of
 * the commits in flight then, at most one a worker. Fewer than 2048 of those
 * together, and no version can have come round again. The version loads of
 * validation come before the counter's load (the fence), so every bump they
 * saw is counted; the counter is 32 bits, so the proof is taken only within
 * `counted` cycles of the window's start, too short for 2^32 tickets.
 */
GB_HD int prstm_versions_held(const prstm_tx *tx)
{
#if !defined(__CUDA_ARCH__)
	uint32_t n;
	if (!tx->commits || gb_cycles() - (tx->late - tx->window) > tx->counted)
		return 0;
	gb_fence();
	n = gb_ld_acquire_u32(tx->commits) - tx->commits0;
	return (uint64_t)n + tx->inflight < PRSTM_VERSION_MASK + 1u;
#else
	(void)tx;
	return 0;
#endif
}

/* txValidate: pre-lock the write set, check the read set, lock the write set. */
GB_HD int prstm_tx_validate(prstm_tx *tx, const prstm_mem *m)
{
	uint32_t j, k, fenced = 0;

	if (tx->abort)
		return 0;
	if (!prstm_try_prelock(tx, m))
		return 0;
	for (j = 0; j < tx->nr; j++) {
		uint32_t idx = prstm_lock_of(m, tx->r_addr[j]), w;
		for (k = 0; k < tx->nl; k++)
			if (tx->l_idx[k] == idx && tx->l_ver[k] == tx->r_ver[j])
				break;
		if (k < tx->nl)
			continue; /* checked by the pre-lock CAS */
		if (!fenced) {
			gb_fence(); /* the body's value loads stay before these lock loads */
			fenced = 1;
		}
		w = gb_ld_relaxed_u32(m->locks + idx);
		if (prstm_version(w) != tx->r_ver[j] || prstm_is_locked(w)) {
			tx->abort = PRSTM_ABORT_VALIDATION;
			prstm_release_locks(tx, m, 0, PRSTM_FIRST(tx->nl));
			return 0;
		}
	}
#ifdef PRSTM_LONG_READS
	if (tx->nlong && !prstm_validate_long(tx, m, fenced)) {
		tx->abort = PRSTM_ABORT_VALIDATION;
		prstm_release_locks(tx, m, 0, PRSTM_FIRST(tx->nl));
		return 0;
	}
#endif
	/* Versions wrap at 2048: a transaction that was held up long enough for
	 * 2048 commits on one of its locks (a CPU worker preempted between its
	 * reads and here) could see its version again and commit on stale data.
	 * Past its `late` limit it aborts instead; from here on the pre-locks
	 * hold its versions. */
	if (tx->late && gb_cycles() > tx->late && !prstm_versions_held(tx)) {
		tx->abort = PRSTM_ABORT_VALIDATION;
		prstm_release_locks(tx, m, 0, PRSTM_FIRST(tx->nl));
		return 0;
	}
	return prstm_try_lock(tx, m);
}

/*
 * txCommit: publish the write set, then release each lock with the next
 * version. With a stamp counter, the transaction takes a ticket while it still
 * holds its locks (its place in a valid serial order) and returns it.
 */
GB_HD uint32_t prstm_tx_commit(prstm_tx *tx, const prstm_mem *m, uint32_t *stamp_counter)
{
	uint32_t j, stamp = 0;
	gb_ticket t = {0, 0, 0, 0};
	if (stamp_counter)
		t = gb_ticket_begin(stamp_counter);
	for (j = 0; j < tx->nw; j++)
		gb_st_relaxed_u32(m->data + tx->w_addr[j], tx->w_val[j]);
	/* The values are visible before the locks open. One fence and relaxed
	 * stores measured faster on the H100 than a release store per lock. */
	gb_fence();
	if (stamp_counter)
		stamp = gb_ticket_end(&t);
	for (j = 0; j < tx->nl; j++)
		gb_st_relaxed_u32(m->locks + tx->l_idx[j],
				  prstm_free_word(prstm_next_version(tx->l_ver[j])));
	return stamp;
}

#endif
