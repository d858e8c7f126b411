/*
 * The graph processing workload (Shen et al. section 4.8): a graph in
 * compressed sparse row form (per vertex its neighbours' count, the
 * neighbours' ids, and the vertices' values), whose values are lowered by
 * min-label propagation. The paper: 1 million vertices, 10 million edges,
 * values random from 1 to 10 000; "each transaction sends the value of a
 * source vertex to all its neighbours, and updates those vertexes if their
 * value is greater than the source vertex. Only vertexes updated will send
 * their values again".
 *
 * The graph is undirected: --edges edges between vertices drawn uniformly at
 * random (no self-loops; a pair may repeat), each stored in both directions,
 * so the CSR holds 2 x --edges neighbour ids. On an undirected graph the
 * propagation's fixpoint is known without running it: every vertex ends with
 * the minimum initial value of its connected component, which the generator
 * computes with a union-find over the edges (a different algorithm from the
 * one measured).
 *
 * Data words: vertex v's value at word v. A transaction of source vertex v
 * reads v's value and its neighbours' values, and lowers each neighbour whose
 * value is larger to v's: its read set is 1 + n words and its write set at
 * most 1 + n. A transaction that lowers a neighbour also writes v's value
 * back, unchanged. PR-STM validates the reads an update transaction does not
 * write before it takes its locks, and takes its commit stamp after
 * (stm/prstm/prstm.h), so a source read that is not written could be
 * overtaken by a commit that stamps earlier, and the stamp order would not
 * replay; written back, the source is locked at the value sent. A neighbour
 * read and left alone needs no such care: it was at most the source's value
 * when read, and values only fall.
 *
 * By default (--edges-per-tx 0, "all") a transaction sends to all its
 * source's neighbours, as the paper's does: one transaction per vertex, of 1
 * + its degree words. That needs sets of 1 + the graph's largest degree words,
 * which only generation tells: a graph whose largest degree is past what the
 * chosen engines' sets hold (graph_config.max_words; 64 on prstm and gpustm,
 * and the entry's count field holds 63 neighbours) is refused with a message
 * that names --edges-per-tx (the paper's 1 million vertices and 10 million
 * edges have degrees past 40, up to 46 at the default seed). --edges-per-tx N, our bounded variant, splits
 * a vertex's neighbours, in CSR order, over several transactions of at most N
 * each, so any graph runs. The split changes nothing in the outcome: a
 * vertex's transactions each send the value the vertex has when they run;
 * it changes the transaction (more, smaller ones: fewer conflicts each, less
 * work lost per abort).
 *
 * Rounds on the table model (workloads/stm/stm_workload.h, a staged workload):
 * one pass is the propagation to its fixpoint, each stage one round, a batch
 * over a table of its own:
 * - round 0 has the transactions of every vertex with a neighbour;
 * - round r + 1 has the transactions round r left uncommitted (gpustm gives
 *   one up at --retry-limit), first, and then those of every vertex whose
 *   value round r lowered (the host compares the data words with those the
 *   round started from);
 * - the pass ends when a round lowers nothing and leaves nothing
 *   uncommitted: the fixpoint. (It also ends after a round in which nothing
 *   committed, which the oracle then refuses.)
 * A round's entries are its vertices' transactions in vertex order, dealt
 * over --threads in blocks of ceil(entries / threads). Within a round a
 * vertex lowered early sends its new value in its own transactions later in
 * the round already; sending it again next round is harmless.
 *
 * No transaction is read-only by kind (section 4.9: a transaction is
 * read-only only when no neighbour is larger, which cannot be known before):
 * one that lowers nothing commits as read-only. --read-only, --presort and
 * --tx-per-thread are refused.
 */
#ifndef GB_GRAPH_H
#define GB_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

/* Neighbours one transaction may lower: what the entry's count field holds (PR-STM's sets of 64 hold
 * a source and 63 neighbours). */
#define GRAPH_MAX_EDGES_PER_TX 63u
/* Neighbours kept in the entry itself; the rest are in the table's aux words. */
#define GRAPH_ENTRY_NEIGHBOURS 2u
#define GRAPH_MAX_EDGES (1u << 30)

/* meta word: the neighbours of this transaction in bits 8-13 (the priority tag, bits 4-7, is 0) */
#define GRAPH_COUNT(meta) (((meta) >> 8) & 0x3Fu)
#define GRAPH_META(count) ((count) << 8)

/*
 * A transaction of vertex `src`: neighbours 0 and 1 are nb[0], nb[1];
 * neighbour j >= 2 is aux[i * aux_stride + j - 2] (aux_stride = the most
 * neighbours of a transaction - 2 when that is positive).
 */
