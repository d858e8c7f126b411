/*
 * The thesis's serial CPU detectors, CPU-OSDDA and CPU-LMDDA (Abell's
 * thesis, sections 3.4 and 4.4): "a serial version of GPU-OSDDA ... [using]
 * no parallel programming primitives". Each kernel of Algorithm 4 (OSDDA) or
 * 12 (LMDDA) is a loop over its (block, thread) indices that runs the
 * kernel's per-element function of deadlock/osdda_bits.h or
 * deadlock/lmdda_bits.h, in the order and under the host decisions of the
 * thesis's flow. So an event pays every matrix pass its kernels make: the
 * tiled bit-matrix transposes of AG or AR before each row reduction, the
 * copy of Sink into Sink_temp, the N x IPR passes of Request_Blocked and
 * Release_Update_Reachability, LMDDA's OR reduction of every row of AR on a
 * blocking request and, after a release of type (ii) or (iii), InitRP and
 * ceil(log2(min(M, N))) iterations of Algorithm 21: transpose RP, then for
 * every (k, h) scan AR against RP_trans[h] and RP[k] against the result,
 * O(N M (M Nw + Mw)) an iteration, as every GPU thread (k, h) does.
 *
 * Barriers: a block's threads all read their row's test before any writes
 * (Release_Update_Reachability), and a reduction combines every word before
 * its result is stored; serial loops in that order give the same result as
 * any interleaving the kernels allow.
 *
 * The cpu detectors (deadlock/osdda_cpu.c, deadlock/lmdda_cpu.c) make the
 * same decisions with the thesis's per-event steps on byte matrices, leaving
 * out the passes that only serve the GPU (transposes, Sink_temp, full
 * reductions where the first set cell settles it).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/stop.h"
#include "deadlock/lmdda_bits.h"
#include "deadlock/osdda_bits.h"
#include "deadlock/rag_serial.h"

typedef struct serial {
	int lmdda, graph, alg21;
	osdda_dev os;
	lmdda_dev lm;
	uint32_t *rp_t;         /* LMDDA with alg21: RP_trans, Mp x Nw */
	uint32_t *innertemp;    /* LMDDA with alg21: Algorithm 21's innertemp, Mw */
	uint32_t **owned[16];
	size_t owned_words[16];
	unsigned nowned;
	int count_only;         /* rag_serial_host_bytes: add the words up, allocate nothing */
	uint64_t counted;
} serial;

static uint32_t *serial_alloc(serial *s, uint32_t **slot, size_t words)
{
	if (s->count_only) {
		s->counted += words ? words : 1;
		*slot = NULL;
		return NULL;
	}
	*slot = gb_xcalloc(words ? words : 1, sizeof(uint32_t), "serial detector matrix");
	s->owned_words[s->nowned] = words;
	s->owned[s->nowned++] = slot;
	return *slot;
}

/* The first set cell of a row of words, as the reduction kernels find it. */
static uint32_t row_first(const uint32_t *row, uint32_t words, uint32_t lcpw)
{
	uint32_t w, best = RB_NONE;
	for (w = 0; w < words; w++) {
		uint32_t c = rb_first_in_word(row[w], w, lcpw);
		best = c < best ? c : best;
	}
	return best;
}

static void osdda_launch(void *ctx, unsigned k, unsigned iter)
{
	osdda_dev *d = &((serial *)ctx)->os;
	uint32_t row, w, words;
	unsigned slot;
	size_t x, n;
	(void)iter;

	if (!osdda_gate(d->io, k))
		return;
	switch (k) {
	case OK_HOLDER:
	case OK_HELD:
	case OK_WAITER: {
		const uint32_t *r = osdda_reduce_row(d, k, &words, &slot);
		d->io[slot] = row_first(r, words, d->lcpw);
		break;
	}
	case OK_AG_TILES:
	case OK_AG_MOVE:
	case OK_AR_TILES:
	case OK_AR_MOVE:
		n = osdda_transpose_tiles(d, k);
		for (x = 0; x < n; x++)
			osdda_transpose_tile(d, k, x);
		break;
	case OK_SINK_COPY:
		memcpy(d->sink_temp, d->sink, osdda_words_nm(d) * sizeof(uint32_t));
		break;
	case OK_BLOCKED:
		for (row = 0; row < d->N; row++)
			for (w = 0; w < osdda_row_words(d); w++)
				osdda_blocked_word(d, row, w);
		break;
	case OK_REACH:
		for (row = 0; row < d->N; row++) {
			int test = osdda_reach_test(d, row);
			for (w = 0; w < osdda_row_words(d); w++)
				osdda_reach_word(d, row, w, test);
		}
		break;
	default:
		osdda_single(d, k);
	}
}

