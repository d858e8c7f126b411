/*
 * GPU-PBA's per-element work (Abell's thesis, chapter 5, Algorithms 22-29):
 * what one thread does for one resource of an event or one process of the
 * safety check, in the kernels of deadlock/pba_gpu.cu (gpu) and
 * deadlock/pba_thesis_gpu.cu (gpu-thesis). The kernels keep the launch
 * shapes, the loops of threads over resources, the block votes, the warp
 * ballots and the barriers; what they compare and write per element is here.
 * The unit tests' CPU driver (tests/unit/pba_gpu_sim.c) runs the same
 * functions over every element in an order the kernels' barriers allow, so
 * the GPU engines' decisions are checked against the oracle without a GPU.
 *
 * The state is that of api/pba_model.h, on the device. The choices where the
 * thesis is silent or garbled are those of deadlock/pba_cpu.c: negative
 * amounts are invalid, a release of more than is held is refused whole, and
 * rollback restores need = maximum - allocation. work[] is kept in 32 bits:
 * the units of a resource (available plus all allocations) never change, and
 * the engines refuse states whose total exceeds INT32_MAX.
 */
#ifndef GB_PBA_BITS_H
#define GB_PBA_BITS_H

#include <stddef.h>
#include <stdint.h>

#include "api/pba_model.h"
#include "common/port.h"

/* status[PBA_ST_OUTCOME] while the safety check is still to run (gpu). */
#define PBA_PENDING 255u
/* A row scan (gpu) compares PBA_SEG resources per warp and step, PBA_SEG_PER_LANE loads a lane. */
#define PBA_SEG_PER_LANE 8u
#define PBA_SEG (32u * PBA_SEG_PER_LANE)

/* The status words: the outcome, then (gpu) safety iterations and processes finished so far. */
enum { PBA_ST_OUTCOME, PBA_ST_ITERATIONS, PBA_ST_FINISHED };

/* The device state; what an engine does not use is NULL. */
typedef struct pba_dev {
	uint32_t I, J;
	int32_t *maximum, *allocation, *need; /* I x J, as in pba_system */
	int32_t *available, *amount;          /* J: free units; the event's amounts */
	int32_t *work0, *work;                /* J: work at the start of the check (gpu); work */
	uint64_t *state;                      /* gpu: I words, where each process is blocked */
	uint64_t *wake;                       /* gpu: pba_chunks(I) chunk wakes */
	uint32_t *flist, *status;             /* gpu: I finishers; status */
	uint8_t *finish, *atf;                /* gpu-thesis: I each */
} pba_dev;

GB_HD size_t pba_cell(const pba_dev *d, uint32_t i, uint32_t j)
{
	return (size_t)i * d->J + j;
}

GB_HD void pba_set_outcome(const pba_dev *d, uint32_t outcome)
{
	d->status[PBA_ST_OUTCOME] = outcome;
}

/* ---- both engines: one thread per resource j ---- */

/* Release: 1 when p's amount of resource j is negative or more than it holds (refused whole). */
GB_HD int pba_release_bad(const pba_dev *d, uint32_t p, uint32_t j)
{
	return d->amount[j] < 0 || d->amount[j] > d->allocation[pba_cell(d, p, j)];
}

GB_HD void pba_release_cell(const pba_dev *d, uint32_t p, uint32_t j)
{
	size_t c = pba_cell(d, p, j);
	int32_t a = d->amount[j];
	d->available[j] += a;
	d->allocation[c] -= a;
	d->need[c] += a;
}

/* Check_Valid_Request (Algorithm 24): 1 when the amount is negative or above p's need. */
GB_HD int pba_request_invalid(const pba_dev *d, uint32_t p, uint32_t j)
{
	return d->amount[j] < 0 || d->amount[j] > d->need[pba_cell(d, p, j)];
}

/* Check_Resource_Availability (Algorithm 25): 1 when more is asked than is free. */
GB_HD int pba_request_unavailable(const pba_dev *d, uint32_t j)
{
	return d->amount[j] > d->available[j];
}

/* Temporary_Allocate_Request (Algorithm 26): allocate, and start work[] (and work0[], gpu) at what is left. */
GB_HD void pba_temp_allocate_cell(const pba_dev *d, uint32_t p, uint32_t j)
{
	size_t c = pba_cell(d, p, j);
	int32_t a = d->amount[j];
	int32_t avail = d->available[j] - a;
	d->available[j] = avail;
	d->allocation[c] += a;
	d->need[c] = d->maximum[c] - d->allocation[c];
	d->work[j] = avail;
	if (d->work0)
		d->work0[j] = avail;
}

