/*
 * CPU detectors for single-unit resource systems: OSDDA as GPU-OSDDA lays it
 * out (Abell's thesis, sections 3.2.2 and 3.3, Algorithms 4-11).
 *
 * In a single-unit, single-request system every node has at most one
 * outgoing edge: a held resource points at its one holder, a blocked process
 * at the one resource it waits for. The path from a held resource is
 * therefore a chain, and since deadlocking requests are refused
 * (api/rag_model.h) it ends in an active process, the resource's reachable
 * sink. A request by p_i for a held q_j closes a cycle exactly when p_i is
 * q_j's sink.
 *
 * cpu: the thesis's serial CPU-OSDDA. One byte per cell of AG (resources x
 * processes), AR (processes x resources), Sink and RP (resources x
 * processes) and RR (resources x resources), and the kernels of Algorithm 4
 * as plain loops:
 *   grant            Algorithm 5: AG, Sink and RP of row q_j get p_i.
 *   block            Algorithm 6 (Sink[q_j][p_i] set: deadlock), the AR bit,
 *                    the reduction "does p_i hold anything" over column p_i
 *                    of AG and, when it does, Algorithm 7 over every row:
 *                    each resource whose sink was p_i takes q_j's sink and
 *                    adds q_j's reachable resources and processes.
 *   release          Algorithm 8, the reduction of column q_j of AR (which
 *                    stops at the lowest waiter p_t), then Algorithm 9 when
 *                    nobody waits, else Algorithms 10 and 11 over every row:
 *                    each resource in q_j's subtree (RR[k][q_j]) gets sink
 *                    p_t and loses p_i from RP; when p_t was on its path,
 *                    q_j leaves its RR (the path now ends at p_t), otherwise
 *                    p_t joins its RP.
 * Per event: a request reads row q_j of AG, O(M); a block adds a column of
 * AG, O(N), and Algorithm 7's scan O(N) plus O(N + 2M) per resource whose
 * sink was p_i; a release reads a column of AR, O(M), and Algorithm 11's
 * scan O(N) plus O(M) per resource in q_j's subtree. Memory: 4*M*N + N*N
 * bytes (320 MiB at 8192 x 8192, 20 GiB at 65536 x 65536).
 *
 * cpu-bits: the same decisions with only what they need. Since every row of
 * AR, every column of AG and every row of Sink holds at most one set bit,
 * the packed form of such a row is the index of that bit:
 *   holder[q]   the process q is granted to (AG's column q), RAG_NONE if free;
 *   waits[p]    the resource p waits for (AR's row p), RAG_NONE if active;
 *   held[p]     how many resources p holds (the reduction of AG's column p);
 *   waiters[q]  a leftist min-heap of the processes waiting for q, threaded
 *               through per-process left/right/rank arrays: its root is the
 *               lowest waiter, so the reduction of AR's column q_j and the
 *               choice of p_t are one read.
 * Sink, RR and RP are not kept. Keeping Sink, even as one process id per
 * resource, costs a write per resource of p_i's tree on every block
 * (Algorithm 7) and of q_j's subtree on every regrant (Algorithm 11): on the
 * generator's streams (rag_gen.h) a regrant's subtree holds about 400
 * resources at 1024 x 1024 and 3000 at 8192 x 8192, while the chain from a
 * requested resource to its sink is 20 and 50 hops long. So q_j's sink is
 * found when a request needs it, by following the chain (holder, then the
 * resource it waits for, ...), and a process holding nothing is nobody's
 * sink, which skips the walk for it. Caching sinks along chains (path
 * compression, dropped when a root hands a resource on) was slower on those
 * streams: regrants make up a third of the events and void the caches.
 * Per event: grant and release without waiters O(1); regrant O(log M) (heap
 * pop); block O(L + log M) and deadlock O(L), L the length of the chain from
 * q_j, at most min(M, N) and short on random streams. Memory: 8*N + 17*M
 * bytes (200 KiB at 8192 x 8192, 1.56 MiB at 65536 x 65536).
 *
 * Where the thesis's pseudo-code is wrong or leaves a choice:
 * - Algorithm 4 is handed the event as granted or blocked; here the detector
 *   decides: a request is granted when row q_j of AG is empty.
 * - Algorithms 6, 7 and 11 test bits as "(word & mask) == 1", true only for
 *   the lowest bit; the test meant is "!= 0".
 * - Algorithm 10 ORs AR[p_t][q_j]; p_t stops waiting when it gets q_j, so the
 *   bit is cleared. Its bit positions are also swapped (AG's row q_j needs
 *   p_t's bit, AR's row p_t needs q_j's).
 * - p_t is "a waiting process" in the thesis; the model (rag_model.h) gives the
 *   unit to the lowest id, the first waiter the column scan meets.
 * - RR starts as the identity (RR[j][j] = 1 by definition); the thesis shows
 *   no initialisation. The other matrices start empty.
 * - Sink_temp of Algorithm 7 and the transposes before each reduction serve
 *   the GPU (races between blocks, coalescing). Serially, row k's test reads
 *   Sink[k] before row k is rewritten, and row q_j is never rewritten
 *   (Sink[q_j][p_i] is clear, or the request deadlocked), so there is no copy;
 *   columns are read in place. Likewise Algorithm 11 takes each row's test
 *   of RR[k][q_j] once, before that bit may be cleared (on the GPU the
 *   block's other threads can read it after thread 0 cleared it).
 * - A deadlocking request changes nothing (the thesis hands it to the
 *   operating system; rag_model.h refuses it).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "deadlock/rag.h"

/* ---- cpu: the thesis's serial CPU-OSDDA ---- */

