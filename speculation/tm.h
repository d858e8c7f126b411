/*
 * A word-based software transactional memory whose transactions commit in a
 * given order, for speculation with transactional memory on the host's cores
 * (speculation/cpu_tm.c, `--compare cpu-tm`; Feng, Gupta and Bhuyan's CPU
 * baseline, section 7.1, Figure 9). Its protocol is TL2's (Dice, Shalev and
 * Shavit, "Transactional Locking II"): a global version clock, and a table of
 * versioned locks, each guarding every word whose key falls on it.
 *
 *  - begin: rv, the clock's value.
 *  - read: the transaction's own write of the word when it made one, else
 *    the word between two loads of its lock, which must agree, be unlocked
 *    and hold a version no later than rv; otherwise the transaction aborts
 *    at once (a later commit changed what it could see). The lock is logged.
 *  - write: into the transaction's write set (redo log), nothing shared.
 *  - commit: when the transaction's turn comes (every transaction of an
 *    earlier order has committed), lock the written words' locks, take a
 *    write version wv from the clock, check that every logged lock still
 *    holds a version no later than rv (TL2 skips this when wv is rv + 1), write
 *    the values back and release the locks with version wv; then pass the
 *    turn on. A failed check aborts.
 *
 * The order makes a transaction's commit a point at which every earlier one
 * has committed and no later one can have: what it read was then the latest
 * value of every word, the one an execution in order would have read, and
 * its writes come after all earlier ones' (WAR and WAW need no check). So the
 * memory after transactions 0..k-1 committed equals their execution in
 * order. An abort re-runs the transaction from its begin: the caller's
 * sigsetjmp (sp_tm_begin's comment). One that aborts at its turn runs again
 * with nobody else able to commit, so its second run commits: each
 * transaction runs at most twice after its turn came.
 *
 * Shared words are uint32_t, read and written with relaxed atomics (a
 * transaction may read a word that a commit is writing; its lock's second
 * load then tells it). Keys choose the lock: key & mask, so that distinct
 * keys below the table's size never share one.
 */
#ifndef GB_SPEC_TM_H
#define GB_SPEC_TM_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* The shared part: the clock, the locks, whose turn it is to commit. */
typedef struct sp_tm {
	uint64_t *lock;                 /* version << 1 | locked */
	uint32_t mask;
	_Alignas(64) uint64_t clock;
	_Alignas(64) uint32_t turn;     /* the order of the transaction that commits next */
	uint32_t blocked;               /* threads blocked waiting for their turn */
} sp_tm;

/* A word written by a transaction: where, its key, the value. */
typedef struct sp_tm_write {
	uint32_t *addr;
	uint32_t key, val;
} sp_tm_entry;

/* One thread's transaction (reused for each transaction it runs). */
typedef struct sp_tm_tx {
	sp_tm *tm;
	uint64_t rv;
	uint32_t order;
	uint64_t **rset;                /* the locks of the words read */
	uint32_t nr, rcap;
	sp_tm_entry *wset;
	uint32_t nw, wcap;
	uint64_t wfilter;               /* a bit per key & 63 written, to skip the write set */
	sigjmp_buf env;                 /* where an abort goes: the caller's sigsetjmp */
	uint64_t read_aborts, commit_aborts;
} sp_tm_tx;

/* A TM whose lock table has a lock per key below keys (up to 2^22 locks, then shared). */
void sp_tm_open(sp_tm *m, size_t keys);
void sp_tm_close(sp_tm *m);
/* The first order to commit (orders are consecutive from it). */
void sp_tm_set_turn(sp_tm *m, uint32_t order);

void sp_tm_tx_open(sp_tm_tx *x, sp_tm *m);
void sp_tm_tx_close(sp_tm_tx *x);

/*
 * Begin transaction x with its order. The caller has just called
 * sigsetjmp(x->env, 0), and comes back there, with a nonzero value, when the
 * transaction aborts; it then begins it again (its locals changed since the
 * sigsetjmp must not be relied on: the pattern of speculation/cpu_tm.c keeps
 * none).
 */
static inline void sp_tm_begin(sp_tm_tx *x, uint32_t order)
{
	x->order = order;
	x->nr = x->nw = 0;
	x->wfilter = 0;
	x->rv = __atomic_load_n(&x->tm->clock, __ATOMIC_ACQUIRE);
}

/* Abort x: back to its sigsetjmp. */
_Noreturn void sp_tm_abort(sp_tm_tx *x);
void sp_tm_grow_reads(sp_tm_tx *x);
void sp_tm_grow_writes(sp_tm_tx *x);

static inline uint64_t *sp_tm_lock_of(const sp_tm *m, uint32_t key)
{
	return &m->lock[key & m->mask];
}

/* A transactional read of the word at addr, of key key. */
static inline uint32_t sp_tm_read(sp_tm_tx *x, const uint32_t *addr, uint32_t key)
{
	uint64_t *l = sp_tm_lock_of(x->tm, key), v1, v2;
	uint32_t val, k;

	if (x->wfilter >> (key & 63) & 1)
		for (k = x->nw; k-- > 0;)
			if (x->wset[k].addr == addr)
				return x->wset[k].val;
	v1 = __atomic_load_n(l, __ATOMIC_ACQUIRE);
	val = __atomic_load_n(addr, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	v2 = __atomic_load_n(l, __ATOMIC_RELAXED);
	if (v1 != v2 || (v1 & 1) || v1 >> 1 > x->rv) {
		x->read_aborts++;
		sp_tm_abort(x);
	}
	if (x->nr == x->rcap)
		sp_tm_grow_reads(x);
	x->rset[x->nr++] = l;
	return val;
}

/* A transactional write of val to the word at addr, of key key. */
static inline void sp_tm_write(sp_tm_tx *x, uint32_t *addr, uint32_t key, uint32_t val)
{
	uint32_t k;
	if (x->wfilter >> (key & 63) & 1)
		for (k = x->nw; k-- > 0;)
			if (x->wset[k].addr == addr) {
				x->wset[k].val = val;
				return;
			}
	if (x->nw == x->wcap)
		sp_tm_grow_writes(x);
	x->wset[x->nw].addr = addr;
	x->wset[x->nw].key = key;
	x->wset[x->nw].val = val;
	x->nw++;
	x->wfilter |= 1ull << (key & 63);
}

/*
 * Commit x: wait for its turn, then check and write back as the header says,
 * and pass the turn to the next order. Aborts (to x's sigsetjmp) when the
 * check fails, still holding the turn.
 */
void sp_tm_commit(sp_tm_tx *x);

#endif
