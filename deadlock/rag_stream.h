/*
 * The stream detectors (--impl gpu-stream, deadlock/rag_stream.cu): OSDDA's
 * and LMDDA's decisions for a whole window of events in one launch, the
 * state kept on the device between windows. Written once here as
 * host-and-device functions; the unit tests' CPU driver
 * (tests/unit/rag_gpu_sim.c) runs them in the kernel's order.
 *
 * Why not the thesis's matrices: every event of a single-request system
 * touches one grant or request edge, and the thesis's kernels spend their
 * time on launches, host round trips and whole-row updates (section 3.3, 4.3;
 * 35-70 us an event on an H100 whatever the size). Here the per-event work is
 * the edge itself plus, at a blocking request, a walk of the graph from the
 * requested resource, so an event costs a few shared-memory accesses and no
 * launch or barrier. The decisions are the model's (api/rag_model.h):
 *  - OSDDA (single unit): holder[j] per resource; next[i] per process, the
 *    holder of the resource p_i waits for (RB_NONE when active). A blocking
 *    request by p for q follows next[] from q's holder to the active process
 *    at the end of the chain, q's sink (Sink[q] of section 3.2): p there
 *    closes a cycle. A regrant of q to t repoints next[] of the other waiters
 *    of q to t.
 *  - LMDDA (multi-unit): one slot per unit of each resource holding the
 *    process that holds that unit (RB_NONE when free); wait[i] per process.
 *    A blocking request by p for q searches from q through holders and the
 *    resources they wait for, p excluded, and stops at the first active
 *    process: none means every path ends in blocked processes, a knot
 *    (Theorem 1.2.39). Unlike the thesis's LMDDA, which keeps RP up to date
 *    so that the check is one row, this pays at the blocking request only;
 *    it is the single-unit chain walk generalised, and no release costs more
 *    than its unit's slots and waiter list.
 *  - both: the waiters of each resource in a list sorted by id (head[j],
 *    link[i]): a blocked process leaves it only when regranted, and the
 *    model regrants the lowest id, the head.
 * Every walk is bounded (a chain by M hops, a search by N resources), so a
 * corrupt state yields RS_CORRUPT decisions rather than a hung device.
 *
 * Kernel layout (one block, RS_THREADS threads): the state words are copied
 * into shared memory when they fit (back at the end of the window), else used
 * in place in global memory; events come in chunks of RS_CHUNK staged by all
 * threads into shared memory, thread 0 decides the chunk (OSDDA) or warp 0 does
 * (LMDDA: lane 0 applies each event, the 32 lanes search together,
 * rs_lmdda_reaches_active_warp in the .cu), all threads write the decisions
 * out. Two block barriers per chunk, none per event.
 */
#ifndef GB_RAG_STREAM_H
#define GB_RAG_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "deadlock/rag.h"
#include "deadlock/rag_bits.h"

#define RS_THREADS 256u
#define RS_CHUNK 2048u
#define RS_TYPE_BIT 0x80000000u /* event word 0: the process, this bit set for a release */
#define RS_TO_MASK 0x00ffffffu  /* decision word: outcome << 24 | process regranted */
#define RS_CORRUPT 0xffu        /* outcome of an event on a state that breaks the model */

/*
 * The state: every array an offset into one word array (global or shared
 * memory), of 32-bit entries or, where every id and offset fits (rs_narrow_fits),
 * of 16-bit ones: half the bytes, so that LMDDA at 8192 x 8192 with 1-4 units
 * (about 70000 entries) fits in a block's shared memory beside the staging.
 * Entries are read and written through rs_ld and rs_st, which give RB_NONE
 * for a narrow entry's 0xffff; the marks (seen, epoch) and offsets (off) are
 * raw numbers (rs_ld_raw). A caller passes narrow as a constant where it can
 * (the kernel's instances, cpu-stream), so the test folds away.
 */
typedef struct rs_state {
	uint32_t M, N, lmdda, narrow;
	void *holder; /* OSDDA, N: the process holding resource j */
	void *next;   /* OSDDA, M: the holder of what p_i waits for */
	void *head;   /* N: the lowest waiter of resource j */
	void *link;   /* M: the next waiter of the resource p_i waits for */
	void *off;    /* LMDDA, N + 1: resource j's slots are off[j] .. off[j + 1] - 1 */
	void *slot;   /* LMDDA, off[N]: the holder of each unit */
	void *wait;   /* LMDDA, M: the resource p_i waits for */
	void *seen;   /* LMDDA, N: the search that last reached resource j */
	void *epoch;  /* LMDDA, 1: the current search */
	void *stack;  /* LMDDA, N: the search's pending resources (scratch, not kept) */
} rs_state;

