/*
 * CSMV's server as Nunes et al. describe it (section III-B, "Client-server
 * architecture", "Batched ATR insert", "Collaborative validation"): one
 * receiver that listens for the client groups' requests and dispatches each
 * to a worker; workers that validate a request against the active
 * transaction record (ATR) and insert its committed transactions. Written
 * once as GB_HD functions over the atomics layer; the CPU backend
 * (stm/csmv/csmv_cpu.c) runs a receiver thread and worker threads on them, the
 * GPU kernel (stm/csmv/csmv_gpu.cu) a receiver warp and worker warps, the
 * ATR in shared memory.
 *
 * - The ATR is the paper's record of committed transactions: a ring of
 *   `size` records, record c (the commit with CTS c) in slot c % size,
 *   holding that commit's write set. `tail` is the last CTS reserved.
 * - Validation of a transaction with snapshot s scans the records s+1 ...
 *   t (t: the tail it validates up to) for a word of its read or write set
 *   (write-write conflicts too, section III-B); its cost grows with the
 *   commits since its snapshot, which is what Table III's "Valid." measures.
 * - Reservation: after validating a batch up to t, a leader reserves its
 *   slots with one CAS of tail from t to t + n (the batch's committed
 *   transactions). When the CAS fails, records were reserved meanwhile: the
 *   batch is validated against those (t, tail'] and the CAS tried again, as
 *   JVSTM retries its insertion (section III-A).
 * - A record is written after its reservation, so a validator may meet a
 *   slot whose record is not written yet, and a slot may be reused by a
 *   later lap of the ring while it reads it. Each slot has a stamp: 2c + 1
 *   while record c is written, 2c once it is. A reader of record c waits
 *   while the stamp is below 2c or is 2c + 1, and treats a stamp above 2c + 1
 *   (or one that changed while it read the write set) as "record c is gone".
 * - A transaction whose snapshot is older than the ring (a record it must be
 *   checked against is gone) aborts: the paper's ATR lives in scratchpad
 *   memory, which is finite, and it does not say what happens then; this is
 *   the reading that keeps validation correct (docs/fidelity.md).
 *
 * Every access to a record or the tail is an atomic operation of the
 * atomics layer at block scope (common/port.h, gb_*_cta; a record's stores
 * are atomic exchanges, which compute-sanitizer's racecheck takes as ordered
 * where it reports plain strong stores against the readers): several workers
 * read and write them at once, all of them warps of the server block, so a
 * record read costs block-scope fences and no device-scope one; on the CPU
 * backend they are the process-scope operations.
 */
#ifndef GB_CSMV_SERVER_H
#define GB_CSMV_SERVER_H

#include <stdint.h>

#include "common/port.h"
#include "stm/csmv/csmv.h"

#define CSMV_WORKERS_DEFAULT 7 /* a server block of 8 warps: the receiver and 7 workers */
#define CSMV_WORKERS_MAX 31    /* with the receiver, one block of at most 1024 threads */
/*
 * Records: 144 KiB of shared memory at 72 bytes a record (CSMV_MAX_SET 16). The ring must hold
 * the commits a snapshot misses while its request waits, about the update transactions in
 * flight: up to the clients, 1792 in the paper's runs. At most what a block may have (227 KiB on
 * an H100 or H200: 3228 records); the CPU backend takes up to CSMV_ATR_MAX.
 */
#define CSMV_ATR_DEFAULT 2048
#define CSMV_ATR_MIN 64
#define CSMV_ATR_MAX 4096

typedef struct csmv_record {
	uint32_t stamp; /* 2 CTS while the record is complete, 2 CTS + 1 while it is written */
	uint32_t nw;
	uint32_t w[CSMV_MAX_SET];
} csmv_record;

typedef struct csmv_ring {
	uint32_t tail;    /* last CTS reserved */
	uint32_t size;    /* records */
	csmv_record *rec; /* size of them */
} csmv_ring;

/* What reading a record came to. */
enum csmv_rec_read {
	CSMV_REC_CLEAR = 0, /* the record does not write the words */
	CSMV_REC_HIT,       /* it writes one of them */
	CSMV_REC_WAIT,      /* reserved, not written yet: read it again */
	CSMV_REC_GONE,      /* its slot was reused: the snapshot is older than the ring */
};

GB_HD csmv_record *csmv_ring_slot(const csmv_ring *r, uint32_t cts)
{
	return r->rec + cts % r->size;
}

/* Write record cts (its slot reserved by the caller): stamp it busy, the write set, stamp it complete. */
GB_HD void csmv_record_write(const csmv_ring *r, uint32_t cts, const uint32_t *w, uint32_t nw)
{
	csmv_record *rec = csmv_ring_slot(r, cts);
	uint32_t k;

	gb_st_atomic_cta_u32(&rec->stamp, 2u * cts + 1u);
	gb_fence_cta(); /* the busy stamp before the write set it guards */
	gb_st_atomic_cta_u32(&rec->nw, nw);
	for (k = 0; k < nw; k++)
		gb_st_atomic_cta_u32(&rec->w[k], w[k]);
	gb_fence_cta(); /* the write set before the stamp that completes it */
	gb_st_atomic_cta_u32(&rec->stamp, 2u * cts);
}

#define CSMV_SCAN 8 /* records a scan reads between two fences */

/*
 * Whether record c's write set (read by the caller between its stamp checks) holds a word of a or b.
 * Every word is loaded before any is compared, so the loads are in flight together.
 */
