/*
 * The skiplist workload (workloads/stm/skiplist.h) as a workload of `gpubench
 * stm`: its options, and its generator and oracle behind the registry's
 * interface (workloads/stm/stm_workload.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/report.h"
#include "workloads/stm/skiplist.h"
#include "workloads/stm/stm_workload.h"

typedef struct skiplist_opts {
	uint64_t initial_keys, key_range, capacity, levels;
} skiplist_opts;

_Static_assert(sizeof(skiplist_opts) <= STM_WORKLOAD_OPTS_MAX, "skiplist_opts fits stm's area");

#define AT(field) offsetof(skiplist_opts, field)

static const gb_opt_row rows[] = {
	{.name = "initial-keys", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = SKIPLIST_MAX_KEY,
	 .def = "5000", .offset = AT(initial_keys),
	 .help = "skiplist: keys in the list at the start, drawn at random from the key range (the paper: "
		 "5000)"},
	{.name = "key-range", .kind = GB_OPT_UINT, .metavar = "R", .lo = 0, .hi = SKIPLIST_MAX_KEY, .def = "0",
	 .offset = AT(key_range),
	 .help = "skiplist: keys are 1..R; each belongs to one thread (dealt at random), the only one that "
		 "inserts and deletes it, while lookups draw from all of them; 0: twice --initial-keys, so "
		 "about half the keys are in the list at any time"},
	{.name = "capacity", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = 1u << 26, .def = "10000000",
	 .offset = AT(capacity),
	 .help = "skiplist: nodes of the preallocated pool, the head included; every insert of the table "
		 "has its own node (the paper: room for 10 million entries)"},
	{.name = "levels", .kind = GB_OPT_UINT, .metavar = "L", .lo = 1, .hi = SKIPLIST_MAX_LEVELS, .def = "5",
	 .offset = AT(levels),
	 .help = "skiplist: levels of the list, the height of the tallest node (heights are geometric, p = "
		 "1/2); an update touches up to 2L words (the paper: 5)"},
};

/* --key-range as it applies: 0 is twice --initial-keys (at least 1, at most the top of the range). */
static uint32_t key_range_of(const skiplist_opts *o)
{
	uint64_t r = o->key_range ? o->key_range : 2 * o->initial_keys;
	if (r < 1)
		r = 1;
	return r > SKIPLIST_MAX_KEY ? SKIPLIST_MAX_KEY : (uint32_t)r;
}

