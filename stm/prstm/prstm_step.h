/*
 * PR-STM's scheduler step (stm/prstm/prstm_sched.h) over every workload of
 * workloads/stm/list.h: their bodies compiled against PR-STM's transactional
 * API (stm/prstm/prstm_api.h), prstm_body that runs workload wl's, and the
 * step. A translation unit includes this once, after defining PRSTM_MAX_SET
 * when it builds another capacity than 8; its callers (a kernel, a CPU
 * thread) pass the workload as a constant, so each keeps only its own body.
 */
#ifndef GB_PRSTM_STEP_H
#define GB_PRSTM_STEP_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/list.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/bodies.h"
#include "api/tx_end.h"

/* Workload wl's body on PR-STM: prstm_bank_body, ... */
GB_HD_FLAT int prstm_body(uint32_t wl, prstm_tx *tx, const prstm_mem *m, const tx_table *t, uint32_t i,
			  const tx_entry *x)
{
	switch (wl) {
#define PRSTM_BODY_CASE(name, set, sizes, long_reads) \
	case STM_WORKLOAD_##name:                     \
		return prstm_##name##_body(tx, m, t, i, x);
		STM_WORKLOADS(PRSTM_BODY_CASE)
#undef PRSTM_BODY_CASE
	}
	return TX_BODY_ABORT;
}

/*
 * One step of a thread: one entry visited (attempted, or passed over because
 * it has committed or waits for another tag), a wait, or the end of the
 * thread's work. Returns s->state: STM_RUNNING while there is more to do.
 *
 * A step visits at most one entry because the GPU kernel steps the lanes of
 * a warp together: a lane that passed over a long run of entries within one
 * step would hold its whole warp for that run, and a warp's later passes are
 * mostly such runs. Visiting several entries per step cost the 100%-semantic
 * bank table 48% of its throughput (docs/stm.md, "One entry per step").
 */
