/*
 * CSMV's GPU backend (Nunes et al. section III-B): one cooperative kernel
 * whose last block is the server and whose other blocks are the clients, so
 * that both roles run at once on the device with no device-side launch; the
 * cooperative launch guarantees every block resident, which the clients'
 * wait for GTS and the server's polling need (a launch that does not fit is
 * refused before the run). Every warp of a client block is a group
 * (stm/csmv/csmv_sched.h): its lanes execute their entries on one snapshot, submit
 * their update transactions as one request, install what committed and
 * publish GTS.
 *
 * The server block is the paper's (section III-B; stm/csmv/csmv_server.h):
 * warp 0 is the receiver, which polls the groups' mailboxes and hands each
 * request to an idle worker warp through a job word in shared memory; warps
 * 1 to --server-workers are the workers, which validate a request against
 * the ATR's ring of committed write sets in (dynamic) shared memory, reserve
 * its slots with one CAS by their lane 0 and write its records, one lane a
 * transaction. Collaborative validation: the worker's lanes take one
 * transaction at a time, lane t its read and write sets' entry t, and scan
 * the records after the snapshot for it; without it (nocv, onlycs) lane L
 * scans for every entry of transaction L. Every block of the launch has the
 * server's 1 + workers warps at least; a client block runs its first
 * --block-size threads and the others only join its counter sums. For
 * csmv-index... warp 0 of the server block is the whole server: it polls
 * and decides every request against the ATR indexed by word.
 *
 * Independent thread scheduling: every warp-collective step names the full
 * mask (a group's lanes all reach it: a lane with nothing to do still goes
 * round), and no lane ever waits for a lane of its own warp: a group's lane 0
 * waits for the server (another block) and for other groups' GTS stores,
 * while the rest of its warp waits in __shfl_sync/__syncwarp; a lane waiting
 * for reclamation waits for the server's bound. Per-thread logic is the
 * GB_HD code the CPU backend runs (stm/csmv/csmv.h, stm/csmv/csmv_sched.h,
 * stm/csmv/csmv_step.h); what is here is the warp-level choreography.
 */
#include "common/cuda_check.h"
#include "stm/csmv/csmv_step.h"
#include "stm/csmv/csmv_engines.h"
#include "stm/csmv/csmv_gpu.h"
#include "stm/backend/stm_gpu.cuh"
#include "stm/backend/stm_gpu.h"

extern "C" {
#include "common/device.h"
}

#define FULL 0xFFFFFFFFu
#define CSMV_SAFE_EVERY 8 /* server rounds between refreshes of the reclamation bound while busy */

/*
 * Waits here are short hand-offs (an answer, the previous batch's GTS store),
 * each on the critical path of every later commit: back off from 32 ns to at
 * most 256 ns, a quarter of gb_backoff's ceiling. At most one lane a group
 * and the server warp poll, so the extra traffic is small.
 */
__device__ __forceinline__ void csmv_backoff(uint32_t *ns)
{
	uint32_t t = *ns ? *ns : 32u;
	__nanosleep(t);
	*ns = t < 256u ? t * 2u : 256u;
}

/* safe = min(GTS, every group's announcement), the server warp's lanes scanning the groups side by side. */
__device__ void csmv_server_safe(const csmv_mem *m, uint32_t lane)
{
	uint32_t g = 0, s, k, old;
	if (lane == 0)
		g = gb_ld_acquire_u32(&m->g->gts);
	g = __shfl_sync(FULL, g, 0);
	gb_fence_sc();
	s = g;
	for (k = lane; k < m->ngroups; k += 32) {
		uint32_t c = gb_ld_relaxed_u32(m->client_ts + k);
		s = c < s ? c : s;
	}
	s = __reduce_min_sync(FULL, s);
	if (lane == 0) {
		old = gb_ld_relaxed_u32(&m->g->safe);
		if (s > old)
			gb_st_relaxed_u32(&m->g->safe, s);
	}
	__syncwarp();
}

/*
 * The start of a polling round of either server's polling warp: whether every group has its last
 * answer, and the reclamation bound refreshed every CSMV_SAFE_EVERY rounds (it costs a sequentially
 * consistent fence and a scan; an idle server sets round so that the next round refreshes it).
 */
__device__ uint32_t csmv_server_round(const csmv_mem *m, uint32_t round, uint32_t lane)
{
	uint32_t finished = 0;
	if (lane == 0)
		finished = gb_ld_acquire_u32(&m->g->groups_done) == m->ngroups;
	finished = __shfl_sync(FULL, finished, 0);
	if (round % CSMV_SAFE_EVERY == 0)
		csmv_server_safe(m, lane);
	return finished;
}