typedef struct osdda_cpu {
	uint32_t procs, res; /* M, N */
	uint8_t *ag;         /* N x M: q_j is granted to p_i */
	uint8_t *ar;         /* M x N: p_i waits for q_j */
	uint8_t *sink;       /* N x M: p_i is q_j's reachable sink */
	uint8_t *rr;         /* N x N: q_k is reachable from q_j, or k = j */
	uint8_t *rp;         /* N x M: p_i is reachable from q_j */
} osdda_cpu;

static void *cpu_open(uint32_t procs, uint32_t res, const uint32_t *units)
{
	osdda_cpu *c;
	size_t nm = (size_t)res * procs;
	uint32_t j;

	rag_require_single_unit(res, units);
	c = gb_xcalloc(1, sizeof(*c), "OSDDA state");
	c->procs = procs;
	c->res = res;
	c->ag = gb_xcalloc(nm, 1, "OSDDA AG matrix");
	c->ar = gb_xcalloc(nm, 1, "OSDDA AR matrix");
	c->sink = gb_xcalloc(nm, 1, "OSDDA Sink matrix");
	c->rp = gb_xcalloc(nm, 1, "OSDDA RP matrix");
	c->rr = gb_xcalloc((size_t)res * res, 1, "OSDDA RR matrix");
	for (j = 0; j < res; j++)
		c->rr[(size_t)j * res + j] = 1;
	return c;
}

/* AG, AR, Sink and RP (res x procs) and RR (res x res), a byte a cell */
static uint64_t cpu_host_bytes(uint32_t procs, uint32_t res)
{
	return 4 * (uint64_t)res * procs + (uint64_t)res * res;
}

static uint64_t cpu_bytes(void *vctx)
{
	osdda_cpu *c = vctx;
	return cpu_host_bytes(c->procs, c->res);
}

static void cpu_close(void *vctx)
{
	osdda_cpu *c = vctx;
	free(c->ag);
	free(c->ar);
	free(c->sink);
	free(c->rr);
	free(c->rp);
	free(c);
}

/* The reduction of a row or column of count cells, stride apart: the first one set, or RAG_NONE. */
static uint32_t first_set(const uint8_t *cells, uint32_t count, size_t stride)
{
	uint32_t k;
	for (k = 0; k < count; k++)
		if (cells[k * stride])
			return k;
	return RAG_NONE;
}

/* Algorithm 7, serially: every resource whose sink was p now reaches what q reaches. */
static void cpu_request_blocked(osdda_cpu *c, uint32_t p, uint32_t q)
{
	uint32_t M = c->procs, N = c->res, k, x;
	const uint8_t *sink_q = c->sink + (size_t)q * M, *rp_q = c->rp + (size_t)q * M;
	const uint8_t *rr_q = c->rr + (size_t)q * N;

	for (k = 0; k < N; k++) {
		uint8_t *sink_k = c->sink + (size_t)k * M, *rp_k = c->rp + (size_t)k * M;
		uint8_t *rr_k = c->rr + (size_t)k * N;
		if (!sink_k[p])
			continue;
		for (x = 0; x < M; x++) {
			sink_k[x] = sink_q[x];
			rp_k[x] |= rp_q[x];
		}
		for (x = 0; x < N; x++)
			rr_k[x] |= rr_q[x];
	}
}