/* Lines 35-36 of Algorithm 12: RP_trans, the transpose of RP, through the tile scratch. */
static void rp_transpose(serial *s)
{
	const lmdda_dev *d = &s->lm;
	size_t x, n = rb_tiles(d->Np, d->Mw, d->lcpw);
	for (x = 0; x < n; x++) {
		uint32_t tr = (uint32_t)(x / d->Mw), tw = (uint32_t)(x % d->Mw);
		rb_tile_transpose(d->rp, d->tile, d->Mw, tr, tw, d->lcpw);
		rb_tile_move(d->tile, s->rp_t, d->Mw, d->Nw, tr, tw, d->lcpw);
	}
}

/*
 * Algorithm 21, thread (k, h): p_z connects to p_h when a resource p_z waits
 * for reaches p_h (innertemp); q_k reaches p_h when it reaches p_h already
 * or reaches such a p_z. RP_temp starts empty and gets RP[k][h] too, the
 * correction of deadlock/lmdda_cpu.c.
 */
static void alg21_thread(serial *s, uint32_t k, uint32_t h)
{
	const lmdda_dev *d = &s->lm;
	const uint32_t *to_h = s->rp_t + (size_t)h * d->Nw, *from_k = d->rp + (size_t)k * d->Mw;
	uint32_t z, g, l = d->lcpw;
	int reach = rb_test(d->rp, d->Mw, k, h, l);

	memset(s->innertemp, 0, d->Mw * sizeof(uint32_t));
	for (z = 0; z < d->M; z++)
		for (g = 0; g < d->Nw; g++)
			if (d->ar[(size_t)z * d->Nw + g] & to_h[g]) {
				s->innertemp[z >> l] |= rb_mask(z, l);
				break;
			}
	for (z = 0; z < d->Mw && !reach; z++)
		reach = (from_k[z] & s->innertemp[z]) != 0;
	if (reach)
		rb_set(d->rp_temp, d->Mw, k, h, l);
}

static void lmdda_launch(void *ctx, unsigned k, unsigned iter)
{
	serial *s = ctx;
	lmdda_dev *d = &s->lm;
	uint32_t row, w, h;
	size_t x, n = (size_t)d->Np * d->Mw;

	if (!lmdda_gate(d->io, k, iter))
		return;
	switch (k) {
	case LK_SINKS:
		for (row = 0; row < d->M; row++) {
			uint32_t any = 0;
			for (w = 0; w < d->Nw; w++)
				any |= lmdda_sinks_word(d, row, w);
			lmdda_sinks_store(d, row, any);
		}
		break;
	case LK_RP_BLOCKED:
		for (row = 0; row < d->N; row++)
			for (w = 0; w < d->Mw; w++)
				lmdda_rp_blocked_word(d, row, w);
		break;
	case LK_WAITER:
		d->io[LM_WAITER] = row_first(lmdda_waiter_row(d), d->Mw, d->lcpw);
		break;
	case LK_AR_TILES:
	case LK_AR_MOVE:
		for (x = 0; x < lmdda_transpose_tiles(d); x++)
			lmdda_transpose_tile(d, k, x);
		break;
	case LK_INIT_RP:
		for (x = 0; x < n; x++)
			lmdda_init_rp_word(d, x);
		break;
	case LK_CONNECT_PROCS:
		if (s->alg21) {
			rp_transpose(s);
			break;
		}
		for (x = 0; x < (size_t)d->Mp * d->Mw; x++)
			lmdda_connect_procs_word(d, x);
		break;
	case LK_CONNECT_RES:
		if (s->alg21) {
			memset(d->rp_temp, 0, n * sizeof(uint32_t));
			/* O(N^2 M^2) a release: a stopped run (common/stop.h) abandons it, and the
			 * repetition with it */
			for (row = 0; row < d->N && !gb_stop_requested(); row++)
				for (h = 0; h < d->M; h++)
					alg21_thread(s, row, h);
			d->io[LM_CHANGED + iter] = 1; /* the thesis runs every iteration */
			break;
		}
		for (x = 0; x < n; x++)
			lmdda_connect_res_word(d, x, iter);
		break;
	case LK_RP_COPY:
		for (x = 0; x < n; x++)
			lmdda_rp_copy_word(d, x);
		break;
	default:
		lmdda_single(d, k);
	}
}

