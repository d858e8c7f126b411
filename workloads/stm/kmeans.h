/*
 * The kmeans workload (Shen et al. section 4.6, after STAMP's kmeans): points
 * of two integer coordinates are grouped into K clusters over a few
 * iterations (the paper: about 1 million points, 16 clusters, at most 5
 * iterations). Each iteration has an assignment stage, which finds every
 * point's nearest centroid and needs no transaction ("in practice, the first
 * stage transactions are not required as there is no conflict"), and an
 * update stage, in which transactions add the points to their clusters'
 * sums: threads adding to the same cluster conflict. A transaction adds the
 * points of one cluster among a run of --points-per-tx consecutive points
 * (one transaction per cluster present in the run): by default a thread's
 * share of the points, ceil(points / threads), so each thread adds its
 * points cluster by cluster; with 1, one transaction per point, as STAMP's
 * kmeans does.
 *
 * Data words: cluster c's count of points at word 3c, its sum of x at 3c + 1
 * and its sum of y at 3c + 2. Coordinates lie in [0, KMEANS_COORD_RANGE), and
 * --points is capped so that a sum always fits its 32-bit word.
 *
 * Iterations on the table model (workloads/stm/stm_workload.h, a staged
 * workload): one pass is the whole k-means, each stage one batch:
 * - stage 0 is iteration 0's update stage: every point assigned to the
 *   nearest of the initial centroids (K distinct points drawn at random: "the
 *   initial clusters are selected randomly"), the sums starting from zero;
 * - after a stage in which every transaction committed, the host ends the
 *   iteration: it computes the new centroids from the sums the transactions
 *   left (a sum over the count, rounded to nearest; an empty cluster keeps its
 *   centroid), runs the next assignment stage, and the next stage is that
 *   iteration's update stage over every run of points, from zeroed sums. The pass
 *   ends after --iterations iterations, or earlier when an assignment stage
 *   moves no point (the sums would repeat: k-means has converged);
 * - a stage that left entries uncommitted (gpustm gives a transaction up at
 *   --retry-limit) is followed by a stage that runs just those entries again,
 *   from the sums as they are, so every iteration adds every point once.
 * The host does the assignment stages (outside the timed kernels, spread over
 * host threads when there are many clusters) because they have no
 * transactions to measure; the entries of an
 * update stage are the runs' transactions in point order, dealt over
 * --threads in blocks of ceil(entries / threads).
 *
 * No transaction is read-only (section 4.7: "there is no read-only thread")
 * and none meets a semantic conflict: --read-only, --presort and
 * --tx-per-thread are refused.
 */
#ifndef GB_KMEANS_H
#define GB_KMEANS_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

#define KMEANS_WORDS_PER_CLUSTER 3
#define KMEANS_COORD_RANGE 1024u
/* The most points whose coordinate sums fit a 32-bit word: points x (range - 1) <= 2^32 - 1. */
#define KMEANS_MAX_POINTS 4000000u
/* The most host threads an assignment stage takes on its own (kmeans_config.host_threads 0). */
#define KMEANS_MAX_HOST_THREADS 16u

/* An update transaction: add `count` points of sums (x, y) to the cluster whose words start at `base` (= 3c). */
typedef struct kmeans_entry {
	uint32_t meta; /* the count in bits 8-31 (priority tag, bits 4-7, 0) */
	uint32_t base;
	uint32_t x, y;
} kmeans_entry;

#define KMEANS_META(count) ((count) << 8)
#define KMEANS_COUNT(meta) ((meta) >> 8)

typedef struct kmeans_config {
	uint32_t points;
	uint32_t clusters;
	uint32_t iterations; /* at most */
	uint32_t points_per_tx; /* a run of points whose transactions add them by cluster; 0: ceil(points / threads) */
	uint32_t threads;
	uint64_t seed;
	uint32_t host_threads; /* the assignment stages' host threads; 0: by the work (kmeans.c, assign_threads) */
} kmeans_config;