/* RollBack_Allocations (Algorithm 29, with need = maximum - allocation). */
GB_HD void pba_roll_back_cell(const pba_dev *d, uint32_t p, uint32_t j)
{
	size_t c = pba_cell(d, p, j);
	int32_t a = d->amount[j];
	d->available[j] += a;
	d->allocation[c] -= a;
	d->need[c] = d->maximum[c] - d->allocation[c];
}

/* ---- gpu-thesis: Perform_Safety_Check <<<I,J>>>, Add_Finished_To_Work <<<1,J>>> ---- */

/* Block i has nothing to check for a process already finished. */
GB_HD int pba_thesis_skips(const pba_dev *d, uint32_t i)
{
	return d->finish[i];
}

/* Thread j's flag: 1 when process i needs more of resource j than work holds. */
GB_HD int pba_thesis_short_of(const pba_dev *d, uint32_t i, uint32_t j)
{
	return d->need[pba_cell(d, i, j)] > d->work[j];
}

/* No thread of block i was short: process i is able to finish. */
GB_HD void pba_thesis_finish(const pba_dev *d, uint32_t i)
{
	d->finish[i] = 1;
	d->atf[i] = 1;
}

/* Add_Finished_To_Work (Algorithm 28): process i returns resource j to work. */
GB_HD void pba_thesis_add_cell(const pba_dev *d, uint32_t i, uint32_t j)
{
	d->work[j] += d->allocation[pba_cell(d, i, j)];
}

/* ---- gpu: phases 1-3 in k_prepare, then the safety check's first round and chain ---- */

/* Phases 1-3 passed: the safety check runs, its first iteration counted, nobody finished yet. */
GB_HD void pba_set_pending(const pba_dev *d)
{
	d->status[PBA_ST_OUTCOME] = PBA_PENDING;
	d->status[PBA_ST_ITERATIONS] = 1;
	d->status[PBA_ST_FINISHED] = 0;
}

/* Whether the safety kernels have work for this event. */
GB_HD int pba_is_pending(const pba_dev *d)
{
	return d->status[PBA_ST_OUTCOME] == PBA_PENDING;
}

GB_HD const int32_t *pba_need_row(const pba_dev *d, uint32_t i)
{
	return d->need + (size_t)i * d->J;
}

GB_HD const int32_t *pba_alloc_row(const pba_dev *d, uint32_t i)
{
	return d->allocation + (size_t)i * d->J;
}

/*
 * Where a process is blocked, in one word: the first resource j where its
 * need exceeds work (high half) and its need there, its key (low half).
 * PBA_UNBLOCKED, no such resource, is a finished process. A scan of a row
 * segment finds one resource per word, so the minimum of the words that the
 * scans of one row produce is the first blocking resource with its need: the
 * scanning lane has the need in a register, and nothing is loaded again to
 * learn it. J < 2^32 - 1, so a real resource never reads as unblocked.
 */
#define PBA_UNBLOCKED UINT64_MAX

GB_HD uint64_t pba_block_word(uint32_t j, int32_t need)
{
	return (uint64_t)j << 32 | (uint32_t)need;
}

GB_HD uint32_t pba_block_pos(uint64_t w)
{
	return (uint32_t)(w >> 32);
}

GB_HD int32_t pba_block_key(uint64_t w)
{
	return (int32_t)(uint32_t)w;
}

/*
 * A row scan: a warp looks for the first resource j in [from, J) where a need
 * row exceeds work[], PBA_SEG resources at a time. Lane `lane` takes the u-th
 * of its resources of the segment that starts at seg; it loads all its needs
 * first (0 outside [from, J)), so that it has PBA_SEG_PER_LANE loads in
 * flight, then compares each with work[]. The first resource of the segment
 * that compares over is where the row is blocked; its word is
 * pba_block_word(j, the need the lane loaded there).
 */
GB_HD uint32_t pba_scan_index(uint32_t seg, uint32_t u, uint32_t lane)
{
	return seg + u * 32u + lane;
}

GB_HD int32_t pba_scan_load(const int32_t *row, uint32_t J, uint32_t from, uint32_t j)
{
	return (j >= from && j < J) ? row[j] : 0;
}

