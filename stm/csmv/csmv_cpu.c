/*
 * CSMV's CPU backend: the shared algorithm (stm/csmv/csmv.h, stm/csmv/csmv_sched.h and
 * the workload's execution, stm/csmv/csmv_step.h) with client groups of
 * CSMV_GROUP logical threads dealt round-robin to --cpu-workers pthreads and
 * one more pthread as the server. A worker steps each of its groups through
 * its phases one at a time; a group that waits (for the server's answer, for
 * reclamation, for GTS to reach its batch) returns and lets the worker's other
 * groups run, so groups on one worker never wait for each other in a loop.
 * The lanes of a group run one after another where a warp runs them side by
 * side: every step a lane takes is the GB_HD function the kernel calls. The
 * versioned boxes and what the oracle reads are in host memory, in the store
 * JVSTM's CPU backend keeps too (stm/csmv/csmv_store.h).
 *
 * The server is the paper's (stm/csmv/csmv_server.h): a receiver thread that
 * dispatches each request to an idle one of --server-workers worker threads,
 * which validate it against the ATR's ring of committed write sets, reserve
 * its slots with one CAS and write its records; each worker goes through a
 * request's transactions one after another (collaborative validation is a
 * GPU difference only). csmv-index... keep one server thread that decides
 * every request against the ATR indexed by word (csmv_decide).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "stm/csmv/csmv_step.h"
#include "stm/csmv/csmv_engines.h"
#include "stm/csmv/csmv_server.h"
#include "stm/csmv/csmv_store.h"
#include "stm/backend/stm_cpu.h"

enum group_phase { PH_EXECUTE, PH_ANSWER, PH_INSTALL, PH_PUBLISH, PH_DONE };

typedef struct group {
	uint32_t index, phase, lanes;
	uint32_t seq;        /* requests submitted */
	uint32_t submitted;  /* lanes of the outstanding request */
	uint32_t commit, base;
	uint32_t cts[CSMV_GROUP];
	csmv_lane lane[CSMV_GROUP];
} group;

/* A worker of the paper's server: the request it serves (group + 1, 0: idle), and its counters. */
typedef struct server_worker {
	uint32_t job;
	uint32_t index;
	struct csmv_cpu *c;
	pthread_t thread;
	stm_counters sc;
	char pad[64];
} server_worker;

typedef struct csmv_cpu {
	csmv_store s; /* first: the store's stm_ops functions take this state */
	stm_params p;
	uint32_t mode;
	csmv_execute_fn execute;
	uint32_t ngroups;
	csmv_req *req;
	csmv_atr atr;
	csmv_ring ring;   /* the paper's server */
	uint32_t nworkers;
	server_worker *workers;
	uint32_t stop;    /* the receiver to the workers: every group is done */
	uint64_t deadline_ns;
	double cycles_per_ns;
	stm_counters server; /* the server's installs (no client write-back): versions kept, waits */
} csmv_cpu;

static void *csmv_cpu_open(const tx_input *in, const stm_params *p, uint32_t mode, csmv_execute_fn execute)
{
	csmv_cpu *c = gb_xcalloc(1, sizeof(*c), "CSMV CPU backend state");
	c->p = *p;
	c->mode = mode;
	c->execute = execute;
	c->ngroups = (p->threads + CSMV_GROUP - 1) / CSMV_GROUP;
	csmv_store_open(&c->s, in, c->ngroups, "group snapshots");
	c->req = gb_xcalloc(c->ngroups, sizeof(csmv_req), "group requests");
	if (mode & CSMV_INDEX) {
		c->s.m.wcts = gb_xcalloc(in->words, sizeof(uint32_t), "the ATR's index of last writers");
	} else {
		c->ring.size = csmv_atr_records(p);
		c->ring.rec = gb_xcalloc(c->ring.size, sizeof(csmv_record), "the ATR's records");
		c->nworkers = csmv_server_workers(p);
		c->workers = gb_xcalloc(c->nworkers, sizeof(server_worker), "the server's workers");
		c->s.m.taken = gb_xcalloc(c->ngroups, sizeof(uint32_t), "the receiver's dispatched requests");
	}
	c->s.m.req = c->req;
	c->cycles_per_ns = stm_cpu_cycles_per_ns();
	return c;
}

