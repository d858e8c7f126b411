/*
 * The memcached workload (Nunes et al. section V, after MemcachedGPU): an
 * n-way set-associative cache with LRU replacement, read by GETs (read-only
 * transactions) and written by SETs (update transactions), keys drawn from a
 * zipfian popularity, 99.8% GETs by default.
 *
 * Keys and values are one 32-bit word each: a key is its id k (0..keys-1)
 * stored as k + 1, so 0 marks an empty way; a key's set is a hash of its id
 * (memcached_set_of); a value is a word in 1..2^32-1, so a GET's result 0
 * means a miss. The paper's 16-byte keys and 32-byte values are so many bytes
 * of the same key and value; only their identity matters to the cache.
 *
 * Data words, set s at word s x (3W + 1) for W = --ways:
 *   +0               the set's clock: how many SETs it has taken
 *   +1 .. +W         way j's key (0: empty)
 *   +1+W .. +2W      way j's value (0 while empty)
 *   +1+2W .. +3W     way j's stamp: the clock of the SET that last wrote it (0: empty)
 *
 * LRU is kept by SETs only: a GET that hits does not refresh its way, so GETs
 * stay read-only (their transactions write nothing). A SET of key k:
 *   - reads the clock transactionally (and writes clock + 1), then reads the
 *     set's keys and stamps outside its read set (TX_PEEK);
 *   - a way holding k is a hit: the SET replaces its value;
 *   - else the victim is the way of the smallest stamp (an empty way first,
 *     the lowest index among equals): the SET puts k there, evicting its key;
 *   - it writes the way's key, value and stamp (clock + 1) and the clock:
 *     the paper's four writes of an update.
 * Every SET of a set reads and writes its clock, so the SETs of one set are
 * serialized by the engine on that word; workloads/stm/memcached_body.h argues
 * why the peeks then see the set as of the SET's commit point. So a SET
 * touches 4 words, whatever the ways; a GET reads the keys until it finds
 * its key, and the value of the way that holds it: up to W + 1 words.
 *
 * Initial cache: keys are inserted by increasing id (the most popular first)
 * into their sets until each set is full or the key space ends, each one a
 * SET of the set's clock, so the cache starts warm with the hottest keys.
 *
 * Generation: each entry is a SET with probability --set-permille / 1000,
 * else a GET; its key is drawn from the zipfian distribution over the key
 * space, P(k) proportional to 1 / (k + 1)^alpha (--zipf). A SET's value is
 * a fresh nonzero word.
 */
#ifndef GB_MEMCACHED_H
#define GB_MEMCACHED_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

enum memcached_op { MEMCACHED_GET = 0, MEMCACHED_SET = 1, MEMCACHED_NOPS };

#define MEMCACHED_MIN_WAYS 4u
#define MEMCACHED_MAX_WAYS 256u
/* the words one SET touches: the clock and its way's key, value and stamp */
#define MEMCACHED_SET_WORDS 4u

/* meta word: the operation in bits 0-3, the ways in bits 8-16, TX_ENTRY_READONLY on GETs */
#define MEMCACHED_OP(meta) ((meta) & 0xFu)
#define MEMCACHED_WAYS(meta) (((meta) >> 8) & 0x1FFu)

/* a = the set's first word (its clock), b = the key word (id + 1), c = the SET's value */
typedef struct memcached_entry {
	uint32_t meta;
	uint32_t a, b, c;
} memcached_entry;

typedef struct memcached_config {
	uint32_t items; /* capacity asked for; the cache holds items / ways sets of --ways */
	uint32_t ways;
	uint32_t keys;  /* key space */
	double zipf;    /* alpha of the key popularity */
	uint32_t set_permille;
	uint32_t threads;
	uint32_t tx_per_thread;
	uint64_t seed;
} memcached_config;

typedef struct memcached_workload {
	memcached_config cfg;
	memcached_entry *tx;
	uint64_t ntx;
	uint32_t sets;
	uint32_t stride;  /* words per set: 3 x ways + 1 */
	uint32_t words;
	uint32_t *start;  /* the initial cache */
	uint64_t count[MEMCACHED_NOPS];
	uint64_t distinct_keys; /* distinct keys the table asks for */
} memcached_workload;

/* The set of key id k among `sets`. */
uint32_t memcached_set_of(uint32_t k, uint32_t sets);

int memcached_generate(memcached_workload *w, const memcached_config *cfg, char *err, size_t errlen);
void memcached_free(memcached_workload *w);
tx_input memcached_input_of(const memcached_workload *w);
void memcached_initial(const memcached_workload *w, uint32_t *words);

/* Sample a key id of the zipfian distribution from a uniform u in [0, 1): the generator's draw. */
typedef struct memcached_zipf {
	double *cdf; /* cdf[k] = P(key <= k) */
	uint32_t n;
} memcached_zipf;
void memcached_zipf_init(memcached_zipf *z, uint32_t n, double alpha);
uint32_t memcached_zipf_draw(const memcached_zipf *z, double u);
void memcached_zipf_free(memcached_zipf *z);

GB_HD void memcached_load_entry(const tx_table *t, uint32_t i, tx_entry *out)
{
	memcached_entry e = ((const memcached_entry *)t->entries)[i];
	out->w[0] = e.meta;
	out->w[1] = e.a;
	out->w[2] = e.b;
	out->w[3] = e.c;
}

GB_HD memcached_entry memcached_entry_of(const tx_entry *x)
{
	memcached_entry e;
	e.meta = x->w[0];
	e.a = x->w[1];
	e.b = x->w[2];
	e.c = x->w[3];
	return e;
}

typedef struct memcached_check {
	int ok;
	char message[512];
	uint64_t committed_update, committed_readonly, abandoned;
	uint64_t items;     /* occupied ways after the batch */
	uint64_t evictions; /* SETs of the replay that evicted a key */
} memcached_check;

/*
 * Verify a batch: `state` (the cache before it) is advanced by replaying the
 * committed SETs in stamp order (GETs must have committed read-only, SETs
 * with a stamp), and must equal `after`; `after` must be a consistent cache:
 * in every set, keys distinct and of that set, an empty way with value and
 * stamp 0, an occupied one with a nonzero value and a stamp in 1..clock, the
 * stamps of occupied ways distinct (a strict LRU order).
 */
void memcached_verify_batch(const memcached_workload *w, uint32_t *state, const uint32_t *status,
			    const uint32_t *after, memcached_check *out);

/*
 * The GETs' results an engine recorded (TX_RESULT_WORDS per entry: the
 * snapshot, then the value or 0 for a miss) against the replay from `before`
 * at their snapshots; at most `sample` of them. Returns how many it checked.
 */
uint64_t memcached_verify_snapshots(const memcached_workload *w, const uint32_t *before, const uint32_t *status,
				    const uint32_t *results, uint64_t sample, memcached_check *out);

#endif