GB_HD int pba_scan_over(const int32_t *work, uint32_t J, uint32_t from, uint32_t j, int32_t v)
{
	return j >= from && j < J && v > work[j];
}

/*
 * A scan that also stages an allocation row: the lane loads its allocations
 * of the segment with its needs (pba_scan_load from 0), so both arrive in one
 * trip, and stores them into the candidate's staging row.
 */
GB_HD void pba_stage_put(int32_t *stage_row, uint32_t J, uint32_t j, int32_t v)
{
	if (j < J)
		stage_row[j] = v;
}

/* First round, process i blocked where its row's scan word says (lane 0): its state for the chain. */
GB_HD void pba_first_blocked(const pba_dev *d, uint32_t i, uint64_t w)
{
	d->state[i] = w;
}

/*
 * First round, process i covered everywhere: a lane adds its share of i's
 * allocation to work[] (the round compares with work0[], which does not move).
 */
GB_HD void pba_first_release_cell(const pba_dev *d, uint32_t i, uint32_t j)
{
	const int32_t *alloc = pba_alloc_row(d, i);
	if (alloc[j])
		gb_add_i32(&d->work[j], alloc[j]);
}

/* ... and lane 0 marks i finished and counts it in its block's total. */
GB_HD void pba_first_finish(const pba_dev *d, uint32_t i, uint32_t *block_finished)
{
	d->state[i] = PBA_UNBLOCKED;
	gb_add_u32(block_finished, 1u);
}

/* A block's total, after its barrier (thread 0). */
GB_HD void pba_first_publish(const pba_dev *d, uint32_t block_finished)
{
	if (block_finished)
		gb_add_u32(&d->status[PBA_ST_FINISHED], block_finished);
}

/* The chain starts from the processes the first round finished. */
GB_HD uint32_t pba_first_total(const pba_dev *d)
{
	return d->status[PBA_ST_FINISHED];
}

/* Another iteration may finish someone when some, not all, processes finished so far. */
GB_HD int pba_chain_goes_on(uint32_t total, uint32_t I)
{
	return total < I && total > 0;
}

/*
 * The chain looks at processes in chunks of PBA_CHUNK, a lane each, and only
 * at the chunks where a candidate may be. work[] only grows, and `grown`
 * bounds how much any entry has grown since the chain began (the sum over
 * iterations of the largest growth of one entry). A chunk looked at when
 * grown was G, whose processes were all blocked with margins (key - work at
 * pos) of at least m, holds no candidate until grown reaches G + m, its wake;
 * one with a candidate is looked at again at the next pass (its wake is G),
 * one whose processes all finished never. Only candidates change their word,
 * so a wake stays right until its chunk is looked at again. In the worst
 * case an iteration looks at one chunk, that of the next process to finish,
 * instead of every process.
 */
#define PBA_CHUNK 32u

GB_HD uint32_t pba_chunks(uint32_t I)
{
	return (I + PBA_CHUNK - 1) / PBA_CHUNK;
}

/*
 * The chain kernel's shared memory. The words (and the finisher list) live
 * in shared memory when they fit beside work[], the chunks' wakes and enough
 * candidate slots; past that they stay in global memory (d->state,
 * d->flist), as work[] does past half the budget and the wakes past a
 * quarter of what is left (d->wake). Nothing after the chain reads the
 * words, the wakes or the list, so nothing is written back. An iteration with
 * at most stage_rows candidates (one pass) stages their allocation rows while
 * it scans their need rows, so adding the finishers to work[] makes no global
 * trip; with more, the finishers go onto the list and their rows are read
 * from global memory.
 */
#define PBA_STAGE_MAX 8u   /* staged allocation rows at most */
#define PBA_MIN_SLOTS 1024u /* candidate slots the words leave room for */

typedef struct pba_chain_plan {
	uint32_t cap;        /* candidate slots of one pass */
	uint32_t stage_rows; /* K: staged allocation rows, at most cap */
	uint32_t smem_work;  /* work[] in shared memory */
	uint32_t smem_wake;  /* the chunks' wakes in shared memory */
	uint32_t smem_state; /* the words and the finisher list in shared memory */
} pba_chain_plan;

