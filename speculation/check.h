/*
 * The device phases of the speculative runtime (sections 2 and 3 of Feng,
 * Gupta and Bhuyan): computation with access tracking, misspeculation
 * detection and localization, one GB_HD function per thread and step. The GPU
 * backend runs sp_kernel_run in one CUDA thread per iteration of the
 * assignment; the CPU backend runs it over slices on host threads.
 *
 * Detection (Figure 4): Read_A marks elements some iteration read without
 * writing them; Write_A counts the iterations that wrote each element, so its
 * non-zero entries are the paper's Write_A and its values the WW_A of
 * localization. RAW/WAR: an element read-only in one iteration and written in
 * another; WAW: sum Write_A < sum WC_A, which holds exactly when some
 * element's count reaches 2, so the second writer of an element raises the
 * flag and no global sum is taken.
 * Localization (Figure 5): an iteration misspeculated when an element it read
 * is in RW_A (Read_A and Write_A), or an element it wrote has WW_A > 1.
 * Wrong_A holds the elements misspeculated iterations wrote; both are
 * compacted into lists.
 *
 * Deviations, each for cost or correctness:
 * - The intersection is taken over the traces, not over every element of A
 *   (a pass per element per assignment would cost O(|A|) even for an
 *   assignment of ten iterations), and the arrays are cleared through the
 *   traces for the same reason. WW_A is counted with atomics instead of N
 *   partial arrays and a reduction (N x |A| counters do not fit at our
 *   sizes). No step adds to one global counter per iteration: that
 *   serializes every thread on one address.
 * - A WAR pair also marks the writer when it comes after the element's first
 *   read-only reader (Read-min): recovery re-executes the reader on the CPU
 *   after the commit, and a committed later write would then be visible to
 *   it. The paper marks the reader only.
 * - The lists are compacted by atomic appends (only misspeculated iterations
 *   append); the host sorts them (they are short), instead of ordered
 *   parallel reductions.
 * - Commit of a memory loop gathers the elements the assignment wrote, less
 *   the wrong ones, through the write traces (SP_K_GATHER), where Figure 7
 *   copies the whole array between wrong elements: a short assignment would
 *   otherwise pay for the whole array. Where the runtime keeps a memory loop
 *   on the device, commit and recovery run there instead (SP_K_RESTORE,
 *   SP_K_TRACES, SP_K_REPLAY below) and nothing is copied.
 */
#ifndef GB_SPEC_CHECK_H
#define GB_SPEC_CHECK_H

#include "api/loop_body.h"
#include "workloads/speculation/spec_bodies.h"

/* Counters of one assignment, in device memory. */
enum sp_counter {
	SP_C_WAW = 0,     /* sum Write_A < sum WC_A: an element has two writers */
	SP_C_CONFLICT,    /* a RAW/WAR was seen (SP_MEM) */
	SP_C_MARKS,       /* a branch marked iterations one by one (SP_CF) */
	SP_C_OVERFLOW,    /* an iteration exceeded its declared trace size */
	SP_C_ALL_FROM,    /* SP_CF: first iteration of a range to the end, SP_NONE if none */
	SP_C_NMISSPEC,    /* length of the Misspec list */
	SP_C_NWRONG,      /* length of the Wrong list */
	SP_C_UNSTABLE,    /* a re-executed iteration accessed elements outside its traces (sticky) */
	SP_NCOUNTERS
};

/* The steps, in the order the runtime launches them. */
enum sp_kernel {
	SP_K_COMPUTE = 0, /* the loop body with tracking */
	SP_K_MARK,        /* detection: Read_A, Write_A (WW_A) and the WAW flag */
	SP_K_INTERSECT,   /* detection: Read_A and Write_A intersect */
	SP_K_MINREAD,     /* localization: earliest read-only reader of each RW_A element */
	SP_K_LOCALIZE,    /* localization: Misspec, Wrong_A and their lists */
	SP_K_GATHER,      /* commit: the written, correct elements and their values */
	SP_K_CLEAR,       /* reset what this assignment set, and the counters */
	SP_K_RESET,       /* the same by element, when the traces outnumber the elements */
	SP_K_SCATTER,     /* copy-in: A[sidx[i]] = sval[i] */
	SP_K_TRACES,      /* device-side recovery: the traces of the misspeculated iterations, packed */
	SP_K_RESTORE,     /* device-side commit: the wrong elements get their committed values back */
	SP_K_REPLAY,      /* device-side recovery: re-execute them by dependence levels (sp_replay) */
	SP_K_REPLAY_LEVEL, /* the same, one level: the plan's rows from start */
	SP_K_PLAIN,       /* the loop body without tracking (--compare gpu-nospec) */
	SP_K_ROUNDS,      /* a batch of short device-decided assignments in one block (sp_rounds below) */
	SP_K_WIDE,        /* one longer device-decided assignment over the whole device */
	SP_NKERNELS
};

