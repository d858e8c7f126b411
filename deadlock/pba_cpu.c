/*
 * CPU implementations of the parallel banker's algorithm (Abell's thesis,
 * section 5.2.3 and 5.3).
 *
 * cpu: the thesis's serial CPU-PBA. The five phases of a request as the
 * GPU-PBA kernels lay them out (Algorithms 22-29), in plain loops: the
 * H-safety check runs up to I iterations, each comparing every resource of
 * every unfinished process with work[] and then adding the allocations of all
 * processes found able to finish.
 *
 * cpu-fast: the same decisions from an order-independent algorithm. During a
 * safety check work[] only grows, so a process that is satisfied on resources
 * 0..k-1 stays satisfied on them: each process keeps a pointer to the first
 * resource it is blocked on and waits in a min-heap of that resource, keyed
 * by its need. When work[j] grows, only the processes whose need on j is now
 * covered leave heap j and move their pointer forward. Every (process,
 * resource) pair is looked at a bounded number of times: O(I*J + pushes*log I)
 * per request instead of the thesis's O(I^2 * J) in the worst case.
 *
 * Choices where the thesis is silent or garbled:
 * - The safety check stops as soon as an iteration finds no process able to
 *   finish (Algorithm 23 would run all I iterations before denying an unsafe
 *   request); the decision is the same.
 * - Rollback restores need = maximum - allocation (Algorithm 29 line 20
 *   prints "maximum + allocation").
 * - A request with a negative amount is invalid; a release of more than is
 *   held, or of a negative amount, is refused and changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "deadlock/pba_engine.h"

typedef struct cpu_pba {
	pba_system s;
	int64_t *work;
	uint8_t *finish, *atf;
	uint32_t iterations;
	/* cpu-fast */
	uint32_t *pos;         /* per process: first resource not yet known to be covered */
	uint32_t *ready;       /* processes able to finish, not yet added to work */
	struct heap *heaps;    /* per resource: processes blocked on it */
} cpu_pba;

typedef struct heap_item {
	int32_t key; /* the process's need on this resource */
	uint32_t proc;
} heap_item;

typedef struct heap {
	heap_item *a;
	uint32_t n, cap;
} heap;

static void *open_common(const pba_system *initial, int fast)
{
	cpu_pba *c = gb_xcalloc(1, sizeof(*c), "PBA engine state");
	pba_system_init(&c->s, initial->procs, initial->res);
	pba_system_copy(&c->s, initial);
	c->work = gb_xcalloc(initial->res, sizeof(int64_t), "PBA work vector");
	c->finish = gb_xcalloc(initial->procs, 1, "PBA finish vector");
	c->atf = gb_xcalloc(initial->procs, 1, "PBA able-to-finish vector");
	if (fast) {
		c->pos = gb_xcalloc(initial->procs, sizeof(uint32_t), "PBA scan positions");
		c->ready = gb_xcalloc(initial->procs, sizeof(uint32_t), "PBA ready list");
		c->heaps = gb_xcalloc(initial->res, sizeof(heap), "PBA heaps");
	}
	return c;
}

static void *open_thesis(const pba_system *initial)
{
	return open_common(initial, 0);
}

static void *open_fast(const pba_system *initial)
{
	return open_common(initial, 1);
}

static void cpu_close(void *vctx)
{
	cpu_pba *c = vctx;
	uint32_t j;
	if (c->heaps)
		for (j = 0; j < c->s.res; j++)
			free(c->heaps[j].a);
	free(c->heaps);
	free(c->pos);
	free(c->ready);
	free(c->work);
	free(c->finish);
	free(c->atf);
	pba_system_free(&c->s);
	free(c);
}

static void cpu_fetch(void *vctx, pba_system *out)
{
	pba_system_copy(out, &((cpu_pba *)vctx)->s);
}

static uint32_t cpu_last_iterations(void *vctx)
{
	return ((cpu_pba *)vctx)->iterations;
}