/* The chain's arrays: in shared memory or the device state's, as planned. */
typedef struct pba_chain_mem {
	uint64_t *minf;  /* cap: a candidate's least scan word */
	uint64_t *wake;  /* pba_chunks(I): when a chunk is looked at again */
	uint64_t *state; /* I: every process's word */
	int32_t *work;   /* J */
	uint32_t *flist; /* I: finishers of an iteration not staged */
	uint32_t *cand;  /* cap: a candidate's process */
	int32_t *stage;  /* stage_rows x J */
} pba_chain_mem;

/*
 * The 8-byte arrays come first, so all are aligned; their count is rounded up
 * to even, so that work[] after them starts on 16 bytes, as the staged rows
 * do (pba_chain_stage_at): either may be read 16 bytes at a time.
 */
GB_HD size_t pba_chain_words64(const pba_chain_plan *pl, uint32_t I)
{
	size_t n = (size_t)pl->cap + (pl->smem_wake ? pba_chunks(I) : 0) + (pl->smem_state ? I : 0);
	return (n + 1) & ~(size_t)1;
}

/* Bytes before the staged rows, which start on 16 bytes too. */
GB_HD size_t pba_chain_stage_at(const pba_chain_plan *pl, uint32_t I, uint32_t J)
{
	size_t b = pba_chain_words64(pl, I) * sizeof(uint64_t) + (size_t)pl->cap * sizeof(uint32_t) +
		   (pl->smem_state ? (size_t)I * sizeof(uint32_t) : 0) +
		   (pl->smem_work ? (size_t)J * sizeof(int32_t) : 0);
	return (b + 15u) & ~(size_t)15u;
}

/* Bytes of shared memory the plan takes. */
GB_HD size_t pba_chain_bytes(const pba_chain_plan *pl, uint32_t I, uint32_t J)
{
	return pba_chain_stage_at(pl, I, J) + (size_t)pl->stage_rows * J * sizeof(int32_t);
}

/*
 * A plan within budget bytes (24 kept for the alignment of work[] and the staged rows): work[] when it takes at most half; the wakes
 * when they take at most a quarter of the rest; the words when they leave
 * room for min(I, PBA_MIN_SLOTS) slots and two staged rows; then up to a slot
 * per process (one pass per iteration however many candidates), keeping two
 * staged rows; the rest staged rows, at most PBA_STAGE_MAX and at most a
 * quarter of the budget.
 */
GB_HD void pba_chain_plan_for(pba_chain_plan *pl, uint32_t I, uint32_t J, size_t budget)
{
	const size_t slot = sizeof(uint64_t) + sizeof(uint32_t), proc = slot;
	const size_t row = (size_t)J * sizeof(int32_t), wake = (size_t)pba_chunks(I) * sizeof(uint64_t);
	size_t left = budget - 24, stage_max = budget / 4 / row, stage_min, keep, cap, k;

	if (stage_max > PBA_STAGE_MAX)
		stage_max = PBA_STAGE_MAX;
	stage_min = stage_max < 2 ? stage_max : 2;
	pl->smem_work = row <= budget / 2;
	if (pl->smem_work)
		left -= row;
	pl->smem_wake = wake <= left / 4;
	if (pl->smem_wake)
		left -= wake;
	keep = (size_t)(I < PBA_MIN_SLOTS ? I : PBA_MIN_SLOTS) * slot + stage_min * row;
	pl->smem_state = (size_t)I * proc + keep <= left;
	if (pl->smem_state)
		left -= (size_t)I * proc;
	cap = left > stage_min * row ? (left - stage_min * row) / slot : 0;
	if (cap > I)
		cap = I;
	if (cap == 0)
		cap = 1;
	k = left > cap * slot ? (left - cap * slot) / row : 0;
	if (k > stage_max)
		k = stage_max;
	if (k > cap)
		k = cap;
	pl->cap = (uint32_t)cap;
	pl->stage_rows = (uint32_t)k;
}

GB_HD void pba_chain_carve(const pba_chain_plan *pl, const pba_dev *d, uint64_t *smem, pba_chain_mem *m)
{
	uint64_t *base = smem;
	uint32_t *u = (uint32_t *)(smem + pba_chain_words64(pl, d->I));
	m->minf = smem;
	smem += pl->cap;
	m->wake = pl->smem_wake ? smem : d->wake;
	if (pl->smem_wake)
		smem += pba_chunks(d->I);
	m->state = pl->smem_state ? smem : d->state;
	m->work = pl->smem_work ? (int32_t *)u : d->work;
	if (pl->smem_work)
		u += d->J;
	m->flist = pl->smem_state ? u : d->flist;
	if (pl->smem_state)
		u += d->I;
	m->cand = u;
	m->stage = (int32_t *)((char *)base + pba_chain_stage_at(pl, d->I, d->J));
}