/*
 * Device-decided assignments of a control-flow loop whose clause only names
 * ranges to the end (sp_clause_only_to_end, Figure 6(c): gothic, mdg,
 * strcat). Such an assignment's check is one number (the first iteration a
 * range starts at), its commit keeps everything before it, and its recovery
 * is one sequential iteration: nothing there needs the host. Each assignment
 * ("round") follows the interval schedule of section 4 (sp_sched_interval),
 * the device re-executing the branching iteration itself, so the schedule
 * and every counter are those of host-decided assignments; only where the
 * work runs differs. Two kernels run rounds:
 * - SP_K_ROUNDS, rounds of up to SP_ROUND_MAX iterations: one block runs up
 *   to SP_ROUND_BUDGET of them back to back (which bounds a launch, for
 *   --timeout), its threads sharing each round's iterations, one thread
 *   resolving each round between two barriers;
 * - SP_K_WIDE, longer rounds: one launch per round over the whole device;
 *   the last block to finish resolves the round and begins the next, so
 *   the host queues several launches without waiting in between, and a
 *   launch that finds no round (count 0) does nothing.
 * A batch ends when the schedule's size crosses SP_ROUND_MAX (the other
 * kernel takes over), when its budget (left) is spent or at the end of the
 * loop; the host then copies back the span the batch finished.
 *
 * The wide schedule (--schedule wide, the default; sp_sched) changes the
 * interval schedule in two ways, for host- and device-decided assignments
 * alike. A round's time on the device is that of its slowest thread, so a
 * round no wider than SP_K_ROUNDS's block (SP_SCHED_FLOOR threads) costs the
 * same whatever its size, and the iterations past a branch cost nothing: the
 * size after a branch is at least SP_SCHED_FLOOR, which for a branch every k
 * iterations (gothic: k = 150) advances k(1 - e^(-SP_SCHED_FLOOR/k)) a round
 * instead of about 0.63k at the mean. And a full round without a branch
 * doubles the size (sp_sched_clean): the mean lags intervals that grow
 * (strcat's buffer doubles, so its intervals do), which the paper's schedule
 * pays for with one round per interval seen so far after each branch.
 */
#define SP_ROUND_MAX 1024u
#define SP_ROUND_BUDGET 4096u
#define SP_SCHED_FLOOR 512u

typedef struct sp_rounds {
	float s[SP_NSCALARS];   /* the loop-carried scalars */
	uint32_t start, count;  /* the current round; count 0 ends the batch */
	uint32_t size, cap;     /* the schedule (sp_sched) */
	uint32_t left;          /* rounds this batch may still run */
	uint32_t all_from;      /* the current round's first range to the end, SP_NONE if none */
	uint32_t min_count, max_count;
	uint32_t wide;          /* SP_K_WIDE's batch: rounds above SP_ROUND_MAX iterations */
	uint32_t floor, grow;   /* the schedule's shape (sp_sched): least size after a branch, doubling */
	uint32_t inplace;       /* SP_K_ROUNDS: the first branching iteration recovers in place */
	uint32_t lookahead;     /* SP_K_ROUNDS: rounds of at most SP_SCHED_FLOOR run a second
				 * hypothesis, on the scalars predicted after the first branch */
	float delta[SP_NSCALARS]; /* lookahead: what the last branch added to each scalar */
	uint32_t acc_lo, acc_hi;  /* lookahead: iterations whose results the shadow array holds */
	uint32_t bits[SP_SCHED_FLOOR / 32]; /* lookahead: the second hypothesis's branching iterations */
	uint32_t blocks_done;   /* SP_K_WIDE: blocks of the launch that finished the round */
	int64_t last_branch;
	uint64_t interval_sum, intervals;
	uint64_t rounds, iterations, branches, misspeculated, deferred, wrong;
	uint64_t branch_rounds; /* rounds with a branch (the lookahead's may hold two) */
} sp_rounds;