/* onlyCS: the server installs transaction L's versions at cts, waiting for reclamation where a box is full. */
__device__ void csmv_server_install(const csmv_mem *m, const csmv_req *q, uint32_t L, uint32_t cts, uint32_t *safe,
				    stm_counters *sc)
{
	uint32_t j, kept = 0, ns = 0;

	for (j = 0; j < q->nw[L]; j++) {
		while (!csmv_install(m, q->w[L][j], cts, q->v[L][j], *safe, &kept)) {
			sc->reclaim_waits++;
			csmv_backoff(&ns);
			*safe = csmv_refresh_safe(m);
		}
		if (kept > sc->versions_kept_peak)
			sc->versions_kept_peak = kept;
	}
}

/* csmv-index: serve group gi's request: validate, insert into the ATR, answer (installing versions for onlycs). */
__device__ void csmv_serve(uint32_t mode, const csmv_mem *m, csmv_atr *atr, uint32_t gi, uint32_t lane,
			   stm_counters *sc)
{
	csmv_req *q = m->req + gi;
	uint32_t seq = gb_ld_acquire_u32(&q->seq), snap = q->snap, mask = q->mask, commit = 0, base = 0;
	uint32_t to = atr->tail, L;
	uint64_t ta = gb_cycles(), tb;

	if (mode & CSMV_BATCHED) {
		if (mode & CSMV_CV) {
			/*
			 * collaborative: the warp's lanes validate the entries of the request's read and
			 * write sets side by side, 32 at a time, transaction after transaction as they lie
			 * (the paper's warp validates one transaction's entries at a time; with sets of a
			 * few words that leaves most lanes idle, so the entries of several share a step)
			 */
			uint32_t mine = (mask >> lane) & 1u, nr = mine ? q->nr[lane] : 0u, n = mine ? nr + q->nw[lane] : 0u;
			uint32_t start = n, total, bad = 0, k, d;
			for (d = 1; d < 32; d <<= 1) {
				uint32_t t = __shfl_up_sync(FULL, start, d);
				if (lane >= d)
					start += t;
			}
			total = __shfl_sync(FULL, start, 31);
			start -= n; /* the first entry of lane `lane`'s transaction among all */
			for (k = 0; k < total; k += 32) {
				uint32_t e = k + lane, owner = 0, s, step, owner_nr, owner_start;
				/* owner: the last transaction whose first entry is at or before e */
				for (step = 16; step; step >>= 1) {
					s = __shfl_sync(FULL, start, owner + step);
					if (s <= e)
						owner += step;
				}
				owner_nr = __shfl_sync(FULL, nr, owner);
				owner_start = __shfl_sync(FULL, start, owner);
				if (e < total) {
					uint32_t i = e - owner_start;
					uint32_t addr = i < owner_nr ? q->r[owner][i] : q->w[owner][i - owner_nr];
					if (csmv_atr_hit(atr, addr, snap))
						bad |= 1u << owner;
				}
			}
			commit = mask & ~__reduce_or_sync(FULL, bad);
		} else {
			/* no collaborative validation: lane L validates transaction L on its own */
			int ok = ((mask >> lane) & 1u) && csmv_validate(atr, q, lane);
			commit = __ballot_sync(FULL, ok);
		}
		base = to + 1;
		tb = gb_cycles();
		__syncwarp();
		if ((commit >> lane) & 1u)
			csmv_atr_insert(atr, q, lane, csmv_cts_of(commit, base, lane));
		__syncwarp();
		if (lane == 0)
			atr->tail = to + csmv_popc(commit);
		__syncwarp();
	} else {
		/* only the client-server design: one lane decides, inserts and installs each transaction alone */
		if (lane == 0) {
			uint32_t safe = gb_ld_relaxed_u32(&m->g->safe);
			commit = csmv_decide(atr, q, mask, mode, &base);
			tb = gb_cycles();
			for (L = 0; L < CSMV_GROUP; L++) {
				uint32_t cts = csmv_cts_of(commit, base, L);
				if (!((commit >> L) & 1u))
					continue;
				csmv_server_install(m, q, L, cts, &safe, sc);
				gb_fence(); /* the versions before the timestamp that makes them visible */
				gb_st_relaxed_u32(&m->g->gts, cts);
			}
		}
		/* lane 0 decided: every lane writes its own transaction's CTS below */
		commit = __shfl_sync(FULL, commit, 0);
		base = __shfl_sync(FULL, base, 0);
	}
	if ((commit >> lane) & 1u)
		q->cts[lane] = csmv_cts_of(commit, base, lane);
	__syncwarp(); /* every lane's CTS before the answer */
	if (lane == 0) {
		q->commit = commit;
		q->base = base;
		gb_fence(); /* the answer before done */
		gb_st_relaxed_u32(&q->done, seq);
		sc->server_cycles_validate += tb - ta;
		sc->server_cycles_insert += gb_cycles() - tb;
	}
	__syncwarp();
}

