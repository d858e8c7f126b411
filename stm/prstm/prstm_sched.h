/*
 * PR-STM's semantic contention manager (Shen et al. section 3.3-3.4,
 * Algorithm 3), written once for both backends and every workload: the
 * per-thread state and what does not depend on the workload. The step that
 * runs one attempt calls the workload's body, so it is compiled once per
 * workload (stm/prstm/prstm_step.h, which its callers give the workload as a constant).
 *
 * Each thread owns a contiguous block of the global transaction table
 * [tid * P, (tid + 1) * P), cut short at the table's end (tx_table.ntx), and sweeps it: a committed entry is skipped, a
 * concurrent conflict is retried, a semantic conflict postpones the entry and
 * the thread moves on to its next uncommitted one, wrapping around to the
 * start of the block (past its committed prefix, Algorithm 3's startIdx) until
 * every entry has committed. Each sweep runs the programmer's priority tags
 * from high to low (deposit before transfer before withdraw). A thread that
 * completes --max-passes sweeps with work still postponed stops: its
 * uncommitted entries are reported as abandoned. So does a thread that sees
 * no update transaction commit anywhere for --stall-timeout while it waits:
 * every remaining transaction is then postponed on every thread, a state the
 * paper leaves to the application ("some transaction must always exist that
 * resolves the semantic conflict", section 3.3), and waiting longer cannot
 * help. A shuffled table of semantic chains over few shared accounts can get
 * there when one chain's withdrawal spends money another chain deposited.
 *
 * Without the manager (prstm-nocm, prstm_params.semantic_retry: the paper's
 * baseline for its overhead, section 3.4 and Fig. 5A) a thread runs its block
 * in table order, tags ignored, and retries an entry that meets a semantic
 * conflict in place, backing off as after a concurrent conflict, until it
 * commits or --stall-timeout passes with no commit anywhere.
 *
 * The per-thread loop is a resumable step (one transaction attempt per call)
 * so the CPU backend can interleave many logical threads on one worker; the
 * GPU kernel simply calls it until the thread is done.
 *
 * Stopping: every PRSTM_POLL_EVERY attempts (and at the end of every pass)
 * a thread reads the backend's clock; past the run's --timeout deadline it
 * stops (STM_TIMED_OUT) between transactions, holding no lock, so a GPU
 * kernel that cannot be interrupted still ends on time. The deadline is shared (stm_shared), set by the first
 * thread to start.
 *
 * Backoff: a concurrent conflict retries the entry at once the first time;
 * from the second conflict in a row the thread waits a random time that
 * doubles with each further conflict (PRSTM_BACKOFF_*), without touching
 * memory. The step only records the wait; the GPU kernel sleeps when every
 * running lane of a warp waits, and a CPU worker runs its other logical
 * threads meanwhile. At high contention the losers' retries otherwise
 * keep the contended lock word's memory slice busy and slow the very
 * round trips of the transaction that is winning (docs/stm.md, "Many locks
 * at high contention").
 *
 * Timed runs (run_ns > 0): a thread that has committed its whole block starts
 * it again (a round); status words then count commits per entry, so an entry
 * is pending in round r while its status is r. A thread starts round r + 2
 * only once every thread has completed round r (stm_shared.round_done): the
 * counts of any two entries then differ by at most 2, which bounds how far a
 * balance can drift from its start (bank_rounds_fit) and keeps one fast
 * thread from running away with the table. This needs all threads running at
 * once (the GPU backend checks occupancy). A thread that gives up, stalls or
 * fails in a timed run halts it: the threads waiting at the gate stop.
 *
 * Commit order: while a transaction holds all its locks it takes a ticket
 * (common/port.h gb_ticket_begin/end, one atomic per warp on the GPU) and stores it
 * in its status word. Conflicting transactions hold a common lock at ticket
 * time, so ticket order is a valid serial order: the verifier replays in it.
 */
#ifndef GB_PRSTM_SCHED_H
#define GB_PRSTM_SCHED_H

#include <string.h>

#include "api/tx_table.h"
#include "stm/prstm/prstm.h"
#include "stm/prstm/prstm_params.h"
#include "stm/stm.h"

