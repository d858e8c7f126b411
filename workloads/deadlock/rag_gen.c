/* Event streams for deadlock detection (see rag_gen.h). */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/deadlock/rag_gen.h"
#include "workloads/deadlock/rag_oracle.h"
#include "workloads/deadlock/rag_trace.h"

#define CANDIDATES 4 /* oracle searches per request, each way of choosing */
#define WALK_STEPS 8 /* how far the deadlock walk follows waiting chains back */
#define PROBES 4     /* random units looked at for one with waiters */

/* A set of process ids with O(1) insert, remove and random pick. */
typedef struct proc_set {
	uint32_t *id, *at; /* members; position of each process, RAG_NONE when out */
	uint32_t n;
} proc_set;

typedef struct gen {
	rag_oracle o;
	gb_rng r;
	proc_set active;  /* processes with no pending request */
	proc_set holding; /* processes holding at least one unit */
} gen;

void rag_gen_defaults(rag_gen_config *cfg)
{
	cfg->procs = 1024;
	cfg->res = 1024;
	cfg->events = 2000;
	cfg->seed = 1;
	cfg->units_lo = cfg->units_hi = 1;
	cfg->release_share = 0.4;
	cfg->deadlock_share = 0.02;
}

static void set_init(proc_set *s, uint32_t procs)
{
	s->id = gb_xmalloc((size_t)procs * sizeof(uint32_t), "generator process set");
	s->at = gb_xmalloc((size_t)procs * sizeof(uint32_t), "generator process set");
	for (uint32_t i = 0; i < procs; i++)
		s->at[i] = RAG_NONE;
	s->n = 0;
}

static void set_free(proc_set *s)
{
	free(s->id);
	free(s->at);
}

/* Make membership of p follow `in`. */
static void set_put(proc_set *s, uint32_t p, int in)
{
	if (in && s->at[p] == RAG_NONE) {
		s->at[p] = s->n;
		s->id[s->n++] = p;
	} else if (!in && s->at[p] != RAG_NONE) {
		uint32_t last = s->id[--s->n];
		s->id[s->at[p]] = last;
		s->at[last] = s->at[p];
		s->at[p] = RAG_NONE;
	}
}

/* After an event: p's (and a regranted process's) place in both sets. */
static void track(gen *g, uint32_t p)
{
	set_put(&g->active, p, g->o.waits_for[p] == RAG_NONE);
	set_put(&g->holding, p, g->o.held[p].n > 0);
}

static int chance(gb_rng *r, double share)
{
	return (double)(gb_rng_next(r) >> 11) * 0x1p-53 < share;
}

/* One of the units p holds, each equally likely; RAG_NONE when it holds none. */
static uint32_t random_unit(gen *g, uint32_t p)
{
	const rag_list *h = &g->o.held[p];
	return h->n ? ((const uint32_t *)h->a)[gb_rng_below(&g->r, h->n)] : RAG_NONE;
}

static int would_deadlock(gen *g, uint32_t p, uint32_t q)
{
	return g->o.free_units[q] == 0 && rag_oracle_would_deadlock(&g->o, p, q);
}

/* A resource for p to request: often one another process holds (see rag_gen.h). */
static uint32_t pick_resource(gen *g, uint32_t p)
{
	if (g->holding.n && chance(&g->r, RAG_GEN_CONTENDED)) {
		uint32_t h = g->holding.id[gb_rng_below(&g->r, g->holding.n)];
		if (h != p)
			return random_unit(g, h);
	}
	return (uint32_t)gb_rng_below(&g->r, g->o.res);
}

/*
 * A request by p (which holds a unit) that deadlocks, or RAG_NONE. Candidates
 * come from walking waiting chains back from p, then from p's own units.
 */
static uint32_t deadlock_request(gen *g, uint32_t p)
{
	uint32_t x = p, checks = 0, step, k, q;

	for (step = 0; step < WALK_STEPS && checks < CANDIDATES; step++) {
		const rag_list *w;
		uint32_t waiter;

		for (k = 0, q = RAG_NONE; k < PROBES && q == RAG_NONE; k++) {
			q = random_unit(g, x);
			if (q != RAG_NONE && g->o.waiters[q].n == 0)
				q = RAG_NONE;
		}
		if (q == RAG_NONE)
			break;
		w = &g->o.waiters[q];
		waiter = ((const uint32_t *)w->a)[gb_rng_below(&g->r, w->n)];
		for (k = 0, q = RAG_NONE; k < PROBES && q == RAG_NONE; k++) {
			q = random_unit(g, waiter);
			if (q != RAG_NONE && g->o.free_units[q] != 0)
				q = RAG_NONE;
		}
		if (q != RAG_NONE) {
			checks++;
			if (rag_oracle_would_deadlock(&g->o, p, q))
				return q;
		}
		x = waiter;
	}
	for (k = 0; k < PROBES && checks < CANDIDATES; k++) {
		q = random_unit(g, p);
		if (g->o.free_units[q] == 0) {
			checks++;
			if (rag_oracle_would_deadlock(&g->o, p, q))
				return q;
		}
	}
	return RAG_NONE;
}