/* csmv-index's server: one warp polls every mailbox and serves what is pending in turn. */
__device__ void csmv_index_server(uint32_t mode, const csmv_mem *m, stm_counters *sc)
{
	__shared__ csmv_atr atr;
	uint32_t lane = threadIdx.x & 31u, ns = 0;

	if (lane == 0) {
		atr.tail = 0;
		atr.wcts = m->wcts;
	}
	__syncwarp();
	for (uint32_t round = 0;; round++) {
		uint32_t finished = csmv_server_round(m, round, lane), any = 0, b;
		for (b = 0; b < m->ngroups; b += 32) {
			uint32_t gi = b + lane, pending = 0, bal;
			if (gi < m->ngroups)
				pending = gb_ld_acquire_u32(&m->req[gi].seq) != gb_ld_relaxed_u32(&m->req[gi].done);
			bal = __ballot_sync(FULL, pending);
			while (bal) {
				csmv_serve(mode, m, &atr, b + (uint32_t)(__ffs(bal) - 1), lane, sc);
				bal &= bal - 1u;
				any = 1;
			}
		}
		if (finished && !any)
			break;
		if (!any) {
			csmv_backoff(&ns);
			round = CSMV_SAFE_EVERY - 1; /* idle: refresh the bound next round */
		} else {
			ns = 0;
		}
	}
}



/* ---- the paper's server: a receiver warp and worker warps over the ATR's ring in shared memory ---- */

extern __shared__ csmv_record csmv_ring_records[];

/* Lane `lane`'s transaction against records from + 1 ... to, waiting out records not written yet. */
__device__ int csmv_validate_wait(const csmv_ring *ring, const csmv_req *q, uint32_t lane, uint32_t from, uint32_t to)
{
	uint32_t ns = 0;
	int v;
	while ((v = csmv_ring_validate(ring, q, lane, &from, to)) < 0)
		csmv_backoff(&ns); /* a worker between its reservation and its record */
	return v;
}

/*
 * The lanes of cand still valid against records from + 1 ... to. Collaborative
 * (CSMV_CV): one transaction after another, lane t scanning for the entry t of
 * its read set then write set; otherwise lane L scans for transaction L's.
 * Where a transaction has fewer entries n than the warp has lanes, the
 * collaborative scan puts every lane to work (beyond the paper, which leaves
 * lanes n ... 31 idle): lane t takes entry t % n and the records of slice t / n
 * of the 32 / n slices, every (32 / n)-th record from from + 1 + t / n on.
 */
__device__ uint32_t csmv_validate_batch(uint32_t mode, const csmv_ring *ring, const csmv_req *q, uint32_t cand,
					uint32_t from, uint32_t to, uint32_t lane)
{
	uint32_t keep = cand, left = cand;

	if (!(mode & CSMV_CV)) {
		int ok = ((cand >> lane) & 1u) && csmv_validate_wait(ring, q, lane, from, to) == 1;
		return __ballot_sync(FULL, ok);
	}
	if (to - q->snap > ring->size)
		return 0; /* a record after the snapshot is already gone */
	while (left) {
		uint32_t L = (uint32_t)(__ffs(left) - 1), nr = q->nr[L], n = nr + q->nw[L], bad = 0, c, ns = 0;
		uint32_t slices = n ? 32u / n : 0, t = n ? lane % n : 0, slice = n ? lane / n : 0;
		left &= left - 1u;
		if (slice < slices) {
			uint32_t e = t < nr ? q->r[L][t] : q->w[L][t - nr];
			int r;
			c = from + 1u + slice - slices; /* "last checked": the slice's first record is c + slices */
			while ((r = csmv_ring_scan_step(ring, &c, to, slices, &e, 1, NULL, 0)) == CSMV_REC_WAIT)
				csmv_backoff(&ns); /* a worker between its reservation and its record */
			bad = r != CSMV_REC_CLEAR;
		}
		if (__any_sync(FULL, bad))
			keep &= ~(1u << L);
	}
	return keep;
}

/*
 * A worker warp decides group gi's request (stm/csmv/csmv_server.h has the
 * protocol, stm/csmv/csmv_cpu.c's serve the same decision one lane at a time).
 */