/* Algorithm 11, serially: q's subtree now ends at t instead of p. */
static void cpu_release_update_reachability(osdda_cpu *c, uint32_t p, uint32_t q, uint32_t t)
{
	uint32_t M = c->procs, N = c->res, k, x;

	for (k = 0; k < N; k++) {
		uint8_t *sink_k = c->sink + (size_t)k * M, *rp_k = c->rp + (size_t)k * M;
		uint8_t *rr_kq = c->rr + (size_t)k * N + q;
		if (!*rr_kq)
			continue;
		for (x = 0; x < M; x++)
			sink_k[x] = x == t;
		rp_k[p] = 0;
		if (rp_k[t])
			*rr_kq = 0;
		else
			rp_k[t] = 1;
	}
}

static rag_decision cpu_apply(void *vctx, uint8_t type, uint32_t p, uint32_t q)
{
	osdda_cpu *c = vctx;
	uint32_t M = c->procs, N = c->res, t;
	size_t qp = (size_t)q * M + p;
	rag_decision d = {RAG_GRANTED, RAG_NONE};

	if (type == RAG_REQUEST) {
		if (first_set(c->ag + (size_t)q * M, M, 1) == RAG_NONE) {
			c->ag[qp] = c->sink[qp] = c->rp[qp] = 1; /* Algorithm 5 */
			return d;
		}
		if (c->sink[qp]) { /* Algorithm 6 */
			d.outcome = RAG_DEADLOCK;
			return d;
		}
		c->ar[(size_t)p * N + q] = 1;
		if (first_set(c->ag + p, N, M) != RAG_NONE)
			cpu_request_blocked(c, p, q);
		d.outcome = RAG_BLOCKED;
		return d;
	}
	c->ag[qp] = 0; /* Algorithm 8 */
	t = first_set(c->ar + q, M, N);
	if (t == RAG_NONE) {
		c->sink[qp] = c->rp[qp] = 0; /* Algorithm 9 */
		d.outcome = RAG_RELEASED;
		return d;
	}
	c->ag[(size_t)q * M + t] = 1; /* Algorithm 10 */
	c->ar[(size_t)t * N + q] = 0;
	cpu_release_update_reachability(c, p, q, t);
	d.outcome = RAG_REGRANTED;
	d.to = t;
	return d;
}

/* ---- cpu-bits: one index per single-bit row, sinks found on demand ---- */

typedef struct osdda_bits {
	uint32_t procs, res;
	uint32_t *holder;       /* per resource: AG's column, RAG_NONE when free */
	uint32_t *waiters;      /* per resource: root of its waiting heap (lowest waiter), RAG_NONE */
	uint32_t *waits;        /* per process: AR's row, RAG_NONE when active */
	uint32_t *held;         /* per process: resources held */
	uint32_t *left, *right; /* per process: children in the waiting heap it is in */
	uint8_t *rank;          /* per process: null-path length of its heap node */
} osdda_bits;

static void *bits_open(uint32_t procs, uint32_t res, const uint32_t *units)
{
	osdda_bits *b;

	rag_require_single_unit(res, units);
	b = gb_xcalloc(1, sizeof(*b), "OSDDA state");
	b->procs = procs;
	b->res = res;
	b->holder = gb_xmalloc((size_t)res * sizeof(uint32_t), "OSDDA holders");
	b->waiters = gb_xmalloc((size_t)res * sizeof(uint32_t), "OSDDA waiting heaps");
	b->waits = gb_xmalloc((size_t)procs * sizeof(uint32_t), "OSDDA requests");
	b->held = gb_xcalloc(procs, sizeof(uint32_t), "OSDDA holding counts");
	b->left = gb_xmalloc((size_t)procs * sizeof(uint32_t), "OSDDA waiting heaps");
	b->right = gb_xmalloc((size_t)procs * sizeof(uint32_t), "OSDDA waiting heaps");
	b->rank = gb_xcalloc(procs, 1, "OSDDA waiting heaps");
	memset(b->holder, 0xff, (size_t)res * sizeof(uint32_t));
	memset(b->waiters, 0xff, (size_t)res * sizeof(uint32_t));
	memset(b->waits, 0xff, (size_t)procs * sizeof(uint32_t));
	return b;
}