/* The chain's start: work[] (resource j) and the words (process i) copied into shared memory... */
GB_HD void pba_chain_stage_cell(const pba_dev *d, const pba_chain_mem *m, uint32_t j)
{
	m->work[j] = d->work[j];
}

GB_HD void pba_chain_stage_word(const pba_dev *d, const pba_chain_mem *m, uint32_t i)
{
	m->state[i] = d->state[i];
}

/* ... and every chunk due at once. */
GB_HD void pba_chain_wake_now(const pba_chain_mem *m, uint32_t c)
{
	m->wake[c] = 0;
}

/*
 * Chain, collecting the candidates: a warp takes chunks c = warp + nwarps *
 * (32 r + lane) and votes which are due; then, for each due chunk, lane q
 * takes process PBA_CHUNK c + q: it loads the word, then work[] at its pos,
 * and compares. Work only grows, so a process whose key still exceeds work at
 * pos cannot finish yet; any other unfinished one is a candidate and takes a
 * slot, while slots last (the count goes on past cap: the rest wait for
 * another pass). The warp's least margin gives the chunk's next wake.
 */
GB_HD int pba_chain_due(const pba_chain_mem *m, uint32_t nchunks, uint32_t c, uint64_t grown)
{
	return c < nchunks && m->wake[c] <= grown;
}

GB_HD uint64_t pba_chain_word_at(const pba_chain_mem *m, uint32_t I, uint32_t i)
{
	return i < I ? m->state[i] : PBA_UNBLOCKED;
}

GB_HD int32_t pba_chain_work_at(const pba_chain_mem *m, uint32_t J, uint64_t w)
{
	uint32_t pos = pba_block_pos(w);
	return pos < J ? m->work[pos] : 0;
}

GB_HD int pba_chain_is_candidate(uint64_t w, uint32_t J, int32_t work_at_pos)
{
	return pba_block_pos(w) < J && pba_block_key(w) <= work_at_pos;
}

GB_HD void pba_chain_take(const pba_chain_mem *m, uint32_t cap, uint32_t *ncand, uint32_t i)
{
	uint32_t c = gb_add_u32(ncand, 1u);
	if (c < cap) {
		m->cand[c] = i;
		m->minf[c] = PBA_UNBLOCKED;
	}
}

/* How much work at pos must still grow for the process to be a candidate: 0 for one, UINT32_MAX when finished. */
GB_HD uint32_t pba_chain_margin(uint64_t w, uint32_t J, int32_t work_at_pos)
{
	if (pba_block_pos(w) >= J)
		return UINT32_MAX;
	if (pba_block_key(w) <= work_at_pos)
		return 0;
	return (uint32_t)((int64_t)pba_block_key(w) - work_at_pos);
}

/* Lane 0, after the warp's minimum of the margins. */
GB_HD void pba_chain_set_wake(const pba_chain_mem *m, uint32_t c, uint32_t least_margin, uint64_t grown)
{
	m->wake[c] = least_margin == UINT32_MAX ? UINT64_MAX : grown + least_margin;
}

/*
 * A blocked process that may be a candidate soon: its margin is at most twice
 * the last iteration's growth. The kernel has its rows fetched into L2 (a
 * hint, nothing else), so its scan in a later iteration need not wait for
 * device memory.
 */
#define PBA_PREFETCH_MAX 2u

GB_HD int pba_chain_soon(uint32_t margin, uint32_t last_growth)
{
	return margin > 0 && margin != UINT32_MAX && (uint64_t)margin <= 2ull * last_growth;
}

/* Whether a pass that found raw candidates stages their allocation rows: all of the iteration's, few. */
GB_HD int pba_chain_staged(const pba_chain_plan *pl, uint32_t raw, int first_pass)
{
	return first_pass && raw <= pl->stage_rows;
}

/*
 * Chain, warp task t of a pass's row scans (nseg segments a row): slot c,
 * its process i, the segment seg, and from, i's pos. Returns 1 when the
 * segment reaches past pos, where i's needs are still to be compared; a
 * staging pass runs the others too, for their allocations.
 */
