/*
 * The graph processing workload (workloads/stm/graph.h) as a workload of
 * `gpubench stm`: its options, and its generator, rounds and oracle behind the
 * registry's interface (workloads/stm/stm_workload.h). A staged workload: one
 * pass is the propagation to its fixpoint, one batch per round.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/report.h"
#include "workloads/stm/graph.h"
#include "workloads/stm/stm_workload.h"

typedef struct graph_opts {
	uint64_t vertices, edges, edges_per_tx, max_label;
} graph_opts;

_Static_assert(sizeof(graph_opts) <= STM_WORKLOAD_OPTS_MAX, "graph_opts fits stm's area");

#define AT(field) offsetof(graph_opts, field)

static const gb_opt_row rows[] = {
	{.name = "vertices", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = 1u << 27, .def = "1000000",
	 .offset = AT(vertices), .help = "graph: vertices, one data word each (the paper: 1 million)"},
	{.name = "edges", .kind = GB_OPT_UINT, .metavar = "M", .lo = 1, .hi = GRAPH_MAX_EDGES, .def = "10000000",
	 .offset = AT(edges),
	 .help = "graph: undirected edges between random vertices, each in the CSR in both directions "
		 "(the paper: 10 million)"},
	{.name = "edges-per-tx", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = GRAPH_MAX_EDGES_PER_TX,
	 .def = "0", .offset = AT(edges_per_tx),
	 .help = "graph: 0 (all): a transaction sends its vertex's value to all its neighbours, as the paper's "
		 "does, on a graph whose largest degree the engines' sets hold (1 + degree words, up to 64), "
		 "else exits 2; N: our bounded variant, a vertex's neighbours split over transactions of at "
		 "most N, for any graph"},
	{.name = "max-label", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000000, .def = "10000",
	 .offset = AT(max_label), .help = "graph: vertex values are drawn from 1..N (the paper: 10000)"},
};

static const stm_refusal refuses[] = {
	{"read-only", "graph has no read-only transactions by kind: one is read-only only when no neighbour "
		      "is larger, which only running it tells (the paper, section 4.9)"},
	{"read-only-threads", "graph has no read-only transactions by kind"},
	{"presort", "graph transactions meet no semantic conflict, so there is nothing to pre-order"},
	{"tx-per-thread", "graph runs the transactions of a round's vertices, dealt over --threads (set "
			  "--vertices and --edges instead)"},
	{NULL, NULL},
};

static uint32_t words(const void *opts)
{
	return (uint32_t)((const graph_opts *)opts)->vertices;
}

/* The source vertex and its neighbours. With all of them (0) only the graph tells how many: the
 * fewest (a source and one neighbour) here, and generation refuses a graph whose largest degree is
 * past the chosen engines' sets or the entry's count field, naming the engine (graph_generate). */
static uint32_t max_set(const void *opts)
{
	uint64_t n = ((const graph_opts *)opts)->edges_per_tx;
	return 1 + (uint32_t)(n ? n : 1);
}

/*
 * Per vertex: its values (initial, expected, round start, three host copies,
 * the engine's word and lock), its offset, the union-find's words, at most one
 * partial transaction; per edge: its two neighbour ids and the round-0
 * transactions they fill (entry, extra words, status on host and engine,
 * replay order), on the device the entry, extra words and status.
 */
static unsigned memory(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
		       gb_memory_term device[STM_MEMORY_TERMS])
{
	const graph_opts *o = opts;
	uint64_t epx = o->edges_per_tx ? o->edges_per_tx : GRAPH_MAX_EDGES_PER_TX; /* all: at most 63 */
	uint64_t stride = epx > GRAPH_ENTRY_NEIGHBOURS ? epx - GRAPH_ENTRY_NEIGHBOURS : 0;
	uint64_t tx_host = sizeof(graph_entry) + 4 * stride + 2 * sizeof(uint32_t) + sizeof(uint64_t);
	uint64_t tx_dev = sizeof(graph_entry) + 4 * stride + sizeof(uint32_t);
	/* split: a transaction per --edges-per-tx arcs besides the partial one of each vertex; all: one
	 * transaction per vertex, counted with the vertices */
	uint64_t split = o->edges_per_tx ? o->edges_per_tx : 0;

	(void)c;
	host[0] = (gb_memory_term){.opt = "vertices", .value = o->vertices,
				   .bytes_each = 14 * sizeof(uint32_t) + 1 + tx_host};
	host[1] = (gb_memory_term){.opt = "edges", .value = o->edges,
				   .bytes_each = 2 * sizeof(uint32_t) + (split ? (2 * tx_host + split - 1) / split : 0)};
	device[0] = (gb_memory_term){.opt = "vertices", .value = o->vertices,
				     .bytes_each = 2 * sizeof(uint32_t) + tx_dev};
	device[1] = (gb_memory_term){.opt = "edges", .value = o->edges,
				     .bytes_each = split ? (2 * tx_dev + split - 1) / split : 0};
	return 2;
}

