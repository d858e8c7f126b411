/*
 * GPU-STM's scheduler, as the PR-STM paper ran it (Shen et al. section 4.1):
 * GPU-STM has no semantic contention management, so "a simple semantic
 * conflict solution has been added to GPU-STM. If conflict occurs, the
 * instruction will not be aborted instantly. Instead it is given a limited
 * number of chances to retry ... the retry limit for GPU-STM is set to 100".
 *
 * Each thread runs its block of the table in order. An attempt that aborts,
 * on a concurrent conflict or a semantic one (too little money), is retried
 * at once; after --retry-limit attempts (default 100) the transaction is
 * given up: it stays uncommitted, the oracle counts it as abandoned, and
 * the thread's retry_limit_reached counter says how many went that way, so
 * none is dropped silently. The thread then takes its next entry.
 *
 * The per-thread loop is a resumable step (one attempt per call), as
 * PR-STM's, so the CPU backend interleaves many logical threads on one
 * worker; the GPU kernel calls it until the thread is done. It reads the
 * clock every GPUSTM_POLL_EVERY attempts and stops between transactions at
 * the --timeout deadline. GPU-STM runs no timed rounds: since it gives
 * transactions up, the commit counts of a table's entries could drift apart
 * without bound, and with them the bank's balances; a --duration run is
 * batches back to back. The step that calls the workload's body is compiled
 * per workload (stm/gpustm/gpustm_step.h, which its callers give the workload as a constant).
 */
#ifndef GB_GPUSTM_SCHED_H
#define GB_GPUSTM_SCHED_H

#include <string.h>

#include "api/tx_table.h"
#include "stm/gpustm/gpustm.h"
#include "stm/gpustm/gpustm_params.h"
#include "stm/stm.h"

/* Attempts between two looks at the clock (a power of 2). */
#define GPUSTM_POLL_EVERY 16u

/* A thread's counters, as small as they can be: the kernel keeps them in registers. */
typedef struct gpustm_thread_counters {
	uint32_t commits_update, commits_readonly;
	uint32_t aborts_locked, aborts_validation, aborts_semantic;
	uint32_t retry_limit_reached;
	uint64_t cycles_committed, cycles_wasted;
	uint64_t cycles_read, cycles_validate, cycles_commit; /* phases of committed attempts */
} gpustm_thread_counters;

typedef struct gpustm_sched {
	uint32_t tid;
	uint32_t pos;       /* the entry being attempted */
	uint32_t end;
	uint32_t attempts;  /* failed attempts of the entry at pos */
	uint32_t state;     /* enum stm_thread_state */
	uint32_t polls;
	uint32_t loaded;    /* index of the entry in `cur`, or end */
	uint32_t ahead;     /* index of the entry in `next`, or end */
	tx_entry cur;       /* the entry being attempted, kept over its retries */
	tx_entry next;      /* the entry after it, loaded early */
	uint64_t deadline_ns;
	gpustm_thread_counters c;
} gpustm_sched;

GB_HD void gpustm_sched_init(gpustm_sched *s, uint32_t tid, const tx_table *v, uint64_t timeout_ns,
			     stm_shared *sh, uint64_t now_ns)
{
	uint64_t begin = (uint64_t)tid * v->tx_per_thread, end = begin + v->tx_per_thread;

	s->tid = tid;
	/* A table that does not fill every block (tx_table.ntx) cuts the last ones short. */
	s->pos = (uint32_t)(begin < v->ntx ? begin : v->ntx);
	s->end = (uint32_t)(end < v->ntx ? end : v->ntx);
	s->attempts = 0;
	s->state = STM_RUNNING;
	s->polls = 0;
	s->loaded = s->ahead = s->end;
	s->deadline_ns = gb_set_once_u64(&sh->deadline_ns, now_ns + timeout_ns);
	s->c.commits_update = s->c.commits_readonly = 0;
	s->c.aborts_locked = s->c.aborts_validation = s->c.aborts_semantic = 0;
	s->c.retry_limit_reached = 0;
	s->c.cycles_committed = s->c.cycles_wasted = 0;
	s->c.cycles_read = s->c.cycles_validate = s->c.cycles_commit = 0;
}

/* A finished thread's contribution to the batch counters (both backends sum these). */
GB_HD stm_counters gpustm_thread_totals(const gpustm_sched *s)
{
	stm_counters c;
	memset(&c, 0, sizeof(c)); /* every counter this engine does not keep is 0 */
	c.commits_update = s->c.commits_update;
	c.commits_readonly = s->c.commits_readonly;
	c.aborts_locked = s->c.aborts_locked;
	c.aborts_priority = 0; /* no priorities */
	c.aborts_validation = s->c.aborts_validation;
	c.aborts_semantic = s->c.aborts_semantic;
	c.cycles_committed = s->c.cycles_committed;
	c.cycles_wasted = s->c.cycles_wasted;
	c.cycles_read = s->c.cycles_read;
	c.cycles_validate = s->c.cycles_validate;
	c.cycles_commit = s->c.cycles_commit;
	c.passes_max = 1; /* one pass over the block, always */
	c.threads_gave_up = 0;
	c.threads_timed_out = s->state == STM_TIMED_OUT;
	c.threads_failed = s->state == STM_FAILED;
	c.threads_stalled = 0;
	c.retry_limit_reached = s->c.retry_limit_reached;
	return c;
}

/* A failed attempt of the entry at pos: retry it, or give it up at the limit. */
GB_HD void gpustm_sched_failed(gpustm_sched *s, const stm_params *p)
{
	if (++s->attempts < gpustm_params_of(p)->retry_limit)
		return;
	s->c.retry_limit_reached++;
	s->attempts = 0;
	s->pos++;
}

GB_HD void gpustm_count_abort(gpustm_thread_counters *c, uint32_t cause)
{
	if (cause == GPUSTM_ABORT_LOCKED)
		c->aborts_locked++;
	else
		c->aborts_validation++;
}

#endif
