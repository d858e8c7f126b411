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
	uint32_t *pos, *flist, *status;       /* gpu: I blocking resources, I finishers; status */
	int32_t *key;                         /* gpu: I needs at pos */
	uint8_t *finish, *atf;                /* I; atf: gpu-thesis */
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

/*
 * A row scan: a warp looks for the first resource j in [from, J) where a need
 * row exceeds work[], PBA_SEG resources at a time. Lane `lane` takes the u-th
 * of its resources of the segment that starts at seg; it loads all its needs
 * first (0 outside [from, J)), so that it has PBA_SEG_PER_LANE loads in
 * flight, then compares each with work[]. The first resource of the segment
 * that compares over is where the row is blocked.
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

/* First round, process i blocked on resource at (lane 0): not finished; its scan goes on from there. */
GB_HD void pba_first_blocked(const pba_dev *d, uint32_t i, uint32_t at)
{
	d->finish[i] = 0;
	d->pos[i] = at;
	d->key[i] = pba_need_row(d, i)[at];
}

/*
 * First round, process i covered everywhere: a lane adds its share of i's
 * allocation to work[] (the round compares with work0[], which does not move).
 */
GB_HD void pba_first_release_cell(const pba_dev *d, uint32_t i, uint32_t j)
{
	const int32_t *alloc = d->allocation + (size_t)i * d->J;
	if (alloc[j])
		gb_add_i32(&d->work[j], alloc[j]);
}

/* ... and lane 0 marks i finished and counts it in its block's total. */
GB_HD void pba_first_finish(const pba_dev *d, uint32_t i, uint32_t *block_finished)
{
	d->finish[i] = 1;
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

/* work[] staged in shared memory, resource j. */
GB_HD void pba_chain_stage_cell(const pba_dev *d, int32_t *work, uint32_t j)
{
	work[j] = d->work[j];
}

/*
 * Chain, process i: work only grows, so an unfinished process whose key still
 * exceeds work at pos cannot finish yet; any other is a candidate and takes a
 * slot (minf: the first resource its scans find it blocked on, J for none).
 */
GB_HD void pba_chain_collect(const pba_dev *d, const int32_t *work, uint32_t *cand, uint32_t *minf,
			     uint32_t *ncand, uint32_t i)
{
	if (!d->finish[i] && d->key[i] <= work[d->pos[i]]) {
		uint32_t c = gb_add_u32(ncand, 1u);
		cand[c] = i;
		minf[c] = d->J;
	}
}

/*
 * Chain, warp task t of the candidates' row scans (nseg segments a row):
 * candidate slot c, its process i and the segment seg; 0 when the segment
 * ends before the candidate's pos, where it is covered already.
 */
GB_HD int pba_chain_task(const pba_dev *d, const uint32_t *cand, uint32_t nseg, uint32_t t,
			 uint32_t *c, uint32_t *i, uint32_t *seg)
{
	*c = t / nseg;
	*seg = (t % nseg) * PBA_SEG;
	*i = cand[*c];
	return *seg + PBA_SEG > d->pos[*i];
}

/* ... whose result at (J: not blocked in the segment) lane 0 folds into the slot. */
GB_HD void pba_chain_note(uint32_t *minf, uint32_t c, uint32_t at, uint32_t J)
{
	if (at < J)
		gb_min_u32(&minf[c], at);
}

/* Chain, slot t after all scans: finished (onto the finisher list), or blocked further on. */
GB_HD void pba_chain_resolve(const pba_dev *d, const uint32_t *cand, const uint32_t *minf,
			     uint32_t *nfin, uint32_t t)
{
	uint32_t i = cand[t];
	if (minf[t] == d->J) {
		d->finish[i] = 1;
		d->flist[gb_add_u32(nfin, 1u)] = i;
	} else {
		d->pos[i] = minf[t];
		d->key[i] = d->need[pba_cell(d, i, minf[t])];
	}
}

/* Chain, resource j after an iteration: the nf finishers' allocations go to work. */
GB_HD void pba_chain_add_cell(const pba_dev *d, int32_t *work, uint32_t nf, uint32_t j)
{
	int32_t add = 0;
	uint32_t f;
	for (f = 0; f < nf; f++)
		add += d->allocation[pba_cell(d, d->flist[f], j)];
	work[j] += add;
}

/* The verdict (thread 0), after the rollback of an unsafe request. */
GB_HD void pba_chain_verdict(const pba_dev *d, uint32_t total, uint32_t iterations)
{
	d->status[PBA_ST_OUTCOME] = total == d->I ? PBA_GRANTED : PBA_DENIED_UNSAFE;
	d->status[PBA_ST_ITERATIONS] = iterations;
}

#endif