static double lap(uint64_t *t)
{
	uint64_t now = gb_now_ns();
	double s = (double)(now - *t) / 1e9;
	*t = now;
	return s;
}

static unsigned release(pba_system *s, uint32_t p, const int32_t *amt)
{
	uint32_t j, J = s->res;
	int32_t *alloc = s->allocation + (size_t)p * J, *need = s->need + (size_t)p * J;
	for (j = 0; j < J; j++)
		if (amt[j] < 0 || amt[j] > alloc[j])
			return PBA_RELEASE_INVALID;
	for (j = 0; j < J; j++) {
		s->available[j] += amt[j];
		alloc[j] -= amt[j];
		need[j] += amt[j];
	}
	return PBA_RELEASED;
}

/* Phase 5 on a failed safety check: give the temporary allocation back. */
static void roll_back(pba_system *s, uint32_t p, const int32_t *amt)
{
	uint32_t j, J = s->res;
	size_t row = (size_t)p * J;
	for (j = 0; j < J; j++) {
		s->available[j] += amt[j];
		s->allocation[row + j] -= amt[j];
		s->need[row + j] = s->maximum[row + j] - s->allocation[row + j];
	}
}

/* Phases 1-3; returns PBA_GRANTED when the safety check must run next. */
static unsigned prepare(cpu_pba *c, uint32_t p, const int32_t *amt, double ph[PBA_NPHASES],
			uint64_t *t)
{
	pba_system *s = &c->s;
	uint32_t j, J = s->res, ok = 0;
	size_t row = (size_t)p * J;

	for (j = 0; j < J; j++)
		ok += amt[j] >= 0 && amt[j] <= s->need[row + j];
	ph[PBA_PHASE_VALID] += lap(t);
	if (ok != J)
		return PBA_DENIED_INVALID;
	for (ok = 0, j = 0; j < J; j++)
		ok += amt[j] <= s->available[j];
	ph[PBA_PHASE_AVAILABLE] += lap(t);
	if (ok != J)
		return PBA_DENIED_UNAVAILABLE;
	for (j = 0; j < J; j++) {
		s->available[j] -= amt[j];
		s->allocation[row + j] += amt[j];
		s->need[row + j] = s->maximum[row + j] - s->allocation[row + j];
		c->work[j] = s->available[j];
	}
	memset(c->finish, 0, s->procs);
	ph[PBA_PHASE_PREPARE] += lap(t);
	return PBA_GRANTED;
}

/* The thesis's H-safety check: iterations over all unfinished processes. */
static uint32_t safety_thesis(cpu_pba *c)
{
	pba_system *s = &c->s;
	uint32_t I = s->procs, J = s->res, it, i, j, total = 0;

	for (it = 0; it < I; it++) {
		uint32_t found = 0;
		memset(c->atf, 0, I);
		for (i = 0; i < I; i++) {
			const int32_t *need = s->need + (size_t)i * J;
			uint32_t covered = 0;
			if (c->finish[i])
				continue;
			for (j = 0; j < J; j++)
				covered += need[j] <= c->work[j];
			if (covered == J)
				c->finish[i] = c->atf[i] = 1;
		}
		for (i = 0; i < I; i++) {
			const int32_t *alloc = s->allocation + (size_t)i * J;
			if (!c->atf[i])
				continue;
			total++;
			found++;
			for (j = 0; j < J; j++)
				c->work[j] += alloc[j];
		}
		if (total == I || found == 0)
			break;
	}
	c->iterations = it + (it < I);
	return total;
}

static void heap_push(heap *h, int32_t key, uint32_t proc)
{
	uint32_t k;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 8;
		h->a = realloc(h->a, h->cap * sizeof(heap_item));
		if (!h->a)
			gb_die(GB_EXIT_RUNTIME, "out of host memory for a PBA heap");
	}
	for (k = h->n++; k > 0 && h->a[(k - 1) / 2].key > key; k = (k - 1) / 2)
		h->a[k] = h->a[(k - 1) / 2];
	h->a[k].key = key;
	h->a[k].proc = proc;
}

