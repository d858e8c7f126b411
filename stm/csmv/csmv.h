/*
 * CSMV, the client-server multi-versioned STM of Nunes et al. ("Debunking
 * the CPU+GPU processing with transactional memory", section III-B), and its
 * ablations of section IV-C: the per-lane transaction, the versioned boxes,
 * the client's pre-validation, write-back and timestamp publication, and the
 * server's validation against the active transaction record (ATR). Written
 * once as GB_HD functions: the GPU kernel (stm/csmv/csmv_gpu.cu) and the CPU
 * backend (stm/csmv/csmv_cpu.c) run this code; docs/stm.md ("CSMV") gives the
 * design and the correctness and progress arguments.
 *
 * - VBox: every data word keeps its last CSMV_VERSIONS versions in a ring of
 *   64-bit slots (commit timestamp << 32 | value, one single-copy-atomic
 *   word) and a count of the versions ever written (head). Version v lives in
 *   slot v % CSMV_VERSIONS; the load puts version 0 (timestamp 0) in each.
 * - A transaction reads the snapshot of its start: the global timestamp
 *   (GTS) it read. For each word it takes the newest version whose timestamp
 *   is at most that. Declared read-only transactions (api/tx_table.h,
 *   TX_ENTRY_READONLY) keep no read set and never abort; update transactions
 *   keep their read and write sets (CSMV_MAX_SET words each) and send them to
 *   the server.
 * - Clients run in groups of CSMV_GROUP lanes, a warp on the GPU, which start
 *   their transactions together on one snapshot and submit their update
 *   transactions as one request.
 * - The server validates each transaction of a request against the write sets
 *   of the ATR entries committed after its snapshot, read set and write set
 *   alike (section III-B: write-write conflicts are checked too, so that
 *   client write-backs to one word never race), gives the committed ones
 *   consecutive commit timestamps (CTS) and inserts them into the ATR.
 * - Client write-back: a committed transaction installs its versions; then
 *   the group, once GTS has reached the CTS before its first, advances GTS
 *   past its last with one store (GTS advanced once per batch).
 * - Reclamation: a group announces the snapshot it reads (client_ts) while
 *   it executes, and idles it after; the server publishes safe = min(GTS,
 *   every announcement). Overwriting the oldest slot of a word is allowed
 *   once the version after it has a timestamp <= safe: every running reader
 *   then stops at that one or a newer version.
 *
 * Mode bits (the engine names of section IV-C): csmv has all three;
 * csmv-nocv drops collaborative validation (a GPU-only difference: a worker
 * warp's lanes validate different transactions instead of the entries of one
 * transaction; the CPU server validates one by one either way); csmv-onlycs
 * also drops pre-validation with batched ATR insertion (each transaction is
 * validated against the ATR including those of its own request inserted
 * before it, and inserted alone) and client write-back (the server installs
 * the versions and advances GTS once per transaction).
 *
 * The server is the paper's by default (stm/csmv/csmv_server.h): a receiver
 * dispatching requests to worker warps, the ATR a ring of committed write
 * sets scanned at validation, one CAS reserving a batch's slots. CSMV_INDEX
 * selects the other server, csmv-index and its ablations: one server warp
 * that polls and decides every request itself, against an ATR indexed by
 * word (csmv_atr below), so validation costs one load per word whatever the
 * snapshot's age (docs/fidelity.md measures the two against each other).
 *
 * Deviations, each documented in docs/stm.md: a group shares one snapshot;
 * pre-validation reads the group's request slots in memory instead of
 * shuffling the sets; pre-validation aborts a lane that conflicts with any
 * earlier lane of its group, whether or not that one commits.
 */
#ifndef GB_CSMV_H
#define GB_CSMV_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

/*
 * The words of an update's read set and of its write set: 16, so memcached's
 * PUT of the paper's layout (14 words: a 4-word key, an 8-word value, a stamp
 * and the set's clock; workloads/stm/memcached.h) fits. A group's request
 * holds three such arrays a lane (6 KB a group).
 */