__device__ void csmv_worker_serve(uint32_t mode, const csmv_mem *m, csmv_ring *ring, uint32_t gi, uint32_t lane,
				  stm_counters *sc)
{
	csmv_req *q = m->req + gi;
	uint32_t seq = 0, t = 0, ok, base = 0, old = 0;
	uint64_t ta = gb_cycles(), tb;

	if (lane == 0) {
		seq = gb_ld_acquire_u32(&q->seq);
		t = gb_ld_acquire_cta_u32(&ring->tail);
	}
	seq = __shfl_sync(FULL, seq, 0);
	t = __shfl_sync(FULL, t, 0);
	ok = csmv_validate_batch(mode, ring, q, q->mask, q->snap, t, lane);
	if (mode & CSMV_BATCHED) {
		while (ok) {
			if (lane == 0)
				old = gb_cas_cta_u32(&ring->tail, t, t + csmv_popc(ok)); /* the batch's slots, one CAS */
			old = __shfl_sync(FULL, old, 0);
			if (old == t)
				break;
			ok = csmv_validate_batch(mode, ring, q, ok, t, old, lane);
			t = old;
		}
		base = t + 1;
		tb = gb_cycles();
		if ((ok >> lane) & 1u) {
			uint32_t cts = base + csmv_rank(ok, lane);
			q->cts[lane] = cts;
			csmv_record_write(ring, cts, q->w[lane], q->nw[lane]);
		}
		if (lane == 0) {
			sc->server_cycles_validate += tb - ta;
			sc->server_cycles_insert += gb_cycles() - tb;
		}
	} else if (lane == 0) {
		/* one by one: each transaction its own CAS, record, versions and GTS store, in lane order */
		uint32_t L, safe = gb_ld_relaxed_u32(&m->g->safe);
		for (L = 0; L < CSMV_GROUP; L++) {
			uint32_t tl = t, ns = 0, cts;
			uint64_t tc;
			if (!((ok >> L) & 1u))
				continue;
			while ((old = gb_cas_cta_u32(&ring->tail, tl, tl + 1)) != tl) {
				if (csmv_validate_wait(ring, q, L, tl, old) != 1) {
					ok &= ~(1u << L);
					break;
				}
				tl = old;
			}
			tb = gb_cycles();
			sc->server_cycles_validate += tb - ta;
			ta = tb;
			if (!((ok >> L) & 1u))
				continue;
			cts = tl + 1;
			q->cts[L] = cts;
			base = base ? base : cts;
			csmv_record_write(ring, cts, q->w[L], q->nw[L]);
			csmv_server_install(m, q, L, cts, &safe, sc);
			while (gb_ld_acquire_u32(&m->g->gts) != cts - 1)
				csmv_backoff(&ns); /* another worker's commit before this one */
			gb_fence(); /* the versions before the timestamp that makes them visible */
			gb_st_relaxed_u32(&m->g->gts, cts);
			tc = gb_cycles();
			sc->server_cycles_insert += tc - tb;
			ta = tc;
		}
		if (!ok)
			sc->server_cycles_validate += gb_cycles() - ta;
	}
	ok = __shfl_sync(FULL, ok, 0);
	base = __shfl_sync(FULL, base, 0);
	__syncwarp(); /* every lane's CTS and record before the answer */
	if (lane == 0) {
		q->commit = ok;
		q->base = base;
		gb_fence(); /* the answer before done */
		gb_st_relaxed_u32(&q->done, seq);
	}
	__syncwarp();
}

/*
 * The job and stop words in the server block's shared memory, read and written
 * as block-scope atomics with a block-scope fence on the acquiring or
 * releasing side (compute-sanitizer's racecheck orders shared-memory accesses
 * by barriers and atomics only; a plain acquire load is a hazard to it).
 */
__device__ __forceinline__ uint32_t csmv_word_acquire(uint32_t *p)
{
	uint32_t v = atomicOr_block(p, 0u);
	gb_fence_cta();
	return v;
}

__device__ __forceinline__ void csmv_word_release(uint32_t *p, uint32_t v)
{
	gb_fence_cta();
	gb_st_atomic_cta_u32(p, v);
}

/* Warp 0 of the server block: hand every request that arrives to an idle worker warp. */
__device__ void csmv_receiver(const csmv_mem *m, uint32_t *job, uint32_t *stop, uint32_t nworkers, uint32_t lane)
{
	uint32_t ns = 0;

	for (uint32_t round = 0;; round++) {
		uint32_t finished = csmv_server_round(m, round, lane), any = 0, b;
		if (finished)
			break; /* every group has its last answer */
		for (b = 0; b < m->ngroups; b += 32) {
			uint32_t gi = b + lane, seq = 0, bal;
			if (gi < m->ngroups)
				seq = gb_ld_acquire_u32(&m->req[gi].seq);
			bal = __ballot_sync(FULL, gi < m->ngroups && seq != m->taken[gi]);
			while (bal) {
				uint32_t src = (uint32_t)(__ffs(bal) - 1), idle, wns = 0;
				for (;;) {
					idle = __ballot_sync(FULL, lane < nworkers && csmv_word_acquire(job + lane) == 0);
					if (idle)
						break;
					if (lane == 0)
						csmv_backoff(&wns);
					__syncwarp();
				}
				if (lane == src)
					m->taken[gi] = seq;
				__syncwarp(); /* the request, acquired by lane src, before the job that names it */
				if (lane == 0) {
					gb_fence();
					csmv_word_release(job + (__ffs(idle) - 1), b + src + 1);
				}
				__syncwarp();
				bal &= bal - 1u;
				any = 1;
			}
		}
		if (!any) {
			if (lane == 0)
				csmv_backoff(&ns);
			__syncwarp();
			round = CSMV_SAFE_EVERY - 1; /* idle: refresh the bound next round */
		} else {
			ns = 0;
		}
	}
	if (lane == 0) {
		csmv_word_release(stop, 1);
	}
	__syncwarp();
}