/* The lanes that submit, after pre-validation (which aborts a lane on the spot). */
static uint32_t submit_mask(csmv_cpu *c, group *g, uint32_t want)
{
	csmv_req *q = &c->req[g->index];
	uint32_t l, mask = want;

	for (l = 0; l < g->lanes; l++)
		if ((want >> l) & 1u)
			csmv_request_fill(q, l, &g->lane[l].tx);
	if (!(c->mode & CSMV_BATCHED))
		return mask;
	for (l = 0; l < g->lanes; l++)
		if (((want >> l) & 1u) && !csmv_prevalidate(q, l, want)) {
			mask &= ~(1u << l);
			csmv_lane_outcome(&g->lane[l], &c->s.table, 0, 0, gb_cycles());
		}
	return mask;
}

/* A round's execution: announce, run every lane's entry, retire, submit the updates. */
static void execute_round(csmv_cpu *c, group *g)
{
	csmv_req *q = &c->req[g->index];
	uint32_t l, snap, want = 0, running = 0;
	uint64_t now;

	for (l = 0; l < g->lanes; l++)
		running |= g->lane[l].state == STM_RUNNING;
	if (running && gb_past_deadline(gb_clock_ns(), c->deadline_ns)) {
		for (l = 0; l < g->lanes; l++)
			if (g->lane[l].state == STM_RUNNING)
				g->lane[l].state = STM_TIMED_OUT;
		running = 0;
	}
	if (!running) {
		g->phase = PH_DONE;
		gb_add_u32(&c->s.words.groups_done, 1);
		return;
	}
	snap = csmv_announce(&c->s.m, g->index);
	for (l = 0; l < g->lanes; l++) {
		/* a lane that fails stops (threads_failed ends the run) */
		if (c->execute(&g->lane[l], &c->s.m, &c->s.table, &c->p, snap) == CSMV_LANE_SUBMIT)
			want |= 1u << l;
	}
	csmv_retire(&c->s.m, g->index);
	if (!want)
		return;
	now = gb_cycles();
	for (l = 0; l < g->lanes; l++)
		if ((want >> l) & 1u)
			g->lane[l].tq = now;
	g->submitted = submit_mask(c, g, want);
	if (!g->submitted)
		return;
	now = gb_cycles();
	for (l = 0; l < g->lanes; l++)
		if ((g->submitted >> l) & 1u)
			g->lane[l].tr = now;
	q->snap = snap;
	q->mask = g->submitted;
	gb_fence(); /* the slots before the doorbell */
	gb_st_relaxed_u32(&q->seq, ++g->seq);
	g->phase = PH_ANSWER;
}

/* One step of a group; returns whether it made progress (else it waits). */
static int group_step(csmv_cpu *c, group *g)
{
	csmv_req *q = &c->req[g->index];
	uint32_t l;
	uint64_t now;

	switch (g->phase) {
	case PH_EXECUTE:
		execute_round(c, g);
		return 1;
	case PH_ANSWER:
		if (gb_ld_acquire_u32(&q->done) != g->seq)
			return 0;
		g->commit = q->commit;
		g->base = q->base;
		for (l = 0; l < g->lanes; l++)
			if ((g->commit >> l) & 1u)
				g->cts[l] = q->cts[l];
		now = gb_cycles();
		for (l = 0; l < g->lanes; l++)
			if ((g->submitted >> l) & 1u)
				g->lane[l].t2 = now;
		g->phase = (c->mode & CSMV_CLIENT_WB) && g->commit ? PH_INSTALL : PH_PUBLISH;
		return 1;
	case PH_INSTALL: {
		int all = 1;
		for (l = 0; l < g->lanes; l++)
			if (((g->commit >> l) & 1u) &&
			    !csmv_lane_install(&g->lane[l], &c->s.m, g->cts[l])) {
				g->lane[l].c.reclaim_waits++;
				all = 0;
			}
		if (!all)
			return 0;
		g->phase = PH_PUBLISH;
		return 1;
	}
	case PH_PUBLISH:
		if ((c->mode & CSMV_CLIENT_WB) && g->commit) {
			/* GTS covers the batches before this one: then this one, all at once */
			if (gb_ld_acquire_u32(&c->s.words.gts) != g->base - 1)
				return 0;
			gb_fence(); /* the versions before the timestamp that makes them visible */
			gb_st_relaxed_u32(&c->s.words.gts, g->base + csmv_popc(g->commit) - 1);
		}
		now = gb_cycles();
		for (l = 0; l < g->lanes; l++)
			if ((g->submitted >> l) & 1u)
				csmv_lane_outcome(&g->lane[l], &c->s.table, (g->commit >> l) & 1u, g->cts[l], now);
		g->phase = PH_EXECUTE;
		return 1;
	default:
		return 0;
	}
}