#define RS_NARROW_NONE 0xffffu
#define RS_NARROW_EPOCHS 0xffffu /* a narrow mark's largest search number */

GB_HD uint32_t rs_ld_raw(const rs_state *s, const void *a, uint32_t i)
{
	return s->narrow ? ((const uint16_t *)a)[i] : ((const uint32_t *)a)[i];
}

GB_HD uint32_t rs_ld(const rs_state *s, const void *a, uint32_t i)
{
	uint32_t v = rs_ld_raw(s, a, i);
	return s->narrow && v == RS_NARROW_NONE ? RB_NONE : v;
}

/* Store v (an id, RB_NONE, a mark or an offset: RB_NONE becomes 0xffff when narrow). */
GB_HD void rs_st(const rs_state *s, void *a, uint32_t i, uint32_t v)
{
	if (s->narrow)
		((uint16_t *)a)[i] = (uint16_t)v;
	else
		((uint32_t *)a)[i] = v;
}

/* Whether a system's ids and offsets fit 16-bit entries (0xffff is RB_NONE). */
GB_HD int rs_narrow_fits(uint32_t M, uint32_t N, int lmdda, uint32_t slots)
{
	return M < RS_NARROW_NONE && N < RS_NARROW_NONE && (!lmdda || slots < RS_NARROW_NONE);
}

/* Entries of the state kept between windows and of the whole state (scratch last). */
GB_HD size_t rs_words_kept(uint32_t M, uint32_t N, int lmdda, uint32_t slots)
{
	if (!lmdda)
		return 2 * ((size_t)M + N);
	return 3 * (size_t)N + 1 + slots + 2 * (size_t)M + 1;
}

GB_HD size_t rs_words(uint32_t M, uint32_t N, int lmdda, uint32_t slots)
{
	return rs_words_kept(M, N, lmdda, slots) + (lmdda ? N : 0);
}

/* 32-bit words that hold n entries. */
GB_HD size_t rs_entry_words(size_t n, int narrow)
{
	return narrow ? (n + 1) / 2 : n;
}

/* Point s's arrays into base. */
GB_HD void rs_bind(rs_state *s, uint32_t *base, uint32_t M, uint32_t N, int lmdda, uint32_t slots, int narrow)
{
	char *b = (char *)base;
	size_t e = narrow ? 2 : 4;

	s->M = M;
	s->N = N;
	s->lmdda = (uint32_t)lmdda;
	s->narrow = (uint32_t)narrow;
	s->head = b;
	s->link = b + e * N;
	b += e * ((size_t)N + M);
	if (!lmdda) {
		s->holder = b;
		s->next = b + e * N;
		s->off = s->slot = s->wait = s->seen = s->epoch = s->stack = NULL;
		return;
	}
	s->holder = s->next = NULL;
	s->off = b;
	s->slot = b + e * ((size_t)N + 1);
	b += e * ((size_t)N + 1 + slots);
	s->wait = b;
	s->seen = b + e * M;
	s->epoch = b + e * ((size_t)M + N);
	s->stack = b + e * ((size_t)M + N + 1);
}

/* Unit slots of a system: the units of all resources (units NULL: one each) for LMDDA, none for
 * OSDDA. Above RS_MAX_SLOTS the offsets would not fit in 32 bits: the caller refuses it. */
#define RS_MAX_SLOTS (UINT32_MAX / 2)
static inline uint64_t rs_slots(int lmdda, uint32_t N, const uint32_t *units)
{
	uint64_t n = 0;
	uint32_t j;
	for (j = 0; lmdda && j < N; j++)
		n += units ? units[j] : 1;
	return n;
}

/* An empty system in words (rs_entry_words(rs_words) of them): no holders, no waiters; units NULL:
 * one each. */
static inline void rs_init(uint32_t *words, uint32_t M, uint32_t N, int lmdda, const uint32_t *units,
			   uint32_t slots, int narrow)
{
	rs_state s;
	size_t n = rs_words(M, N, lmdda, slots), k;
	uint32_t j, off = 0;

	rs_bind(&s, words, M, N, lmdda, slots, narrow);
	for (k = 0; k < (narrow ? 2 * rs_entry_words(n, 1) : n); k++) /* a narrow state's padding too */
		rs_st(&s, words, (uint32_t)k, RB_NONE);
	if (!lmdda)
		return;
	rs_st(&s, s.off, 0, 0);
	for (j = 0; j < N; j++) {
		off += units ? units[j] : 1;
		rs_st(&s, s.off, j + 1, off);
	}
	for (j = 0; j < N; j++)
		rs_st(&s, s.seen, j, 0);
	rs_st(&s, s.epoch, 0, 0);
}

