/*
 * The memcached workload (workloads/stm/memcached.h) as a workload of `gpubench
 * stm`: its options, and its generator and oracle behind the registry's
 * interface (workloads/stm/stm_workload.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/report.h"
#include "workloads/stm/memcached.h"
#include "workloads/stm/stm_workload.h"

typedef struct memcached_opts {
	uint64_t items, ways, keys, set_permille, key_words, value_words;
	double zipf;
} memcached_opts;

_Static_assert(sizeof(memcached_opts) <= STM_WORKLOAD_OPTS_MAX, "memcached_opts fits stm's area");

#define AT(field) offsetof(memcached_opts, field)

static const gb_opt_row rows[] = {
	{.name = "items", .kind = GB_OPT_UINT, .metavar = "N", .lo = MEMCACHED_MIN_WAYS, .hi = 1u << 24,
	 .def = "1048576", .offset = AT(items),
	 .help = "memcached: the capacity of the cache in items, held in N / W sets of W ways (rounded down)"},
	{.name = "ways", .kind = GB_OPT_UINT, .metavar = "W", .lo = MEMCACHED_MIN_WAYS, .hi = MEMCACHED_MAX_WAYS,
	 .def = "8", .offset = AT(ways),
	 .help = "memcached: associativity; a GET reads up to W x KW + VW words (--key-words, --value-words), "
		 "so gpustm, which keeps them in a 16-word read set, runs only the compact layout up to 15 ways "
		 "(prstm logs the reads past its set; csmv's GETs keep no read set)"},
	{.name = "key-words", .kind = GB_OPT_UINT, .metavar = "KW", .lo = 1, .hi = MEMCACHED_MAX_KEY_WORDS,
	 .def = "4", .offset = AT(key_words),
	 .help = "memcached: 32-bit words a key takes; the paper's 16-byte keys are 4, the compact layout 1 "
		 "(with --value-words 1)"},
	{.name = "value-words", .kind = GB_OPT_UINT, .metavar = "VW", .lo = 1, .hi = MEMCACHED_MAX_VALUE_WORDS,
	 .def = "8", .offset = AT(value_words),
	 .help = "memcached: 32-bit words a value takes; the paper's 32-byte values are 8; a SET writes "
		 "KW + VW + 2 words (14 in the paper's layout)"},
	{.name = "keys", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1u << 26, .def = "2097152",
	 .offset = AT(keys), .help = "memcached: the key space the transactions draw from"},
	{.name = "zipf", .kind = GB_OPT_REAL, .metavar = "A", .flo = 0, .fhi = 5, .def = "0.99",
	 .offset = AT(zipf), .help = "memcached: key popularity, P(key k) ~ 1 / (k + 1)^A (0: uniform)"},
	{.name = "set-permille", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 1000, .def = "2",
	 .offset = AT(set_permille),
	 .help = "memcached: SETs (update transactions) per 1000 transactions, the rest GETs (read-only; "
		 "the paper: 99.8% GETs)"},
};

static const stm_refusal refuses[] = {
	{"read-only", "memcached's GETs are its read-only transactions, set in per mille by --set-permille"},
	{"read-only-threads", "memcached's GETs are its read-only transactions, dealt over every thread by --set-permille"},
	{"presort", "memcached transactions meet no semantic conflict, so there is nothing to pre-order"},
	{NULL, NULL},
};

/* At least one: fewer --items than --ways is the generator's usage error, which names both. */
static uint32_t sets(const memcached_opts *o)
{
	return o->items < o->ways ? 1u : (uint32_t)(o->items / o->ways);
}