#define SP_ROUND_WORDS (sizeof(sp_rounds) / sizeof(uint32_t))

/* Section 4's interval schedule after a branch at iteration at: the mean interval between
 * observed branches (the loop start counts as one, at -1), at least floor (0 or 1: the
 * paper's schedule), within [1, cap]. */
GB_HD uint32_t sp_sched_interval(int64_t *last, uint64_t *sum, uint64_t *n, uint32_t at,
				 uint32_t floor, uint32_t cap)
{
	uint64_t size;
	*sum += (uint64_t)((int64_t)at - *last);
	*n += 1;
	*last = at;
	size = *sum + *n / 2; /* the mean, rounded, is size / *n */
	/* Compared before dividing: a device thread resolves rounds one after the other, and a
	 * 64-bit division is some fifty dependent instructions there. */
	if (size < (uint64_t)(floor ? floor : 1) * *n)
		size = floor ? floor : 1;
	else if (size >= ((uint64_t)cap + 1) * *n)
		size = cap;
	else
		size /= *n;
	return size > cap ? cap : (uint32_t)size;
}

/* Scalars copied as floats (memcpy on the device copies an unknown alignment byte by byte). */
GB_HD void sp_scalars_copy(float to[SP_NSCALARS], const float from[SP_NSCALARS])
{
	uint32_t k;
	for (k = 0; k < SP_NSCALARS; k++)
		to[k] = from[k];
}

/* After an assignment of count iterations that did not branch: with grow, a full one (count
 * = size) doubles the size within cap, since the interval it guessed was too short. */
GB_HD uint32_t sp_sched_clean(uint32_t size, uint32_t count, uint32_t grow, uint32_t cap)
{
	if (!grow || count < size)
		return size;
	return size > cap / 2 ? cap : 2 * size;
}

/* The device state: pointers into device memory (host memory for the CPU backend). */
typedef struct sp_dev {
	sp_args args;          /* args.A is the device copy */
	sp_clause clause;
	uint32_t kind;         /* enum sp_kind */
	uint32_t maxrd, maxwr; /* trace row lengths */
	uint32_t start, count; /* the assignment (SP_K_SCATTER: count elements) */
	uint32_t *rd, *wr;     /* count x maxrd, count x maxwr */
	uint32_t *nrd, *nwr;   /* trace lengths per iteration */
	uint32_t *readf;       /* Read_A */
	uint32_t *writec;      /* Write_A / WW_A */
	uint32_t *minrd;       /* earliest read-only reader, SP_NONE when none */
	uint32_t *wrongf;      /* Wrong_A */
	uint32_t *misspec;     /* Misspec, per iteration of the assignment */
	uint32_t *counters;    /* enum sp_counter */
	uint32_t *mlist;       /* Misspec list: iteration offsets in the assignment */
	uint32_t *wlist;       /* Wrong list: elements */
	uint32_t *sidx, *sval; /* commit and copy-in staging: count x maxwr, or |A| */
	sp_rounds *rounds;     /* the state of a batch of rounds (SP_K_ROUNDS) */
	uint32_t *committed;   /* SP_MEM kept on the device: A as last committed; else NULL */
	uint32_t *rows;        /* SP_K_TRACES' output: SP_ROW_WORDS(maxrd, maxwr) per iteration */
	uint32_t *plan;        /* SP_K_REPLAY's input (sp_replay_in_order says how it is laid out) */
	uint32_t *shadow;      /* the rounds' lookahead: the second hypothesis's A; else NULL */
} sp_dev;

GB_HD int sp_row_has(const uint32_t *row, uint32_t n, uint32_t e)
{
	uint32_t k;
	for (k = 0; k < n; k++)
		if (row[k] == e)
			return 1;
	return 0;
}

GB_HD void sp_k_compute(const sp_dev *d, uint32_t i)
{
	sp_args a = d->args;
	sp_track t;
	t.spec = 1;
	t.rd = d->rd + (uint64_t)i * d->maxrd;
	t.wr = d->wr + (uint64_t)i * d->maxwr;
	t.nrd = t.nwr = 0;
	t.maxrd = d->maxrd;
	t.maxwr = d->maxwr;
	t.overflow = 0;
	t.misspec = d->misspec;
	t.all_from = &d->counters[SP_C_ALL_FROM];
	t.marks = &d->counters[SP_C_MARKS];
	t.start = d->start;
	t.count = d->count;
	t.clause = &d->clause;
	t.view = NULL;
	t.tx = NULL;
	sp_body(&a, &t, d->start + i);
	if (d->kind == SP_MEM) {
		d->nrd[i] = t.nrd;
		d->nwr[i] = t.nwr;
	}
	if (t.overflow)
		gb_st_relaxed_u32(&d->counters[SP_C_OVERFLOW], 1);
}

