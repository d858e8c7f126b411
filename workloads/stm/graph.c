/* Graph generation, its rounds and the oracle: replay per round, components' minima per pass (see graph.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/stm/graph.h"
#include "workloads/stm/stm_order.h"

/* Edge e's endpoints, drawn from its own stream position: generation walks the edges twice. */
static void draw_edge(gb_rng *r, uint32_t n, uint32_t *u, uint32_t *v)
{
	*u = (uint32_t)gb_rng_below(r, n);
	*v = (uint32_t)gb_rng_below(r, n - 1);
	if (*v >= *u)
		(*v)++; /* no self-loops */
}

static uint32_t find_root(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]]; /* path halving */
		x = parent[x];
	}
	return x;
}

/* After entry `n`: the transactions of the marked vertices (all when mark is NULL), in vertex order. */
static void build_table(graph_workload *w, const unsigned char *mark, uint64_t n)
{
	uint32_t epx = w->epx, v;
	uint64_t queued = 0;

	for (v = 0; v < w->cfg.vertices; v++) {
		uint32_t k, end = w->offset[v + 1];
		if (mark && !mark[v])
			continue;
		queued += w->offset[v] < end;
		for (k = w->offset[v]; k < end; k += epx) {
			uint32_t cnt = end - k < epx ? end - k : epx, j;
			graph_entry *e = &w->tx[n];
			e->meta = GRAPH_META(cnt);
			e->src = v;
			e->nb[0] = e->nb[1] = 0;
			for (j = 0; j < cnt; j++) {
				if (j < GRAPH_ENTRY_NEIGHBOURS)
					e->nb[j] = w->target[k + j];
				else
					w->aux[n * w->aux_stride + j - GRAPH_ENTRY_NEIGHBOURS] = w->target[k + j];
			}
			for (; j < epx; j++)
				if (j >= GRAPH_ENTRY_NEIGHBOURS)
					w->aux[n * w->aux_stride + j - GRAPH_ENTRY_NEIGHBOURS] = 0;
			n++;
		}
	}
	w->ntx = n;
	w->queued = queued;
}