#define CSMV_MAX_SET 16
#define CSMV_GROUP 32
#define CSMV_VERSIONS 8
#define CSMV_MAX_THREADS (1u << 19)
#define CSMV_IDLE 0xFFFFFFFFu
#define CSMV_AHEAD 16 /* words a read-only transaction reads ahead, where its workload asks (csmv_tx_read) */

/* The mechanisms of section III-B an engine name keeps (section IV-C). */
#define CSMV_CV 1u          /* collaborative validation by the server warp */
#define CSMV_BATCHED 2u     /* client pre-validation and batched ATR insertion */
#define CSMV_CLIENT_WB 4u   /* client write-back and GTS advanced once per batch */
#define CSMV_FULL (CSMV_CV | CSMV_BATCHED | CSMV_CLIENT_WB)
#define CSMV_NOCV (CSMV_BATCHED | CSMV_CLIENT_WB)
#define CSMV_ONLYCS 0u
#define CSMV_INDEX 8u       /* the single server warp and the ATR indexed by word, not section III-B's server */

/* Why an attempt failed. */
enum csmv_abort {
	CSMV_OK = 0,
	CSMV_ABORT_CAPACITY,  /* an update touched more than CSMV_MAX_SET words: a workload bug */
	CSMV_ABORT_NOVERSION, /* no version visible at the snapshot: reclamation broken */
	CSMV_ABORT_RO_WRITE,  /* a declared read-only body wrote: a workload bug */
};

/* The words every client and the server share. */
typedef struct csmv_words {
	uint32_t gts;         /* commits whose versions are installed: the snapshot a new transaction reads */
	uint32_t safe;        /* reclamation bound: no running transaction reads a snapshot below it */
	uint32_t groups_done; /* client groups that have finished: the server stops when all have */
	uint32_t pad;
} csmv_words;

/*
 * One group's mailbox. The client fills the slots of the lanes it submits
 * (mask) and the snapshot, then bumps seq; the server answers with the lanes
 * it committed, the CTS of the first and each lane's CTS (consecutive unless
 * the lanes were inserted one by one), then sets done = seq. Slots are laid
 * out entry-major per lane so the server warp's lanes read one transaction's
 * entries side by side.
 */
typedef struct csmv_req {
	uint32_t seq, done;
	uint32_t snap, mask;
	uint32_t commit, base;
	uint32_t cts[CSMV_GROUP];
	uint32_t nr[CSMV_GROUP], nw[CSMV_GROUP];
	uint32_t r[CSMV_GROUP][CSMV_MAX_SET];
	uint32_t w[CSMV_GROUP][CSMV_MAX_SET];
	uint32_t v[CSMV_GROUP][CSMV_MAX_SET];
} csmv_req;

typedef struct csmv_mem {
	uint32_t *head;      /* per data word: versions ever written */
	uint64_t *ver;       /* per data word: CSMV_VERSIONS slots */
	csmv_words *g;
	uint32_t *client_ts; /* per group: the snapshot it reads, or CSMV_IDLE */
	csmv_req *req;       /* per group */
	uint32_t *wcts;      /* per data word: the ATR's index (csmv_atr; CSMV_INDEX only) */
	uint32_t *taken;     /* per group: the last request the receiver dispatched (its own) */
	uint32_t ngroups;
	uint32_t words;      /* data words */
} csmv_mem;

/*
 * The server's active transaction record, indexed by word: for every data
 * word the CTS of the last commit that wrote it (0: the load). "Some commit
 * with CTS in (snap, tail] wrote addr" is then wcts[addr] > snap, since CTS
 * grow: the answer a scan of the ATR's entries after the snapshot gives, in
 * one load per word of a transaction's sets instead of one per commit since
 * its snapshot, and with no bound on how old a snapshot may be. Only the
 * server reads and writes it.
 */
typedef struct csmv_atr {
	uint32_t tail;  /* CTS of the last commit */
	uint32_t *wcts; /* per data word */
} csmv_atr;