GB_HD void sp_k_mark(const sp_dev *d, uint32_t i)
{
	const uint32_t *rd = d->rd + (uint64_t)i * d->maxrd, *wr = d->wr + (uint64_t)i * d->maxwr;
	uint32_t k, nrd = d->nrd[i], nwr = d->nwr[i];
	for (k = 0; k < nrd; k++)
		if (!sp_row_has(wr, nwr, rd[k]))
			gb_st_relaxed_u32(&d->readf[rd[k]], 1);
	for (k = 0; k < nwr; k++)
		if (gb_add_u32(&d->writec[wr[k]], 1) == 1)
			gb_st_relaxed_u32(&d->counters[SP_C_WAW], 1);
}

GB_HD void sp_k_intersect(const sp_dev *d, uint32_t i)
{
	const uint32_t *rd = d->rd + (uint64_t)i * d->maxrd, *wr = d->wr + (uint64_t)i * d->maxwr;
	uint32_t k, nrd = d->nrd[i], nwr = d->nwr[i];
	for (k = 0; k < nrd; k++)
		if (!sp_row_has(wr, nwr, rd[k]) && gb_ld_relaxed_u32(&d->writec[rd[k]])) {
			if (!gb_ld_relaxed_u32(&d->counters[SP_C_CONFLICT]))
				gb_st_relaxed_u32(&d->counters[SP_C_CONFLICT], 1);
			return;
		}
}

GB_HD void sp_k_minread(const sp_dev *d, uint32_t i)
{
	const uint32_t *rd = d->rd + (uint64_t)i * d->maxrd, *wr = d->wr + (uint64_t)i * d->maxwr;
	uint32_t k, nrd = d->nrd[i], nwr = d->nwr[i];
	for (k = 0; k < nrd; k++)
		if (!sp_row_has(wr, nwr, rd[k]) && gb_ld_relaxed_u32(&d->writec[rd[k]]))
			gb_min_u32(&d->minrd[rd[k]], i);
}

GB_HD void sp_k_localize(const sp_dev *d, uint32_t i)
{
	const uint32_t *rd = d->rd + (uint64_t)i * d->maxrd, *wr = d->wr + (uint64_t)i * d->maxwr;
	uint32_t k, nrd, nwr;
	int miss = 0;

	if (d->kind == SP_CF) {
		/* Iterations from a range to the end are the host's: it knows where it starts. */
		if (gb_ld_relaxed_u32(&d->misspec[i]) &&
		    d->start + i < gb_ld_relaxed_u32(&d->counters[SP_C_ALL_FROM]))
			d->mlist[gb_add_u32(&d->counters[SP_C_NMISSPEC], 1)] = i;
		return;
	}
	nrd = d->nrd[i];
	nwr = d->nwr[i];
	for (k = 0; k < nrd && !miss; k++) /* RW_A: read here, written elsewhere */
		miss = gb_ld_relaxed_u32(&d->readf[rd[k]]) && gb_ld_relaxed_u32(&d->writec[rd[k]]);
	for (k = 0; k < nwr && !miss; k++) {
		uint32_t e = wr[k];
		miss = gb_ld_relaxed_u32(&d->writec[e]) > 1 || /* WW_A */
		       (gb_ld_relaxed_u32(&d->readf[e]) && gb_ld_relaxed_u32(&d->minrd[e]) < i);
	}
	if (!miss)
		return;
	d->mlist[gb_add_u32(&d->counters[SP_C_NMISSPEC], 1)] = i;
	for (k = 0; k < nwr; k++)
		if (gb_cas_u32(&d->wrongf[wr[k]], 0, 1) == 0)
			d->wlist[gb_add_u32(&d->counters[SP_C_NWRONG], 1)] = wr[k];
}

