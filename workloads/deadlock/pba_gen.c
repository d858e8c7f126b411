/* Event streams for the banker's algorithm (see pba_gen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/deadlock/pba_gen.h"
#include "workloads/deadlock/pba_oracle.h"

const char *const pba_workload_names[] = {
	[PBA_WORST_CASE] = "worst-case", [PBA_RANDOM] = "random", [PBA_UNSAFE_MIX] = "unsafe-mix",
	[PBA_NWORKLOADS] = NULL,
};

static void worst_case(const pba_gen_config *cfg, pba_system *s, pba_events *ev)
{
	uint32_t I = cfg->procs, J = cfg->res, i, j;
	uint64_t e;

	for (i = 0; i < I; i++)
		for (j = 0; j < J; j++) {
			size_t k = (size_t)i * J + j;
			s->maximum[k] = (int32_t)i + 2;
			s->allocation[k] = 1;
			s->need[k] = (int32_t)i + 1;
		}
	for (j = 0; j < J; j++)
		s->available[j] = 2;
	for (e = 0; e < ev->count && !gb_stop_requested(); e++) {
		ev->type[e] = (e % 2) ? PBA_RELEASE : PBA_REQUEST;
		ev->proc[e] = I - 1;
		for (j = 0; j < J; j++)
			ev->amount[e * J + j] = 1;
	}
}

/*
 * Maxima on about a quarter of the resources, a quarter of the total claim free, and never
 * less than the largest claim on a resource: with nothing allocated every process can then
 * run alone to its maximum, so the state is safe (a few processes' quarter is less than one
 * of their claims, which would leave that process unable ever to finish and every request
 * unsafe).
 */
static void random_state(const pba_gen_config *cfg, pba_system *s, gb_rng *r)
{
	uint32_t I = cfg->procs, J = cfg->res, i, j;
	uint64_t *claim = gb_xcalloc(J, sizeof(uint64_t), "PBA claims");
	int32_t *most = gb_xcalloc(J, sizeof(int32_t), "PBA claims");
	for (i = 0; i < I; i++)
		for (j = 0; j < J; j++) {
			size_t k = (size_t)i * J + j;
			if (gb_rng_below(r, 4) == 0)
				s->maximum[k] = (int32_t)gb_rng_range(r, 1, 8);
			s->need[k] = s->maximum[k];
			claim[j] += (uint64_t)s->maximum[k];
			if (s->maximum[k] > most[j])
				most[j] = s->maximum[k];
		}
	for (j = 0; j < J; j++) {
		uint64_t quarter = claim[j] / 4, floor = most[j] > 0 ? (uint64_t)most[j] : 1;
		s->available[j] = (int32_t)(quarter > floor ? quarter : floor);
	}
	free(most);
	free(claim);
}

static void random_stream(const pba_gen_config *cfg, pba_system *s, pba_events *ev)
{
	uint32_t I = cfg->procs, J = cfg->res, j;
	uint64_t e;
	pba_system track;
	gb_rng r;

	gb_rng_init(&r, cfg->seed, 7);
	random_state(cfg, s, &r);
	pba_system_init(&track, I, J);
	pba_system_copy(&track, s);
	for (e = 0; e < ev->count && !gb_stop_requested(); e++) {
		uint32_t p = (uint32_t)gb_rng_below(&r, I);
		int32_t *amt = ev->amount + e * J;
		int release = gb_rng_below(&r, 10) < 4;
		const int32_t *pool = (release ? track.allocation : track.need) + (size_t)p * J;

		ev->type[e] = release ? PBA_RELEASE : PBA_REQUEST;
		ev->proc[e] = p;
		for (j = 0; j < J; j++)
			if (pool[j] > 0 && gb_rng_below(&r, 2) == 0)
				amt[j] = (int32_t)gb_rng_range(&r, 1, (uint64_t)pool[j]);
		pba_oracle_apply(&track, ev->type[e], p, amt);
	}
	pba_system_free(&track);
}

/* A release of a random part of what some process holds; 0 when nobody holds anything. */
static int mix_release(const pba_system *t, gb_rng *r, uint32_t *proc, int32_t *amt)
{
	uint32_t J = t->res, tries, j;
	for (tries = 0; tries < 16; tries++) {
		uint32_t p = (uint32_t)gb_rng_below(r, t->procs);
		const int32_t *held = t->allocation + (size_t)p * J;
		int any = 0;
		for (j = 0; j < J; j++) {
			amt[j] = held[j] > 0 && gb_rng_below(r, 2) ? (int32_t)gb_rng_range(r, 1, (uint64_t)held[j]) : 0;
			any |= amt[j] > 0;
		}
		if (any) {
			*proc = p;
			return 1;
		}
	}
	return 0;
}

static int can_finish(const pba_system *t, uint32_t p, int *needs_more)
{
	const int32_t *need = t->need + (size_t)p * t->res;
	uint32_t j;
	*needs_more = 0;
	for (j = 0; j < t->res; j++) {
		if (need[j] > t->available[j])
			return 0;
		*needs_more |= need[j] > 0;
	}
	return 1;
}

/*
 * A safe request: a part of the need of a process that can finish now. It can
 * still finish after the grant and then returns everything it held, so the
 * safe sequence of the state before still works. When such a process needs
 * nothing more, it finishes instead: the event releases all it holds.
 * Returns the event type, or -1 when neither exists (the state is unsafe).
 */