GB_HD int csmv_record_has(const csmv_record *rec, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
	uint32_t nw = gb_ld_relaxed_cta_u32(&rec->nw), w[CSMV_MAX_SET], j, k, hit = 0;

	if (nw > CSMV_MAX_SET)
		nw = CSMV_MAX_SET; /* a torn read of a reused slot: the stamp check after it rejects it */
	GB_UNROLL
	for (k = 0; k < CSMV_MAX_SET; k++)
		w[k] = k < nw ? gb_ld_relaxed_cta_u32(&rec->w[k]) : 0;
	GB_UNROLL
	for (k = 0; k < CSMV_MAX_SET; k++) {
		if (k >= nw)
			break;
		for (j = 0; j < na; j++)
			hit |= a[j] == w[k];
		for (j = 0; j < nb; j++)
			hit |= b[j] == w[k];
	}
	return hit;
}

/*
 * Records *from + step, *from + 2 step, ... up to `to` against the words
 * a[0..na) and b[0..nb), resuming after *from (the last record checked; it
 * may be "before" 0 modulo 2^32 where a slice starts below step): CLEAR when
 * none writes one of them, else what the first record that is not clear is:
 * HIT, WAIT (reserved, not written yet: *from is the last record checked) or
 * GONE (its slot reused by a later commit: the stamp moved past it).
 * CSMV_SCAN records at a time: their stamps, one fence, their write sets, one
 * fence, their stamps again (a writer that reuses a slot changes its stamp
 * before it touches the write set), so a record costs a fraction of a fence
 * where reading records one by one costs two each. A step above 1 lets
 * several lanes share one scan, each its slice of the records.
 */
GB_HD int csmv_ring_scan_step(const csmv_ring *r, uint32_t *from, uint32_t to, uint32_t step, const uint32_t *a,
			      uint32_t na, const uint32_t *b, uint32_t nb)
{
	while (to - *from >= step) {
		uint32_t s[CSMV_SCAN], m = (to - *from) / step, ready, k, hit = 0;

		m = m < CSMV_SCAN ? m : CSMV_SCAN;
		for (k = 0; k < m; k++)
			s[k] = gb_ld_relaxed_cta_u32(&csmv_ring_slot(r, *from + step * (k + 1))->stamp);
		gb_fence_cta(); /* the stamps before the write sets they guard */
		for (ready = 0; ready < m; ready++) {
			uint32_t c = *from + step * (ready + 1);
			if (s[ready] > 2u * c + 1u)
				return CSMV_REC_GONE;
			if (s[ready] != 2u * c)
				break; /* reserved, not written yet: the records before it are checked */
		}
		for (k = 0; k < ready; k++)
			hit |= csmv_record_has(csmv_ring_slot(r, *from + step * (k + 1)), a, na, b, nb);
		gb_fence_cta(); /* the write sets before the stamps that say they were whole */
		for (k = 0; k < ready; k++) {
			uint32_t c = *from + step * (k + 1);
			if (gb_ld_relaxed_cta_u32(&csmv_ring_slot(r, c)->stamp) != 2u * c)
				return CSMV_REC_GONE;
		}
		if (hit)
			return CSMV_REC_HIT;
		*from += step * ready;
		if (ready < m)
			return CSMV_REC_WAIT;
	}
	return CSMV_REC_CLEAR;
}

/* Records *from + 1 ... to, one after another (csmv_ring_scan_step with step 1). */
GB_HD int csmv_ring_scan(const csmv_ring *r, uint32_t *from, uint32_t to, const uint32_t *a, uint32_t na,
			 const uint32_t *b, uint32_t nb)
{
	return csmv_ring_scan_step(r, from, to, 1, a, na, b, nb);
}

/*
 * Whether record cts writes a word of set[0..n) (n may be 0: only whether the
 * record can be read): CLEAR, HIT, WAIT (reserved, not written) or GONE (its
 * slot reused by a later commit). A writer that reuses the slot changes the
 * stamp before it touches the write set, so the stamp read before the write
 * set and again after it tells a whole record from a torn one.
 */
GB_HD int csmv_record_meets(const csmv_ring *r, uint32_t cts, const uint32_t *set, uint32_t n)
{
	uint32_t from = cts - 1u;
	return csmv_ring_scan(r, &from, cts, set, n, NULL, 0);
}

/*
 * One transaction of a request (lane `lane`) against records *from + 1 ...
 * to, resuming at *from: 1 when none writes what it reads or writes, 0 when
 * one does or one is gone, -1 when a record is not written yet (*from is then
 * the last record checked: call again). The CPU worker's validation, and a
 * GPU worker lane's without collaborative validation (section IV-C's NoCV:
 * "each thread ... validate[s] a distinct transaction").
 */
GB_HD int csmv_ring_validate(const csmv_ring *r, const csmv_req *q, uint32_t lane, uint32_t *from, uint32_t to)
{
	int v;

	if (to - q->snap > r->size)
		return 0; /* a record after the snapshot is already gone */
	v = csmv_ring_scan(r, from, to, q->r[lane], q->nr[lane], q->w[lane], q->nw[lane]);
	return v == CSMV_REC_CLEAR ? 1 : v == CSMV_REC_WAIT ? -1 : 0;
}

/* The lanes of mask as one after another would (popcount below lane). */
GB_HD uint32_t csmv_rank(uint32_t mask, uint32_t lane)
{
	return csmv_popc(mask & ((1u << lane) - 1u));
}

#endif