/* Slot k of iteration i: the element it wrote and its value, SP_NONE when empty or wrong. */
GB_HD void sp_k_gather(const sp_dev *d, uint32_t i)
{
	const uint32_t *wr = d->wr + (uint64_t)i * d->maxwr;
	uint32_t k, nwr = d->nwr[i];
	for (k = 0; k < d->maxwr; k++) {
		uint32_t e = k < nwr ? wr[k] : SP_NONE;
		if (e != SP_NONE && gb_ld_relaxed_u32(&d->wrongf[e]))
			e = SP_NONE;
		d->sidx[(uint64_t)i * d->maxwr + k] = e;
		d->sval[(uint64_t)i * d->maxwr + k] = e == SP_NONE ? 0 : d->args.A[e];
	}
}

/* The next assignment starts from zeroed counters, with no upload (SP_C_UNSTABLE stays). */
GB_HD void sp_reset_counters(const sp_dev *d)
{
	uint32_t k;
	for (k = 0; k < SP_NCOUNTERS; k++)
		if (k != SP_C_UNSTABLE)
			d->counters[k] = k == SP_C_ALL_FROM ? SP_NONE : 0;
}

GB_HD void sp_k_clear(const sp_dev *d, uint32_t i)
{
	const uint32_t *rd = d->rd + (uint64_t)i * d->maxrd, *wr = d->wr + (uint64_t)i * d->maxwr;
	uint32_t k;
	if (i == 0)
		sp_reset_counters(d);
	if (d->kind == SP_CF) {
		d->misspec[i] = 0;
		return;
	}
	for (k = 0; k < d->nrd[i]; k++) {
		gb_st_relaxed_u32(&d->readf[rd[k]], 0);
		gb_st_relaxed_u32(&d->minrd[rd[k]], SP_NONE);
	}
	for (k = 0; k < d->nwr[i]; k++) {
		gb_st_relaxed_u32(&d->writec[wr[k]], 0);
		gb_st_relaxed_u32(&d->wrongf[wr[k]], 0);
		if (d->committed) /* what the assignment wrote is committed now */
			d->committed[wr[k]] = d->args.A[wr[k]];
	}
}

/* Element i of a memory loop's check arrays (count is |A| for this step), and of the
 * committed copy where the array is kept on the device. */
GB_HD void sp_k_reset(const sp_dev *d, uint32_t i)
{
	if (i == 0)
		sp_reset_counters(d);
	d->readf[i] = 0;
	d->writec[i] = 0;
	d->minrd[i] = SP_NONE;
	d->wrongf[i] = 0;
	if (d->committed)
		d->committed[i] = d->args.A[i];
}

/*
 * Commit and recovery of a memory loop on the device (speculation/runtime.c
 * says when). Commit is SP_K_RESTORE: the wrong elements get back their
 * values in the committed copy, so the array holds the correct iterations'
 * writes over the committed state, which is what the host's commit makes.
 * Recovery re-executes the misspeculated iterations in dependence levels:
 * SP_K_TRACES packs each one's traces into a row (iteration, trace lengths,
 * elements read, elements written), the host assigns levels from the rows
 * in loop order (an iteration goes after every earlier one that writes what
 * it reads or writes, or reads what it writes) and writes the plan, and
 * SP_K_REPLAY runs the levels in order, the iterations of a level at once:
 * no two of them touch an element one of them writes, so any order within a
 * level is the sequential loop's. The misspeculated iterations touch nothing
 * the correct ones read or write after them (localization marks those), so
 * this is the in-order re-execution of section 5. It relies on an
 * iteration's accesses following from the inputs, not from the values read:
 * each re-execution is traced again and SP_C_UNSTABLE set when it touched an
 * element outside its rows, which the runtime reports as an error. The
 * clearing steps then copy what the assignment wrote into the committed copy.
 */
#define SP_ROW_WORDS(maxrd, maxwr) (3u + (maxrd) + (maxwr))

GB_HD void sp_k_traces(const sp_dev *d, uint32_t k)
{
	uint32_t i = d->mlist[k], j;
	uint32_t *row = d->rows + (uint64_t)k * SP_ROW_WORDS(d->maxrd, d->maxwr);
	row[0] = d->start + i;
	row[1] = d->nrd[i];
	row[2] = d->nwr[i];
	for (j = 0; j < d->maxrd; j++)
		row[3 + j] = j < d->nrd[i] ? d->rd[(uint64_t)i * d->maxrd + j] : SP_NONE;
	for (j = 0; j < d->maxwr; j++)
		row[3 + d->maxrd + j] = j < d->nwr[i] ? d->wr[(uint64_t)i * d->maxwr + j] : SP_NONE;
}