GB_HD int pba_chain_task(const pba_chain_mem *m, uint32_t nseg, uint32_t t, uint32_t *c, uint32_t *i,
			 uint32_t *seg, uint32_t *from)
{
	*c = t / nseg;
	*seg = (t % nseg) * PBA_SEG;
	*i = m->cand[*c];
	*from = pba_block_pos(m->state[*i]);
	return *seg + PBA_SEG > *from;
}

/* Slot c's staging row. */
GB_HD int32_t *pba_chain_stage_row(const pba_chain_mem *m, uint32_t J, uint32_t c)
{
	return m->stage + (size_t)c * J;
}

/* ... whose scan word (PBA_UNBLOCKED: not blocked in the segment) lane 0 folds into the slot. */
GB_HD void pba_chain_note(const pba_chain_mem *m, uint32_t c, uint64_t w)
{
	if (w != PBA_UNBLOCKED)
		gb_min_u64(&m->minf[c], w);
}

/*
 * Chain, slot t after all scans of its pass: the slot's least word is its
 * process's new state, PBA_UNBLOCKED for a finisher. With a finisher list
 * (nfin not NULL) a finisher goes onto it.
 */
GB_HD void pba_chain_resolve(const pba_chain_mem *m, uint32_t *nfin, uint32_t t)
{
	uint32_t i = m->cand[t];
	uint64_t w = m->minf[t];
	m->state[i] = w;
	if (w == PBA_UNBLOCKED && nfin)
		m->flist[gb_add_u32(nfin, 1u)] = i;
}

/* A staging pass's finishers, counted by every thread from the n slots. */
GB_HD uint32_t pba_chain_staged_finishers(const pba_chain_mem *m, uint32_t n)
{
	uint32_t c, nf = 0;
	for (c = 0; c < n; c++)
		nf += m->minf[c] == PBA_UNBLOCKED;
	return nf;
}

/*
 * Chain, resource j after a staging pass: the finishers' staged allocations
 * go to work. Returns the growth, which the block folds into the iteration's
 * largest (allocations are never negative).
 */
GB_HD uint32_t pba_chain_add_staged(const pba_chain_mem *m, uint32_t n, uint32_t J, uint32_t j)
{
	int32_t add = 0;
	uint32_t c;
	for (c = 0; c < n; c++)
		if (m->minf[c] == PBA_UNBLOCKED)
			add += m->stage[(size_t)c * J + j];
	m->work[j] += add;
	return (uint32_t)add;
}

/* Chain, resource j after the passes of an iteration not staged: the nf listed finishers' allocations go to work. */
GB_HD uint32_t pba_chain_add_cell(const pba_dev *d, const pba_chain_mem *m, uint32_t nf, uint32_t j)
{
	int32_t add = 0;
	uint32_t f;
	for (f = 0; f < nf; f++)
		add += pba_alloc_row(d, m->flist[f])[j];
	m->work[j] += add;
	return (uint32_t)add;
}

/*
 * The chain's batches. In the worst case an iteration has one due chunk and
 * one candidate, and the next iterations' candidates are already in sight:
 * the processes of the due chunks with the least positive margins (docs/
 * avoid.md, "Batches of predicted iterations"). So when an iteration has at
 * most PBA_LONE_DUE due chunks and one candidate, warp 0 predicts that the
 * next up to PBA_AHEAD - 1 iterations finish one process each, those, in
 * the order of their margins, and the whole block checks all of them in one
 * pass over the rows: iteration t of the batch uses work_t = work + the
 * allocations of predictions 0..t-1, and the prefix of predictions that
 * held is kept (pba_batch_accept). An iteration so kept is the thesis's iteration
 * exactly: its prediction is covered by work_t, was not by work_{t-1}, and
 * nobody else is covered by work_t. Anything else the block runs as before,
 * having changed nothing but wakes, which stay right (a chunk with a
 * candidate is due again at once). A lane keeps the votes of up to 64
 * chunks in one word, hence I <= PBA_LONE_I.
 */
#define PBA_LONE_I (64u * 32u * PBA_CHUNK)
#define PBA_LONE_DUE 4u
#define PBA_AHEAD 8u

GB_HD int pba_chain_lone_fits(uint32_t I)
{
	return I <= PBA_LONE_I;
}