GB_HD_FLAT uint32_t prstm_step(uint32_t wl, prstm_sched *s, const prstm_mem *m, const tx_table *v,
			  const stm_params *p, stm_shared *sh)
{
	const prstm_params *pr = prstm_params_of(p);
	uint64_t now = 0;

	/* The clock every PRSTM_POLL_EVERY attempts, and while waiting. A
	 * waiting thread returns at once (s->wait_ns says for how long it still
	 * waits): the caller decides how to spend that time, and holds nothing
	 * meanwhile. */
	s->wait_ns = 0;
	if (s->wake_ns || s->gated || (++s->polls & (PRSTM_POLL_EVERY - 1u)) == 0) {
		now = gb_clock_ns();
		if (gb_past_deadline(now, s->deadline_ns))
			return s->state = STM_TIMED_OUT;
		if (now >= s->stop_ns)
			return s->state = STM_DONE;
		if (now < s->wake_ns) {
			s->wait_ns = s->wake_ns - now;
			return STM_RUNNING;
		}
		s->wake_ns = 0;
	}
	if (s->gated) {
		if (gb_ld_relaxed_u32(&sh->halt))
			return s->state = STM_DONE;
		if (!prstm_round_open(s, p, sh)) {
			s->wake_ns = now + PRSTM_GATE_WAIT_NS;
			s->wait_ns = PRSTM_GATE_WAIT_NS;
			return STM_RUNNING;
		}
		s->gated = 0;
	}
	for (;;) {
		uint32_t i, status, r, tag;
		uint64_t t0, t1, t2, t3;
		tx_entry e;
		prstm_tx tx;

		if (s->pos == s->end) {
			if (s->lower) {
				s->tag = 31 - gb_clz_u32(s->lower);
				s->lower &= ~(1u << s->tag);
				s->pos = s->first;
				continue;
			}
			if (!s->pending) {
				if (s->stop_ns == UINT64_MAX)
					return s->state = STM_DONE;
				/* Timed run: the block starts again. */
				gb_add_u64(&sh->round_done[s->round & 3u], 1);
				s->round++;
				s->first = s->pos = s->begin;
				s->passes = 0;
				s->tag = pr->use_tags ? v->max_tag : 0;
				s->gated = 1;
				return STM_RUNNING;
			}
			s->passes++;
			if (s->passes >= pr->max_passes)
				return prstm_sched_end(s, sh, STM_GAVE_UP);
			if (prstm_stalled(s, pr, sh, now) != STM_RUNNING)
				return s->state;
			s->tag = pr->use_tags ? v->max_tag : 0;
			s->pos = s->first;
			s->pending = 0;
			continue;
		}
		i = s->pos;
		/* An entry comes from the one loaded ahead, or is the one last
		 * attempted (a retry after an abort): only other entries are loaded
		 * here, where the warp waits for them. A retry that loaded its entry
		 * again made the whole warp wait one trip to memory for that lane. */
		if (i == s->ahead)
			e = s->next;
		else if (i == s->held)
			e = s->cur;
		else
			stm_load_entry(wl, v, i, &e);
		tag = pr->use_tags ? TX_ENTRY_TAG(e.w[0]) : 0;
		/* In the first pass of a round no entry of the current or a lower
		 * tag has been attempted yet: only later passes need the status word,
		 * which counts the entry's commits (0 or a stamp in a batch). */
		if (s->passes > 0 && v->status[i] != s->round) {
			if (i == s->first)
				s->first++;
			s->pos++;
			return STM_RUNNING;
		}
		if (tag != s->tag) {
			if (tag < s->tag)
				s->lower |= 1u << tag;
			s->pos++;
			return STM_RUNNING;
		}

		s->cur = e;
		s->held = i;
		/* Load the next entry now: its latency hides behind this attempt. */
		if (i + 1 < s->end) {
			stm_load_entry(wl, v, i + 1, &s->next);
			s->ahead = i + 1;
		}
		t0 = gb_cycles();
		prstm_tx_start(&tx, s->tid);
		if (pr->window_cycles)
			tx.late = t0 + pr->window_cycles;
#if !defined(__CUDA_ARCH__)
		tx.window = pr->window_cycles; /* and restarts at its first access (stm/prstm/prstm.h) */
		if (pr->counted_cycles) {
			tx.commits = &sh->stamp;
			tx.inflight = pr->inflight;
			tx.counted = pr->counted_cycles;
		}
#endif
		r = prstm_body(wl, &tx, m, v, i, &e);
		t1 = gb_cycles();
		if (r == TX_BODY_SEMANTIC) {
			s->c.aborts_semantic++;
			s->c.cycles_wasted += gb_cycles() - t0;
			if (pr->semantic_retry) {
				/* prstm-nocm: retry the same entry, backing off as after a
				 * concurrent conflict, until it commits or nothing commits
				 * anywhere for --stall-timeout */
				prstm_backoff(s);
				return prstm_stalled(s, pr, sh, 0);
			}
			s->conflicts = 0;
			s->pending = 1;
			s->pos++;
			return STM_RUNNING;
		}
		if (r != TX_BODY_OK || !prstm_tx_validate(&tx, m)) {
			if (tx.abort == PRSTM_ABORT_CAPACITY)
				return prstm_sched_end(s, sh, STM_FAILED);
			prstm_count_abort(&s->c, tx.abort);
			s->c.cycles_wasted += gb_cycles() - t0;
			prstm_backoff(s);
			return STM_RUNNING; /* retry the same entry */
		}
		t2 = gb_cycles();
		if (tx.nw == 0) {
			status = TX_STATUS_READONLY;
			s->c.commits_readonly++;
		} else {
			status = prstm_tx_commit(&tx, m, &sh->stamp) + 1u;
			s->c.commits_update++;
		}
		v->status[i] = s->stop_ns == UINT64_MAX ? status : s->round + 1u;
		t3 = gb_cycles();
		s->c.cycles_committed += t3 - t0;
		s->c.cycles_read += t1 - t0;
		s->c.cycles_validate += t2 - t1;
		s->c.cycles_commit += t3 - t2;
		s->conflicts = 0;
		if (i == s->first)
			s->first++;
		s->pos++;
		return STM_RUNNING;
	}
}

#endif