GB_HD void sp_k_restore(const sp_dev *d, uint32_t k)
{
	uint32_t e = d->wlist[k];
	d->args.A[e] = d->committed[e];
}

/* Re-execute the iteration of row k in order (sequential semantics), traced again. */
GB_HD void sp_replay_row(const sp_dev *d, uint32_t k)
{
	const uint32_t *row = d->rows + (uint64_t)k * SP_ROW_WORDS(d->maxrd, d->maxwr);
	uint32_t rd[SP_MAX_TRACE], wr[SP_MAX_TRACE], j, bad;
	sp_args a = d->args;
	sp_track t = sp_track_sequential();
	t.spec = 1;
	t.rd = rd;
	t.wr = wr;
	t.maxrd = t.maxwr = SP_MAX_TRACE;
	sp_body(&a, &t, row[0]);
	bad = t.overflow;
	for (j = 0; j < t.nrd; j++)
		bad |= !sp_row_has(row + 3, row[1], rd[j]);
	for (j = 0; j < t.nwr; j++)
		bad |= !sp_row_has(row + 3 + d->maxrd, row[2], wr[j]);
	if (bad)
		gb_st_relaxed_u32(&d->counters[SP_C_UNSTABLE], 1);
}

/* The plan: the number of levels L, L + 1 offsets, then the rows level by level. */
#if !defined(__CUDA_ARCH__)
/* The CPU backend runs the levels in order, each level's rows backwards: any order within a
 * level must give the sequential loop's result, and this one shows two dependent
 * iterations put on one level, which loop order would hide. */
static inline void sp_replay_in_order(const sp_dev *d)
{
	const uint32_t *plan = d->plan, levels = plan[0], *off = plan + 1, *list = plan + levels + 2;
	uint32_t l, t;
	for (l = 0; l < levels; l++)
		for (t = off[l + 1]; t > off[l]; t--)
			sp_replay_row(d, list[t - 1]);
}
#endif

/* The span of elements iterations i0..i1-1 of an SP_CF loop write: one span by the
 * regular mapping's contract (workloads/speculation/spec_bodies.h). */
GB_HD void sp_cf_span(const sp_args *a, uint32_t i0, uint32_t i1, uint32_t *lo, uint32_t *hi)
{
	uint32_t l[2], h[2], k, nr;
	*lo = 0xFFFFFFFFu;
	*hi = 0;
	nr = sp_cf_writes(a, i0, l, h);
	for (k = 0; k < nr; k++)
		*lo = l[k] < *lo ? l[k] : *lo;
	nr = sp_cf_writes(a, i1 - 1, l, h);
	for (k = 0; k < nr; k++)
		*hi = h[k] > *hi ? h[k] : *hi;
}

/* The next round of a batch: up to the schedule's size, none when the batch is over (its
 * budget spent, the loop done, or the size on the other kernel's side of SP_ROUND_MAX). */
GB_HD void sp_round_begin(sp_rounds *st, uint32_t n)
{
	uint32_t count = n - st->start < st->size ? n - st->start : st->size;
	if (st->start >= n || !st->left || (st->size > SP_ROUND_MAX) != (st->wide != 0))
		count = 0;
	st->count = count;
	st->all_from = SP_NONE;
}

/* Whether a round runs the lookahead's second hypothesis (st->lookahead is only set with
 * st->inplace): it fits one iteration a thread, so it is never a wide round. */
GB_HD int sp_round_lookahead(const sp_rounds *st)
{
	return st->lookahead && st->count <= SP_SCHED_FLOOR;
}

/* The lookahead's predicted scalars: the round's plus what the last branch added. */
GB_HD void sp_round_predict(const sp_rounds *st, float s[SP_NSCALARS])
{
	uint32_t k;
	for (k = 0; k < SP_NSCALARS; k++)
		s[k] = sp_fadd(st->s[k], st->delta[k]);
}

/*
 * Iteration j of the current round, speculatively: a branch lowers all_from. In an
 * SP_K_ROUNDS batch with st->inplace the branch's statements run on the iteration's own
 * scalars, and when it took one they are left in taken and 1 is returned. Hypothesis h = 1
 * (the lookahead) runs it on the predicted scalars into the shadow array and marks a branch
 * in bits instead of all_from.
 */
