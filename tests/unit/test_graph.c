/*
 * The graph workload (workloads/stm/graph.c): the generator's CSR graph, values,
 * components and round-0 table, its rounds, and the oracle, which must
 * accept a correct pass and name what is wrong in a tampered one. Then both
 * engines' CPU backends on it at high contention (a small dense graph,
 * hundreds of threads), a whole pass each.
 */
#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm_engines.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/staged_run.h"
#include "tests/unit/test.h"
#include "workloads/stm/graph.h"

static graph_config small_config(void)
{
	graph_config c;
	memset(&c, 0, sizeof(c));
	c.vertices = 60;
	c.edges = 45; /* sparse: several components */
	c.edges_per_tx = 3;
	c.max_label = 1000;
	c.threads = 8;
	c.seed = 5;
	return c;
}

/* A serial engine: run every entry of the round in table order, update commits stamped in that order. */
static void run_round(const graph_workload *w, uint32_t *words, uint32_t *status)
{
	uint32_t stamp = 0;
	uint64_t i;
	for (i = 0; i < w->ntx; i++) {
		const graph_entry *e = &w->tx[i];
		uint32_t j, wrote = 0, src = words[e->src];
		for (j = 0; j < GRAPH_COUNT(e->meta); j++) {
			uint32_t nb = graph_neighbour(e, w->aux, w->aux_stride, (uint32_t)i, j);
			if (words[nb] > src) {
				words[nb] = src;
				wrote = 1;
			}
		}
		status[i] = wrote ? ++stamp : TX_STATUS_READONLY;
	}
}

/* Each vertex's component's minimum by breadth-first search over the CSR (not the generator's union-find). */
static void component_minima(const graph_workload *w, uint32_t *out)
{
	uint32_t n = w->cfg.vertices, *queue = calloc(n, sizeof(uint32_t)), *comp = calloc(n, sizeof(uint32_t));
	uint32_t v, head, tail, id = 0;

	for (v = 0; v < n; v++)
		comp[v] = UINT32_MAX;
	for (v = 0; v < n; v++) {
		uint32_t min = UINT32_MAX, k;
		if (comp[v] != UINT32_MAX)
			continue;
		head = tail = 0;
		queue[tail++] = v;
		comp[v] = id;
		while (head < tail) {
			uint32_t u = queue[head++];
			if (w->label[u] < min)
				min = w->label[u];
			for (k = w->offset[u]; k < w->offset[u + 1]; k++)
				if (comp[w->target[k]] == UINT32_MAX) {
					comp[w->target[k]] = id;
					queue[tail++] = w->target[k];
				}
		}
		for (k = 0; k < tail; k++)
			out[queue[k]] = min;
		id++;
	}
	free(queue);
	free(comp);
}