typedef struct graph_entry {
	uint32_t meta;
	uint32_t src;
	uint32_t nb[GRAPH_ENTRY_NEIGHBOURS];
} graph_entry;

typedef struct graph_config {
	uint32_t vertices;
	uint64_t edges;        /* undirected; the CSR holds each twice */
	uint32_t edges_per_tx; /* 0: all of the source's neighbours (the paper); N: at most N (split) */
	uint32_t max_label;    /* values are drawn from 1..max_label */
	uint32_t threads;
	uint64_t seed;
	/* with edges_per_tx 0: the most words one transaction may touch on the engines that run it, and
	 * the engine (for the refusal); 0: 1 + GRAPH_MAX_EDGES_PER_TX */
	uint32_t max_words;
	const char *engine;
} graph_config;

typedef struct graph_workload {
	graph_config cfg;
	uint32_t *offset;       /* CSR: vertex v's neighbours are target[offset[v] .. offset[v + 1]) */
	uint32_t *target;
	uint32_t *label;        /* the initial values: the data words a pass starts from */
	uint32_t *expect;       /* each vertex's connected component's minimum value */
	uint32_t components;
	uint32_t largest_component;
	uint32_t max_degree;
	uint64_t round0_tx;     /* transactions of round 0: the table's capacity */
	uint32_t max_words;     /* 1 + the most neighbours of one transaction */
	uint32_t epx;           /* neighbours one transaction lowers at most: --edges-per-tx, or with 0
				 * (all) the largest degree */
	uint32_t split;         /* vertices whose neighbours span several transactions (0 with all) */
	uint32_t aux_stride;
	/* the pass in progress (stage) */
	uint32_t round;         /* the current round, from 0 */
	int stalled;            /* the pass ended after a round in which nothing committed */
	uint64_t queued;        /* vertices with transactions in the current round (at most) */
	uint32_t *prev;         /* the data words the current round started from */
	unsigned char *mark;
	graph_entry *tx;        /* the current round's table */
	uint32_t *aux;
	uint64_t ntx;
} graph_workload;

/* Build the graph, its values, the components' minima and round 0's table. Returns 0, or -1 with a
 * usage message in err. */
int graph_generate(graph_workload *w, const graph_config *cfg, char *err, size_t errlen);
void graph_free(graph_workload *w);
tx_input graph_input_of(const graph_workload *w);

/* The data words a pass starts from: every vertex's initial value. */
void graph_initial(const graph_workload *w, uint32_t *words);

/* The staged workload's step (workloads/stm/stm_workload.h, stage). */
uint32_t graph_stage(graph_workload *w, uint32_t s, uint32_t *words, const uint32_t *status);

/* Neighbour j of entry i, on both backends. */
GB_HD uint32_t graph_neighbour(const graph_entry *e, const uint32_t *aux, uint32_t aux_stride, uint32_t i,
			       uint32_t j)
{
	return j < GRAPH_ENTRY_NEIGHBOURS ? e->nb[j] : aux[(uint64_t)i * aux_stride + j - GRAPH_ENTRY_NEIGHBOURS];
}

/* The scheduler's copy of entry i (api/tx_table.h), and the entry back from it. */
GB_HD void graph_load_entry(const tx_table *t, uint32_t i, tx_entry *out)
{
	graph_entry e = ((const graph_entry *)t->entries)[i];
	out->w[0] = e.meta;
	out->w[1] = e.src;
	out->w[2] = e.nb[0];
	out->w[3] = e.nb[1];
}

GB_HD graph_entry graph_entry_of(const tx_entry *x)
{
	graph_entry e;
	e.meta = x->w[0];
	e.src = x->w[1];
	e.nb[0] = x->w[2];
	e.nb[1] = x->w[3];
	return e;
}

/* What the oracle found for one round or pass. */
typedef struct graph_check {
	int ok;
	char message[512];
	uint64_t committed_update, committed_readonly, abandoned;
	uint64_t lowered;       /* round: vertices it lowered; pass: vertices that end below their start */
} graph_check;

/*
 * Verify a round: `state` holds the data words before it and is advanced by
 * replaying the committed transactions that wrote (update commits) in stamp
 * order, each lowering its neighbours that are larger than its source in the
 * replay; the replay must equal `after` exactly and the stamps must be a
 * permutation of the update commits. Transactions that committed read-only
 * wrote nothing and have no stamp: the replay leaves them out.
 */
void graph_verify_batch(const graph_workload *w, uint32_t *state, const uint32_t *status, const uint32_t *after,
			graph_check *out);

/*
 * Verify a completed pass: every vertex's value equals its connected
 * component's minimum initial value (the fixpoint of min-label propagation on
 * an undirected graph).
 */
void graph_verify_pass(const graph_workload *w, const uint32_t *start, const uint32_t *outcome, graph_check *out);

#endif