GB_HD int sp_round_compute(const sp_dev *d, sp_rounds *st, uint32_t j, uint32_t h,
			   float taken[SP_NSCALARS])
{
	sp_args a = d->args;
	sp_track t = sp_track_sequential();
	uint32_t marks = 0;
	t.spec = 1;
	t.inplace = st->inplace && !st->wide;
	t.misspec = d->misspec; /* never written: no item names single iterations */
	t.all_from = h ? NULL : &st->all_from; /* hypothesis 1 marks its branches in bits */
	t.marks = &marks;
	t.start = st->start;
	t.count = st->count;
	t.clause = &d->clause;
	if (h) {
		a.A = d->shadow;
		sp_round_predict(st, a.s);
	} else {
		sp_scalars_copy(a.s, st->s);
	}
	sp_body(&a, &t, st->start + j);
	if (t.took) {
		sp_scalars_copy(taken, a.s);
		if (h)
			gb_or_u32(&st->bits[j / 32u], 1u << (j % 32u));
	}
	return t.took;
}

/* The lookahead's copy: thread k of n puts the shadow's results of the accepted iterations into A. */
GB_HD void sp_round_copy(const sp_dev *d, const sp_rounds *st, uint32_t k, uint32_t n)
{
	uint32_t i, r, e;
	for (i = st->acc_lo + k; i < st->acc_hi; i += n) {
		uint32_t lo[2], hi[2], nr = sp_cf_writes(&d->args, i, lo, hi);
		for (r = 0; r < nr; r++)
			for (e = lo[r]; e < hi[r]; e++)
				d->args.A[e] = d->shadow[e];
	}
}

/* The lookahead's second hypothesis's first branching iteration after offset after, or count. */
GB_HD uint32_t sp_round_next_bit(const sp_rounds *st, uint32_t after)
{
	uint32_t j;
	for (j = after + 1; j < st->count; j++) {
		uint32_t w = st->bits[j / 32u] >> (j % 32u);
		if (!w) {
			j = (j / 32u) * 32u + 31u;
			continue;
		}
		j += (uint32_t)gb_ctz32(w);
		return j < st->count ? j : st->count;
	}
	return st->count;
}

/*
 * After every iteration of the round has run (one thread): keep the iterations before the
 * first branch, recover the branching one, hand the rest to the next round. Recovery
 * re-executes it in order, or, when it took its branch in place (taken: the scalars it
 * left), keeps what it did. With the lookahead (slots: the second hypothesis's scalars after
 * a branch, by iteration offset), when the scalars after the first branch are the predicted
 * ones bit for bit, the second hypothesis's iterations after it are the sequential loop's up
 * to its own first branch, which is kept too (its results are copied from the shadow array by
 * sp_round_copy), and the next round starts after it.
 */
GB_HD void sp_round_resolve(const sp_dev *d, sp_rounds *st, const float *taken,
			    const float (*slots)[SP_NSCALARS])
{
	uint32_t end = st->start + st->count, b = st->all_from, k;
	const int la = sp_round_lookahead(st) && taken && slots;
	st->acc_lo = st->acc_hi = 0;
	st->rounds++;
	st->left--;
	st->iterations += st->count;
	st->min_count = st->count < st->min_count ? st->count : st->min_count;
	st->max_count = st->count > st->max_count ? st->count : st->max_count;
	if (b == SP_NONE) {
		st->start = end;
		st->size = sp_sched_clean(st->size, st->count, st->grow, st->cap);
	} else {
		sp_args a = d->args;
		sp_track t = sp_track_sequential();
		float round_s[SP_NSCALARS], predicted[SP_NSCALARS];
		uint32_t lo, hi, last = b, next = b + 1;
		int held = la;
		st->branch_rounds++;
		if (st->lookahead) {
			sp_scalars_copy(round_s, st->s);
			sp_round_predict(st, predicted);
		}
		if (taken) {
			sp_scalars_copy(st->s, taken);
		} else {
			sp_scalars_copy(a.s, st->s);
			sp_body(&a, &t, b);
			sp_scalars_copy(st->s, a.s);
		}
		st->branches++;
		st->size = sp_sched_interval(&st->last_branch, &st->interval_sum, &st->intervals, b,
					     st->floor, st->cap);
		for (k = 0; st->lookahead && k < SP_NSCALARS; k++) {
			held &= sp_f2u(st->s[k]) == sp_f2u(predicted[k]);
			st->delta[k] = sp_fsub(st->s[k], round_s[k]);
		}
		if (held) {
			/* the second hypothesis ran on the right scalars from b + 1 on */
			const uint32_t b1 = sp_round_next_bit(st, b - st->start);
			st->acc_lo = b + 1;
			if (b1 < st->count) {
				last = st->start + b1;
				sp_scalars_copy(round_s, st->s);
				sp_scalars_copy(st->s, slots[b1]);
				for (k = 0; k < SP_NSCALARS; k++)
					st->delta[k] = sp_fsub(st->s[k], round_s[k]);
				st->branches++;
				st->size = sp_sched_interval(&st->last_branch, &st->interval_sum,
							     &st->intervals, last, st->floor, st->cap);
				next = last + 1;
			} else {
				last = SP_NONE;
				sp_scalars_copy(st->s, predicted);
				next = end;
			}
			st->acc_hi = next;
		}
		if (last != SP_NONE) {
			sp_cf_span(&d->args, last, end, &lo, &hi); /* not committed: last's range and the rest */
			st->wrong += hi - lo;
			st->misspeculated += end - last;
		}
		st->deferred += end - next;
		st->start = next;
	}
	for (k = 0; st->lookahead && k < SP_SCHED_FLOOR / 32u; k++)
		st->bits[k] = 0;
	sp_round_begin(st, d->args.n);
}

