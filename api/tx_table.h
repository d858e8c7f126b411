/*
 * What an STM engine and a workload's transaction table share: the table as
 * the engines' schedulers see it (tx_table, GB_HD code on both backends), the
 * status word each entry gets, and the table as an engine's backend receives
 * it on the host (tx_input).
 *
 * A workload keeps its entries in its own type; an engine never reads one.
 * The scheduler asks the workload to copy entry i into a tx_entry (four
 * words, loaded one transaction ahead so the load's latency hides behind the
 * attempt before it) and hands that back to the workload's body. Only the
 * first word has a meaning fixed here: its bits 4-7 are the entry's priority
 * tag (TX_ENTRY_TAG), which PR-STM's semantic scheduler reads.
 */
#ifndef GB_API_TX_TABLE_H
#define GB_API_TX_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define TX_ENTRY_WORDS 4

typedef struct tx_entry {
	uint32_t w[TX_ENTRY_WORDS];
} tx_entry;

/* The programmer's priority tag of an entry, from its first word; higher runs first. */
#define TX_ENTRY_TAG(w0) (((w0) >> 4) & 0xFu)

/*
 * Bit 31 of the first word: the workload declares the entry read-only. A
 * multi-versioned engine (csmv) runs such an entry on its start snapshot with
 * no read set; the other engines ignore the bit.
 */
#define TX_ENTRY_READONLY (1u << 31)

/*
 * What an engine that runs declared read-only entries on a snapshot records of
 * each one it commits, TX_RESULT_WORDS words per entry: the snapshot (how many
 * update commits, in stamp order, it saw) and the value the body gave
 * TX_RESULT (api/tx.h). The oracle checks it against the serial replay at that
 * point.
 */
#define TX_RESULT_WORDS 2

/* Status words: 0 = not committed; read-only commit; update commit = its stamp + 1. */
#define TX_STATUS_PENDING 0u
#define TX_STATUS_READONLY 0xFFFFFFFFu
#define TX_STATUS_MAX_STAMP 0xFFFFFFFDu /* status = stamp + 1 */

/* The table as the schedulers see it, in the backend's memory. */
typedef struct tx_table {
	const void *entries;     /* the workload's entries, one per transaction, in its own type */
	const uint32_t *aux;     /* aux_stride more words per entry, for entries that need them */
	uint32_t aux_stride;
	uint32_t *status;        /* one word per entry, see TX_STATUS_*; commit counts in timed runs */
	uint32_t tx_per_thread;  /* thread t owns entries [t * tx_per_thread, (t + 1) * tx_per_thread) */
	uint32_t max_tag;        /* highest priority tag in the table */
	uint32_t ntx;            /* entries in the table: a block is cut short there, so a table need
				  * not fill every thread's block (blocks past it are empty) */
	uint32_t *results;       /* NULL, or TX_RESULT_WORDS per entry (an engine that records them) */
} tx_table;

/*
 * A percent of n, to the nearest whole: a table's read-only share (--read-only
 * P) of every thread's block, or with --read-only-threads of the threads (the
 * last ones, whose blocks hold nothing else), as every generator takes it.
 */
static inline uint64_t tx_percent_of(uint64_t n, uint32_t percent)
{
	return (n * percent + 50) / 100;
}

/*
 * The table and shared memory as a workload hands them to an engine's backend (host memory).
 * ntx may be less than threads x tx_per_thread: the last blocks are then short or empty
 * (kmeans and graph deal their stage's entries over the threads so).
 */
typedef struct tx_input {
	uint32_t words;          /* shared data words the transactions read and write */
	uint32_t max_words;      /* the most distinct words one transaction of the table touches */
	uint64_t ntx;
	uint32_t tx_per_thread;
	uint32_t max_tag;
	const void *entries;
	size_t entry_size;       /* bytes of one entry */
	const uint32_t *aux;     /* ntx * aux_stride words, or NULL */
	uint32_t aux_stride;
} tx_input;

#endif