static int mix_safe(const pba_system *t, gb_rng *r, uint32_t *proc, int32_t *amt)
{
	uint32_t I = t->procs, J = t->res, start = (uint32_t)gb_rng_below(r, I), k, j;
	for (k = 0; k < I; k++) {
		uint32_t p = (start + k) % I;
		const int32_t *need = t->need + (size_t)p * J, *held = t->allocation + (size_t)p * J;
		int more, any = 0;
		if (!can_finish(t, p, &more))
			continue;
		if (!more) {
			for (j = 0; j < J; j++)
				any |= (amt[j] = held[j]) > 0;
			if (!any)
				continue;
			*proc = p;
			return PBA_RELEASE;
		}
		for (j = 0; j < J; j++) {
			amt[j] = need[j] > 0 && gb_rng_below(r, 2) ? (int32_t)gb_rng_range(r, 1, (uint64_t)need[j]) : 0;
			any |= amt[j] > 0;
		}
		for (j = 0; !any; j++)
			any = (amt[j] = need[j] > 0) != 0;
		*proc = p;
		return PBA_REQUEST;
	}
	return -1;
}

/*
 * An unsafe request: all available units of a resource j, by a process that
 * needs more of j than that, where every process holding units of j still
 * needs some of j. After the grant nothing of j is free and no holder of j can
 * finish, so work[j] never grows and the requester never finishes. Returns 0
 * when no such resource and process exist.
 */
static int mix_unsafe(const pba_system *t, gb_rng *r, uint8_t *done_holder, uint32_t *proc,
		      int32_t *amt)
{
	uint32_t I = t->procs, J = t->res, i, j, k, js = (uint32_t)gb_rng_below(r, J);
	uint32_t is = (uint32_t)gb_rng_below(r, I);
	memset(done_holder, 0, J);
	for (i = 0; i < I; i++)
		for (j = 0; j < J; j++) {
			size_t c = (size_t)i * J + j;
			done_holder[j] |= t->allocation[c] > 0 && t->need[c] == 0;
		}
	for (k = 0; k < J; k++) {
		j = (js + k) % J;
		if (done_holder[j] || t->available[j] <= 0)
			continue;
		for (i = 0; i < I; i++) {
			uint32_t p = (is + i) % I;
			if (t->need[(size_t)p * J + j] > t->available[j]) {
				memset(amt, 0, J * sizeof(int32_t));
				amt[j] = t->available[j];
				*proc = p;
				return 1;
			}
		}
	}
	return 0;
}

static void unsafe_mix(const pba_gen_config *cfg, pba_system *s, pba_events *ev)
{
	uint32_t I = cfg->procs, J = cfg->res, j;
	uint64_t e, want_scaled = (uint64_t)(cfg->unsafe_share * 1048576.0 + 0.5);
	uint8_t *scratch = gb_xmalloc(J, "PBA generator scratch");
	pba_system track;
	gb_rng r;

	gb_rng_init(&r, cfg->seed, 11);
	random_state(cfg, s, &r);
	/* Scarce units: each resource has just what its largest claim needs. */
	for (j = 0; j < J; j++) {
		uint32_t i;
		int32_t most = 1;
		for (i = 0; i < I; i++)
			if (s->maximum[(size_t)i * J + j] > most)
				most = s->maximum[(size_t)i * J + j];
		s->available[j] = most;
	}
	pba_system_init(&track, I, J);
	pba_system_copy(&track, s);
	for (e = 0; e < ev->count && !gb_stop_requested(); e++) {
		int32_t *amt = ev->amount + e * J;
		uint32_t p = 0;
		int type = -1;

		if (gb_rng_below(&r, 10) < 3 && mix_release(&track, &r, &p, amt))
			type = PBA_RELEASE;
		else if (gb_rng_below(&r, 1048576) < want_scaled && mix_unsafe(&track, &r, scratch, &p, amt))
			type = PBA_REQUEST;
		if (type < 0)
			type = mix_safe(&track, &r, &p, amt);
		if (type < 0) { /* an unsafe initial state from a trace-like setup: request nothing */
			memset(amt, 0, J * sizeof(int32_t));
			type = PBA_REQUEST;
		}
		ev->type[e] = (uint8_t)type;
		ev->proc[e] = p;
		pba_oracle_apply(&track, ev->type[e], p, amt);
	}
	free(scratch);
	pba_system_free(&track);
}

int pba_generate(const pba_gen_config *cfg, pba_system *initial, pba_events *ev, char *err,
		 size_t errlen)
{
	if (cfg->procs < 2 || cfg->res < 1) {
		snprintf(err, errlen, "the banker's workloads need at least 2 processes and 1 resource");
		return -1;
	}
	pba_system_init(initial, cfg->procs, cfg->res);
	pba_events_init(ev, cfg->events, cfg->res);
	if (cfg->workload == PBA_WORST_CASE)
		worst_case(cfg, initial, ev);
	else if (cfg->workload == PBA_RANDOM)
		random_stream(cfg, initial, ev);
	else
		unsafe_mix(cfg, initial, ev);
	if (gb_stop_requested()) { /* --timeout or a signal: the stream is not whole */
		pba_system_free(initial);
		pba_events_free(ev);
		return gb_errmsg(err, errlen, "generation stopped: %s", gb_stop_reason());
	}
	return 0;
}