/* A worker warp (slot `w`): serve what the receiver hands it until it says stop. */
__device__ void csmv_worker(uint32_t mode, const csmv_mem *m, csmv_ring *ring, uint32_t *job, uint32_t *stop,
			    uint32_t lane, stm_counters *sc)
{
	uint32_t ns = 0;

	for (;;) {
		uint32_t j = 0, st = 0;
		if (lane == 0) {
			j = csmv_word_acquire(job);
			if (!j)
				st = csmv_word_acquire(stop);
		}
		j = __shfl_sync(FULL, j, 0);
		st = __shfl_sync(FULL, st, 0);
		if (j) {
			csmv_worker_serve(mode, m, ring, j - 1, lane, sc);
			if (lane == 0) {
				gb_fence(); /* the answer before idle */
				csmv_word_release(job, 0);
			}
			ns = 0;
		} else if (st) {
			break;
		} else if (lane == 0) {
			csmv_backoff(&ns);
		}
		__syncwarp();
	}
}

/* The server block (every thread of it calls this: it sets its shared memory up under one barrier). */
__device__ void csmv_paper_server(uint32_t mode, const csmv_mem *m, const stm_params *p, stm_counters *sc)
{
	__shared__ csmv_ring ring;
	__shared__ uint32_t job[CSMV_WORKERS_MAX];
	__shared__ uint32_t stop;
	uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x & 31u, nworkers = csmv_server_workers(p), k;

	if (threadIdx.x == 0) {
		ring.size = csmv_atr_records(p);
		ring.rec = csmv_ring_records;
		ring.tail = 0;
		stop = 0;
	}
	if (threadIdx.x < CSMV_WORKERS_MAX)
		job[threadIdx.x] = 0;
	for (k = threadIdx.x; k < csmv_atr_records(p); k += blockDim.x)
		csmv_ring_records[k].stamp = 0;
	__syncthreads();
	if (warp == 0)
		csmv_receiver(m, job, &stop, nworkers, lane);
	else if (warp <= nworkers)
		csmv_worker(mode, m, &ring, job + warp - 1, &stop, lane, sc);
}

/* One group (this warp) through its rounds until its lanes are done. */
__device__ __forceinline__ void csmv_client(int workload, uint32_t mode, const csmv_mem *m, const tx_table *v,
					    const stm_params *p, uint64_t timeout_ns, stm_shared *sh, csmv_lane *l,
					    uint32_t tid)
{
	uint32_t lane = threadIdx.x & 31u, group = tid / 32u;
	uint32_t seq = 0;
	csmv_req *q = m->req + group;
	uint64_t deadline = gb_set_once_u64(&sh->deadline_ns, gb_clock_ns() + timeout_ns);

	csmv_lane_init(l, tid, p->threads, v);
	for (;;) {
		uint32_t snap = 0, want, mask, commit = 0, base = 0, mine, late = 0, cts = 0;
		if (!__any_sync(FULL, l->state == STM_RUNNING))
			break;
		if (lane == 0)
			late = gb_clock_ns() >= deadline;
		if (__shfl_sync(FULL, late, 0)) {
			if (l->state == STM_RUNNING)
				l->state = STM_TIMED_OUT;
			break;
		}
		if (lane == 0)
			snap = csmv_announce(m, group);
		snap = __shfl_sync(FULL, snap, 0);
		mine = csmv_step(workload, l, m, v, p, snap) == CSMV_LANE_SUBMIT;
		__syncwarp();
		if (lane == 0)
			csmv_retire(m, group);
		want = __ballot_sync(FULL, mine);
		if (!want)
			continue;
		if (mine) {
			l->tq = gb_cycles();
			csmv_request_fill(q, lane, &l->tx);
		}
		__syncwarp(); /* every lane's slot before pre-validation reads them, and before the doorbell */
		mask = want;
		if (mode & CSMV_BATCHED) {
			int ok = !mine || csmv_prevalidate(q, lane, want);
			mask = __ballot_sync(FULL, mine && ok);
			if (mine && !ok) {
				csmv_lane_outcome(l, v, 0, 0, gb_cycles());
				mine = 0;
			}
		}
		if (!mask)
			continue;
		if (mine)
			l->tr = gb_cycles();
		if (lane == 0) {
			uint32_t ns = 0;
			q->snap = snap;
			q->mask = mask;
			gb_fence(); /* the slots before the doorbell */
			gb_st_relaxed_u32(&q->seq, ++seq);
			while (gb_ld_acquire_u32(&q->done) != seq)
				csmv_backoff(&ns);
			commit = q->commit;
			base = q->base;
		}
		commit = __shfl_sync(FULL, commit, 0);
		base = __shfl_sync(FULL, base, 0);
		seq = __shfl_sync(FULL, seq, 0);
		if ((commit >> lane) & 1u) {
			(void)gb_ld_acquire_u32(&q->done); /* this lane's own acquire of the answer */
			cts = q->cts[lane];
		}
		l->t2 = gb_cycles();
		if ((mode & CSMV_CLIENT_WB) && commit) {
			if ((commit >> lane) & 1u) {
				uint32_t ns = 0;
				while (!csmv_lane_install(l, m, cts)) {
					l->c.reclaim_waits++;
					csmv_backoff(&ns);
				}
			}
			__syncwarp(); /* every lane's versions before the timestamp */
			if (lane == 0) {
				uint32_t ns = 0;
				while (gb_ld_acquire_u32(&m->g->gts) != base - 1)
					csmv_backoff(&ns);
				gb_fence(); /* the versions before the timestamp that makes them visible */
				gb_st_relaxed_u32(&m->g->gts, base + csmv_popc(commit) - 1);
			}
			__syncwarp();
		}
		if (mine)
			csmv_lane_outcome(l, v, (commit >> lane) & 1u, cts, gb_cycles());
	}
	__syncwarp();
	if (lane == 0)
		gb_add_u32(&m->g->groups_done, 1);
}