int graph_generate(graph_workload *w, const graph_config *cfg, char *err, size_t errlen)
{
	uint32_t n = cfg->vertices, v, u, *parent, *minlab, *size, *cursor;
	uint64_t e, arcs = 2 * cfg->edges, chunks = 0;
	gb_rng r;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	if (n < 2 || cfg->edges < 1 || cfg->edges > GRAPH_MAX_EDGES || n > UINT32_MAX / 2) {
		snprintf(err, errlen, "--vertices %u --edges %" PRIu64 ": the graph needs at least 2 vertices and "
			 "1..%u edges", n, cfg->edges, GRAPH_MAX_EDGES);
		return -1;
	}
	if (cfg->edges_per_tx > GRAPH_MAX_EDGES_PER_TX || cfg->max_label < 1 || cfg->threads < 1) {
		snprintf(err, errlen, "--edges-per-tx %u: a transaction lowers 1..%u neighbours (0: all)",
			 cfg->edges_per_tx, GRAPH_MAX_EDGES_PER_TX);
		return -1;
	}
	w->offset = gb_xcalloc((size_t)n + 1, sizeof(uint32_t), "CSR offsets");
	w->target = gb_xmalloc((size_t)arcs * sizeof(uint32_t), "CSR neighbour ids");
	w->label = gb_xmalloc((size_t)n * sizeof(uint32_t), "vertex values");
	w->expect = gb_xmalloc((size_t)n * sizeof(uint32_t), "components' minima");
	w->prev = gb_xmalloc((size_t)n * sizeof(uint32_t), "round start values");
	w->mark = gb_xcalloc(n, 1, "round's vertices");
	parent = gb_xmalloc((size_t)n * sizeof(uint32_t), "union-find");

	gb_rng_init(&r, cfg->seed, 1);
	for (v = 0; v < n; v++)
		w->label[v] = 1 + (uint32_t)gb_rng_below(&r, cfg->max_label);
	/* First walk over the edges: degrees, and the components by union-find. */
	for (v = 0; v < n; v++)
		parent[v] = v;
	gb_rng_init(&r, cfg->seed, 2);
	for (e = 0; e < cfg->edges && !gb_stop_requested(); e++) {
		uint32_t a, b;
		draw_edge(&r, n, &u, &v);
		w->offset[u + 1]++;
		w->offset[v + 1]++;
		a = find_root(parent, u);
		b = find_root(parent, v);
		if (a != b) {
			if (a < b)
				parent[b] = a;
			else
				parent[a] = b;
		}
	}
	if (gb_stop_check(err, errlen) != 0) { /* the graph is not whole */
		free(parent);
		graph_free(w);
		return -1;
	}
	for (v = 0; v < n; v++)
		if (w->offset[v + 1] > w->max_degree)
			w->max_degree = w->offset[v + 1];
	w->epx = cfg->edges_per_tx;
	if (w->epx == 0) {
		/* all neighbours: one transaction per vertex, if the engines' sets hold the largest */
		uint32_t cap = cfg->max_words ? cfg->max_words : 1 + GRAPH_MAX_EDGES_PER_TX;
		const char *why = cfg->max_words ? "the engines' read and write sets" : "the entry's count field";
		if (cap > 1 + GRAPH_MAX_EDGES_PER_TX) {
			cap = 1 + GRAPH_MAX_EDGES_PER_TX;
			why = "the entry's count field";
		}
		if (1 + (uint64_t)w->max_degree > cap) {
			if (cfg->max_words && cfg->engine && cap == cfg->max_words)
				snprintf(err, errlen, "graph: --edges-per-tx 0 (all, the paper's transaction) sends a "
					 "vertex's value to all its neighbours, and this graph's largest degree is %u, "
					 "so a transaction touches up to %u words, but %s runs graph transactions of "
					 "at most %u: set --edges-per-tx 1..%u to split a vertex's neighbours over "
					 "transactions of at most that many (our bounded variant), or a graph of "
					 "smaller degrees (--edges)", w->max_degree, 1 + w->max_degree, cfg->engine,
					 cap, cap - 1);
			else
				snprintf(err, errlen, "graph: --edges-per-tx 0 (all, the paper's transaction) sends a "
					 "vertex's value to all its neighbours, and this graph's largest degree is %u, "
					 "so a transaction touches up to %u words, past the %u that %s hold: set "
					 "--edges-per-tx 1..%u to split a vertex's neighbours over transactions of at "
					 "most that many (our bounded variant), or a graph of smaller degrees (--edges)",
					 w->max_degree, 1 + w->max_degree, cap, why, cap - 1);
			free(parent);
			graph_free(w);
			return -1;
		}
		w->epx = w->max_degree ? w->max_degree : 1;
	}
	for (v = 0; v < n; v++) {
		uint32_t d = w->offset[v + 1];
		chunks += (d + w->epx - 1) / w->epx;
		w->split += d > w->epx;
		w->offset[v + 1] += w->offset[v];
	}
	/* Second walk: the neighbour ids, both directions, in edge order. */
	cursor = gb_xmalloc((size_t)n * sizeof(uint32_t), "CSR fill cursors");
	memcpy(cursor, w->offset, (size_t)n * sizeof(uint32_t));
	gb_rng_init(&r, cfg->seed, 2);
	for (e = 0; e < cfg->edges; e++) {
		draw_edge(&r, n, &u, &v);
		w->target[cursor[u]++] = v;
		w->target[cursor[v]++] = u;
	}
	free(cursor);
	/* Each component's minimum value, and its size. */
	minlab = gb_xmalloc((size_t)n * sizeof(uint32_t), "components' minima");
	size = gb_xcalloc(n, sizeof(uint32_t), "components' sizes");
	for (v = 0; v < n; v++)
		minlab[v] = UINT32_MAX;
	for (v = 0; v < n; v++) {
		uint32_t root = find_root(parent, v);
		if (w->label[v] < minlab[root])
			minlab[root] = w->label[v];
		size[root]++;
	}
	for (v = 0; v < n; v++) {
		uint32_t root = find_root(parent, v);
		w->expect[v] = minlab[root];
		if (root == v) {
			w->components++;
			if (size[v] > w->largest_component)
				w->largest_component = size[v];
		}
	}
	free(minlab);
	free(size);
	free(parent);

	w->round0_tx = chunks;
	w->max_words = 1 + (w->max_degree < w->epx ? w->max_degree : w->epx);
	w->aux_stride = w->epx > GRAPH_ENTRY_NEIGHBOURS ? w->epx - GRAPH_ENTRY_NEIGHBOURS : 0;
	if (chunks > (1ull << 31)) {
		snprintf(err, errlen, "--edges %" PRIu64 " at --edges-per-tx %u makes %" PRIu64 " transactions in "
			 "a round, beyond the table limit of 2^31", cfg->edges, w->epx, chunks);
		graph_free(w);
		return -1;
	}
	w->tx = gb_xcalloc((size_t)(chunks ? chunks : 1), sizeof(graph_entry), "transaction table");
	w->aux = w->aux_stride ? gb_xcalloc((size_t)chunks * w->aux_stride, sizeof(uint32_t),
					    "transactions' neighbour ids") : NULL;
	graph_stage(w, 0, w->label, NULL);
	return 0;
}

void graph_free(graph_workload *w)
{
	free(w->offset);
	free(w->target);
	free(w->label);
	free(w->expect);
	free(w->prev);
	free(w->mark);
	free(w->tx);
	free(w->aux);
	memset(w, 0, sizeof(*w));
}

tx_input graph_input_of(const graph_workload *w)
{
	tx_input in;
	in.words = w->cfg.vertices;
	in.max_words = w->max_words;
	in.ntx = w->ntx;
	in.tx_per_thread = (uint32_t)((w->ntx + w->cfg.threads - 1) / w->cfg.threads);
	if (in.tx_per_thread == 0)
		in.tx_per_thread = 1;
	in.max_tag = 0;
	in.entries = w->tx;
	in.entry_size = sizeof(graph_entry);
	in.aux = w->aux;
	in.aux_stride = w->aux_stride;
	return in;
}

