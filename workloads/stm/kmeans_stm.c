/*
 * The kmeans workload (workloads/stm/kmeans.h) as a workload of `gpubench stm`:
 * its options, and its generator, stages and oracle behind the registry's
 * interface (workloads/stm/stm_workload.h). A staged workload: one pass is the
 * whole k-means, one batch per update stage.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/report.h"
#include "workloads/stm/kmeans.h"
#include "workloads/stm/stm_workload.h"

typedef struct kmeans_opts {
	uint64_t points, clusters, iterations, points_per_tx;
} kmeans_opts;

_Static_assert(sizeof(kmeans_opts) <= STM_WORKLOAD_OPTS_MAX, "kmeans_opts fits stm's area");

#define AT(field) offsetof(kmeans_opts, field)

static const gb_opt_row rows[] = {
	{.name = "points", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = KMEANS_MAX_POINTS, .def = "1000000",
	 .offset = AT(points),
	 .help = "kmeans: points of two integer coordinates in [0, 1024) (the paper: about 1 million; at most "
		 "4000000, so a cluster's sums fit 32 bits)"},
	{.name = "clusters", .kind = GB_OPT_UINT, .metavar = "K", .lo = 1, .hi = 65536, .def = "16",
	 .offset = AT(clusters),
	 .help = "kmeans: clusters, each three data words (count, sum of x, sum of y) that every transaction "
		 "of its points updates (the paper: 16)"},
	{.name = "iterations", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000, .def = "5",
	 .offset = AT(iterations),
	 .help = "kmeans: at most N iterations, fewer when an assignment stage moves no point (the paper: 5)"},
	{.name = "points-per-tx", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = KMEANS_MAX_POINTS, .def = "0",
	 .offset = AT(points_per_tx),
	 .help = "kmeans: an update stage has, for each run of N consecutive points, one transaction per "
		 "cluster in the run, adding its points; 0: a thread's share, ceil(points / threads); 1: a "
		 "transaction per point, as STAMP's kmeans"},
};

static const stm_refusal refuses[] = {
	{"read-only", "kmeans has no read-only transactions: every one adds points to their cluster's sums "
		      "(the paper, section 4.7: \"there is no read-only thread\")"},
	{"read-only-threads", "kmeans has no read-only transactions"},
	{"presort", "kmeans transactions meet no semantic conflict, so there is nothing to pre-order"},
	{"tx-per-thread", "kmeans deals an iteration's transactions over --threads (set --points and "
			  "--points-per-tx instead)"},
	{NULL, NULL},
};

static uint32_t words(const void *opts)
{
	const kmeans_opts *o = opts;
	return (uint32_t)(KMEANS_WORDS_PER_CLUSTER * o->clusters);
}

/* Three words, whatever the options. */
static uint32_t max_set(const void *opts)
{
	(void)opts;
	return KMEANS_WORDS_PER_CLUSTER;
}

/*
 * Per point: its coordinates and assignment, at most one entry, its status
 * (engine and host), the replay order, the initial draw; on the device the
 * entry and its status. The clusters' words are a few copies of 3 words each.
 */
static unsigned memory(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
		       gb_memory_term device[STM_MEMORY_TERMS])
{
	const kmeans_opts *o = opts;
	(void)c;
	host[0] = (gb_memory_term){.opt = "points", .value = o->points,
				   .bytes_each = 3 * sizeof(uint32_t) + sizeof(kmeans_entry) +
							    2 * sizeof(uint32_t) + sizeof(uint64_t) + 1};
	host[1] = (gb_memory_term){.opt = "clusters", .value = o->clusters,
				   .bytes_each = 10 * KMEANS_WORDS_PER_CLUSTER * sizeof(uint32_t)};
	device[0] = (gb_memory_term){.opt = "points", .value = o->points,
				     .bytes_each = sizeof(kmeans_entry) + sizeof(uint32_t)};
	device[1] = (gb_memory_term){.opt = "clusters", .value = o->clusters,
				     .bytes_each = 2 * KMEANS_WORDS_PER_CLUSTER * sizeof(uint32_t)};
	return 2;
}