static void worker_main(stm_cpu_worker *wk)
{
	csmv_cpu *c = wk->ctx;
	uint32_t workers = wk->count, n = 0, k, gi, active;
	group *gs;

	for (gi = wk->index; gi < c->ngroups; gi += workers)
		n++;
	gs = gb_xcalloc(n ? n : 1, sizeof(group), "CSMV client groups");
	for (gi = wk->index, k = 0; gi < c->ngroups; gi += workers, k++) {
		uint32_t l;
		gs[k].index = gi;
		gs[k].lanes = CSMV_GROUP;
		for (l = 0; l < CSMV_GROUP; l++)
			csmv_lane_init(&gs[k].lane[l], gi * CSMV_GROUP + l, c->p.threads, &c->s.table);
	}
	active = n;
	while (active) {
		int busy = 0;
		for (k = 0; k < n; k++) {
			if (gs[k].phase == PH_DONE)
				continue;
			busy |= group_step(c, &gs[k]);
			if (gs[k].phase == PH_DONE)
				active--;
		}
		if (!busy)
			sched_yield();
	}
	for (k = 0; k < n; k++) {
		uint32_t l;
		for (l = 0; l < CSMV_GROUP; l++) {
			if (gs[k].lane[l].tid >= c->p.threads)
				continue;
			stm_counters t = csmv_lane_totals(&gs[k].lane[l]);
			stm_counters_add(&wk->totals, &t);
		}
	}
	free(gs);
}

/*
 * Install a committed transaction's versions on the server (no client
 * write-back), then make them visible: GTS = cts once GTS has reached the
 * commit before (several workers of the paper's server install at once).
 */
static void server_install(csmv_cpu *c, const csmv_req *q, uint32_t lane, uint32_t cts, stm_counters *sc)
{
	uint32_t j, kept = 0;
	for (j = 0; j < q->nw[lane]; j++) {
		while (!csmv_install(&c->s.m, q->w[lane][j], cts, q->v[lane][j], csmv_refresh_safe(&c->s.m), &kept)) {
			sc->reclaim_waits++;
			sched_yield(); /* the groups still reading the oldest version run on the workers */
		}
		if (kept > sc->versions_kept_peak)
			sc->versions_kept_peak = kept;
	}
	while (gb_ld_acquire_u32(&c->s.words.gts) != cts - 1)
		sched_yield();
	gb_fence(); /* the versions before the timestamp that makes them visible */
	gb_st_relaxed_u32(&c->s.words.gts, cts);
}

/* csmv-index's server: poll every group's mailbox, decide what arrives, keep safe up to date. */
static void *index_server_main(void *arg)
{
	csmv_cpu *c = arg;
	uint32_t *served = gb_xcalloc(c->ngroups, sizeof(uint32_t), "served requests");
	uint32_t gi;

	for (;;) {
		int any = 0, finished = gb_ld_acquire_u32(&c->s.words.groups_done) == c->ngroups;
		csmv_refresh_safe(&c->s.m);
		for (gi = 0; gi < c->ngroups; gi++) {
			csmv_req *q = &c->req[gi];
			uint32_t seq = gb_ld_acquire_u32(&q->seq), base, commit, l;
			if (seq == served[gi])
				continue;
			uint64_t ta = gb_cycles(), tb;
			commit = csmv_decide(&c->atr, q, q->mask, c->mode, &base);
			tb = gb_cycles();
			if (!(c->mode & CSMV_CLIENT_WB))
				for (l = 0; l < CSMV_GROUP; l++)
					if ((commit >> l) & 1u)
						server_install(c, q, l, csmv_cts_of(commit, base, l), &c->server);
			for (l = 0; l < CSMV_GROUP; l++)
				if ((commit >> l) & 1u)
					q->cts[l] = csmv_cts_of(commit, base, l);
			q->commit = commit;
			q->base = base;
			gb_fence(); /* the answer before done */
			gb_st_relaxed_u32(&q->done, seq);
			c->server.server_cycles_validate += tb - ta;
			c->server.server_cycles_insert += gb_cycles() - tb;
			served[gi] = seq;
			any = 1;
		}
		if (finished && !any)
			break;
		if (!any)
			sched_yield();
	}
	free(served);
	return NULL;
}