GB_HD uint32_t rs_decision(uint32_t outcome, uint32_t to)
{
	return outcome << 24 | (to & RS_TO_MASK);
}

/* Put p in resource q's waiter list, which stays sorted by id. */
GB_HD void rs_wait_insert(const rs_state *s, uint32_t p, uint32_t q)
{
	uint32_t prev = RB_NONE, cur = rs_ld(s, s->head, q), n = 0;
	while (cur != RB_NONE && cur < p && n++ < s->M) {
		prev = cur;
		cur = rs_ld(s, s->link, cur);
	}
	rs_st(s, s->link, p, cur);
	if (prev == RB_NONE)
		rs_st(s, s->head, q, p);
	else
		rs_st(s, s->link, prev, p);
}

/* Take resource q's lowest waiter out of its list (RB_NONE when nobody waits). */
GB_HD uint32_t rs_wait_pop(const rs_state *s, uint32_t q)
{
	uint32_t t = rs_ld(s, s->head, q);
	if (t != RB_NONE) {
		rs_st(s, s->head, q, rs_ld(s, s->link, t));
		rs_st(s, s->link, t, RB_NONE);
	}
	return t;
}

/* OSDDA: one event, its decision word. */
GB_HD uint32_t rs_osdda_event(const rs_state *s, uint32_t w0, uint32_t q)
{
	uint32_t p = w0 & ~RS_TYPE_BIT, h, t, a, n, nx;

	if (w0 & RS_TYPE_BIT) {
		t = rs_wait_pop(s, q);
		if (t == RB_NONE) {
			rs_st(s, s->holder, q, RB_NONE);
			return rs_decision(RAG_RELEASED, RB_NONE);
		}
		/* t holds q now and is active; q's other waiters now wait on t */
		rs_st(s, s->holder, q, t);
		rs_st(s, s->next, t, RB_NONE);
		for (a = rs_ld(s, s->head, q), n = 0; a != RB_NONE && n < s->M; a = rs_ld(s, s->link, a), n++)
			rs_st(s, s->next, a, t);
		return rs_decision(RAG_REGRANTED, t);
	}
	h = rs_ld(s, s->holder, q);
	if (h == RB_NONE) {
		rs_st(s, s->holder, q, p);
		return rs_decision(RAG_GRANTED, RB_NONE);
	}
	/* q's sink: the active process at the end of the chain from q */
	for (t = h, n = 0; (nx = rs_ld(s, s->next, t)) != RB_NONE; t = nx)
		if (++n > s->M)
			return rs_decision(RS_CORRUPT, RB_NONE);
	if (t == p)
		return rs_decision(RAG_DEADLOCK, RB_NONE);
	rs_st(s, s->next, p, h);
	rs_wait_insert(s, p, q);
	return rs_decision(RAG_BLOCKED, RB_NONE);
}

/* LMDDA: whether an active process other than p is reachable from q (p about to block on q). */
GB_HD int rs_lmdda_reaches_active(const rs_state *s, uint32_t p, uint32_t q)
{
	uint32_t e = rs_ld_raw(s, s->epoch, 0) + 1, top = 0, k;

	if (e == 0 || (s->narrow && e > RS_NARROW_EPOCHS)) { /* the marks wrapped: clear them */
		for (k = 0; k < s->N; k++)
			rs_st(s, s->seen, k, 0);
		e = 1;
	}
	rs_st(s, s->epoch, 0, e);
	rs_st(s, s->seen, q, e);
	rs_st(s, s->stack, top++, q);
	while (top) {
		uint32_t r = rs_ld(s, s->stack, --top), end = rs_ld_raw(s, s->off, r + 1);
		for (k = rs_ld_raw(s, s->off, r); k < end; k++) {
			uint32_t a = rs_ld(s, s->slot, k), w;
			if (a == RB_NONE || a == p)
				continue;
			w = rs_ld(s, s->wait, a);
			if (w == RB_NONE)
				return 1;
			if (rs_ld_raw(s, s->seen, w) != e && top < s->N) {
				rs_st(s, s->seen, w, e);
				rs_st(s, s->stack, top++, w);
			}
		}
	}
	return 0;
}

/* LMDDA, an event up to the search: a release's or a grant's decision word, or 0 with *search set
 * when the request would block p on q (rs_lmdda_block decides it with the search's answer). */