typedef struct kmeans_workload {
	kmeans_config cfg;
	uint32_t words;           /* 3 x clusters */
	uint32_t run;             /* points per run (--points-per-tx resolved) */
	uint64_t capacity;        /* the most entries a stage can have */
	uint64_t iteration_tx;    /* entries of the last full update stage */
	uint64_t first_tx;        /* entries of the first update stage (the generator's) */
	uint32_t *x, *y;          /* the points */
	uint32_t *init_cx, *init_cy; /* the initial centroids */
	/* the serial k-means the pass must match (computed by the generator) */
	uint32_t ref_iterations;
	uint32_t *ref_sums;       /* the data words after its last update stage */
	uint64_t ref_moved;       /* points its last assignment stage moved (0: converged early) */
	/* the pass in progress (stage) */
	uint32_t *cx, *cy;        /* centroids of the current iteration's assignment */
	uint32_t *assign;         /* each point's cluster in the current iteration */
	uint32_t iteration;       /* the current iteration, from 0 */
	uint32_t reruns;          /* stages in this pass that ran given-up entries again */
	int stalled;              /* the pass ended after a stage in which nothing committed */
	uint64_t moved;           /* points the last assignment stage moved to another cluster */
	kmeans_entry *tx;         /* the current stage's table (room for `capacity` entries) */
	uint64_t *acc;            /* per cluster: a run's count, sums of x and y, while a table is built */
	uint64_t ntx;
} kmeans_workload;

/* Build the points, the initial centroids, the serial reference and stage 0's table. Returns 0, or
 * -1 with a usage message in err. */
int kmeans_generate(kmeans_workload *w, const kmeans_config *cfg, char *err, size_t errlen);
void kmeans_free(kmeans_workload *w);
/* Transactions a thread takes of a stage of ntx: ceil(ntx / threads), at least 1. */
uint32_t kmeans_tx_per_thread(const kmeans_workload *w, uint64_t ntx);
tx_input kmeans_input_of(const kmeans_workload *w);

/* The data words a pass starts from: every sum and count 0. */
void kmeans_initial(const kmeans_workload *w, uint32_t *words);

/* The staged workload's step (workloads/stm/stm_workload.h, stage). */
uint32_t kmeans_stage(kmeans_workload *w, uint32_t s, uint32_t *words, const uint32_t *status);

/* The nearest centroid of (x, y): squared distance, ties to the lower cluster. */
uint32_t kmeans_nearest(const uint32_t *cx, const uint32_t *cy, uint32_t k, uint32_t x, uint32_t y);

/* Centroids from the sums of data words: sum / count rounded to nearest; an empty cluster keeps its own. */
void kmeans_centroids(const uint32_t *words, uint32_t k, uint32_t *cx, uint32_t *cy);

/* The scheduler's copy of entry i (api/tx_table.h), and the entry back from it. */
GB_HD void kmeans_load_entry(const tx_table *t, uint32_t i, tx_entry *out)
{
	kmeans_entry e = ((const kmeans_entry *)t->entries)[i];
	out->w[0] = e.meta;
	out->w[1] = e.base;
	out->w[2] = e.x;
	out->w[3] = e.y;
}

GB_HD kmeans_entry kmeans_entry_of(const tx_entry *x)
{
	kmeans_entry e;
	e.meta = x->w[0];
	e.base = x->w[1];
	e.x = x->w[2];
	e.y = x->w[3];
	return e;
}

/* What the oracle found for one batch or pass. */
typedef struct kmeans_check {
	int ok;
	char message[512];
	uint64_t committed_update, committed_readonly, abandoned;
	uint64_t points_counted;    /* the counts summed over clusters, after the batch */
	uint64_t clusters_nonempty;
	double sse;                 /* pass: the sum of squared distances to the final centroids */
} kmeans_check;

/*
 * Verify a batch: `state` holds the data words before it and is advanced by
 * replaying the committed transactions in stamp order (each adds its points
 * to its cluster's count and sums); the replay must equal `after` exactly, the
 * stamps must be a permutation of the committed transactions, and none may
 * have committed read-only. The replay is the serial computation from the
 * stage's assignments: the sums of the points that committed.
 */
void kmeans_verify_batch(const kmeans_workload *w, uint32_t *state, const uint32_t *status,
			 const uint32_t *after, kmeans_check *out);

/*
 * Verify a completed pass: as many iterations as the serial k-means, and the
 * final counts and sums equal to its own (every point added once, to the
 * cluster the serial k-means puts it in).
 */
void kmeans_verify_pass(const kmeans_workload *w, const uint32_t *start, const uint32_t *outcome,
			kmeans_check *out);

#endif