/* Lane `lane` of a request against records *from + 1 ... to, waiting out records still being written. */
static int validate_up_to(const csmv_ring *ring, const csmv_req *q, uint32_t lane, uint32_t from, uint32_t to)
{
	int v;
	while ((v = csmv_ring_validate(ring, q, lane, &from, to)) < 0)
		sched_yield(); /* a worker between its reservation and its record */
	return v;
}

/*
 * A worker of the paper's server decides group gi's request. Batched: every
 * lane against the records after its snapshot up to the tail read, then one
 * CAS reserves the committed lanes' slots; when it fails, the lanes still
 * committing are checked against the records reserved meanwhile and the CAS
 * tried again. One by one (onlycs): each lane reserves its own slot with a
 * CAS, so it is checked against the lanes of its request inserted before it
 * too, and the worker installs its versions and publishes it.
 */
static void serve(csmv_cpu *c, uint32_t gi, stm_counters *sc)
{
	csmv_req *q = &c->req[gi];
	csmv_ring *ring = &c->ring;
	uint32_t seq = gb_ld_acquire_u32(&q->seq), mask = q->mask, ok = 0, base = 0, l, t, old;
	uint64_t ta = gb_cycles(), tb, tc;

	t = gb_ld_acquire_cta_u32(&ring->tail);
	for (l = 0; l < CSMV_GROUP; l++)
		if (((mask >> l) & 1u) && validate_up_to(ring, q, l, q->snap, t))
			ok |= 1u << l;
	if (c->mode & CSMV_BATCHED) {
		while (ok && (old = gb_cas_cta_u32(&ring->tail, t, t + csmv_popc(ok))) != t) {
			for (l = 0; l < CSMV_GROUP; l++)
				if (((ok >> l) & 1u) && !validate_up_to(ring, q, l, t, old))
					ok &= ~(1u << l);
			t = old;
		}
		base = t + 1;
		tb = gb_cycles();
		for (l = 0; l < CSMV_GROUP; l++)
			if ((ok >> l) & 1u) {
				q->cts[l] = base + csmv_rank(ok, l);
				csmv_record_write(ring, q->cts[l], q->w[l], q->nw[l]);
			}
		sc->server_cycles_validate += tb - ta;
		sc->server_cycles_insert += gb_cycles() - tb;
	} else {
		for (l = 0; l < CSMV_GROUP; l++) {
			uint32_t tl = t;
			if (!((ok >> l) & 1u))
				continue;
			while ((old = gb_cas_cta_u32(&ring->tail, tl, tl + 1)) != tl) {
				if (!validate_up_to(ring, q, l, tl, old)) {
					ok &= ~(1u << l);
					break;
				}
				tl = old;
			}
			tb = gb_cycles();
			sc->server_cycles_validate += tb - ta;
			if (!((ok >> l) & 1u)) {
				ta = tb;
				continue;
			}
			q->cts[l] = tl + 1;
			if (!base)
				base = tl + 1;
			csmv_record_write(ring, tl + 1, q->w[l], q->nw[l]);
			server_install(c, q, l, tl + 1, sc);
			tc = gb_cycles();
			sc->server_cycles_insert += tc - tb;
			ta = tc;
		}
		if (ok == 0)
			sc->server_cycles_validate += gb_cycles() - ta;
	}
	q->commit = ok;
	q->base = base;
	gb_fence(); /* the answer before done */
	gb_st_relaxed_u32(&q->done, seq);
}

static void *server_worker_main(void *arg)
{
	server_worker *w = arg;
	csmv_cpu *c = w->c;

	for (;;) {
		uint32_t job = gb_ld_acquire_u32(&w->job);
		if (job) {
			serve(c, job - 1, &w->sc);
			gb_fence(); /* the answer before idle */
			gb_st_relaxed_u32(&w->job, 0);
		} else if (gb_ld_acquire_u32(&c->stop)) {
			break;
		} else {
			sched_yield();
		}
	}
	return NULL;
}

