/* Summing batch counters: totals add, passes_max and versions_kept_peak take the maximum. */
#include "stm/stm.h"

void stm_counters_add(stm_counters *into, const stm_counters *c)
{
	into->commits_update += c->commits_update;
	into->commits_readonly += c->commits_readonly;
	into->aborts_locked += c->aborts_locked;
	into->aborts_priority += c->aborts_priority;
	into->aborts_validation += c->aborts_validation;
	into->aborts_semantic += c->aborts_semantic;
	into->cycles_committed += c->cycles_committed;
	into->cycles_wasted += c->cycles_wasted;
	into->cycles_read += c->cycles_read;
	into->cycles_validate += c->cycles_validate;
	into->cycles_commit += c->cycles_commit;
	if (c->passes_max > into->passes_max)
		into->passes_max = c->passes_max;
	into->threads_gave_up += c->threads_gave_up;
	into->threads_timed_out += c->threads_timed_out;
	into->threads_failed += c->threads_failed;
	into->threads_stalled += c->threads_stalled;
	into->retry_limit_reached += c->retry_limit_reached;
	if (c->versions_kept_peak > into->versions_kept_peak)
		into->versions_kept_peak = c->versions_kept_peak;
	into->reclaim_waits += c->reclaim_waits;
	into->cycles_diverge += c->cycles_diverge;
	into->cycles_prevalidate += c->cycles_prevalidate;
	into->cycles_wait_server += c->cycles_wait_server;
	into->server_cycles_validate += c->server_cycles_validate;
	into->server_cycles_insert += c->server_cycles_insert;
	into->cycles_record += c->cycles_record;
	into->cycles_thread += c->cycles_thread;
}