GB_HD uint32_t rs_lmdda_front(const rs_state *s, uint32_t w0, uint32_t q, int *search)
{
	uint32_t p = w0 & ~RS_TYPE_BIT, k, end = rs_ld_raw(s, s->off, q + 1), t;

	*search = 0;
	if (w0 & RS_TYPE_BIT) {
		for (k = rs_ld_raw(s, s->off, q); k < end && rs_ld(s, s->slot, k) != p; k++)
			;
		if (k == end)
			return rs_decision(RS_CORRUPT, RB_NONE);
		t = rs_wait_pop(s, q);
		rs_st(s, s->slot, k, t);
		if (t == RB_NONE)
			return rs_decision(RAG_RELEASED, RB_NONE);
		rs_st(s, s->wait, t, RB_NONE);
		return rs_decision(RAG_REGRANTED, t);
	}
	for (k = rs_ld_raw(s, s->off, q); k < end; k++)
		if (rs_ld(s, s->slot, k) == RB_NONE) {
			rs_st(s, s->slot, k, p);
			return rs_decision(RAG_GRANTED, RB_NONE);
		}
	*search = 1;
	return 0;
}

/* LMDDA: p's request for q, which has no free unit, given whether an active process other than p
 * is reachable from q. */
GB_HD uint32_t rs_lmdda_block(const rs_state *s, uint32_t p, uint32_t q, int reaches)
{
	if (!reaches)
		return rs_decision(RAG_DEADLOCK, RB_NONE);
	rs_st(s, s->wait, p, q);
	rs_wait_insert(s, p, q);
	return rs_decision(RAG_BLOCKED, RB_NONE);
}

/* LMDDA: one event, its decision word. */
GB_HD uint32_t rs_lmdda_event(const rs_state *s, uint32_t w0, uint32_t q)
{
	uint32_t p = w0 & ~RS_TYPE_BIT;
	int search;
	uint32_t d = rs_lmdda_front(s, w0, q, &search);

	return search ? rs_lmdda_block(s, p, q, rs_lmdda_reaches_active(s, p, q)) : d;
}

GB_HD uint32_t rs_event(const rs_state *s, uint32_t w0, uint32_t q)
{
	return s->lmdda ? rs_lmdda_event(s, w0, q) : rs_osdda_event(s, w0, q);
}

/* Thread 0's part of a chunk: decide len staged events (two words each) into dec. Each
 * event's words are read before the previous event's work, so their latency overlaps it. */
GB_HD void rs_decide(const rs_state *s, const uint32_t *ev, uint32_t len, uint32_t *dec)
{
	uint32_t i, w0 = len ? ev[0] : 0, w1 = len ? ev[1] : 0;
	for (i = 0; i < len; i++) {
		uint32_t n0 = i + 1 < len ? ev[2 * i + 2] : 0, n1 = i + 1 < len ? ev[2 * i + 3] : 0;
		dec[i] = rs_event(s, w0, w1);
		w0 = n0;
		w1 = n1;
	}
}

/* Thread tid of nthreads copies its share of n words, eight loads in flight before their
 * stores (src and dst may be in different memories the compiler cannot tell apart). */
GB_HD void rs_copy(uint32_t *dst, const uint32_t *src, size_t n, uint32_t tid, uint32_t nthreads)
{
	size_t k = tid, u;
	uint32_t v[8];
	for (; k + 7 * (size_t)nthreads < n; k += 8 * (size_t)nthreads) {
		GB_UNROLL
		for (u = 0; u < 8; u++)
			v[u] = src[k + u * nthreads];
		GB_UNROLL
		for (u = 0; u < 8; u++)
			dst[k + u * nthreads] = v[u];
	}
	for (; k < n; k += nthreads)
		dst[k] = src[k];
}

/* ---- host side: events in, decisions out ---- */

static inline void rs_pack(uint32_t *w, uint8_t type, uint32_t p, uint32_t q)
{
	w[0] = p | (type == RAG_RELEASE ? RS_TYPE_BIT : 0);
	w[1] = q;
}

/* A decision word as rag_decision; 0 for a word no detector writes (the caller fails). */
static inline int rs_unpack(uint32_t w, rag_decision *d)
{
	uint32_t to = w & RS_TO_MASK;
	d->outcome = (uint8_t)(w >> 24);
	d->to = to == RS_TO_MASK ? RAG_NONE : to;
	return d->outcome < RAG_NOUTCOMES && (d->outcome == RAG_REGRANTED) == (d->to != RAG_NONE);
}

#endif