static uint32_t words(const void *opts)
{
	const skiplist_opts *o = opts;
	uint64_t n = o->capacity * (o->levels + 1);
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* An insert or delete of a node of height h touches 2h words: its predecessors' and its own pointers. */
static uint32_t max_set(const void *opts)
{
	return 2 * (uint32_t)((const skiplist_opts *)opts)->levels;
}

/*
 * Per node: the three host copies and the engine's data and lock words, the
 * header copy and the checks' liveness byte; per key: the oracle's key sets
 * (a bit per level, with summaries) and node maps, the generator's
 * permutation; per transaction the entry, its status (engine and host) and
 * the replay order.
 */
static unsigned memory(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
		       gb_memory_term device[STM_MEMORY_TERMS])
{
	const skiplist_opts *o = opts;
	uint64_t stride = o->levels + 1, per_tx = sizeof(skiplist_entry) + 2 * sizeof(uint32_t) + sizeof(uint64_t);

	host[0] = (gb_memory_term){.opt = "capacity", .value = o->capacity,
				   .bytes_each = 3 * stride * sizeof(uint32_t) + 5};
	host[1] = (gb_memory_term){.opt = "key-range", .value = key_range_of(o),
				   .bytes_each = (o->levels + 2) / 8 + 1 + 4 * sizeof(uint32_t)};
	host[2] = (gb_memory_term){.opt = "threads", .value = c->threads, .bytes_each = per_tx,
				   .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	device[0] = (gb_memory_term){.opt = "capacity", .value = o->capacity,
				     .bytes_each = 2 * stride * sizeof(uint32_t)};
	device[1] = (gb_memory_term){.opt = "threads", .value = c->threads,
				     .bytes_each = (sizeof(skiplist_entry) + sizeof(uint32_t)),
				     .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	device[2] = (gb_memory_term){.opt = "key-range", .value = key_range_of(o), .bytes_each = 0};
	return 3;
}

static void *generate(const void *opts, const stm_table_cfg *c, char *err, size_t errlen)
{
	const skiplist_opts *o = opts;
	skiplist_workload *w = gb_xcalloc(1, sizeof(*w), "skiplist workload");
	skiplist_config sc = {
		.initial_keys = (uint32_t)o->initial_keys,
		.key_range = key_range_of(o),
		.capacity = (uint32_t)o->capacity,
		.levels = (uint32_t)o->levels,
		.threads = c->threads,
		.tx_per_thread = c->tx_per_thread,
		.read_only = c->read_only,
		.read_only_threads = c->read_only_threads,
		.presort = c->presort,
		.seed = c->seed,
	};

	if (skiplist_generate(w, &sc, err, errlen) != 0) {
		free(w);
		return NULL;
	}
	if (w->owners < w->update_threads)
		gb_note("note: skiplist: --key-range %u < %u threads that may update (--threads %u%s): %u threads "
			"own no key and run lookups only", sc.key_range, w->update_threads, sc.threads,
			w->update_threads < sc.threads ? " less --read-only-threads'" : "",
			w->update_threads - w->owners);
	return w;
}

static void release(void *inst)
{
	skiplist_free(inst);
	free(inst);
}

static tx_input input(const void *inst)
{
	return skiplist_input_of(inst);
}

static void initial(const void *inst, uint32_t *words_out)
{
	skiplist_initial(inst, words_out);
}

/* A block nets to zero and nodes are reused, not allocated: rounds never outgrow anything. */
static int rounds_fit(const void *inst)
{
	(void)inst;
	return 1;
}

static void to_stm_check(const skiplist_check *v, stm_check *out)
{
	snprintf(out->message, sizeof(out->message), "%s", v->message);
	out->ok = v->ok;
	out->committed_update = v->committed_update;
	out->committed_readonly = v->committed_readonly;
	out->abandoned = v->abandoned;
	out->facts[0] = (stm_fact){"keys", (double)v->keys};
	out->facts[1] = (stm_fact){"top_level", (double)v->top_level};
	out->nfacts = 2;
}

static void verify_batch(const void *inst, uint32_t *state, const uint32_t *status, const uint32_t *after,
			 stm_check *out)
{
	skiplist_check v;
	skiplist_verify_batch(inst, state, status, after, &v);
	to_stm_check(&v, out);
}

static void verify_counts(const void *inst, const uint32_t *start, const uint32_t *counts, const uint32_t *after,
			  stm_check *out)
{
	skiplist_check v;
	skiplist_verify_counts(inst, start, counts, after, &v);
	to_stm_check(&v, out);
}

static void config(const void *inst, cJSON *cfg)
{
	const skiplist_workload *w = inst;
	cJSON *v = cJSON_AddObjectToObject(cfg, "skiplist");

	gb_json_u64(v, "initial_keys", w->cfg.initial_keys);
	gb_json_u64(v, "key_range", w->cfg.key_range);
	gb_json_u64(v, "capacity", w->cfg.capacity);
	gb_json_u64(v, "levels", w->cfg.levels);
	gb_json_u64(v, "tx_per_thread", w->cfg.tx_per_thread);
	gb_json_u64(v, "read_only", w->cfg.read_only);
	gb_json_u64(v, "read_only_thread_count", w->cfg.threads - w->update_threads);
	gb_json_bool(v, "presort", w->cfg.presort);
	gb_json_u64(v, "seed", w->cfg.seed);
	gb_json_u64(v, "transactions", w->ntx);
	gb_json_u64(v, "inserts", w->count[SKIPLIST_INSERT]);
	gb_json_u64(v, "deletes", w->count[SKIPLIST_DELETE]);
	gb_json_u64(v, "lookups", w->count[SKIPLIST_LOOKUP]);
	gb_json_u64(v, "key_owners", w->owners);
	gb_json_u64(v, "nodes_used", w->nodes_used);
	gb_json_u64(v, "max_height", w->max_height);
	gb_json_u64(v, "data_words", w->words);
}

static void describe(const void *inst, char *buf, size_t len)
{
	const skiplist_workload *w = inst;
	snprintf(buf, len, "%u initial keys of 1..%u, %u levels, %u nodes", w->cfg.initial_keys, w->cfg.key_range,
		 w->cfg.levels, w->cfg.capacity);
}

const stm_workload stm_workload_skiplist = {
	.head.name = "skiplist",
	.head.summary = "a skip list of keys in the shared words with insert, delete and lookup transactions; "
		   "each key has one owner thread, so no semantic conflict (Shen et al. sections 4.4-4.5)",
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.opts_size = sizeof(skiplist_opts),
	.words = words,
	.words_option = "capacity x (--levels + 1)",
	.max_set = max_set,
	.max_set_option = "levels",
	.memory = memory,
	.generate = generate,
	.free = release,
	.input = input,
	.initial = initial,
	.rounds_fit = rounds_fit,
	.verify_batch = verify_batch,
	.verify_counts = verify_counts,
	.method_batch = "serial replay in commit-stamp order on the oracle's own skip list; every level sorted "
			"and the taller nodes of the level below",
	.method_counts = "final keys = start + each thread's committed prefix of its block; every level sorted "
			 "and the taller nodes of the level below",
	.checked_batch = "replayed in commit order, equal word for word, every level sorted and a subset of the "
			 "level below",
	.checked_counts = "each thread's keys follow its committed prefix, every level sorted and a subset of the "
			  "level below",
	.checksum_key = "data_fnv1a",
	.config = config,
	.describe = describe,
};