static const uint32_t *osdda_read(void *ctx)
{
	return ((serial *)ctx)->os.io;
}

static const uint32_t *lmdda_read(void *ctx)
{
	return ((serial *)ctx)->lm.io;
}

static const rag_launch_ops osdda_ops = {osdda_launch, osdda_read};
static const rag_launch_ops lmdda_ops = {lmdda_launch, lmdda_read};

/* As the GPU engines do when they open: every kernel of both types on an event no gate passes. */
static void warm_up(serial *s)
{
	int request;
	for (request = 0; request < 2; request++)
		if (s->lmdda) {
			lmdda_io_event(s->lm.io, s->lm.hops, RAG_GPU_WARM_UP, 0, 0);
			lmdda_all_kernels(&lmdda_ops, s, request, s->lm.hops);
		} else {
			osdda_io_event(s->os.io, RAG_GPU_WARM_UP, 0, 0);
			osdda_all_kernels(&osdda_ops, s, request);
		}
}

static void osdda_open(serial *s, uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw)
{
	osdda_dev *d = &s->os;
	size_t nm, mn;
	uint32_t j;

	rag_require_single_unit(res, units);
	osdda_geometry(d, procs, res, lcpw);
	nm = osdda_words_nm(d);
	mn = osdda_words_mn(d);
	serial_alloc(s, &d->ag, nm);
	serial_alloc(s, &d->sink, nm);
	serial_alloc(s, &d->sink_temp, nm);
	serial_alloc(s, &d->rp, nm);
	serial_alloc(s, &d->ar_t, nm);
	serial_alloc(s, &d->ar, mn);
	serial_alloc(s, &d->ag_t, mn);
	serial_alloc(s, &d->rr, osdda_words_nn(d));
	serial_alloc(s, &d->tile, nm > mn ? nm : mn);
	serial_alloc(s, &d->io, OS_IO_WORDS);
	if (s->count_only)
		return;
	for (j = 0; j < res; j++)
		osdda_init_rr(d, j);
}

static void lmdda_open(serial *s, uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw)
{
	lmdda_dev *d = &s->lm;
	size_t nm, mn;
	uint32_t j;

	lmdda_geometry(d, procs, res, lcpw);
	nm = (size_t)d->Np * d->Mw;
	mn = (size_t)d->Mp * d->Nw;
	serial_alloc(s, &d->ag, (size_t)procs * res);
	serial_alloc(s, &d->avail, res);
	serial_alloc(s, &d->ar, mn);
	serial_alloc(s, &d->ar_t, nm);
	serial_alloc(s, &d->rp, nm);
	serial_alloc(s, &d->rp_temp, nm);
	if (s->alg21) {
		serial_alloc(s, &s->rp_t, mn);
		serial_alloc(s, &s->innertemp, d->Mw);
	} else {
		serial_alloc(s, &d->conn, (size_t)d->Mp * d->Mw);
	}
	serial_alloc(s, &d->sp, d->Mw);
	serial_alloc(s, &d->tile, nm > mn ? nm : mn);
	serial_alloc(s, &d->io, lmdda_io_words(d));
	if (s->count_only)
		return;
	for (j = 0; j < res; j++)
		d->avail[j] = units ? units[j] : 1;
}

void *rag_serial_open(int lmdda, uint32_t procs, uint32_t res, const uint32_t *units, uint32_t lcpw,
		      enum rag_serial_flow flow, int alg21)
{
	serial *s = gb_xcalloc(1, sizeof(*s), "serial detector");