typedef struct csmv_tx {
	uint32_t snap, ro, abort;
	uint32_t nr, nw;
	uint32_t result; /* TX_RESULT of a read-only body */
	uint32_t r_addr[CSMV_MAX_SET];
	uint32_t w_addr[CSMV_MAX_SET], w_val[CSMV_MAX_SET];
	/* read-only: the window read ahead (csmv_tx_read_ahead), when `ahead` */
	uint32_t ahead, ahead_base, ahead_n, ahead_ok, ahead_synced;
	uint32_t ahead_val[CSMV_AHEAD];
} csmv_tx;

GB_HD uint64_t csmv_version(uint32_t ts, uint32_t val)
{
	return ((uint64_t)ts << 32) | val;
}

/* Every word's first version, timestamp 0 (the load; no transaction runs). */
GB_HD void csmv_box_init(const csmv_mem *m, uint32_t addr, uint32_t val)
{
	m->ver[(size_t)addr * CSMV_VERSIONS] = csmv_version(0, val);
	m->head[addr] = 1;
}

/* The newest value of a word (after a run, for the oracle). */
GB_HD uint32_t csmv_box_newest(const csmv_mem *m, uint32_t addr)
{
	uint32_t h = m->head[addr];
	return (uint32_t)m->ver[(size_t)addr * CSMV_VERSIONS + (h - 1) % CSMV_VERSIONS];
}

/*
 * Before a run that starts from what the last one left (batches back to
 * back): the word's newest value becomes its only version, at timestamp 0.
 * Each run numbers its commits from 1 again, so a version of the run before,
 * stamped up to its last commit, would look newer than every snapshot of
 * this one and would never be reclaimed.
 */
GB_HD void csmv_box_rebase(const csmv_mem *m, uint32_t addr)
{
	csmv_box_init(m, addr, csmv_box_newest(m, addr));
}

/*
 * The value of addr in the snapshot snap: the newest version with a
 * timestamp <= snap. The head is loaded with acquire so the slots read after
 * it are at least as new; a slot overwritten since holds a version newer than
 * snap and is passed over. Returns 0 when none is visible (cannot happen while
 * reclamation is correct: the run fails then, it does not guess).
 */
GB_HD int csmv_read_version(const csmv_mem *m, uint32_t addr, uint32_t snap, uint32_t *val)
{
	uint32_t h = gb_ld_acquire_u32(m->head + addr), k;
	const uint64_t *box = m->ver + (size_t)addr * CSMV_VERSIONS;

	for (k = 0; k < CSMV_VERSIONS && k < h; k++) {
		uint64_t v = gb_ld_relaxed_u64(box + (h - 1 - k) % CSMV_VERSIONS);
		if ((uint32_t)(v >> 32) <= snap) {
			*val = (uint32_t)v;
			return 1;
		}
	}
	return 0;
}

/*
 * Install version (cts, val) of addr. The caller is its only writer (the
 * server's write-write check). When the ring is full the oldest slot is
 * overwritten only if the version after it is visible at `safe`; else returns
 * 0 and the caller waits for the server to raise safe. *kept: versions of the
 * word a running transaction may still read once this one is in (those newer
 * than safe, and the newest at or below it).
 */
GB_HD int csmv_install(const csmv_mem *m, uint32_t addr, uint32_t cts, uint32_t val, uint32_t safe,
		       uint32_t *kept)
{
	uint32_t h = gb_ld_relaxed_u32(m->head + addr), k, newer = 1, older = 0;
	uint64_t *box = m->ver + (size_t)addr * CSMV_VERSIONS;

	if (h >= CSMV_VERSIONS &&
	    (uint32_t)(gb_ld_relaxed_u64(box + (h + 1) % CSMV_VERSIONS) >> 32) > safe)
		return 0;
	for (k = 1; k < CSMV_VERSIONS && k <= h; k++) {
		if ((uint32_t)(gb_ld_relaxed_u64(box + (h - k) % CSMV_VERSIONS) >> 32) > safe)
			newer++;
		else
			older = 1;
	}
	*kept = newer + older;
	gb_st_relaxed_u64(box + h % CSMV_VERSIONS, csmv_version(cts, val));
	gb_fence(); /* the slot before the head that announces it */
	gb_st_relaxed_u32(m->head + addr, h + 1);
	return 1;
}