static uint32_t heap_pop(heap *h)
{
	uint32_t top = h->a[0].proc, k = 0;
	heap_item last = h->a[--h->n];
	for (;;) {
		uint32_t c = 2 * k + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->a[c + 1].key < h->a[c].key)
			c++;
		if (h->a[c].key >= last.key)
			break;
		h->a[k] = h->a[c];
		k = c;
	}
	if (h->n)
		h->a[k] = last;
	return top;
}

/* Move process i's pointer past every covered resource: park it on the first
 * uncovered one, or put it on the ready list. */
static void advance(cpu_pba *c, uint32_t i, uint32_t *nready)
{
	const int32_t *need = c->s.need + (size_t)i * c->s.res;
	uint32_t j = c->pos[i];
	while (j < c->s.res && need[j] <= c->work[j])
		j++;
	c->pos[i] = j;
	if (j == c->s.res)
		c->ready[(*nready)++] = i;
	else
		heap_push(&c->heaps[j], need[j], i);
}

static uint32_t safety_fast(cpu_pba *c)
{
	pba_system *s = &c->s;
	uint32_t I = s->procs, J = s->res, i, j, nready = 0, total = 0;

	for (j = 0; j < J; j++)
		c->heaps[j].n = 0;
	for (i = 0; i < I; i++) {
		c->pos[i] = 0;
		advance(c, i, &nready);
	}
	c->iterations = 0;
	while (nready) {
		const int32_t *alloc;
		i = c->ready[--nready];
		total++;
		alloc = s->allocation + (size_t)i * J;
		for (j = 0; j < J; j++) {
			heap *h;
			if (!alloc[j])
				continue;
			c->work[j] += alloc[j];
			h = &c->heaps[j];
			while (h->n && h->a[0].key <= c->work[j])
				advance(c, heap_pop(h), &nready);
		}
		c->iterations++;
	}
	return total;
}

static unsigned apply_common(cpu_pba *c, uint8_t type, uint32_t p, const int32_t *amt,
			     double ph[PBA_NPHASES], uint32_t (*safety)(cpu_pba *))
{
	uint64_t t = gb_now_ns();
	unsigned r;

	c->iterations = 0;
	if (type == PBA_RELEASE)
		return release(&c->s, p, amt);
	r = prepare(c, p, amt, ph, &t);
	if (r != PBA_GRANTED)
		return r;
	r = safety(c) == c->s.procs ? PBA_GRANTED : PBA_DENIED_UNSAFE;
	ph[PBA_PHASE_SAFETY] += lap(&t);
	if (r != PBA_GRANTED)
		roll_back(&c->s, p, amt);
	ph[PBA_PHASE_RESOLVE] += lap(&t);
	return r;
}

static unsigned apply_thesis(void *vctx, uint8_t type, uint32_t p, const int32_t *amt,
			     double ph[PBA_NPHASES])
{
	return apply_common(vctx, type, p, amt, ph, safety_thesis);
}

static unsigned apply_fast(void *vctx, uint8_t type, uint32_t p, const int32_t *amt,
			   double ph[PBA_NPHASES])
{
	return apply_common(vctx, type, p, amt, ph, safety_fast);
}

const pba_engine pba_engine_cpu = {
	.head = {.name = "cpu",
		 .summary = "the thesis's serial CPU-PBA: up to I iterations over every process and resource",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.open = open_thesis,
	.apply = apply_thesis,
	.last_iterations = cpu_last_iterations,
	.fetch = cpu_fetch,
	.close = cpu_close,
};

const pba_engine pba_engine_cpu_fast = {
	.head = {.name = "cpu-fast",
		 .summary = "order-independent safety check: per-resource heaps, forward-only scans",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.open = open_fast,
	.apply = apply_fast,
	.last_iterations = cpu_last_iterations,
	.fetch = cpu_fetch,
	.close = cpu_close,
};
