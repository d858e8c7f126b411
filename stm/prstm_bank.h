/*
 * PR-STM's semantic contention manager (Shen et al. section 3.3-3.4,
 * Algorithm 3) driving the bank workload, written once for both backends.
 *
 * Each thread owns a contiguous block of the global transaction table
 * [tid * P, (tid + 1) * P) and sweeps it: a committed entry is skipped, a
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
 * The per-thread loop is a resumable step (one transaction attempt per call)
 * so the CPU backend can interleave many logical threads on one worker; the
 * GPU kernel simply calls it until the thread is done.
 *
 * Commit order: while a transaction holds all its locks it takes a ticket
 * (common/port.h gb_ticket_begin/end, one atomic per warp on the GPU) and stores it
 * in its status word. Conflicting transactions hold a common lock at ticket
 * time, so ticket order is a valid serial order: the verifier replays in it.
 */
#ifndef GB_PRSTM_BANK_H
#define GB_PRSTM_BANK_H

#include "stm/prstm.h"
#include "stm/stm.h"

#define TX_CTX prstm_tx
#define TX_MEM prstm_mem
#define TX_READ(tx, m, a) prstm_tx_read((tx), (m), (a))
#define TX_WRITE(tx, m, a, v) prstm_tx_write((tx), (m), (a), (v))
#define TX_ABORTED(tx) ((tx)->abort != PRSTM_OK)
#define TX_PREFETCH(tx, m, addrs, n) prstm_tx_prefetch((tx), (m), (addrs), (n))
#include "workloads/bank_body.h"

typedef struct prstm_thread_counters {
	uint32_t commits_update, commits_readonly;
	uint32_t aborts_locked, aborts_priority, aborts_validation, aborts_semantic;
	uint64_t cycles_committed, cycles_wasted;
} prstm_thread_counters;

typedef struct prstm_sched {
	uint32_t tid;
	uint32_t first;  /* no uncommitted entry before this one */
	uint32_t pos;    /* next entry of the current sweep */
	uint32_t end;
	uint32_t tag;    /* priority tag of the current sweep */
	uint32_t lower;  /* tags below `tag` seen pending in this pass (bit t = tag t) */
	uint32_t pending; /* something was postponed in this pass */
	uint32_t passes;
	uint32_t state;  /* enum stm_thread_state */
	uint32_t ahead;  /* index of the entry loaded into `next`, or end */
	bank_entry next; /* the entry after the one being attempted, loaded early */
	uint64_t deadline_ns;
	uint64_t progress_ns;  /* when this thread last saw the commit count move */
	uint32_t progress_seen; /* the commit count then */
	prstm_thread_counters c;
} prstm_sched;

GB_HD void prstm_sched_init(prstm_sched *s, uint32_t tid, const bank_view *v,
			    const stm_params *p, uint64_t now_ns)
{
	s->tid = tid;
	s->first = s->pos = tid * v->tx_per_thread;
	s->end = s->first + v->tx_per_thread;
	s->tag = p->use_tags ? v->max_tag : 0;
	s->lower = 0;
	s->pending = 0;
	s->passes = 0;
	s->state = STM_RUNNING;
	s->ahead = s->end;
	s->deadline_ns = now_ns + p->timeout_ns;
	s->progress_ns = now_ns;
	s->progress_seen = 0;
	s->c.commits_update = s->c.commits_readonly = 0;
	s->c.aborts_locked = s->c.aborts_priority = s->c.aborts_validation = 0;
	s->c.aborts_semantic = 0;
	s->c.cycles_committed = s->c.cycles_wasted = 0;
}

/* A finished thread's contribution to the batch counters (both backends sum these). */
GB_HD stm_counters prstm_thread_totals(const prstm_sched *s)
{
	stm_counters c;
	c.commits_update = s->c.commits_update;
	c.commits_readonly = s->c.commits_readonly;
	c.aborts_locked = s->c.aborts_locked;
	c.aborts_priority = s->c.aborts_priority;
	c.aborts_validation = s->c.aborts_validation;
	c.aborts_semantic = s->c.aborts_semantic;
	c.cycles_committed = s->c.cycles_committed;
	c.cycles_wasted = s->c.cycles_wasted;
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

/* One transaction attempt (or the end of the thread's work). Returns s->state. */
GB_HD uint32_t prstm_bank_step(prstm_sched *s, const prstm_mem *m, const bank_view *v,
			       const stm_params *p, uint32_t *stamp_counter)
{
	for (;;) {
		uint32_t i, status, r, tag, seen;
		uint64_t now;
		uint64_t t0;
		bank_entry e;
		prstm_tx tx;

		if (s->pos == s->end) {
			if (s->lower) {
				s->tag = 31 - gb_clz_u32(s->lower);
				s->lower &= ~(1u << s->tag);
				s->pos = s->first;
				continue;
			}
			if (!s->pending)
				return s->state = STM_DONE;
			s->passes++;
			if (s->passes >= p->max_passes)
				return s->state = STM_GAVE_UP;
			now = gb_clock_ns();
			if (now > s->deadline_ns)
				return s->state = STM_TIMED_OUT;
			/* The stamp counter counts update commits everywhere: when it
			 * stands still while this thread waits, nobody can help it. */
			seen = gb_ld_relaxed_u32(stamp_counter);
			if (seen != s->progress_seen) {
				s->progress_seen = seen;
				s->progress_ns = now;
			} else if (now - s->progress_ns > p->stall_ns) {
				return s->state = STM_STALLED;
			}
			s->tag = p->use_tags ? v->max_tag : 0;
			s->pos = s->first;
			s->pending = 0;
			continue;
		}
		i = s->pos;
		e = i == s->ahead ? s->next : v->tx[i];
		tag = p->use_tags ? BANK_TAG(e.meta) : 0;
		/* In the first pass no entry of the current or a lower tag has been
		 * attempted yet: only later passes need the status word. */
		if (s->passes > 0 && v->status[i] != BANK_STATUS_PENDING) {
			if (i == s->first)
				s->first++;
			s->pos++;
			continue;
		}
		if (tag != s->tag) {
			if (tag < s->tag)
				s->lower |= 1u << tag;
			s->pos++;
			continue;
		}

		/* Load the next entry now: its latency hides behind this attempt. */
		if (i + 1 < s->end) {
			s->next = v->tx[i + 1];
			s->ahead = i + 1;
		}
		t0 = gb_cycles();
		prstm_tx_start(&tx, s->tid);
		r = bank_tx_body(&tx, m, v, i, &e);
		if (r == STM_BODY_SEMANTIC) {
			s->c.aborts_semantic++;
			s->c.cycles_wasted += gb_cycles() - t0;
			s->pending = 1;
			s->pos++;
			return STM_RUNNING;
		}
		if (r != STM_BODY_OK || !prstm_tx_validate(&tx, m)) {
			if (tx.abort == PRSTM_ABORT_CAPACITY)
				return s->state = STM_FAILED;
			prstm_count_abort(&s->c, tx.abort);
			s->c.cycles_wasted += gb_cycles() - t0;
			return STM_RUNNING; /* retry the same entry */
		}
		if (tx.nw == 0) {
			status = BANK_STATUS_READONLY;
			s->c.commits_readonly++;
		} else {
			status = prstm_tx_commit(&tx, m, stamp_counter) + 1u;
			s->c.commits_update++;
		}
		v->status[i] = status;
		s->c.cycles_committed += gb_cycles() - t0;
		if (i == s->first)
			s->first++;
		s->pos++;
		return STM_RUNNING;
	}
}

#endif