/*
 * A group announces the snapshot it is about to read and returns it. The
 * sequentially consistent fence pairs with the server's in csmv_refresh_safe:
 * either the server sees the announcement, or it read GTS before this group
 * reads it here, so its bound is at most the snapshot returned.
 */
GB_HD uint32_t csmv_announce(const csmv_mem *m, uint32_t group)
{
	gb_st_relaxed_u32(m->client_ts + group, gb_ld_relaxed_u32(&m->g->gts));
	gb_fence_sc();
	return gb_ld_acquire_u32(&m->g->gts);
}

/* The group has read all it reads: its snapshot no longer holds versions back. */
GB_HD void csmv_retire(const csmv_mem *m, uint32_t group)
{
	gb_fence(); /* the version reads stay before the announcement goes */
	gb_st_relaxed_u32(m->client_ts + group, CSMV_IDLE);
}

/* safe = min(GTS, every announcement), raised only (the server alone writes it). */
GB_HD uint32_t csmv_safe_bound(uint32_t gts, const uint32_t *client_ts, uint32_t ngroups)
{
	uint32_t k, s = gts;
	for (k = 0; k < ngroups; k++) {
		uint32_t c = gb_ld_relaxed_u32(client_ts + k);
		if (c < s)
			s = c;
	}
	return s;
}

GB_HD uint32_t csmv_refresh_safe(const csmv_mem *m)
{
	uint32_t g = gb_ld_acquire_u32(&m->g->gts), s, old = gb_ld_relaxed_u32(&m->g->safe);
	gb_fence_sc();
	s = csmv_safe_bound(g, m->client_ts, m->ngroups);
	if (s > old)
		gb_st_relaxed_u32(&m->g->safe, s);
	return s > old ? s : old;
}

/* ---- the transaction, on one lane ---- */

GB_HD void csmv_tx_start(csmv_tx *tx, uint32_t snap, int ro)
{
	tx->snap = snap;
	tx->ro = ro ? 1u : 0u;
	tx->abort = CSMV_OK;
	tx->nr = tx->nw = 0;
	tx->result = 0;
	tx->ahead = 0;
	tx->ahead_n = tx->ahead_ok = 0;
	tx->ahead_synced = 0;
}

/*
 * A read-only transaction of a workload that asks for it (CSMV_STEP_AHEAD,
 * stm/csmv/csmv_step.h) reads words CSMV_AHEAD at a time: the heads of the
 * window's words, then the newest slot of each, every load independent of the
 * others, so a window costs two memory latencies instead of two a word
 * (memcached's GETs read a set's consecutive ways). The lanes of a warp
 * refill their windows at different reads, so the warp diverges there; on
 * the bank's inquiries over thousands of accounts that divergence lasts and
 * costs more than the latency saved (docs/stm.md), and the bank reads word
 * by word. A word whose newest version is newer than the snapshot
 * is left to csmv_read_version. The loads are relaxed: every version with a
 * timestamp <= snap was installed, head included, before a store of GTS >=
 * snap, and the acquire load of GTS below (once per transaction, by this
 * lane) makes those stores visible, so the newest slot a head names holds
 * that version or a newer one, never an older one left from the ring's last
 * lap. Reclamation keeps the version read: the group's snapshot is announced.
 */