static void *generate(const void *opts, const stm_table_cfg *c, char *err, size_t errlen)
{
	const kmeans_opts *o = opts;
	kmeans_workload *w = gb_xcalloc(1, sizeof(*w), "kmeans workload");
	kmeans_config kc = {
		.points = (uint32_t)o->points,
		.clusters = (uint32_t)o->clusters,
		.iterations = (uint32_t)o->iterations,
		.points_per_tx = (uint32_t)o->points_per_tx,
		.threads = c->threads,
		.seed = c->seed,
	};

	if (kmeans_generate(w, &kc, err, errlen) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

static void release(void *inst)
{
	kmeans_free(inst);
	free(inst);
}

static tx_input input(const void *inst)
{
	return kmeans_input_of(inst);
}

static void initial(const void *inst, uint32_t *words_out)
{
	kmeans_initial(inst, words_out);
}

static uint32_t stage(void *inst, uint32_t s, uint32_t *words_io, const uint32_t *status)
{
	return kmeans_stage(inst, s, words_io, status);
}

static uint64_t capacity(const void *inst)
{
	return ((const kmeans_workload *)inst)->capacity;
}

static void to_check(const kmeans_check *k, stm_check *out)
{
	snprintf(out->message, sizeof(out->message), "%s", k->message);
	out->ok = k->ok;
	out->committed_update = k->committed_update;
	out->committed_readonly = k->committed_readonly;
	out->abandoned = k->abandoned;
	out->facts[0] = (stm_fact){"points_counted", (double)k->points_counted};
	out->facts[1] = (stm_fact){"clusters_nonempty", (double)k->clusters_nonempty};
	out->nfacts = 2;
}

static void verify_batch(const void *inst, uint32_t *state, const uint32_t *status, const uint32_t *after,
			 stm_check *out)
{
	kmeans_check k;
	kmeans_verify_batch(inst, state, status, after, &k);
	to_check(&k, out);
}

static void verify_pass(const void *inst, const uint32_t *start, const uint32_t *outcome, stm_check *out)
{
	const kmeans_workload *w = inst;
	kmeans_check k;

	kmeans_verify_pass(w, start, outcome, &k);
	to_check(&k, out);
	out->facts[2] = (stm_fact){"iterations", (double)(w->iteration + 1)};
	out->facts[3] = (stm_fact){"sse", k.sse};
	out->nfacts = 4;
}

static void config(const void *inst, cJSON *cfg)
{
	const kmeans_workload *w = inst;
	cJSON *v = cJSON_AddObjectToObject(cfg, "kmeans");

	gb_json_u64(v, "points", w->cfg.points);
	gb_json_u64(v, "clusters", w->cfg.clusters);
	gb_json_u64(v, "iterations", w->cfg.iterations);
	gb_json_u64(v, "coord_range", KMEANS_COORD_RANGE);
	gb_json_u64(v, "seed", w->cfg.seed);
	gb_json_u64(v, "points_per_tx", w->run);
	/* the first stage's, not the current one's: a run may end on a rerun of a few */
	gb_json_u64(v, "transactions_first_iteration", w->first_tx);
	gb_json_u64(v, "tx_per_thread", kmeans_tx_per_thread(w, w->first_tx));
	gb_json_u64(v, "data_words", w->words);
	gb_json_u64(v, "reference_iterations", w->ref_iterations);
	gb_json_bool(v, "reference_converged", w->ref_moved == 0);
}

static void describe(const void *inst, char *buf, size_t len)
{
	const kmeans_workload *w = inst;
	snprintf(buf, len, "%u points, %u clusters, at most %u iterations, runs of %u points", w->cfg.points,
		 w->cfg.clusters, w->cfg.iterations, w->run);
}

const stm_workload stm_workload_kmeans = {
	.head.name = "kmeans",
	.head.summary = "points are clustered by k-means; each update-stage transaction adds points to their "
		   "cluster's count and sums, iterations are stages with the host's assignment between "
		   "(Shen et al. section 4.6, after STAMP)",
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.opts_size = sizeof(kmeans_opts),
	.words = words,
	.words_option = "clusters x 3",
	.max_set = max_set,
	.max_set_option = "clusters",
	.memory = memory,
	.generate = generate,
	.free = release,
	.input = input,
	.initial = initial,
	.rounds_unfit = "kmeans runs as passes of stages, each iteration's update stage a batch over a table "
			"of its own",
	.verify_batch = verify_batch,
	.stage = stage,
	.capacity = capacity,
	.verify_pass = verify_pass,
	.stage_name = "update stages",
	.refuses = refuses,
	.method_batch = "serial replay in commit-stamp order of each stage; each pass against a serial k-means",
	.checked_batch = "replayed in commit order (each adding its points to its cluster's count and sums), "
			 "every pass's counts and sums equal to a serial k-means'",
	.checksum_key = "data_fnv1a",
	.config = config,
	.describe = describe,
};