/* The receiver: every request that arrives to an idle worker; the reclamation bound kept up to date. */
static void *receiver_main(void *arg)
{
	csmv_cpu *c = arg;
	uint32_t *taken = c->s.m.taken, gi, next = 0;

	for (;;) {
		int any = 0, finished = gb_ld_acquire_u32(&c->s.words.groups_done) == c->ngroups;
		csmv_refresh_safe(&c->s.m);
		for (gi = 0; gi < c->ngroups; gi++) {
			uint32_t seq = gb_ld_acquire_u32(&c->req[gi].seq);
			if (seq == taken[gi])
				continue;
			for (;;) { /* round-robin from the last worker given a request */
				server_worker *w = &c->workers[next];
				next = (next + 1) % c->nworkers;
				if (!gb_ld_acquire_u32(&w->job)) {
					gb_fence(); /* the request (acquired with seq) before the job that names it */
					gb_st_relaxed_u32(&w->job, gi + 1);
					break;
				}
				if (next == 0)
					sched_yield();
			}
			taken[gi] = seq;
			any = 1;
		}
		if (finished)
			break; /* every group has its last answer */
		if (!any)
			sched_yield();
	}
	gb_fence();
	gb_st_relaxed_u32(&c->stop, 1);
	return NULL;
}

static void csmv_cpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	csmv_cpu *c = ctx;
	uint32_t nw = c->p.cpu_workers, k;
	pthread_t server;
	uint64_t t0;
	int err;

	(void)run_ns; /* no timed rounds: stm/registry.c says why */
	if (nw > c->ngroups)
		nw = c->ngroups;
	csmv_store_clear(&c->s);
	memset(c->req, 0, c->ngroups * sizeof(csmv_req));
	memset(&c->atr, 0, sizeof(c->atr));
	memset(&c->server, 0, sizeof(c->server));
	if (c->mode & CSMV_INDEX) {
		memset(c->s.m.wcts, 0, c->s.in.words * sizeof(uint32_t));
		c->atr.wcts = c->s.m.wcts;
	} else {
		memset(c->ring.rec, 0, c->ring.size * sizeof(csmv_record));
		c->ring.tail = 0;
		c->stop = 0;
		memset(c->s.m.taken, 0, c->ngroups * sizeof(uint32_t));
		memset(c->workers, 0, c->nworkers * sizeof(server_worker));
	}
	memset(r, 0, sizeof(*r));
	t0 = gb_now_ns();
	c->deadline_ns = gb_clock_ns() + timeout_ns;
	for (k = 0; !(c->mode & CSMV_INDEX) && k < c->nworkers; k++) {
		c->workers[k].c = c;
		c->workers[k].index = k;
		err = pthread_create(&c->workers[k].thread, NULL, server_worker_main, &c->workers[k]);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CSMV server worker %u: %s", k, strerror(err));
	}
	err = pthread_create(&server, NULL, c->mode & CSMV_INDEX ? index_server_main : receiver_main, c);
	if (err)
		gb_die(GB_EXIT_RUNTIME, "cannot start the CSMV server thread: %s", strerror(err));
	stm_cpu_workers_run(nw, worker_main, c, &r->c);
	pthread_join(server, NULL);
	for (k = 0; !(c->mode & CSMV_INDEX) && k < c->nworkers; k++) {
		pthread_join(c->workers[k].thread, NULL);
		stm_counters_add(&c->server, &c->workers[k].sc);
	}
	stm_counters_add(&r->c, &c->server);
	r->seconds = gb_seconds_since(t0);
	r->cycles_per_ns = c->cycles_per_ns;
}

static void csmv_cpu_close(void *ctx)
{
	csmv_cpu *c = ctx;
	csmv_store_close(&c->s);
	free(c->req);
	free(c->s.m.wcts);
	free(c->ring.rec);
	free(c->workers);
	free(c->s.m.taken);
	free(c);
}

/* Each workload's CPU backend for each engine name (csmv_bank_cpu_ops, csmv_nocv_bank_cpu_ops, ...). */
#define CSMV_CPU_OPS(wl, ahead, name, mode)                                           \
	static void *name##_##wl##_open(const tx_input *in, const stm_params *p)      \
	{                                                                             \
		return csmv_cpu_open(in, p, mode, csmv_##wl##_execute);               \
	}                                                                             \
	const stm_ops name##_##wl##_cpu_ops = CSMV_STORE_OPS(name##_##wl##_open, csmv_cpu_run, csmv_cpu_close);
#define CSMV_CPU_MODE(name, mode) CSMV_WORKLOADS(CSMV_CPU_OPS, name, mode)
CSMV_MODES(CSMV_CPU_MODE)