/* Whether warp 0 plans a batch for an iteration with ndue due chunks and (so far) ncand candidates. */
GB_HD int pba_chain_lone_takes(uint32_t ndue, uint32_t ncand)
{
	return ndue <= PBA_LONE_DUE && ncand <= 1;
}

/* What warp 0's look at an iteration's due chunks found. */
enum { PBA_BATCH_RUN, PBA_BATCH_BLOCK, PBA_BATCH_OVER };

/* A batch, in shared memory: warp 0's plan, then what the block's pass over the rows found. */
typedef struct pba_batch {
	uint32_t n;                 /* iterations predicted, at least 1 */
	uint32_t proc[PBA_AHEAD];   /* proc[t]: the process predicted to finish alone in iteration t */
	uint32_t margin[PBA_AHEAD]; /* its margin at the batch's start (t >= 1), at most PBA_KEY_MARGIN */
	uint32_t bound;             /* every process not predicted: the least margin (or chunk wake - grown) */
	uint32_t short_now;         /* bit t: some need of proc[t] exceeds work_t */
	uint32_t short_before;      /* bit t (t >= 1): some need of proc[t] exceeds work_{t-1} */
	uint32_t reach[PBA_AHEAD];  /* reach[t]: the most any entry of work_{t+1} exceeds work_0 by */
	uint32_t result;            /* PBA_BATCH_* */
} pba_batch;

/*
 * The predictions: each lane of warp 0 has one process of each due chunk
 * (slot s), keyed by its margin, the slot and the lane, so that one warp
 * minimum finds the next. Margins past PBA_KEY_MARGIN count as that much,
 * which only makes the checks stricter; candidates and finished processes
 * have no key.
 */
#define PBA_KEY_MARGIN ((1u << 24) - 1u)
#define PBA_NO_KEY UINT32_MAX

GB_HD uint32_t pba_batch_key(uint32_t margin, uint32_t slot, uint32_t lane)
{
	if (margin == 0 || margin == UINT32_MAX)
		return PBA_NO_KEY;
	return (margin < PBA_KEY_MARGIN ? margin : PBA_KEY_MARGIN) << 7 | slot << 5 | lane;
}

GB_HD uint32_t pba_batch_key_margin(uint32_t key)
{
	return key == PBA_NO_KEY ? UINT32_MAX : key >> 7;
}

GB_HD uint32_t pba_batch_key_slot(uint32_t key)
{
	return key >> 5 & 3u;
}

GB_HD uint32_t pba_batch_key_lane(uint32_t key)
{
	return key & 31u;
}

/* How much grown must still grow before a chunk not due is: its bound (wake > grown). */
GB_HD uint32_t pba_batch_gap(uint64_t wake, uint64_t grown)
{
	const uint64_t g = wake - grown;
	return g < UINT32_MAX ? (uint32_t)g : UINT32_MAX;
}

/*
 * Warp 0's plan (lane 0): the candidate, then nothing checked yet. Every
 * slot names the candidate until a prediction takes it, so that the pass
 * over the rows loads PBA_AHEAD rows without a test (what it finds past n
 * is not read).
 */
GB_HD void pba_batch_begin(pba_batch *b, uint32_t cand)
{
	uint32_t t;
	b->n = 1;
	b->margin[0] = 0;
	b->short_now = b->short_before = 0;
	for (t = 0; t < PBA_AHEAD; t++) {
		b->proc[t] = cand;
		b->reach[t] = 0;
	}
}

/* ... a prediction, the next least key ... */
GB_HD void pba_batch_predict(pba_batch *b, uint32_t chunk, uint32_t key)
{
	b->proc[b->n] = chunk * PBA_CHUNK + pba_batch_key_lane(key);
	b->margin[b->n] = pba_batch_key_margin(key);
	b->n++;
}

/* A thread keeps the sums of at most this many resources (the chain's block has 512 threads: 1024). */
#define PBA_BATCH_KEEP 2u

/*
 * The pass over the rows, resources j0 + e * stride for e < ne (at most
 * PBA_BATCH_KEEP): iteration t's work is work[j] plus predictions 0..t-1's
 * allocations, sum[e][t] the allocations of 0..t. All loads first, so that
 * a thread has them in flight together, and each row's address computed
 * once for its resources.
 */