#if !defined(__CUDA_ARCH__)
/* Rounds in loop order on one thread (the CPU backend): all of a batch for SP_K_ROUNDS, the
 * current one for SP_K_WIDE; the same rounds as the GPU's, whose threads share each round's
 * iterations. The host begins a batch's first round (sp_round_begin) before it launches. */
static inline void sp_rounds_in_order(const sp_dev *d, int one)
{
	sp_rounds *st = d->rounds;
	float s[SP_NSCALARS], first[SP_NSCALARS], slots[SP_SCHED_FLOOR][SP_NSCALARS];
	uint32_t j;
	while (st->count) {
		const int la = sp_round_lookahead(st);
		int took = 0;
		for (j = 0; j < st->count; j++)
			if (sp_round_compute(d, st, j, 0, s) && !took) {
				sp_scalars_copy(first, s);
				took = 1;
			}
		for (j = 0; la && j < st->count; j++)
			if (sp_round_compute(d, st, j, 1, s))
				sp_scalars_copy(slots[j], s);
		sp_round_resolve(d, st, took ? first : NULL, la ? (const float(*)[SP_NSCALARS])slots : NULL);
		sp_round_copy(d, st, 0, 1);
		if (one)
			break;
	}
}
#endif

/* Thread i of step kernel. */
GB_HD void sp_kernel_run(const sp_dev *d, unsigned kernel, uint32_t i)
{
	switch (kernel) {
	case SP_K_COMPUTE: sp_k_compute(d, i); break;
	case SP_K_MARK: sp_k_mark(d, i); break;
	case SP_K_INTERSECT: sp_k_intersect(d, i); break;
	case SP_K_MINREAD: sp_k_minread(d, i); break;
	case SP_K_LOCALIZE: sp_k_localize(d, i); break;
	case SP_K_GATHER: sp_k_gather(d, i); break;
	case SP_K_CLEAR: sp_k_clear(d, i); break;
	case SP_K_RESET: sp_k_reset(d, i); break;
	case SP_K_SCATTER: d->args.A[d->sidx[i]] = d->sval[i]; break;
	case SP_K_TRACES: sp_k_traces(d, i); break;
	case SP_K_RESTORE: sp_k_restore(d, i); break;
	case SP_K_REPLAY_LEVEL: sp_replay_row(d, d->plan[d->start + i]); break;
#if !defined(__CUDA_ARCH__)
	case SP_K_REPLAY: sp_replay_in_order(d); break; /* the GPU has its own kernel */
	case SP_K_ROUNDS: sp_rounds_in_order(d, 0); break; /* the GPU has its own kernels */
	case SP_K_WIDE: sp_rounds_in_order(d, 1); break;
#endif
	default: {
		sp_args a = d->args;
		sp_track t = sp_track_sequential();
		sp_body(&a, &t, d->start + i);
	}
	}
}

#endif