typedef struct prstm_thread_counters {
	uint32_t commits_update, commits_readonly;
	uint32_t aborts_locked, aborts_priority, aborts_validation, aborts_semantic;
	uint64_t cycles_committed, cycles_wasted;
	uint64_t cycles_read, cycles_validate, cycles_commit; /* phases of committed attempts */
} prstm_thread_counters;

/* Backoff after the second conflict in a row: random in [span/2, 3 span/2), span doubling. */
#define PRSTM_BACKOFF_BASE_NS 256u
#define PRSTM_BACKOFF_MAX_SHIFT 8u /* span up to 64 us */
/* How long a thread waits before it looks again at a closed round gate. */
#define PRSTM_GATE_WAIT_NS 2000u
/* Attempts between two looks at the clock (a power of 2): deadlines are met
 * within that many attempts. */
#define PRSTM_POLL_EVERY 16u

typedef struct prstm_sched {
	uint32_t tid;
	uint32_t begin;  /* the block's first entry */
	uint32_t first;  /* no uncommitted entry before this one */
	uint32_t pos;    /* next entry of the current sweep */
	uint32_t end;
	uint32_t tag;    /* priority tag of the current sweep */
	uint32_t lower;  /* tags below `tag` seen pending in this pass (bit t = tag t) */
	uint32_t pending; /* something was postponed in this pass */
	uint32_t passes;
	uint32_t state;  /* enum stm_thread_state */
	uint32_t ahead;  /* index of the entry loaded into `next`, or end */
	tx_entry next;   /* the entry after the one being attempted, loaded early */
	uint32_t held;   /* index of the entry in `cur`, or end */
	tx_entry cur;    /* the entry last attempted, kept for its retry after an abort */
	uint32_t round;    /* rounds of the block completed (timed runs) */
	uint32_t gated;    /* a new round waits for the slowest thread */
	uint32_t conflicts; /* concurrent conflicts in a row on the current entry */
	uint32_t rng;
	uint32_t polls;    /* steps since the start, for polling the clock */
	uint64_t deadline_ns; /* --timeout */
	uint64_t stop_ns;     /* end of a timed run (never in a batch) */
	uint64_t wake_ns;     /* no attempt before this time */
	uint64_t wait_ns;     /* the last step made no attempt: how long it still waits */
	uint64_t progress_ns;  /* when this thread last saw the commit count move */
	uint32_t progress_seen; /* the commit count then */
	prstm_thread_counters c;
} prstm_sched;

GB_HD void prstm_sched_init(prstm_sched *s, uint32_t tid, const tx_table *v,
			    const stm_params *p, uint64_t timeout_ns, uint64_t run_ns,
			    stm_shared *sh, uint64_t now_ns)
{
	uint64_t begin = (uint64_t)tid * v->tx_per_thread, end = begin + v->tx_per_thread;

	s->tid = tid;
	/* A table that does not fill every block (tx_table.ntx) cuts the last ones short. */
	s->begin = s->first = s->pos = (uint32_t)(begin < v->ntx ? begin : v->ntx);
	s->end = (uint32_t)(end < v->ntx ? end : v->ntx);
	s->tag = prstm_params_of(p)->use_tags ? v->max_tag : 0;
	s->lower = 0;
	s->pending = 0;
	s->passes = 0;
	s->state = STM_RUNNING;
	s->ahead = s->end;
	s->held = s->end;
	s->round = 0;
	s->gated = 0;
	s->conflicts = 0;
	s->rng = tid * 2654435761u + 1u;
	s->polls = 0;
	s->deadline_ns = gb_set_once_u64(&sh->deadline_ns, now_ns + timeout_ns);
	s->stop_ns = run_ns ? gb_set_once_u64(&sh->stop_ns, now_ns + run_ns) : UINT64_MAX;
	s->wake_ns = 0;
	s->wait_ns = 0;
	s->progress_ns = now_ns;
	s->progress_seen = 0;
	s->c.commits_update = s->c.commits_readonly = 0;
	s->c.aborts_locked = s->c.aborts_priority = s->c.aborts_validation = 0;
	s->c.aborts_semantic = 0;
	s->c.cycles_committed = s->c.cycles_wasted = 0;
	s->c.cycles_read = s->c.cycles_validate = s->c.cycles_commit = 0;
}