TEST(graph_generate_csr_values_components_and_table)
{
	graph_config c = small_config();
	graph_workload w;
	tx_input in;
	char err[256];
	uint32_t v, k, *minima, *arcs_seen;
	uint64_t i, arcs = 0;

	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.offset[c.vertices], 2 * c.edges);
	for (v = 0; v < c.vertices; v++) {
		CHECK(w.label[v] >= 1 && w.label[v] <= c.max_label);
		for (k = w.offset[v]; k < w.offset[v + 1]; k++) {
			uint32_t u = w.target[k], back = 0, fwd = 0, j;
			CHECK(u < c.vertices && u != v); /* no self-loops */
			/* undirected: as many arcs u -> v as v -> u */
			for (j = w.offset[u]; j < w.offset[u + 1]; j++)
				back += w.target[j] == v;
			for (j = w.offset[v]; j < w.offset[v + 1]; j++)
				fwd += w.target[j] == u;
			CHECK_EQ(back, fwd);
		}
	}
	minima = calloc(c.vertices, sizeof(uint32_t));
	component_minima(&w, minima);
	for (v = 0; v < c.vertices; v++)
		CHECK_EQ(w.expect[v], minima[v]);
	CHECK(w.components > 1 && w.largest_component < c.vertices);
	free(minima);

	/* round 0: every arc once, in vertex order, at most --edges-per-tx per transaction */
	in = graph_input_of(&w);
	CHECK_EQ(in.ntx, w.round0_tx);
	CHECK_EQ(in.aux_stride, 1u);
	CHECK_EQ(in.tx_per_thread, (uint32_t)((w.ntx + 7) / 8));
	CHECK(in.max_words <= 4);
	arcs_seen = calloc(c.vertices, sizeof(uint32_t));
	for (i = 0; i < w.ntx; i++) {
		const graph_entry *e = &w.tx[i];
		uint32_t n = GRAPH_COUNT(e->meta), j;
		CHECK(n >= 1 && n <= c.edges_per_tx);
		CHECK_EQ(TX_ENTRY_TAG(e->meta), 0u);
		CHECK(i == 0 || w.tx[i - 1].src <= e->src);
		for (j = 0; j < n; j++) {
			uint32_t at = w.offset[e->src] + arcs_seen[e->src]++;
			CHECK_EQ(graph_neighbour(e, w.aux, w.aux_stride, (uint32_t)i, j), w.target[at]);
		}
		arcs += n;
	}
	for (v = 0; v < c.vertices; v++)
		CHECK_EQ(arcs_seen[v], w.offset[v + 1] - w.offset[v]);
	CHECK_EQ(arcs, 2 * c.edges);
	free(arcs_seen);
	graph_free(&w);

	c.edges_per_tx = GRAPH_MAX_EDGES_PER_TX + 1;
	CHECK(graph_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "--edges-per-tx 64: a transaction lowers 1..63 neighbours");
}

/* The largest degree of c's graph and how many vertices have more than k neighbours, from the CSR of a split
 * generation (k = 1: every edge its own transaction). */
static uint32_t degrees_of(graph_config c, uint32_t k, uint32_t *over_k)
{
	graph_workload w;
	char err[256];
	uint32_t v, max = 0;

	c.edges_per_tx = 1;
	*over_k = 0;
	if (graph_generate(&w, &c, err, sizeof(err)) != 0)
		return UINT32_MAX;
	for (v = 0; v < c.vertices; v++) {
		uint32_t d = w.offset[v + 1] - w.offset[v];
		max = d > max ? d : max;
		*over_k += d > k;
	}
	graph_free(&w);
	return max;
}

/*
 * --edges-per-tx 0, the paper's transaction: one per vertex with a neighbour, holding all of them in CSR
 * order, 1 + the largest degree words at most; a split run counts the vertices it splits.
 */
TEST(graph_all_neighbours_is_one_transaction_per_vertex)
{
	graph_config c = small_config();
	graph_workload w;
	tx_input in;
	char err[256];
	uint32_t v, over3, maxdeg, with_nb = 0;
	uint64_t i;

	c.edges = 120; /* degrees of 4 on average: some past 3, none past 15 */
	maxdeg = degrees_of(c, 3, &over3);
	REQUIRE(maxdeg >= 4 && maxdeg <= GRAPH_MAX_EDGES_PER_TX && over3 > 0);
	c.edges_per_tx = 0;
	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	for (v = 0; v < c.vertices; v++)
		with_nb += w.offset[v + 1] > w.offset[v];
	in = graph_input_of(&w);
	CHECK_EQ(w.max_degree, maxdeg);
	CHECK_EQ(w.epx, maxdeg);
	CHECK_EQ(w.split, 0u);
	CHECK_EQ(in.ntx, (uint64_t)with_nb);
	CHECK_EQ(w.round0_tx, (uint64_t)with_nb);
	CHECK_EQ(in.max_words, 1 + maxdeg);
	CHECK_EQ(in.aux_stride, maxdeg - GRAPH_ENTRY_NEIGHBOURS);
	for (i = 0; i < w.ntx; i++) {
		const graph_entry *e = &w.tx[i];
		uint32_t n = GRAPH_COUNT(e->meta), j;
		CHECK(i == 0 || w.tx[i - 1].src < e->src); /* one transaction per vertex */
		CHECK_EQ(n, w.offset[e->src + 1] - w.offset[e->src]);
		for (j = 0; j < n; j++)
			CHECK_EQ(graph_neighbour(e, w.aux, w.aux_stride, (uint32_t)i, j), w.target[w.offset[e->src] + j]);
	}
	graph_free(&w);

	/* the bounded variant splits exactly the vertices of more than --edges-per-tx neighbours */
	c.edges_per_tx = 3;
	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.split, over3);
	CHECK_EQ(w.epx, 3u);
	CHECK(w.ntx > (uint64_t)with_nb);
	graph_free(&w);
}