static uint32_t words(const void *opts)
{
	const memcached_opts *o = opts;
	uint64_t n = (uint64_t)sets(o) * MEMCACHED_STRIDE(o->ways, o->key_words, o->value_words);
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

static uint32_t max_update_set(const void *opts)
{
	const memcached_opts *o = opts;
	return MEMCACHED_SET_WORDS((uint32_t)o->key_words, (uint32_t)o->value_words);
}

/* A GET that hits in the last way reads W keys and a value; a SET touches KW + VW + 2 words. */
static uint32_t max_set(const void *opts)
{
	const memcached_opts *o = opts;
	uint32_t get = (uint32_t)(o->ways * o->key_words + o->value_words), set = max_update_set(opts);
	return get > set ? get : set;
}

/* Which options set it: the ways, and the layout, whose compact form fits the engines with small sets. */
static const char *max_set_by(const void *opts)
{
	const memcached_opts *o = opts;
	static char by[160];

	if (o->key_words == 1 && o->value_words == 1)
		return "ways";
	snprintf(by, sizeof(by), "ways %u --key-words %u --value-words %u; the compact layout, --key-words 1 "
		 "--value-words 1, reads --ways + 1", (unsigned)o->ways, (unsigned)o->key_words,
		 (unsigned)o->value_words);
	return by;
}

/*
 * Per item at most KW + VW + 2 data words (KW + VW + 1 per way and a clock per
 * set of at least 4 ways), each in the initial cache, the three host copies and
 * the replay's, and in the engine's data and lock; per key the zipf table; per
 * transaction the entry, its status (engine and host), its result and the
 * replay order.
 */
static unsigned memory(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
		       gb_memory_term device[STM_MEMORY_TERMS])
{
	const memcached_opts *o = opts;
	uint64_t per_tx = sizeof(memcached_entry) + 2 * sizeof(uint32_t) + TX_RESULT_WORDS * sizeof(uint32_t) +
			  2 * sizeof(uint64_t);

	uint64_t per_item = o->key_words + o->value_words + 2;

	host[0] = (gb_memory_term){.opt = "items", .value = o->items, .bytes_each = per_item * 5 * sizeof(uint32_t)};
	host[1] = (gb_memory_term){.opt = "keys", .value = o->keys, .bytes_each = sizeof(double) + 1};
	host[2] = (gb_memory_term){.opt = "threads", .value = c->threads, .bytes_each = per_tx,
				   .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	device[0] = (gb_memory_term){.opt = "items", .value = o->items, .bytes_each = per_item * 2 * sizeof(uint32_t)};
	device[1] = (gb_memory_term){.opt = "threads", .value = c->threads,
				     .bytes_each = (sizeof(memcached_entry) + (1 + TX_RESULT_WORDS) * sizeof(uint32_t)),
				     .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	return 2;
}

static void *generate(const void *opts, const stm_table_cfg *c, char *err, size_t errlen)
{
	const memcached_opts *o = opts;
	memcached_workload *w = gb_xcalloc(1, sizeof(*w), "memcached workload");
	memcached_config mc = {
		.items = (uint32_t)o->items,
		.ways = (uint32_t)o->ways,
		.key_words = (uint32_t)o->key_words,
		.value_words = (uint32_t)o->value_words,
		.keys = (uint32_t)o->keys,
		.zipf = o->zipf,
		.set_permille = (uint32_t)o->set_permille,
		.threads = c->threads,
		.tx_per_thread = c->tx_per_thread,
		.seed = c->seed,
	};

	if (memcached_generate(w, &mc, err, errlen) != 0) {
		memcached_free(w);
		free(w);
		return NULL;
	}
	return w;
}

static void release(void *inst)
{
	memcached_free(inst);
	free(inst);
}

static tx_input input(const void *inst)
{
	return memcached_input_of(inst);
}

static void initial(const void *inst, uint32_t *words_out)
{
	memcached_initial(inst, words_out);
}

static void verify_batch(const void *inst, uint32_t *state, const uint32_t *status, const uint32_t *after,
			 stm_check *out)
{
	memcached_check v;

	memcached_verify_batch(inst, state, status, after, &v);
	snprintf(out->message, sizeof(out->message), "%s", v.message);
	out->ok = v.ok;
	out->committed_update = v.committed_update;
	out->committed_readonly = v.committed_readonly;
	out->abandoned = v.abandoned;
	out->facts[0] = (stm_fact){"items", (double)v.items};
	out->facts[1] = (stm_fact){"evictions", (double)v.evictions};
	out->nfacts = 2;
}

#define SNAPSHOT_SAMPLE 4096

static uint64_t verify_results(const void *inst, const uint32_t *before, const uint32_t *status,
			       const uint32_t *results, stm_check *out)
{
	memcached_check v;
	uint64_t checked = memcached_verify_snapshots(inst, before, status, results, SNAPSHOT_SAMPLE, &v);
	out->ok = v.ok;
	snprintf(out->message, sizeof(out->message), "%s", v.message);
	return checked;
}

static void config(const void *inst, cJSON *cfg)
{
	const memcached_workload *w = inst;
	cJSON *v = cJSON_AddObjectToObject(cfg, "memcached");

	gb_json_u64(v, "items", (uint64_t)w->sets * w->cfg.ways);
	gb_json_u64(v, "ways", w->cfg.ways);
	gb_json_u64(v, "sets", w->sets);
	gb_json_u64(v, "key_words", w->cfg.key_words);
	gb_json_u64(v, "value_words", w->cfg.value_words);
	gb_json_u64(v, "keys", w->cfg.keys);
	cJSON_AddNumberToObject(v, "zipf", w->cfg.zipf);
	gb_json_u64(v, "set_permille", w->cfg.set_permille);
	gb_json_u64(v, "tx_per_thread", w->cfg.tx_per_thread);
	gb_json_u64(v, "seed", w->cfg.seed);
	gb_json_u64(v, "transactions", w->ntx);
	gb_json_u64(v, "gets", w->count[MEMCACHED_GET]);
	gb_json_u64(v, "sets_issued", w->count[MEMCACHED_SET]);
	gb_json_u64(v, "distinct_keys", w->distinct_keys);
	gb_json_u64(v, "data_words", w->words);
}

static void describe(const void *inst, char *buf, size_t len)
{
	const memcached_workload *w = inst;
	snprintf(buf, len, "%u items in %u sets of %u ways, keys of %u words and values of %u, %u keys (zipf %.2f), "
		 "%u per mille SETs", w->sets * w->cfg.ways, w->sets, w->cfg.ways, w->cfg.key_words, w->cfg.value_words,
		 w->cfg.keys, w->cfg.zipf, w->cfg.set_permille);
}

const stm_workload stm_workload_memcached = {
	.head.name = "memcached",
	.head.summary = "an n-way set-associative cache with LRU kept by SETs: GETs are read-only transactions "
		   "that scan a set, SETs replace or evict (Nunes et al. section V, after MemcachedGPU)",
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.opts_size = sizeof(memcached_opts),
	.words = words,
	.words_option = "items / --ways x (--ways x (--key-words + --value-words + 1) + 1)",
	.max_set = max_set,
	.max_set_option = "ways",
	.max_set_by = max_set_by,
	.semantic = 0,
	.memory = memory,
	.generate = generate,
	.free = release,
	.input = input,
	.initial = initial,
	.rounds_unfit = "memcached's oracle replays batches only",
	.verify_batch = verify_batch,
	.refuses = refuses,
	.method_batch = "serial replay of the SETs in commit-stamp order, every set a strict LRU order",
	.checked_batch = "replayed in commit order, every set's keys distinct, whole and of that set, values whole, "
			 "LRU stamps distinct and within its clock",
	.checksum_key = "data_fnv1a",
	.config = config,
	.describe = describe,
	.max_update_set = max_update_set,
	.verify_results = verify_results,
	.checked_results = "GET results (the value's digest) equal the replay at their snapshot",
};
