/*
 * The skiplist workload (Shen et al. sections 4.4-4.5): a set of keys kept
 * as a skip list in the shared data words, and a table of insert, delete and
 * lookup (read-only) transactions. The paper: an initial 5000 entries, memory
 * for 10 million, at most 5 levels; "the application cannot attempt to insert
 * a duplicate entry or remove a non-existent one", so semantic conflicts do
 * not apply.
 *
 * Data words: node n of the pool occupies words [n x S, (n + 1) x S), S =
 * levels + 1: a header (the key in bits 0-27, height - 1 in bits 28-31),
 * then its next pointer at each level. Node 0 is the head: key 0, height
 * --levels, never removed. A next pointer is a node index, SKIPLIST_NIL for
 * the end of a level, and carries SKIPLIST_MARK while its node is not in the
 * list. The invariant the bodies rely on: a node of height h is in the list
 * (linked on every level below h) exactly when its next pointers below h are
 * unmarked. Words of levels at or above a node's height are 0 and never
 * change, and headers are never written by a transaction, so a key read
 * outside the transaction is always right.
 *
 * Node allocation needs no transaction: the generator gives every insert
 * entry its own node of the pool (nodes 1..--initial-keys hold the initial
 * keys, the insert entries' nodes follow), with its key and height in the
 * header from the start. An insert links its node; a delete unlinks the node
 * that holds its key and marks it. Nodes are never freed within a table; an
 * insert entry that runs again (the next batch, the next round) links its
 * node again, which the delete of its key before it has unlinked.
 *
 * Generation (every transaction valid in every serial order that keeps each
 * thread's program order, so no semantic conflict can arise):
 * - keys are 1..--key-range; --initial-keys of them, drawn at random, are in
 *   the list at the start, each node with a random height (geometric, p =
 *   1/2, at most --levels);
 * - every key belongs to one thread (the keys are shuffled and dealt round
 *   robin), and only its owner inserts or deletes it. An update of a thread's
 *   block toggles one of its keys: delete when the key is in the list at that
 *   point of the block, insert otherwise. Each key is toggled an even number
 *   of times per block (pairs of toggles, in random order), so a block nets
 *   to zero: after it every key is in the list exactly when it was before,
 *   which batches back to back and timed rounds rely on. Inserts and deletes
 *   are therefore half each of the updates;
 * - --read-only percent of each block are lookups of keys drawn from the
 *   whole range (present or not), or with read_only_threads that share of
 *   the threads, the last ones, run lookups only and own no key (the keys are
 *   dealt over the others); a thread that owns no key (more threads than
 *   keys) runs lookups only. An odd number of updates gives one more lookup;
 * - --presort changes nothing: each key's updates are already in program
 *   order in one block.
 * An insert of a key in the list or a delete of a key not in it can then
 * only meet a state that differs from program order (an engine that gave an
 * earlier entry up): it returns TX_BODY_SEMANTIC (postponed by prstm, retried
 * by gpustm up to --retry-limit) and never commits, and the oracle replays
 * each committed update at its stamp requiring exactly that.
 * Every entry has priority tag 0.
 */
#ifndef GB_SKIPLIST_H
#define GB_SKIPLIST_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

enum skiplist_op {
	SKIPLIST_INSERT = 0,
	SKIPLIST_DELETE = 1,
	SKIPLIST_LOOKUP = 2, /* read-only */
	SKIPLIST_NOPS
};

#define SKIPLIST_MAX_LEVELS 16u
#define SKIPLIST_MAX_KEY ((1u << 24) - 1u)  /* --key-range's top */
#define SKIPLIST_KEY_MASK 0x0FFFFFFFu
#define SKIPLIST_HEAD 0u
#define SKIPLIST_MARK 0x80000000u
#define SKIPLIST_NIL 0x7FFFFFFFu

/* A node's header word, and its key and height back. */
#define SKIPLIST_HEADER(key, height) ((uint32_t)(key) | ((uint32_t)((height) - 1u) << 28))
#define SKIPLIST_KEY(header) ((header) & SKIPLIST_KEY_MASK)
#define SKIPLIST_HEIGHT(header) (((header) >> 28) + 1u)

/* meta word: the operation in bits 0-3 (the priority tag, bits 4-7, is 0), the list's levels in bits
 * 8-15, an insert's node height in bits 16-23 */
#define SKIPLIST_META(op, levels, height) \
	((uint32_t)(op) | ((uint32_t)(levels) << 8) | ((uint32_t)(height) << 16))
#define SKIPLIST_OP(meta) ((meta) & 0xFu)
#define SKIPLIST_LEVELS(meta) (((meta) >> 8) & 0xFFu)
#define SKIPLIST_ENTRY_HEIGHT(meta) (((meta) >> 16) & 0xFFu)

/*
 * insert: key, node = its node; delete: key (the node is whichever holds it);
 * lookup: key. nodes: the pool's size, so a pointer at or past it is the end.
 */