/* All neighbours on a graph whose largest degree is past the engines' sets: refused, naming --edges-per-tx. */
TEST(graph_all_neighbours_past_the_sets_is_refused)
{
	graph_config c = small_config();
	graph_workload w;
	char err[512], want[128];
	uint32_t over, maxdeg;

	c.vertices = 100;
	c.edges = 4000; /* degrees of 80 on average */
	maxdeg = degrees_of(c, 0, &over);
	REQUIRE(maxdeg > GRAPH_MAX_EDGES_PER_TX && maxdeg != UINT32_MAX);
	c.edges_per_tx = 0;
	c.max_words = 64;
	c.engine = "prstm";
	CHECK(graph_generate(&w, &c, err, sizeof(err)) == -1);
	snprintf(want, sizeof(want), "this graph's largest degree is %u, so a transaction touches up to %u words",
		 maxdeg, maxdeg + 1);
	CHECK_CONTAINS(err, want);
	CHECK_CONTAINS(err, "but prstm runs graph transactions of at most 64: set --edges-per-tx 1..63");
	/* no engine: the entry's count field bounds it */
	c.max_words = 0;
	c.engine = NULL;
	CHECK(graph_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "past the 64 that the entry's count field hold");
	/* an engine of narrower sets than the degree: named with its capacity */
	c.edges = 120;
	c.vertices = 60;
	maxdeg = degrees_of(c, 0, &over);
	REQUIRE(maxdeg >= 4 && maxdeg <= GRAPH_MAX_EDGES_PER_TX);
	c.max_words = maxdeg; /* one word short */
	c.engine = "narrow";
	CHECK(graph_generate(&w, &c, err, sizeof(err)) == -1);
	snprintf(want, sizeof(want), "narrow runs graph transactions of at most %u: set --edges-per-tx 1..%u", maxdeg,
		 maxdeg - 1);
	CHECK_CONTAINS(err, want);
	c.max_words = maxdeg + 1; /* exactly enough */
	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(graph_input_of(&w).max_words, maxdeg + 1);
	graph_free(&w);
}