GB_HD void csmv_tx_read_ahead(csmv_tx *tx, const csmv_mem *m, uint32_t addr)
{
	uint32_t h[CSMV_AHEAD], n = m->words - addr < CSMV_AHEAD ? m->words - addr : CSMV_AHEAD, j, ok = 0;
	uint64_t v[CSMV_AHEAD];

	if (!tx->ahead_synced) {
		(void)gb_ld_acquire_u32(&m->g->gts);
		tx->ahead_synced = 1;
	}
	/* unrolled with constant indices, so h and v stay in registers and the loads issue back to back */
	GB_UNROLL
	for (j = 0; j < CSMV_AHEAD; j++)
		h[j] = j < n ? gb_ld_relaxed_u32(m->head + addr + j) : 1u;
	GB_UNROLL
	for (j = 0; j < CSMV_AHEAD; j++)
		v[j] = j < n ? gb_ld_relaxed_u64(m->ver + (size_t)(addr + j) * CSMV_VERSIONS + (h[j] - 1) % CSMV_VERSIONS)
			     : 0;
	GB_UNROLL
	for (j = 0; j < CSMV_AHEAD; j++) {
		tx->ahead_val[j] = (uint32_t)v[j];
		if (j < n && (uint32_t)(v[j] >> 32) <= tx->snap)
			ok |= 1u << j;
	}
	tx->ahead_base = addr;
	tx->ahead_n = n;
	tx->ahead_ok = ok;
}

GB_HD uint32_t csmv_tx_read(csmv_tx *tx, const csmv_mem *m, uint32_t addr)
{
	uint32_t j, v = 0;

	if (tx->abort)
		return 0;
	if (!tx->ro) {
		for (j = 0; j < tx->nw; j++)
			if (tx->w_addr[j] == addr)
				return tx->w_val[j];
	} else if (tx->ahead) {
		uint32_t k = addr - tx->ahead_base;
		if (k >= tx->ahead_n) {
			csmv_tx_read_ahead(tx, m, addr);
			k = 0;
		}
		if ((tx->ahead_ok >> k) & 1u)
			return tx->ahead_val[k];
		/* in the window but newer than the snapshot: the word's box has the version */
	}
	if (!csmv_read_version(m, addr, tx->snap, &v)) {
		tx->abort = CSMV_ABORT_NOVERSION;
		return 0;
	}
	if (tx->ro)
		return v; /* a read-only transaction keeps no read set */
	for (j = 0; j < tx->nr; j++)
		if (tx->r_addr[j] == addr)
			return v;
	if (tx->nr == CSMV_MAX_SET) {
		tx->abort = CSMV_ABORT_CAPACITY;
		return 0;
	}
	tx->r_addr[tx->nr++] = addr;
	return v;
}

/* Reads are served from versions that never change, so a batch is the reads in order. */
GB_HD void csmv_tx_prefetch(csmv_tx *tx, const csmv_mem *m, const uint32_t *addr, uint32_t n)
{
	uint32_t j;
	for (j = 0; j < n && !tx->abort; j++)
		(void)csmv_tx_read(tx, m, addr[j]);
}

/* TX_PEEK: the word at the transaction's snapshot, kept in no read set (0 when no version is left). */
GB_HD uint32_t csmv_tx_peek(const csmv_tx *tx, const csmv_mem *m, uint32_t addr)
{
	uint32_t v = 0;
	return csmv_read_version(m, addr, tx->snap, &v) ? v : 0;
}

GB_HD void csmv_tx_write(csmv_tx *tx, uint32_t addr, uint32_t val)
{
	uint32_t j;

	if (tx->abort)
		return;
	if (tx->ro) {
		tx->abort = CSMV_ABORT_RO_WRITE;
		return;
	}
	for (j = 0; j < tx->nw; j++)
		if (tx->w_addr[j] == addr) {
			tx->w_val[j] = val;
			return;
		}
	if (tx->nw == CSMV_MAX_SET) {
		tx->abort = CSMV_ABORT_CAPACITY;
		return;
	}
	tx->w_addr[tx->nw] = addr;
	tx->w_val[tx->nw] = val;
	tx->nw++;
}

/* An update transaction's sets into its lane's slot of the group's request. */
GB_HD void csmv_request_fill(csmv_req *q, uint32_t lane, const csmv_tx *tx)
{
	uint32_t j;
	q->nr[lane] = tx->nr;
	q->nw[lane] = tx->nw;
	for (j = 0; j < tx->nr; j++)
		q->r[lane][j] = tx->r_addr[j];
	for (j = 0; j < tx->nw; j++) {
		q->w[lane][j] = tx->w_addr[j];
		q->v[lane][j] = tx->w_val[j];
	}
}