void graph_initial(const graph_workload *w, uint32_t *words)
{
	memcpy(words, w->label, (size_t)w->cfg.vertices * sizeof(uint32_t));
}

uint32_t graph_stage(graph_workload *w, uint32_t s, uint32_t *words, const uint32_t *status)
{
	uint32_t n = w->cfg.vertices, v;
	uint64_t i, kept;
	int committed = 0;

	if (s == 0) {
		w->round = 0;
		w->stalled = 0;
		build_table(w, NULL, 0);
		memcpy(w->prev, words, (size_t)n * sizeof(uint32_t));
		return w->ntx > 0;
	}
	for (i = 0; i < w->ntx && !committed; i++)
		committed = status[i] != TX_STATUS_PENDING;
	if (w->ntx && !committed) {
		w->stalled = 1; /* nothing committed: nothing would next time either */
		return 0;
	}
	/* The vertices the round lowered send again, every transaction of theirs ... */
	for (v = 0; v < n; v++)
		w->mark[v] = words[v] != w->prev[v];
	/* ... and a transaction given up runs again by itself (first in the table). Only
	 * these shrink once nothing is lowered any more, so the pass ends. */
	for (i = 0, kept = 0; i < w->ntx; i++)
		if (status[i] == TX_STATUS_PENDING && !w->mark[w->tx[i].src]) {
			if (kept != i) {
				w->tx[kept] = w->tx[i];
				if (w->aux_stride)
					memmove(w->aux + kept * w->aux_stride, w->aux + i * w->aux_stride,
						(size_t)w->aux_stride * sizeof(uint32_t));
			}
			kept++;
		}
	build_table(w, w->mark, kept);
	w->queued += kept; /* an upper bound: a vertex may have several given up */
	if (w->ntx == 0)
		return 0; /* the fixpoint */
	memcpy(w->prev, words, (size_t)n * sizeof(uint32_t));
	w->round++;
	return 1;
}

void graph_verify_batch(const graph_workload *w, uint32_t *state, const uint32_t *status, const uint32_t *after,
			graph_check *out)
{
	stm_order o;
	uint64_t *order, i, nupd;
	uint32_t n = w->cfg.vertices;

	memset(out, 0, sizeof(*out));
	out->ok = stm_order_of(&o, status, w->ntx, NULL, NULL);
	out->abandoned = o.pending;
	out->committed_readonly = o.readonly;
	out->committed_update = nupd = o.updates;
	order = o.entry;
	if (!out->ok)
		snprintf(out->message, sizeof(out->message),
			 "commit stamps are not a permutation of the transactions that wrote: entry %" PRIu64
			 " (vertex %u) has status %u", o.bad, w->tx[o.bad].src, status[o.bad]);
	for (i = 0; i < nupd && out->ok; i++) {
		uint64_t k = order[i];
		const graph_entry *e = &w->tx[k];
		uint32_t cnt = GRAPH_COUNT(e->meta), j, src;
		if (e->src >= n) {
			snprintf(out->message, sizeof(out->message), "entry %" PRIu64 " has source vertex %u of %u", k,
				 e->src, n);
			out->ok = 0;
			break;
		}
		src = state[e->src];
		for (j = 0; j < cnt; j++) {
			uint32_t nb = graph_neighbour(e, w->aux, w->aux_stride, (uint32_t)k, j);
			if (nb >= n) {
				snprintf(out->message, sizeof(out->message),
					 "entry %" PRIu64 " has neighbour %u of %u vertices", k, nb, n);
				out->ok = 0;
				break;
			}
			if (state[nb] > src)
				state[nb] = src;
		}
	}
	for (i = 0; i < n && out->ok; i++)
		if (state[i] != after[i]) {
			snprintf(out->message, sizeof(out->message),
				 "vertex %" PRIu64 "'s value is %u on the device, %u in the serial replay of round %u "
				 "in commit order", i, after[i], state[i], w->round);
			out->ok = 0;
		}
	for (i = 0; i < n; i++)
		out->lowered += after[i] < w->prev[i];
	free(order);
}

void graph_verify_pass(const graph_workload *w, const uint32_t *start, const uint32_t *outcome, graph_check *out)
{
	uint32_t v;

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	for (v = 0; v < w->cfg.vertices; v++)
		out->lowered += outcome[v] < start[v];
	if (w->stalled) {
		snprintf(out->message, sizeof(out->message),
			 "the pass ended in round %u after a round in which none of its %" PRIu64
			 " transactions committed", w->round, w->ntx);
		out->ok = 0;
		return;
	}
	for (v = 0; v < w->cfg.vertices; v++)
		if (outcome[v] != w->expect[v]) {
			snprintf(out->message, sizeof(out->message),
				 "vertex %u ends with value %u, but the minimum value of its connected component is %u%s",
				 v, outcome[v], w->expect[v],
				 outcome[v] < w->expect[v] ? " (a value from outside the component)" :
							     " (the propagation stopped short)");
			out->ok = 0;
			return;
		}
}