typedef struct skiplist_entry {
	uint32_t meta;
	uint32_t key;
	uint32_t node;
	uint32_t nodes;
} skiplist_entry;

/* The word of node n's header, and of its next pointer at level l, with S words per node. */
GB_HD uint32_t skiplist_header_word(uint32_t n, uint32_t stride) { return n * stride; }
GB_HD uint32_t skiplist_next_word(uint32_t n, uint32_t l, uint32_t stride) { return n * stride + 1u + l; }

typedef struct skiplist_config {
	uint32_t initial_keys;
	uint32_t key_range; /* keys are 1..key_range */
	uint32_t capacity;  /* nodes of the pool, the head included */
	uint32_t levels;
	uint32_t threads;
	uint32_t tx_per_thread;
	uint32_t read_only; /* percent of lookups */
	int read_only_threads; /* that share as whole threads, the last ones (else of every block) */
	int presort;        /* recorded; changes nothing (see above) */
	uint64_t seed;
} skiplist_config;

typedef struct skiplist_workload {
	skiplist_config cfg;
	skiplist_entry *tx;
	uint64_t ntx;
	uint32_t stride;       /* words per node: levels + 1 */
	uint32_t words;        /* capacity x stride */
	uint32_t nodes_used;   /* head + initial keys + insert entries */
	uint32_t *header;      /* header word of each used node */
	uint32_t max_height;   /* tallest node but the head */
	uint32_t owners;       /* threads that own at least one key */
	uint32_t update_threads; /* threads the keys are dealt over: all but --read-only-threads' */
	uint64_t count[SKIPLIST_NOPS];
} skiplist_workload;

/* Build the table. Returns 0, or -1 with a usage message in err (sizes that cannot work). */
int skiplist_generate(skiplist_workload *w, const skiplist_config *cfg, char *err, size_t errlen);
void skiplist_free(skiplist_workload *w);
tx_input skiplist_input_of(const skiplist_workload *w);
const char *skiplist_op_name(unsigned op);

/* The data words before any transaction: the initial keys linked, every other used node marked. */
void skiplist_initial(const skiplist_workload *w, uint32_t *words);

/* The scheduler's copy of entry i (api/tx_table.h), and the entry back from it. */
GB_HD void skiplist_load_entry(const tx_table *t, uint32_t i, tx_entry *out)
{
	skiplist_entry e = ((const skiplist_entry *)t->entries)[i];
	out->w[0] = e.meta;
	out->w[1] = e.key;
	out->w[2] = e.node;
	out->w[3] = e.nodes;
}

GB_HD skiplist_entry skiplist_entry_of(const tx_entry *x)
{
	skiplist_entry e;
	e.meta = x->w[0];
	e.key = x->w[1];
	e.node = x->w[2];
	e.nodes = x->w[3];
	return e;
}

/* What the oracle found. */
typedef struct skiplist_check {
	int ok;
	char message[512];
	uint64_t committed_update, committed_readonly, abandoned;
	uint64_t keys;       /* keys in the list after the batch or run */
	uint64_t top_level;  /* highest level with a node on it, + 1 (0: empty list) */
} skiplist_check;

/*
 * Check that `words` hold a well-formed skip list: every level is sorted
 * by key from the head, holds only nodes taller than it and is exactly the
 * nodes of the level below that are taller than it (so a subset of it);
 * live nodes' next pointers below their height are unmarked, every other
 * used node's are marked, and words at or above a node's height are 0.
 * 0, or -1 with the first offence in out->message; fills keys and top_level.
 */
int skiplist_check_structure(const skiplist_workload *w, const uint32_t *words, skiplist_check *out);

/*
 * Verify a batch: `state` holds the data words before it (a well-formed
 * list) and is advanced to the state after it by a serial skip list of the
 * oracle's own, applying the committed inserts and deletes in stamp order and
 * requiring each to have been possible there (an insert's key absent and its
 * node unlinked, a delete's key present). `after` must be well formed
 * (skiplist_check_structure), hold exactly the replay's keys in the replay's
 * nodes, and equal the replay word for word (the marked pointers of deleted
 * nodes included).
 */
void skiplist_verify_batch(const skiplist_workload *w, uint32_t *state, const uint32_t *status,
			   const uint32_t *after, skiplist_check *out);

/*
 * Verify a timed run of rounds, where entry i committed counts[i] times
 * (lookups included). Each key is updated by one thread only, in its block's
 * order, so each thread's counts must be r + 1 over a prefix of its block and
 * r over the rest; a block nets to zero, so the final list is the start's
 * with, per thread, one full block (if r >= 1) and then that prefix applied
 * to its keys. `after` must be well formed and hold exactly those keys in
 * exactly those nodes. The order between threads is not recorded, so the
 * marked pointers of deleted nodes are checked for their mark only.
 */
void skiplist_verify_counts(const skiplist_workload *w, const uint32_t *start, const uint32_t *counts,
			    const uint32_t *after, skiplist_check *out);

#endif
