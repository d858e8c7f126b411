/* Event streams for the banker's algorithm (see pba_gen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "workloads/pba_gen.h"
#include "workloads/pba_oracle.h"

const char *const pba_workload_names[] = {"worst-case", "random", NULL};

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
	for (e = 0; e < ev->count; e++) {
		ev->type[e] = (e % 2) ? PBA_RELEASE : PBA_REQUEST;
		ev->proc[e] = I - 1;
		for (j = 0; j < J; j++)
			ev->amount[e * J + j] = 1;
	}
}

static void random_stream(const pba_gen_config *cfg, pba_system *s, pba_events *ev)
{
	uint32_t I = cfg->procs, J = cfg->res, i, j;
	uint64_t e, *claim = gb_xcalloc(J, sizeof(uint64_t), "PBA claims");
	pba_system track;
	gb_rng r;

	gb_rng_init(&r, cfg->seed, 7);
	for (i = 0; i < I; i++)
		for (j = 0; j < J; j++) {
			size_t k = (size_t)i * J + j;
			if (gb_rng_below(&r, 4) == 0)
				s->maximum[k] = (int32_t)gb_rng_range(&r, 1, 8);
			s->need[k] = s->maximum[k];
			claim[j] += (uint64_t)s->maximum[k];
		}
	for (j = 0; j < J; j++)
		s->available[j] = (int32_t)(claim[j] / 4 > 0 ? claim[j] / 4 : 1);
	free(claim);

	pba_system_init(&track, I, J);
	pba_system_copy(&track, s);
	for (e = 0; e < ev->count; e++) {
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
	else
		random_stream(cfg, initial, ev);
	return 0;
}