/* Rounds: the vertices a round lowered send next round; the fixpoint is every component's minimum. */
TEST(graph_rounds_reach_the_components_minima)
{
	graph_config c = small_config();
	graph_workload w;
	graph_check chk;
	char err[256];
	uint32_t *words, *state, *status, *before, s = 0, v;
	uint64_t i, lowered;

	c.edges = 120;
	c.edges_per_tx = 2;
	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	words = calloc(c.vertices, sizeof(uint32_t));
	state = calloc(c.vertices, sizeof(uint32_t));
	before = calloc(c.vertices, sizeof(uint32_t));
	status = calloc(w.round0_tx, sizeof(uint32_t));
	graph_initial(&w, words);
	REQUIRE(graph_stage(&w, 0, words, NULL) == 1);
	for (;;) {
		memcpy(state, words, c.vertices * sizeof(uint32_t));
		memcpy(before, words, c.vertices * sizeof(uint32_t));
		run_round(&w, words, status);
		graph_verify_batch(&w, state, status, words, &chk);
		if (!chk.ok)
			tu_fail(__FILE__, __LINE__, "round %u: %s", s, chk.message);
		lowered = 0;
		for (v = 0; v < c.vertices; v++)
			lowered += words[v] < before[v];
		CHECK_EQ(chk.lowered, lowered);
		if (!graph_stage(&w, ++s, words, status))
			break;
		/* the next round: exactly the lowered vertices' transactions */
		for (i = 0; i < w.ntx; i++)
			CHECK(words[w.tx[i].src] < before[w.tx[i].src]);
		CHECK(w.queued <= lowered);
	}
	CHECK(s >= 2);
	graph_verify_pass(&w, w.label, words, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	for (v = 0; v < c.vertices; v++)
		CHECK_EQ(words[v], w.expect[v]);

	/* transactions left uncommitted run again by themselves, though nothing was lowered */
	graph_initial(&w, words);
	graph_stage(&w, 0, words, NULL);
	memset(status, 0, w.round0_tx * sizeof(uint32_t));
	status[0] = TX_STATUS_READONLY;
	REQUIRE(w.ntx > 2);
	{
		uint64_t n0 = w.ntx;
		graph_entry second = w.tx[1], last = w.tx[n0 - 1];
		uint32_t j, nb_second[GRAPH_MAX_EDGES_PER_TX], nb_last[GRAPH_MAX_EDGES_PER_TX];
		for (j = 0; j < GRAPH_COUNT(second.meta); j++)
			nb_second[j] = graph_neighbour(&w.tx[1], w.aux, w.aux_stride, 1, j);
		for (j = 0; j < GRAPH_COUNT(last.meta); j++)
			nb_last[j] = graph_neighbour(&w.tx[n0 - 1], w.aux, w.aux_stride, (uint32_t)(n0 - 1), j);
		CHECK_EQ(graph_stage(&w, 1, words, status), 1u);
		CHECK_EQ(w.ntx, n0 - 1);
		/* in order, neighbours and all */
		CHECK_EQ(w.tx[0].src, second.src);
		for (j = 0; j < GRAPH_COUNT(second.meta); j++)
			CHECK_EQ(graph_neighbour(&w.tx[0], w.aux, w.aux_stride, 0, j), nb_second[j]);
		CHECK_EQ(w.tx[n0 - 2].src, last.src);
		for (j = 0; j < GRAPH_COUNT(last.meta); j++)
			CHECK_EQ(graph_neighbour(&w.tx[n0 - 2], w.aux, w.aux_stride, (uint32_t)(n0 - 2), j), nb_last[j]);
	}
	/* with a vertex lowered, its every transaction comes after those given up */
	memset(status, 0, w.round0_tx * sizeof(uint32_t));
	status[0] = TX_STATUS_READONLY;
	{
		uint32_t low = w.tx[w.ntx - 1].src, deg = w.offset[low + 1] - w.offset[low];
		uint64_t pending_of_low = 0, before_n = w.ntx;
		for (i = 1; i < w.ntx; i++)
			pending_of_low += w.tx[i].src == low;
		words[low] = 0; /* lowered in the round */
		CHECK_EQ(graph_stage(&w, 2, words, status), 1u);
		CHECK_EQ(w.ntx, before_n - 1 - pending_of_low + (deg + c.edges_per_tx - 1) / c.edges_per_tx);
		CHECK_EQ(w.tx[w.ntx - 1].src, low);
		words[low] = w.prev[low];
	}
	/* and a round in which nothing committed ends the pass, refused */
	memset(status, 0, w.round0_tx * sizeof(uint32_t));
	CHECK_EQ(graph_stage(&w, 3, words, status), 0u);
	graph_verify_pass(&w, w.label, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "transactions committed");
	free(words);
	free(state);
	free(before);
	free(status);
	graph_free(&w);
}

TEST(graph_oracle_names_what_is_wrong)
{
	graph_config c = small_config();
	graph_workload w;
	graph_check chk;
	char err[256];
	uint32_t *words, *state, *status, t, v;
	uint64_t i, a = UINT64_MAX, b = UINT64_MAX;

	c.edges = 150;
	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	words = calloc(c.vertices, sizeof(uint32_t));
	state = calloc(c.vertices, sizeof(uint32_t));
	status = calloc(w.round0_tx, sizeof(uint32_t));
	graph_initial(&w, words);
	run_round(&w, words, status);
	for (i = 0; i < w.ntx; i++)
		if (status[i] != TX_STATUS_READONLY) {
			if (a == UINT64_MAX)
				a = i;
			else if (b == UINT64_MAX)
				b = i;
		}
	REQUIRE(b != UINT64_MAX);

	/* a lowered value the replay does not produce */
	for (v = 0; v < c.vertices && words[v] <= 1; v++)
		;
	REQUIRE(v < c.vertices);
	words[v]--;
	graph_initial(&w, state);
	graph_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "in the serial replay of round 0");
	words[v]++;

	/* a stamp given twice */
	t = status[b];
	status[b] = status[a];
	graph_initial(&w, state);
	graph_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "commit stamps");
	status[b] = t;

	graph_initial(&w, state);
	graph_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 1);

	/* the pass: a vertex short of its component's minimum, and one below it */
	memcpy(words, w.expect, c.vertices * sizeof(uint32_t));
	graph_verify_pass(&w, w.label, words, &chk);
	CHECK_EQ_I(chk.ok, 1);
	for (v = 0; v < c.vertices && w.expect[v] == w.label[v]; v++)
		;
	REQUIRE(v < c.vertices);
	words[v] = w.label[v];
	graph_verify_pass(&w, w.label, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "stopped short");
	words[v] = w.expect[v] - 1;
	graph_verify_pass(&w, w.label, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "from outside the component");
	free(words);
	free(state);
	free(status);
	graph_free(&w);
}