/* One kernel's work, for the workload it was built for; cb: the client blocks' threads (--block-size). */
__device__ __forceinline__ void csmv_kernel_body(int workload, uint32_t mode, csmv_mem m, tx_table v, stm_params p,
						 uint64_t timeout_ns, stm_shared *sh, stm_counters *out, uint32_t cb)
{
	__shared__ unsigned long long sum[STM_NCOUNTERS];

	stm_block_counters_clear(sum);
	if (blockIdx.x == gridDim.x - 1) {
		stm_counters sc;
		memset(&sc, 0, sizeof(sc));
		if (!(mode & CSMV_INDEX))
			csmv_paper_server(mode, &m, &p, &sc);
		else if (threadIdx.x < 32)
			csmv_index_server(mode, &m, &sc);
		if ((threadIdx.x & 31u) == 0)
			stm_block_counters_add(sum, &sc);
	} else if (threadIdx.x < cb) {
		csmv_lane l;
		uint32_t tid = blockIdx.x * cb + threadIdx.x;
		csmv_client(workload, mode, &m, &v, &p, timeout_ns, sh, &l, tid);
		if (tid < p.threads) {
			stm_counters t = csmv_lane_totals(&l);
			stm_block_counters_add(sum, &t);
		}
	}
	stm_block_counters_flush(sum, out);
}

/* One kernel per workload of the family (csmv_bank_kernel, ...), its workload a constant in it. */
#define CSMV_GPU_KERNEL(name, ahead, ...)                                                                    \
	__global__ void csmv_##name##_kernel(uint32_t mode, csmv_mem m, tx_table v, stm_params p,             \
					     uint64_t timeout_ns, stm_shared *sh, stm_counters *out, uint32_t cb) \
	{                                                                                                    \
		csmv_kernel_body(STM_WORKLOAD_##name, mode, m, v, p, timeout_ns, sh, out, cb);               \
	}
CSMV_WORKLOADS(CSMV_GPU_KERNEL, 0)

/* The load's first version of every word, from the data words. */
static __global__ void csmv_boxes_init(csmv_mem m, const uint32_t *data, uint32_t words)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < words)
		csmv_box_init(&m, i, data[i]);
}

/* Before a run: every word's newest value its only version (csmv_box_rebase). */
static __global__ void csmv_boxes_rebase(csmv_mem m, uint32_t words)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < words)
		csmv_box_rebase(&m, i);
}

/* Every word's newest value into the data words, for the oracle. */
static __global__ void csmv_boxes_newest(csmv_mem m, uint32_t *data, uint32_t words)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < words)
		data[i] = csmv_box_newest(&m, i);
}

void csmv_gpu_boxes_load(const csmv_mem *m, const uint32_t *d_data, uint32_t words)
{
	csmv_boxes_init<<<(words + 255) / 256, 256>>>(*m, d_data, words);
	GB_CUDA(cudaGetLastError(), "launching csmv_boxes_init over %u words", words);
	GB_CUDA(cudaDeviceSynchronize(), "initialising %u versioned boxes", words);
}

void csmv_gpu_boxes_rebase(const csmv_mem *m, uint32_t words)
{
	csmv_boxes_rebase<<<(words + 255) / 256, 256>>>(*m, words);
	GB_CUDA(cudaGetLastError(), "launching csmv_boxes_rebase over %u words", words);
}

void csmv_gpu_boxes_newest(const csmv_mem *m, uint32_t *d_data, uint32_t words)
{
	csmv_boxes_newest<<<(words + 255) / 256, 256>>>(*m, d_data, words);
	GB_CUDA(cudaGetLastError(), "launching csmv_boxes_newest over %u words", words);
}