GB_HD int csmv_in(const uint32_t *set, uint32_t n, uint32_t addr)
{
	uint32_t j;
	for (j = 0; j < n; j++)
		if (set[j] == addr)
			return 1;
	return 0;
}

/*
 * Client-side pre-validation of lane `lane` of a group's request: the lanes
 * of one request take consecutive CTS in lane order, so a lane conflicts when
 * an earlier submitted lane writes a word it reads (it read the snapshot's
 * value, not that lane's) or writes (write-write). Such a lane is aborted
 * before the request leaves, so the server checks a request only against
 * other groups' commits.
 */
GB_HD int csmv_prevalidate(const csmv_req *q, uint32_t lane, uint32_t mask)
{
	uint32_t j, k;
	for (j = 0; j < lane; j++) {
		if (!((mask >> j) & 1u))
			continue;
		for (k = 0; k < q->nw[j]; k++)
			if (csmv_in(q->r[lane], q->nr[lane], q->w[j][k]) ||
			    csmv_in(q->w[lane], q->nw[lane], q->w[j][k]))
				return 0;
	}
	return 1;
}

/* ---- the server ---- */

/* Whether a commit after snapshot `snap` (and inserted so far) wrote addr. */
GB_HD int csmv_atr_hit(const csmv_atr *a, uint32_t addr, uint32_t snap)
{
	return a->wcts[addr] > snap;
}

/* One transaction of a request against the commits inserted after its snapshot. */
GB_HD int csmv_validate(const csmv_atr *a, const csmv_req *q, uint32_t lane)
{
	uint32_t j, s = q->snap;
	for (j = 0; j < q->nr[lane]; j++)
		if (csmv_atr_hit(a, q->r[lane][j], s))
			return 0;
	for (j = 0; j < q->nw[lane]; j++)
		if (csmv_atr_hit(a, q->w[lane][j], s))
			return 0;
	return 1;
}

GB_HD void csmv_atr_insert(csmv_atr *a, const csmv_req *q, uint32_t lane, uint32_t cts)
{
	uint32_t j;
	for (j = 0; j < q->nw[lane]; j++)
		a->wcts[q->w[lane][j]] = cts;
}

/*
 * Decide a request (one server thread; the GPU server warp splits the same
 * checks over its lanes). Batched: every lane is validated against the ATR as
 * it was when the request arrived (pre-validation made the lanes of one
 * request independent: none writes what another reads or writes), then the
 * committed ones are inserted together. Otherwise each lane is validated
 * against the ATR including the lanes of its request inserted before it, and
 * inserted alone. Returns the committed lanes; *base is the CTS of the first.
 */
GB_HD uint32_t csmv_decide(csmv_atr *a, const csmv_req *q, uint32_t mask, uint32_t mode, uint32_t *base)
{
	uint32_t lane, commit = 0;

	*base = a->tail + 1;
	for (lane = 0; lane < CSMV_GROUP; lane++) {
		if (!((mask >> lane) & 1u))
			continue;
		if (!csmv_validate(a, q, lane))
			continue;
		commit |= 1u << lane;
		if (!(mode & CSMV_BATCHED))
			csmv_atr_insert(a, q, lane, ++a->tail);
	}
	if (mode & CSMV_BATCHED)
		for (lane = 0; lane < CSMV_GROUP; lane++)
			if ((commit >> lane) & 1u)
				csmv_atr_insert(a, q, lane, ++a->tail);
	return commit;
}

/* CTS of lane `lane` among the committed lanes of a request. */
GB_HD uint32_t csmv_cts_of(uint32_t commit, uint32_t base, uint32_t lane)
{
	uint32_t below = commit & ((1u << lane) - 1u), n = 0;
	while (below) {
		below &= below - 1u;
		n++;
	}
	return base + n;
}

GB_HD uint32_t csmv_popc(uint32_t x)
{
	uint32_t n = 0;
	while (x) {
		x &= x - 1u;
		n++;
	}
	return n;
}

#endif