GB_HD void pba_batch_cells(const pba_dev *d, const pba_chain_mem *m, const pba_batch *b, uint32_t j0,
			   uint32_t stride, uint32_t ne, uint32_t *short_now, uint32_t *short_before,
			   uint32_t reach[PBA_AHEAD], int32_t sum[PBA_BATCH_KEEP][PBA_AHEAD])
{
	int32_t need[PBA_BATCH_KEEP][PBA_AHEAD], alloc[PBA_BATCH_KEEP][PBA_AHEAD];
	uint32_t t, e;
	GB_UNROLL
	for (t = 0; t < PBA_AHEAD; t++) {
		const size_t row = (size_t)b->proc[t] * d->J + j0;
		GB_UNROLL
		for (e = 0; e < PBA_BATCH_KEEP; e++) {
			need[e][t] = e < ne ? d->need[row + e * stride] : 0;
			alloc[e][t] = e < ne ? d->allocation[row + e * stride] : 0;
		}
	}
	GB_UNROLL
	for (e = 0; e < PBA_BATCH_KEEP; e++) {
		const int32_t w0 = e < ne ? m->work[j0 + e * stride] : 0;
		int32_t s = 0, prev = 0;
		GB_UNROLL
		for (t = 0; t < PBA_AHEAD; t++) {
			if (need[e][t] > w0 + s)
				*short_now |= 1u << t;
			if (t > 0 && need[e][t] > w0 + prev)
				*short_before |= 1u << t;
			prev = s;
			s += alloc[e][t];
			sum[e][t] = s;
			if ((uint32_t)s > reach[t])
				reach[t] = (uint32_t)s;
		}
	}
}

/*
 * How many of the batch's iterations are kept: the largest T such that
 *  - every prediction t < T is covered by work_t and (t >= 1) not by work_{t-1};
 *  - nobody else is covered by work_{T-1}: a process not predicted has a
 *    margin (or its chunk a wake) beyond what work_{T-1} grew, and a later
 *    prediction was not covered by work_{t-1} or has such a margin.
 * 0 when the candidate is blocked further on: the iteration finishes no one.
 * Every thread of the block takes it, so the usual case (all held) costs a
 * few bit operations.
 */
GB_HD uint32_t pba_batch_accept(const pba_batch *b)
{
	const uint32_t n = b->n, all = n < 32u ? (1u << n) - 1u : UINT32_MAX;
	const uint32_t fresh = b->short_before | 1u, held = ~b->short_now & fresh & all;
	uint32_t T = (uint32_t)gb_ctz32(~held), t; /* n < 32: ~held has a bit set */
	for (T = T < n ? T : n; T > 0; T--) {
		/* what work_{T-1} grew; the later predictions that were covered by work_{t-1} */
		const uint32_t grew = T > 1 ? b->reach[T - 2] : 0, late = all & ~((1u << T) - 1u) & ~fresh;
		int ok = grew < b->bound;
		for (t = T; t < n && ok; t++)
			if (late >> t & 1u)
				ok = grew < b->margin[t];
		if (ok)
			return T;
	}
	return 0;
}

/* Kept, resource j: the allocations of the first T predictions go to work (pba_batch_cells' sums) ... */
GB_HD void pba_batch_add_sum(const pba_chain_mem *m, uint32_t j, const int32_t sum[PBA_AHEAD], uint32_t T)
{
	int32_t add = 0;
	uint32_t t;
	for (t = 0; t < PBA_AHEAD; t++)
		if (t + 1 == T)
			add = sum[t];
	m->work[j] += add;
}

/* ... or loaded again, where a thread has more resources than it keeps sums for ... */
GB_HD void pba_batch_add_cell(const pba_dev *d, const pba_chain_mem *m, const pba_batch *b, uint32_t T, uint32_t j)
{
	int32_t add = 0;
	uint32_t t;
	for (t = 0; t < T; t++)
		add += pba_alloc_row(d, b->proc[t])[j];
	m->work[j] += add;
}

/* ... and prediction t < T is finished. */
GB_HD void pba_batch_finish(const pba_chain_mem *m, const pba_batch *b, uint32_t t)
{
	m->state[b->proc[t]] = PBA_UNBLOCKED;
}

/* The verdict (thread 0), after the rollback of an unsafe request. */
GB_HD void pba_chain_verdict(const pba_dev *d, uint32_t total, uint32_t iterations)
{
	d->status[PBA_ST_OUTCOME] = total == d->I ? PBA_GRANTED : PBA_DENIED_UNSAFE;
	d->status[PBA_ST_ITERATIONS] = iterations;
}

#endif