typedef struct csmv_gpu {
	stm_gpu *g;
	uint32_t mode;
	const void *kernel; /* the workload's */
	const char *kernel_name;
	csmv_mem m;
	uint32_t *d_results;
	uint32_t launch_block; /* threads a block: the clients' --block-size, or the server's warps if more */
	size_t ring_bytes;     /* dynamic shared memory: the paper's server's ATR records */
} csmv_gpu;

static void *csmv_gpu_open(const tx_input *in, const stm_params *p, uint32_t mode, const void *kernel,
			   const char *kernel_name)
{
	csmv_gpu *c = (csmv_gpu *)calloc(1, sizeof(*c));
	gb_device_info dev;
	int per_sm = 0;

	if (!c)
		gb_die(GB_EXIT_RUNTIME, "out of host memory for the CSMV GPU backend state");
	c->g = stm_gpu_open(in, p, kernel, kernel_name);
	c->mode = mode;
	c->kernel = kernel;
	c->kernel_name = kernel_name;
	c->launch_block = c->g->block_size;
	if (!(mode & CSMV_INDEX)) {
		uint32_t server = 32u * (csmv_server_workers(p) + 1u);
		c->launch_block = server > c->launch_block ? server : c->launch_block;
		c->ring_bytes = (size_t)csmv_atr_records(p) * sizeof(csmv_record);
		int optin = 0;
		GB_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, gb_device_current()),
			"querying the shared memory a block of device %d may have", gb_device_current());
		if (c->ring_bytes > (size_t)optin)
			gb_die(GB_EXIT_USAGE,
			       "csmv's server (csmv, csmv-nocv, csmv-onlycs): --atr-records %u needs %zu bytes of "
			       "shared memory for the ATR (%zu a record), and a block of this device may have at most "
			       "%d: use --atr-records %zu or fewer",
			       csmv_atr_records(p), c->ring_bytes, sizeof(csmv_record), optin,
			       (size_t)optin / sizeof(csmv_record));
		GB_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)c->ring_bytes),
			"letting %s have %zu bytes of shared memory for the ATR's %u records", kernel_name,
			c->ring_bytes, csmv_atr_records(p));
	}
	if (gb_device_query(gb_device_current(), &dev) != 0)
		gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device %d", gb_device_current());
	GB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)c->launch_block, c->ring_bytes),
		"querying the occupancy of %s at %u threads per block and %zu bytes of shared memory", kernel_name,
		c->launch_block, c->ring_bytes);
	if ((uint64_t)per_sm * (uint64_t)dev.sm_count < (uint64_t)c->g->blocks + 1)
		gb_die(GB_EXIT_USAGE,
		       "csmv needs every client warp and its server resident at once: %u blocks of %u threads "
		       "(%zu bytes of shared memory each) and the server's do not fit on the device (at most %llu "
		       "blocks): use fewer --threads, fewer --server-workers or --atr-records",
		       c->g->blocks, c->launch_block, c->ring_bytes,
		       (unsigned long long)per_sm * (unsigned long long)dev.sm_count);
	c->m.ngroups = (p->threads + CSMV_GROUP - 1) / CSMV_GROUP;
	c->m.words = in->words;
	c->m.head = (uint32_t *)gb_cuda_alloc((size_t)in->words * 4, "version counts");
	c->m.ver = (uint64_t *)gb_cuda_alloc((size_t)in->words * CSMV_VERSIONS * 8, "versions");
	c->m.g = (csmv_words *)gb_cuda_alloc(sizeof(csmv_words), "CSMV timestamps");
	c->m.client_ts = (uint32_t *)gb_cuda_alloc((size_t)c->m.ngroups * 4, "group snapshots");
	c->m.req = (csmv_req *)gb_cuda_alloc((size_t)c->m.ngroups * sizeof(csmv_req), "group requests");
	if (mode & CSMV_INDEX)
		c->m.wcts = (uint32_t *)gb_cuda_alloc((size_t)in->words * 4, "the ATR's index of last writers");
	else
		c->m.taken = (uint32_t *)gb_cuda_alloc((size_t)c->m.ngroups * 4, "the receiver's dispatched requests");
	c->d_results = (uint32_t *)gb_cuda_alloc((size_t)in->ntx * TX_RESULT_WORDS * 4, "read-only results");
	return c;
}

static void csmv_gpu_load(void *ctx, const uint32_t *words)
{
	csmv_gpu *c = (csmv_gpu *)ctx;
	uint32_t n = c->g->in.words;
	stm_gpu_load(c->g, words);
	csmv_gpu_boxes_load(&c->m, c->g->d_data, n);
}