static void *generate(const void *opts, const stm_table_cfg *c, char *err, size_t errlen)
{
	const graph_opts *o = opts;
	graph_workload *w = gb_xcalloc(1, sizeof(*w), "graph workload");
	graph_config gc = {
		.vertices = (uint32_t)o->vertices,
		.edges = o->edges,
		.edges_per_tx = (uint32_t)o->edges_per_tx,
		.max_label = (uint32_t)o->max_label,
		.threads = c->threads,
		.seed = c->seed,
		.max_words = c->max_set,
		.engine = c->max_set_engine,
	};

	if (graph_generate(w, &gc, err, errlen) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

static void release(void *inst)
{
	graph_free(inst);
	free(inst);
}

static tx_input input(const void *inst)
{
	return graph_input_of(inst);
}

static void initial(const void *inst, uint32_t *words_out)
{
	graph_initial(inst, words_out);
}

static uint32_t stage(void *inst, uint32_t s, uint32_t *words_io, const uint32_t *status)
{
	return graph_stage(inst, s, words_io, status);
}

/* Round 0, every vertex with a neighbour, is the largest round. */
static uint64_t capacity(const void *inst)
{
	return ((const graph_workload *)inst)->round0_tx;
}

static void to_check(const graph_check *g, stm_check *out)
{
	snprintf(out->message, sizeof(out->message), "%s", g->message);
	out->ok = g->ok;
	out->committed_update = g->committed_update;
	out->committed_readonly = g->committed_readonly;
	out->abandoned = g->abandoned;
}

static void verify_batch(const void *inst, uint32_t *state, const uint32_t *status, const uint32_t *after,
			 stm_check *out)
{
	const graph_workload *w = inst;
	graph_check g;

	graph_verify_batch(w, state, status, after, &g);
	to_check(&g, out);
	out->facts[0] = (stm_fact){"round", (double)w->round};
	out->facts[1] = (stm_fact){"vertices_lowered_in_round", (double)g.lowered};
	out->nfacts = 2;
}

static void verify_pass(const void *inst, const uint32_t *start, const uint32_t *outcome, stm_check *out)
{
	const graph_workload *w = inst;
	graph_check g;

	graph_verify_pass(w, start, outcome, &g);
	to_check(&g, out);
	out->facts[0] = (stm_fact){"rounds", (double)(w->round + 1)};
	out->facts[1] = (stm_fact){"components", (double)w->components};
	out->facts[2] = (stm_fact){"largest_component", (double)w->largest_component};
	out->facts[3] = (stm_fact){"vertices_lowered", (double)g.lowered};
	out->nfacts = 4;
}

static void config(const void *inst, cJSON *cfg)
{
	const graph_workload *w = inst;
	cJSON *v = cJSON_AddObjectToObject(cfg, "graph");

	gb_json_u64(v, "vertices", w->cfg.vertices);
	gb_json_u64(v, "edges", w->cfg.edges);
	gb_json_u64(v, "csr_entries", 2 * w->cfg.edges);
	gb_json_u64(v, "edges_per_tx", w->cfg.edges_per_tx);
	gb_json_bool(v, "all_neighbours", w->cfg.edges_per_tx == 0);
	gb_json_u64(v, "neighbours_per_transaction", w->epx);
	gb_json_u64(v, "vertices_split", w->split);
	gb_json_u64(v, "max_label", w->cfg.max_label);
	gb_json_u64(v, "seed", w->cfg.seed);
	gb_json_u64(v, "max_degree", w->max_degree);
	gb_json_u64(v, "components", w->components);
	gb_json_u64(v, "largest_component", w->largest_component);
	gb_json_u64(v, "round0_transactions", w->round0_tx);
	gb_json_u64(v, "max_words_per_transaction", w->max_words);
	gb_json_u64(v, "data_words", w->cfg.vertices);
}

static void describe(const void *inst, char *buf, size_t len)
{
	const graph_workload *w = inst;
	if (w->cfg.edges_per_tx == 0)
		snprintf(buf, len, "%u vertices, %llu edges, all neighbours per transaction (the paper's; largest "
			 "degree %u)", w->cfg.vertices, (unsigned long long)w->cfg.edges, w->max_degree);
	else
		snprintf(buf, len, "%u vertices, %llu edges, up to %u neighbours per transaction (split, not the "
			 "paper's: %u vertices over several)", w->cfg.vertices, (unsigned long long)w->cfg.edges,
			 w->cfg.edges_per_tx, w->split);
}

const stm_workload stm_workload_graph = {
	.head.name = "graph",
	.head.summary = "min-label propagation on a CSR graph: a transaction sends a vertex's value to its "
		   "neighbours and lowers the larger ones, round after round until nothing changes "
		   "(Shen et al. section 4.8)",
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.opts_size = sizeof(graph_opts),
	.words = words,
	.words_option = "vertices",
	.max_set = max_set,
	.max_set_option = "edges-per-tx",
	.memory = memory,
	.generate = generate,
	.free = release,
	.input = input,
	.initial = initial,
	.rounds_unfit = "graph runs as passes of stages, each propagation round a batch over a table of its own",
	.verify_batch = verify_batch,
	.stage = stage,
	.capacity = capacity,
	.verify_pass = verify_pass,
	.stage_name = "rounds",
	.refuses = refuses,
	.method_batch = "serial replay in commit-stamp order of each round; each pass against the connected "
			"components' minimum values",
	.checked_batch = "replayed in commit order (each lowering its larger neighbours), every pass ending "
			 "with each vertex at its connected component's minimum value",
	.checksum_key = "data_fnv1a",
	.config = config,
	.describe = describe,
};
