/*
 * The memcached workload (Nunes et al. section V, after MemcachedGPU): an
 * n-way set-associative cache with LRU replacement, read by GETs (read-only
 * transactions) and written by SETs (update transactions), keys drawn from a
 * zipfian popularity, 99.8% GETs by default.
 *
 * Keys are KW = --key-words words and values VW = --value-words words: the
 * paper's 16-byte keys and 32-byte values are KW 4 and VW 8, the default; KW 1
 * and VW 1 is the compact layout, which every engine runs. A key's first word
 * is its id k (0..keys-1) stored as k + 1, so 0 marks an empty way; its other
 * words are derived from the first (memcached_key_word), so a set's keys are
 * distinct by their first words and a GET still compares whole keys. A key's
 * set is a hash of its id (memcached_set_of). A SET draws a nonzero first
 * value word; the others are derived from it (memcached_value_word). A GET's
 * result is 0 for a miss, else the digest of the value's VW words
 * (memcached_digest_step, memcached_digest_end; the value itself when VW is
 * 1), never 0.
 *
 * Data words, set s at word s x (W (KW + VW + 1) + 1) for W = --ways:
 *   +0                                  the set's clock: how many SETs it has taken
 *   +1 + j KW .. + KW - 1               way j's key (first word 0: empty)
 *   +1 + W KW + j VW .. + VW - 1        way j's value (0 while empty)
 *   +1 + W (KW + VW) + j                way j's stamp: the clock of the SET that last wrote it (0: empty)
 *
 * LRU is kept by SETs only: a GET that hits does not refresh its way, so GETs
 * stay read-only (their transactions write nothing). A SET of key k:
 *   - reads the clock transactionally (and writes clock + 1), then reads the
 *     set's keys and stamps outside its read set (TX_PEEK);
 *   - a way holding k (all KW words equal) is a hit: the SET replaces its value;
 *   - else the victim is the way of the smallest stamp (an empty way first,
 *     the lowest index among equals): the SET puts k there, evicting its key;
 *   - it writes the way's key, value and stamp (clock + 1) and the clock:
 *     KW + VW + 2 words (14 in the paper's layout, 4 in the compact one).
 * Every SET of a set reads and writes its clock, so the SETs of one set are
 * serialized by the engine on that word; workloads/stm/memcached_body.h argues
 * why the peeks then see the set as of the SET's commit point. A GET reads
 * the whole key of each way until one equals its key, and that way's value:
 * up to W KW + VW words.
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
#define MEMCACHED_MAX_KEY_WORDS 4u   /* the paper's 16-byte keys */
#define MEMCACHED_MAX_VALUE_WORDS 8u /* the paper's 32-byte values */

/*
 * meta word: the operation in bits 0-3, the ways in bits 8-16, the key's words
 * less one in bits 17-18 and the value's less one in bits 19-21,
 * TX_ENTRY_READONLY on GETs
 */
#define MEMCACHED_OP(meta) ((meta) & 0xFu)
#define MEMCACHED_WAYS(meta) (((meta) >> 8) & 0x1FFu)
#define MEMCACHED_KEY_WORDS(meta) ((((meta) >> 17) & 0x3u) + 1u)
#define MEMCACHED_VALUE_WORDS(meta) ((((meta) >> 19) & 0x7u) + 1u)
#define MEMCACHED_META(op, ways, kw, vw) \
	((op) | (ways) << 8 | ((kw) - 1u) << 17 | ((vw) - 1u) << 19 | ((op) == MEMCACHED_GET ? TX_ENTRY_READONLY : 0u))

/* The words a set takes, and those one SET writes: its way's key, value and stamp, and the clock. */
#define MEMCACHED_STRIDE(ways, kw, vw) ((ways) * ((kw) + (vw) + 1u) + 1u)
#define MEMCACHED_SET_WORDS(kw, vw) ((kw) + (vw) + 2u)

/* Word i (0..KW-1) of the key whose first word is k1: word 0 is k1 itself, the others derived from it. */
GB_HD uint32_t memcached_key_word(uint32_t k1, uint32_t i)
{
	uint32_t x = k1 * 0x9E3779B1u + i * 0x85EBCA77u;
	if (i == 0)
		return k1;
	x ^= x >> 15;
	x *= 0x2C1B3C6Du;
	x ^= x >> 12;
	return x;
}

/* Word i (0..VW-1) of the value whose first word is v0: word 0 is v0 itself, the others derived from it. */
GB_HD uint32_t memcached_value_word(uint32_t v0, uint32_t i)
{
	return i == 0 ? v0 : memcached_key_word(v0 ^ 0xA5A5A5A5u, i + 8u);
}

/* A GET's result for a hit: the digest of the value's words, folded one word at a time from h = 0. */
GB_HD uint32_t memcached_digest_step(uint32_t h, uint32_t i, uint32_t word)
{
	return i == 0 ? word : (h ^ word) * 16777619u;
}
/* never 0 (a miss); with one value word, the value (whose first word is never 0) */
GB_HD uint32_t memcached_digest_end(uint32_t h)
{
	return h ? h : 1u;
}

/* a = the set's first word (its clock), b = the key's first word (id + 1), c = the SET's first value word */
typedef struct memcached_entry {
	uint32_t meta;
	uint32_t a, b, c;
} memcached_entry;

typedef struct memcached_config {
	uint32_t items; /* capacity asked for; the cache holds items / ways sets of --ways */
	uint32_t ways;
	uint32_t key_words, value_words; /* 1..MEMCACHED_MAX_KEY_WORDS, 1..MEMCACHED_MAX_VALUE_WORDS */
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
	uint32_t stride;  /* words per set: ways x (key_words + value_words + 1) + 1 */
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
 * in every set, keys distinct, whole and of that set, an empty way with key,
 * value and stamp 0, an occupied one with a whole nonzero value and a stamp in
 * 1..clock, the stamps of occupied ways distinct (a strict LRU order).
 */
void memcached_verify_batch(const memcached_workload *w, uint32_t *state, const uint32_t *status,
			    const uint32_t *after, memcached_check *out);

/*
 * The GETs' results an engine recorded (TX_RESULT_WORDS per entry: the
 * snapshot, then the value's digest or 0 for a miss) against the replay from `before`
 * at their snapshots; at most `sample` of them. Returns how many it checked.
 */
uint64_t memcached_verify_snapshots(const memcached_workload *w, const uint32_t *before, const uint32_t *status,
				    const uint32_t *results, uint64_t sample, memcached_check *out);

#endif