static void csmv_gpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	csmv_gpu *c = (csmv_gpu *)ctx;
	stm_gpu *g = c->g;
	tx_table v = stm_gpu_table(g);
	char what[160];
	void *args[] = {&c->mode, &c->m, &v, &g->p, &timeout_ns, &g->d_shared, &g->d_counters, &g->block_size};

	(void)run_ns; /* no timed rounds: stm/registry.c says why */
	v.results = c->d_results;
	memset(r, 0, sizeof(*r));
	GB_CUDA(cudaMemset(g->d_status, 0, (size_t)g->in.ntx * 4), "clearing transaction status");
	GB_CUDA(cudaMemset(c->d_results, 0, (size_t)g->in.ntx * TX_RESULT_WORDS * 4), "clearing read-only results");
	GB_CUDA(cudaMemset(g->d_shared, 0, sizeof(stm_shared)), "clearing the run's shared words");
	GB_CUDA(cudaMemset(g->d_counters, 0, sizeof(stm_counters)), "clearing counters");
	GB_CUDA(cudaMemset(c->m.g, 0, sizeof(csmv_words)), "clearing the CSMV timestamps");
	csmv_gpu_boxes_rebase(&c->m, g->in.words);
	GB_CUDA(cudaMemset(c->m.client_ts, 0xFF, (size_t)c->m.ngroups * 4), "idling the group snapshots");
	GB_CUDA(cudaMemset(c->m.req, 0, (size_t)c->m.ngroups * sizeof(csmv_req)), "clearing the group requests");
	if (c->m.wcts)
		GB_CUDA(cudaMemset(c->m.wcts, 0, (size_t)g->in.words * 4), "clearing the ATR's index");
	if (c->m.taken)
		GB_CUDA(cudaMemset(c->m.taken, 0, (size_t)c->m.ngroups * 4), "clearing the receiver's words");
	gb_cuda_timer_start(&g->timer);
	GB_CUDA(cudaLaunchCooperativeKernel(c->kernel, dim3(g->blocks + 1), dim3(c->launch_block), args, c->ring_bytes,
					    0),
		"launching %s cooperatively with %u client blocks of %u threads (%u a block) and a server block, "
		"%zu bytes of shared memory", c->kernel_name, g->blocks, g->block_size, c->launch_block, c->ring_bytes);
	snprintf(what, sizeof(what), "%s (%u threads, %llu transactions)", c->kernel_name, g->p.threads,
		 (unsigned long long)g->in.ntx);
	r->seconds = gb_cuda_timer_stop(&g->timer, what);
	GB_CUDA(cudaMemcpy(&r->c, g->d_counters, sizeof(stm_counters), cudaMemcpyDeviceToHost),
		"copying counters from the device");
	r->cycles_per_ns = g->cycles_per_ns;
	r->block_size = g->block_size;
}

static int csmv_gpu_rounds_ok(void *ctx)
{
	(void)ctx;
	return 0; /* CSMV runs batches only */
}

static void csmv_gpu_fetch(void *ctx, uint32_t *words, uint32_t *status)
{
	csmv_gpu *c = (csmv_gpu *)ctx;
	uint32_t n = c->g->in.words;
	if (words) {
		csmv_gpu_boxes_newest(&c->m, c->g->d_data, n);
	}
	stm_gpu_fetch(c->g, words, status);
}

static void csmv_gpu_fetch_results(void *ctx, uint32_t *results)
{
	csmv_gpu *c = (csmv_gpu *)ctx;
	GB_CUDA(cudaMemcpy(results, c->d_results, (size_t)c->g->in.ntx * TX_RESULT_WORDS * 4, cudaMemcpyDeviceToHost),
		"copying read-only results from the device");
}

static void csmv_gpu_close(void *ctx)
{
	csmv_gpu *c = (csmv_gpu *)ctx;
	cudaFree(c->m.head);
	cudaFree(c->m.ver);
	cudaFree(c->m.g);
	cudaFree(c->m.client_ts);
	cudaFree(c->m.req);
	cudaFree(c->m.wcts);
	cudaFree(c->m.taken);
	cudaFree(c->d_results);
	stm_gpu_close(c->g);
	free(c);
}

/* Each workload's GPU backend for each engine name (csmv_bank_gpu_ops, csmv_nocv_bank_gpu_ops, ...). */
#define CSMV_GPU_OPS(wl, ahead, name, mode)                                                            \
	static void *name##_##wl##_open(const tx_input *in, const stm_params *p)                       \
	{                                                                                              \
		return csmv_gpu_open(in, p, mode, (const void *)csmv_##wl##_kernel, "csmv_" #wl "_kernel"); \
	}                                                                                              \
	extern "C" const stm_ops name##_##wl##_gpu_ops = {                                             \
		name##_##wl##_open, csmv_gpu_load,  csmv_gpu_run, csmv_gpu_rounds_ok,                  \
		csmv_gpu_fetch,     csmv_gpu_close, NULL,         csmv_gpu_fetch_results,              \
	};
#define CSMV_GPU_MODE(name, mode) CSMV_WORKLOADS(CSMV_GPU_OPS, name, mode)
CSMV_MODES(CSMV_GPU_MODE)