/* Both engines' CPU backends, a whole pass at high contention: 40 dense vertices, 600 threads on 32 workers. */
static void run_hot_with(const char *const *opts, const stm_ops *ops, uint32_t retry_limit, uint32_t hash,
			 const char *label)
{
	stm_table_cfg tc = {.threads = 600, .seed = 13};
	char retry[32];
	const char *const engine_opts[] = {"max-passes=1000000000", "stall-timeout=10", retry, NULL};
	stm_params p;
	staged_result res;

	memset(&p, 0, sizeof(p));
	p.threads = tc.threads;
	p.hash = hash;
	p.cpu_workers = 32;
	snprintf(retry, sizeof(retry), "retry-limit=%u", retry_limit);
	tu_engine_params(&p, tu_engine_of(ops), engine_opts);
	REQUIRE(staged_run(&stm_workload_graph, opts, &tc, ops, &p, &res) == 0);
	if (!res.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", label, res.message);
	CHECK(res.stages >= 2); /* the last round lowers nothing */
	CHECK_EQ(res.abandoned, res.retry_limit_reached);
	CHECK(res.commits_update > 0 && res.commits_readonly > 0);
	CHECK_EQ((uint64_t)res.pass.facts[1].value, 1u); /* one component */
}

static void run_hot(const stm_ops *ops, uint32_t retry_limit, uint32_t hash, const char *label)
{
	static const char *const opts[] = {"vertices=40", "edges=600", "edges-per-tx=7", "max-label=1000000", NULL};
	run_hot_with(opts, ops, retry_limit, hash, label);
}

/* The paper's transaction, all of a vertex's neighbours at once: 40 vertices of degree 7 on average. */
static void run_hot_all(const stm_ops *ops, uint32_t retry_limit, uint32_t hash, const char *label)
{
	static const char *const opts[] = {"vertices=40", "edges=140", "edges-per-tx=0", "max-label=1000000", NULL};
	run_hot_with(opts, ops, retry_limit, hash, label);
}

TEST(graph_cpu_backends_at_high_contention)
{
	run_hot(&prstm_graph_cpu_ops, 0, 1, "prstm");
	run_hot(&prstm_graph_cpu_ops, 0, 3, "prstm, hash 3");
	run_hot(&gpustm_graph_cpu_ops, 100, 1, "gpustm");
	/* a retry limit of 1 gives many transactions up: their vertices send again next round */
	run_hot(&gpustm_graph_cpu_ops, 1, 2, "gpustm, retry limit 1, hash 2");
	run_hot_all(&prstm_graph_cpu_ops, 0, 1, "prstm, all neighbours");
	run_hot_all(&gpustm_graph_cpu_ops, 100, 1, "gpustm, all neighbours");
	run_hot_all(&gpustm_graph_cpu_ops, 1, 2, "gpustm, all neighbours, retry limit 1, hash 2");
}