static uint64_t bits_bytes(void *vctx)
{
	osdda_bits *b = vctx;
	return 8 * (uint64_t)b->res + 17 * (uint64_t)b->procs;
}

static void bits_close(void *vctx)
{
	osdda_bits *b = vctx;
	free(b->holder);
	free(b->waiters);
	free(b->waits);
	free(b->held);
	free(b->left);
	free(b->right);
	free(b->rank);
	free(b);
}

static uint32_t heap_rank(const osdda_bits *b, uint32_t x)
{
	return x == RAG_NONE ? 0 : b->rank[x];
}

/* Meld two leftist heaps of process ids, lowest id at the root. Recursion follows right
 * spines, O(log M) long. */
static uint32_t heap_meld(osdda_bits *b, uint32_t x, uint32_t y)
{
	uint32_t s;
	if (x == RAG_NONE)
		return y;
	if (y == RAG_NONE)
		return x;
	if (y < x) {
		s = x;
		x = y;
		y = s;
	}
	b->right[x] = heap_meld(b, b->right[x], y);
	if (heap_rank(b, b->left[x]) < heap_rank(b, b->right[x])) {
		s = b->left[x];
		b->left[x] = b->right[x];
		b->right[x] = s;
	}
	b->rank[x] = (uint8_t)(heap_rank(b, b->right[x]) + 1);
	return x;
}

/* Sink[q] for a held q: follow the chain q -> holder -> the resource it waits for -> ... */
static uint32_t bits_sink(const osdda_bits *b, uint32_t q)
{
	uint32_t h = b->holder[q];
	while (b->waits[h] != RAG_NONE)
		h = b->holder[b->waits[h]];
	return h;
}

static rag_decision bits_apply(void *vctx, uint8_t type, uint32_t p, uint32_t q)
{
	osdda_bits *b = vctx;
	rag_decision d = {RAG_GRANTED, RAG_NONE};
	uint32_t t;

	if (type == RAG_REQUEST) {
		if (b->holder[q] == RAG_NONE) { /* Algorithm 5: Sink and RP follow from holder */
			b->holder[q] = p;
			b->held[p]++;
			return d;
		}
		/* Algorithm 6; a process holding nothing is nobody's sink */
		if (b->held[p] && bits_sink(b, q) == p) {
			d.outcome = RAG_DEADLOCK;
			return d;
		}
		/* AR's bit; Algorithm 7 has nothing to update, sinks are found on demand */
		b->waits[p] = q;
		b->left[p] = b->right[p] = RAG_NONE;
		b->rank[p] = 1;
		b->waiters[q] = heap_meld(b, b->waiters[q], p);
		d.outcome = RAG_BLOCKED;
		return d;
	}
	b->held[p]--; /* Algorithm 8 */
	t = b->waiters[q];
	if (t == RAG_NONE) { /* Algorithm 9 */
		b->holder[q] = RAG_NONE;
		d.outcome = RAG_RELEASED;
		return d;
	}
	/* Algorithm 10; Algorithm 11 has nothing to update */
	b->waiters[q] = heap_meld(b, b->left[t], b->right[t]);
	b->holder[q] = t;
	b->waits[t] = RAG_NONE;
	b->held[t]++;
	d.outcome = RAG_REGRANTED;
	d.to = t;
	return d;
}

const rag_engine rag_engine_osdda_cpu = {
	.head = {.name = "cpu",
		 .summary = "the thesis's serial CPU-OSDDA: byte matrices AG, AR, Sink, RR, RP updated row by row",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "osdda",
	.open = cpu_open,
	.host_bytes = cpu_host_bytes,
	.apply = cpu_apply,
	.bytes = cpu_bytes,
	.close = cpu_close,
};

const rag_engine rag_engine_osdda_cpu_bits = {
	.head = {.name = "cpu-bits",
		 .summary = "holder and request per node, waiting heaps, sinks found by following the chain",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "osdda",
	.open = bits_open,
	.apply = bits_apply,
	.bytes = bits_bytes,
	.close = bits_close,
};