/* A finished thread's contribution to the batch counters (both backends sum these). */
GB_HD stm_counters prstm_thread_totals(const prstm_sched *s)
{
	stm_counters c;
	memset(&c, 0, sizeof(c)); /* every counter this engine does not keep is 0 */
	c.commits_update = s->c.commits_update;
	c.commits_readonly = s->c.commits_readonly;
	c.aborts_locked = s->c.aborts_locked;
	c.aborts_priority = s->c.aborts_priority;
	c.aborts_validation = s->c.aborts_validation;
	c.aborts_semantic = s->c.aborts_semantic;
	c.cycles_committed = s->c.cycles_committed;
	c.cycles_wasted = s->c.cycles_wasted;
	c.cycles_read = s->c.cycles_read;
	c.cycles_validate = s->c.cycles_validate;
	c.cycles_commit = s->c.cycles_commit;
	c.passes_max = s->passes;
	c.threads_gave_up = s->state == STM_GAVE_UP;
	c.threads_timed_out = s->state == STM_TIMED_OUT;
	c.threads_failed = s->state == STM_FAILED;
	c.threads_stalled = s->state == STM_STALLED;
	return c;
}

GB_HD void prstm_count_abort(prstm_thread_counters *c, uint32_t cause)
{
	if (cause == PRSTM_ABORT_LOCKED)
		c->aborts_locked++;
	else if (cause == PRSTM_ABORT_PRIORITY)
		c->aborts_priority++;
	else
		c->aborts_validation++;
}

/*
 * Timed runs: may a thread that has completed s->round rounds start the next?
 * Only when every thread has completed round s->round - 2. round_done[q % 4]
 * sums the completions of rounds q, q + 4, ...; completions of round q + 4
 * exist only once everyone has completed q + 2, so reaching threads x
 * (q / 4 + 1) means everyone has completed q.
 */
GB_HD int prstm_round_open(const prstm_sched *s, const stm_params *p, stm_shared *sh)
{
	uint32_t q;
	if (s->round < 2)
		return 1;
	q = s->round - 2;
	return gb_ld_relaxed_u64(&sh->round_done[q & 3u]) >= (uint64_t)p->threads * (q / 4u + 1u);
}

/*
 * A thread that stops with work left. In a timed run its round never
 * completes, so the round gate would hold every other thread until the end:
 * it halts the run instead, and threads waiting at the gate stop.
 */
GB_HD uint32_t prstm_sched_end(prstm_sched *s, stm_shared *sh, uint32_t state)
{
	if (s->stop_ns != UINT64_MAX)
		gb_st_relaxed_u32(&sh->halt, 1);
	return s->state = state;
}

/*
 * A thread waiting on semantic conflicts (work postponed, or prstm-nocm's
 * retry in place): ends it as timed out past --timeout, or as stalled when
 * the stamp counter, which counts update commits everywhere, has stood still
 * for --stall-timeout, since then nobody can resolve its conflict. Returns
 * s->state, STM_RUNNING to go on. now: the clock if already read, else 0.
 */
GB_HD uint32_t prstm_stalled(prstm_sched *s, const prstm_params *pr, stm_shared *sh, uint64_t now)
{
	uint32_t seen;

	if (!now)
		now = gb_clock_ns();
	if (gb_past_deadline(now, s->deadline_ns))
		return s->state = STM_TIMED_OUT;
	seen = gb_ld_relaxed_u32(&sh->stamp);
	if (seen != s->progress_seen) {
		s->progress_seen = seen;
		s->progress_ns = now;
	} else if (now - s->progress_ns > pr->stall_ns) {
		return prstm_sched_end(s, sh, STM_STALLED);
	}
	return s->state;
}

/* After a concurrent conflict: retry at once the first time, then back off. */
GB_HD void prstm_backoff(prstm_sched *s)
{
	uint32_t shift, span;
	if (++s->conflicts < 2)
		return;
	shift = s->conflicts - 2 < PRSTM_BACKOFF_MAX_SHIFT ? s->conflicts - 2 : PRSTM_BACKOFF_MAX_SHIFT;
	span = PRSTM_BACKOFF_BASE_NS << shift;
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	s->wake_ns = gb_clock_ns() + span / 2u + s->rng % span;
}

#endif
