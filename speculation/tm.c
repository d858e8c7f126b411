/*
 * The ordered word-based STM of speculation/tm.h: what is not on the path of
 * every read and write (TL2's commit, the logs' growth, the table).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "speculation/cpu_pool.h"
#include "speculation/tm.h"

/* Locks at most: 32 MB of them; more keys share locks, which only adds aborts. */
#define MAX_LOCKS_LOG2 22
#define FIRST_CAP 64

void sp_tm_open(sp_tm *m, size_t keys)
{
	size_t n = 1;
	memset(m, 0, sizeof(*m));
	while (n < keys && n < ((size_t)1 << MAX_LOCKS_LOG2))
		n *= 2;
	m->lock = gb_xzalloc(n, sizeof(uint64_t), "the transactional memory's locks");
	m->mask = (uint32_t)(n - 1);
}

void sp_tm_close(sp_tm *m)
{
	free(m->lock);
	m->lock = NULL;
}

void sp_tm_set_turn(sp_tm *m, uint32_t order)
{
	__atomic_store_n(&m->turn, order, __ATOMIC_SEQ_CST);
}

void sp_tm_tx_open(sp_tm_tx *x, sp_tm *m)
{
	memset(x, 0, sizeof(*x));
	x->tm = m;
	x->rcap = x->wcap = FIRST_CAP;
	x->rset = gb_xzalloc(x->rcap, sizeof(*x->rset), "a transaction's read set");
	x->wset = gb_xzalloc(x->wcap, sizeof(*x->wset), "a transaction's write set");
}

void sp_tm_tx_close(sp_tm_tx *x)
{
	free(x->rset);
	free(x->wset);
	x->rset = NULL;
	x->wset = NULL;
}

void sp_tm_abort(sp_tm_tx *x)
{
	siglongjmp(x->env, 1);
}

void sp_tm_grow_reads(sp_tm_tx *x)
{
	uint64_t **r = realloc(x->rset, 2 * (size_t)x->rcap * sizeof(*r));
	if (!r)
		gb_die(GB_EXIT_RUNTIME, "out of memory for a read set of %u words", 2 * x->rcap);
	x->rset = r;
	x->rcap *= 2;
}

void sp_tm_grow_writes(sp_tm_tx *x)
{
	sp_tm_entry *w = realloc(x->wset, 2 * (size_t)x->wcap * sizeof(*w));
	if (!w)
		gb_die(GB_EXIT_RUNTIME, "out of memory for a write set of %u words", 2 * x->wcap);
	x->wset = w;
	x->wcap *= 2;
}

/* Every logged lock holds a version no later than rv (locked only by this commit, which
 * keeps the version it found in a lock it takes). */
static int reads_valid(const sp_tm_tx *x)
{
	uint32_t k;
	for (k = 0; k < x->nr; k++)
		if (__atomic_load_n(x->rset[k], __ATOMIC_ACQUIRE) >> 1 > x->rv)
			return 0;
	return 1;
}

/* Pass the turn to the next order. */
static void pass_turn(sp_tm_tx *x)
{
	sp_wake_word(&x->tm->turn, x->order + 1, &x->tm->blocked);
}

void sp_tm_commit(sp_tm_tx *x)
{
	sp_tm *m = x->tm;
	uint64_t wv;
	uint32_t k;

	/* Only the transaction whose turn it is commits, so no two commits take a lock at once:
	 * a lock found locked below is this commit's own. */
	sp_wait_word(&m->turn, x->order, &m->blocked);
	if (!x->nw) {
		if (!reads_valid(x)) {
			x->commit_aborts++;
			sp_tm_abort(x);
		}
		pass_turn(x);
		return;
	}
	for (k = 0; k < x->nw; k++) {
		uint64_t *l = sp_tm_lock_of(m, x->wset[k].key), v = __atomic_load_n(l, __ATOMIC_RELAXED);
		if (!(v & 1))
			__atomic_store_n(l, v | 1, __ATOMIC_RELAXED);
	}
	/* readers that see a value written below see its lock taken (a seqlock's writer) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	wv = __atomic_add_fetch(&m->clock, 1, __ATOMIC_ACQ_REL);
	if (wv != x->rv + 1 && !reads_valid(x)) {
		for (k = 0; k < x->nw; k++) { /* release the locks with the versions they held */
			uint64_t *l = sp_tm_lock_of(m, x->wset[k].key), v = __atomic_load_n(l, __ATOMIC_RELAXED);
			__atomic_store_n(l, v & ~(uint64_t)1, __ATOMIC_RELEASE);
		}
		x->commit_aborts++;
		sp_tm_abort(x);
	}
	for (k = 0; k < x->nw; k++)
		__atomic_store_n(x->wset[k].addr, x->wset[k].val, __ATOMIC_RELAXED);
	for (k = 0; k < x->nw; k++)
		__atomic_store_n(sp_tm_lock_of(m, x->wset[k].key), wv << 1, __ATOMIC_RELEASE);
	pass_turn(x);
}