/* The next event: p's type and resource. */
static void next_event(gen *g, const rag_gen_config *cfg, uint8_t *type, uint32_t *p, uint32_t *q)
{
	uint32_t k, holds;

	/* Never empty: the graph holds no deadlock, so waiting chains end in active processes. */
	*p = g->active.id[gb_rng_below(&g->r, g->active.n)];
	holds = g->o.held[*p].n;
	*type = RAG_REQUEST;
	if (holds && chance(&g->r, cfg->release_share)) {
		*type = RAG_RELEASE;
		*q = random_unit(g, *p);
		return;
	}
	if (holds && chance(&g->r, cfg->deadlock_share)) {
		*q = deadlock_request(g, *p);
		if (*q != RAG_NONE)
			return;
	}
	for (k = 0; k < CANDIDATES; k++) {
		*q = pick_resource(g, *p);
		/* A process holding nothing is on no path the search follows: never a deadlock. */
		if (!holds || !would_deadlock(g, *p, *q))
			return;
	}
	*type = RAG_RELEASE;
	*q = random_unit(g, *p);
}

static int bad_config(const rag_gen_config *cfg, char *err, size_t errlen)
{
	if (cfg->procs < 1 || cfg->procs > RAG_TRACE_MAX_COUNT)
		snprintf(err, errlen, "the generator needs 1..%u processes, got %u",
			 RAG_TRACE_MAX_COUNT, cfg->procs);
	else if (cfg->res < 1 || cfg->res > RAG_TRACE_MAX_COUNT)
		snprintf(err, errlen, "the generator needs 1..%u resources, got %u",
			 RAG_TRACE_MAX_COUNT, cfg->res);
	else if (cfg->units_lo < 1 || cfg->units_hi > RAG_TRACE_MAX_UNITS ||
		 cfg->units_lo > cfg->units_hi)
		snprintf(err, errlen, "units per resource must be a range within 1..%u, got %u..%u",
			 RAG_TRACE_MAX_UNITS, cfg->units_lo, cfg->units_hi);
	else if (!(cfg->release_share >= 0 && cfg->release_share <= 1))
		snprintf(err, errlen, "the release share must be within 0..1, got %g",
			 cfg->release_share);
	else if (!(cfg->deadlock_share >= 0 && cfg->deadlock_share <= 1))
		snprintf(err, errlen, "the deadlock share must be within 0..1, got %g",
			 cfg->deadlock_share);
	else
		return 0;
	return -1;
}

int rag_generate(const rag_gen_config *cfg, uint32_t *units_out, rag_events *ev, char *err,
		 size_t errlen)
{
	gen g;
	uint32_t i;
	uint64_t e;

	if (bad_config(cfg, err, errlen))
		return -1;
	gb_rng_init(&g.r, cfg->seed, 0);
	for (i = 0; i < cfg->res; i++)
		units_out[i] = (uint32_t)gb_rng_range(&g.r, cfg->units_lo, cfg->units_hi);
	gb_rng_init(&g.r, cfg->seed, 1);
	rag_oracle_init(&g.o, cfg->procs, cfg->res, units_out);
	set_init(&g.active, cfg->procs);
	set_init(&g.holding, cfg->procs);
	for (i = 0; i < cfg->procs; i++)
		set_put(&g.active, i, 1);
	rag_events_init(ev, cfg->events);
	for (e = 0; e < cfg->events && !gb_stop_requested(); e++) {
		rag_decision d;

		next_event(&g, cfg, &ev->type[e], &ev->proc[e], &ev->res[e]);
		d = rag_oracle_apply(&g.o, ev->type[e], ev->proc[e], ev->res[e]);
		track(&g, ev->proc[e]);
		if (d.to != RAG_NONE)
			track(&g, d.to);
	}
	set_free(&g.active);
	set_free(&g.holding);
	rag_oracle_free(&g.o);
	if (gb_stop_requested()) { /* --timeout or a signal: the stream is not whole */
		rag_events_free(ev);
		return gb_errmsg(err, errlen, "generation stopped: %s", gb_stop_reason());
	}
	return 0;
}