	s->lmdda = lmdda;
	s->graph = flow == RAG_SERIAL_GRAPH;
	s->alg21 = lmdda && alg21;
	if (lmdda)
		lmdda_open(s, procs, res, units, lcpw);
	else
		osdda_open(s, procs, res, units, lcpw);
	warm_up(s);
	return s;
}

uint64_t rag_serial_host_bytes(int lmdda, uint32_t procs, uint32_t res, uint32_t lcpw, int alg21)
{
	serial s;

	memset(&s, 0, sizeof(s));
	s.count_only = 1;
	s.lmdda = lmdda;
	s.alg21 = lmdda && alg21;
	if (lmdda)
		lmdda_open(&s, procs, res, NULL, lcpw);
	else
		osdda_open(&s, procs, res, NULL, lcpw);
	return s.counted * sizeof(uint32_t) + sizeof(serial);
}

rag_decision rag_serial_apply(void *ctx, uint8_t type, uint32_t p, uint32_t q)
{
	serial *s = ctx;
	int req = type == RAG_REQUEST;

	if (s->lmdda) {
		lmdda_io_event(s->lm.io, s->lm.hops, type, p, q);
		if (s->graph) {
			lmdda_all_kernels(&lmdda_ops, s, req, s->lm.hops);
			return lmdda_io_decision(s->lm.io);
		}
		return lmdda_io_decision(lmdda_thesis_flow(&lmdda_ops, s, req, s->lm.hops));
	}
	osdda_io_event(s->os.io, type, p, q);
	if (s->graph) {
		osdda_all_kernels(&osdda_ops, s, req);
		return osdda_io_decision(s->os.io);
	}
	return osdda_io_decision(osdda_thesis_flow(&osdda_ops, s, req));
}

uint64_t rag_serial_bytes(void *ctx)
{
	const serial *s = ctx;
	uint64_t words = 0;
	unsigned k;
	for (k = 0; k < s->nowned; k++)
		words += s->owned_words[k];
	return words * sizeof(uint32_t);
}

void rag_serial_close(void *ctx)
{
	serial *s = ctx;
	unsigned k;
	for (k = 0; k < s->nowned; k++)
		free(*s->owned[k]);
	free(s);
}

/* ---- cpu-serial: bit-packed, the thesis's flow, Algorithm 21 for LMDDA ---- */

static void *open_osdda_serial(uint32_t m, uint32_t n, const uint32_t *u)
{
	return rag_serial_open(0, m, n, u, 5, RAG_SERIAL_THESIS, 0);
}

static void *open_lmdda_serial(uint32_t m, uint32_t n, const uint32_t *u)
{
	return rag_serial_open(1, m, n, u, 5, RAG_SERIAL_THESIS, 1);
}

static uint64_t osdda_serial_host_bytes(uint32_t m, uint32_t n)
{
	return rag_serial_host_bytes(0, m, n, 5, 0);
}

static uint64_t lmdda_serial_host_bytes(uint32_t m, uint32_t n)
{
	return rag_serial_host_bytes(1, m, n, 5, 1);
}

const rag_engine rag_engine_osdda_cpu_serial = {
	.head = {.name = "cpu-serial",
		 .summary = "the thesis's CPU-OSDDA as a serial GPU-OSDDA: every kernel of Algorithms 4-11 a "
			    "loop over its grid, bit-packed",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "osdda",
	.open = open_osdda_serial,
	.host_bytes = osdda_serial_host_bytes,
	.apply = rag_serial_apply,
	.bytes = rag_serial_bytes,
	.close = rag_serial_close,
};

const rag_engine rag_engine_lmdda_cpu_serial = {
	.head = {.name = "cpu-serial",
		 .summary = "the thesis's CPU-LMDDA as a serial GPU-LMDDA: every kernel of Algorithms 12-21 a "
			    "loop over its grid, bit-packed, Algorithm 21 per (k, h)",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "lmdda",
	.open = open_lmdda_serial,
	.host_bytes = lmdda_serial_host_bytes,
	.apply = rag_serial_apply,
	.bytes = rag_serial_bytes,
	.close = rag_serial_close,
};
