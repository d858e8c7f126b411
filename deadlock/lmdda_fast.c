/*
 * The fast CPU detector for multi-unit resource systems (LMDDA decisions, see
 * deadlock/lmdda_cpu.c for the theory and the thesis's algorithm).
 *
 * cpu-bits: the same decisions without RP. The deadlock test only asks
 * whether an active process other than p_i is reachable from q_j, so each
 * resource keeps live[j]: min(2, |L_j|) members of L_j, the active processes
 * reachable from q_j. Two answer the question exactly (two distinct ones
 * include one other than p_i), and pairs compose: the first two distinct
 * members of a union of pairs are a pair of the union of the sets. The
 * edges are lists, so no n x m array exists:
 *   waits_for (m)     AR: each process waits for at most one resource, so
 *                     AR * RP would be one row, and no transpose is needed;
 *   waiters (n), holders (n), held (m): id lists; AG's units per grant edge
 *                     sit in a hash table with the edge's places in holders
 *                     and held, so an edge goes away in O(1).
 * Per event:
 *   granted:  O(1); live[j] gains p_i (nothing reaches q_j).
 *   deadlock: O(1): live[j] holds no process but p_i. No sink scan.
 *   blocked, and releases of types (ii) and (iii): only the resources that
 *             reach p_i (blocked) or q_j (release; q_j included) can change
 *             their live set, since every other resource's paths avoid the
 *             changed edges. This set A comes from a backward search
 *             (resource <- its waiters <- what they hold) on the graph before
 *             the change; its pairs are recomputed on the graph after it by
 *             Tarjan's strongly connected components over A: a component's
 *             pair is drawn from its active holders and the pairs of the
 *             resources its blocked holders wait for outside it, which are
 *             final because Tarjan completes successors first. O(|A| + the
 *             edges at A), O(1) an edge.
 *   release of type (i): O(1).
 * The thesis recomputes in O(log(min(m, n)) n^2 m^2) per release; node
 * hopping with word-wide products (X = AR * RP as m row copies, then
 * RP |= RP * X) in O(log(min(m, n)) n m^2 / 64), over every row however few
 * change; the same update over bit rows of RP in O(|A| m / 64), which was
 * measured 1.5x (256 x 256) to 10x (8192 x 8192) slower than pairs. LMDDA
 * spends its work on updates so that detection takes constant time; a
 * search from q_j at each blocking request (the oracle's way) needs no
 * updates and is faster still on random streams, but is another algorithm.
 * Memory: O(m + n) words (0.1 MiB at 1024 x 1024, 0.8 MiB at 8192 x 8192)
 * plus the lists and the edge table, which grow with the grant edges.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "deadlock/rag.h"

/* ---- cpu-bits: adjacency lists and two live processes per resource ---- */

#define NO_ID UINT32_MAX
#define UNSEEN UINT32_MAX     /* Tarjan: not visited in this pass */
#define DONE (UINT32_MAX - 1) /* Tarjan: its component is complete */

typedef struct id_list {
	uint32_t *a;
	uint32_t n, cap;
} id_list;

/* A grant edge q_j -> p_i: its units and its places in the two lists that hold it. */
typedef struct grant_edge {
	uint64_t key;     /* j * procs + i + 1; 0 marks a free slot */
	uint32_t units;
	uint32_t at_res;  /* place of p_i in holders[j] */
	uint32_t at_proc; /* place of q_j in held[i] */
} grant_edge;

/* Open addressing with linear probing; cap a power of two, at most half used. */
typedef struct grant_table {
	grant_edge *slot;
	size_t cap, used;
	unsigned shift; /* 64 - log2(cap) */
} grant_table;

typedef struct fast_lmdda {
	uint32_t m, n;
	uint32_t *waits_for;  /* m: the resource p_i waits for, RAG_NONE when active */
	id_list *held;        /* m: resources p_i holds units of */
	id_list *holders;     /* n: processes holding units of q_j */
	id_list *waiters;     /* n: processes waiting for q_j */
	uint32_t *free_units; /* n */
	uint32_t *live;       /* 2n: up to two active processes reachable from q_j, RAG_NONE padded */
	grant_table grants;
	/* the affected resources and Tarjan's pass over them, n entries each */
	uint32_t *queue, *mark, *seen, *index, *low, *cursor, *tstack, *call;
	uint32_t mark_stamp, seen_stamp;
} fast_lmdda;

static uint32_t list_push(id_list *l, uint32_t id)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->a = realloc(l->a, (size_t)l->cap * sizeof(uint32_t));
		if (!l->a)
			gb_die(GB_EXIT_RUNTIME, "out of host memory for the LMDDA adjacency lists");
	}
	l->a[l->n] = id;
	return l->n++;
}

/* Remove entry at by moving the last one there; returns the moved id, or NO_ID. */
static uint32_t list_take(id_list *l, uint32_t at)
{
	if (at == --l->n)
		return NO_ID;
	l->a[at] = l->a[l->n];
	return l->a[at];
}

static void table_init(grant_table *t, unsigned log2cap)
{
	t->cap = (size_t)1 << log2cap;
	t->used = 0;
	t->shift = 64 - log2cap;
	t->slot = gb_xcalloc(t->cap, sizeof(grant_edge), "LMDDA grant edges");
}

static size_t table_home(const grant_table *t, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> t->shift);
}

/* The slot holding key, or the free slot where it would go. */
static size_t table_find(const grant_table *t, uint64_t key)
{
	size_t s = table_home(t, key);
	while (t->slot[s].key && t->slot[s].key != key)
		s = (s + 1) & (t->cap - 1);
	return s;
}

static grant_edge *edge_of(fast_lmdda *e, uint32_t i, uint32_t j)
{
	return &e->grants.slot[table_find(&e->grants, (uint64_t)j * e->m + i + 1)];
}

static void table_make_room(grant_table *t)
{
	grant_table bigger;
	size_t s;
	if (2 * (t->used + 1) <= t->cap)
		return;
	table_init(&bigger, 65 - t->shift);
	for (s = 0; s < t->cap; s++)
		if (t->slot[s].key)
			bigger.slot[table_find(&bigger, t->slot[s].key)] = t->slot[s];
	bigger.used = t->used;
	free(t->slot);
	*t = bigger;
}

/* Backward-shift deletion: a later entry of the probe run moves into the
 * hole when its home slot is not between the hole and itself. */
static void table_remove(grant_table *t, size_t hole)
{
	size_t mask = t->cap - 1, s = hole;
	t->used--;
	for (;;) {
		s = (s + 1) & mask;
		if (!t->slot[s].key)
			break;
		if (((s - table_home(t, t->slot[s].key)) & mask) >= ((s - hole) & mask)) {
			t->slot[hole] = t->slot[s];
			hole = s;
		}
	}
	t->slot[hole].key = 0;
}

static void *fast_open(uint32_t procs, uint32_t res, const uint32_t *units)
{
	fast_lmdda *e = gb_xcalloc(1, sizeof(*e), "LMDDA state");
	uint32_t j, **scratch[] = {&e->queue, &e->mark, &e->seen, &e->index,
				   &e->low, &e->cursor, &e->tstack, &e->call};
	size_t s;

	e->m = procs;
	e->n = res;
	e->waits_for = gb_xmalloc((size_t)procs * sizeof(uint32_t), "LMDDA waits-for");
	e->held = gb_xcalloc(procs, sizeof(id_list), "LMDDA held lists");
	e->holders = gb_xcalloc(res, sizeof(id_list), "LMDDA holder lists");
	e->waiters = gb_xcalloc(res, sizeof(id_list), "LMDDA waiter lists");
	e->free_units = gb_xmalloc((size_t)res * sizeof(uint32_t), "LMDDA free units");
	e->live = gb_xmalloc(2 * (size_t)res * sizeof(uint32_t), "LMDDA live processes");
	for (s = 0; s < sizeof(scratch) / sizeof(scratch[0]); s++)
		*scratch[s] = gb_xcalloc(res, sizeof(uint32_t), "LMDDA search scratch");
	memset(e->waits_for, 0xff, (size_t)procs * sizeof(uint32_t));
	memset(e->live, 0xff, 2 * (size_t)res * sizeof(uint32_t));
	for (j = 0; j < res; j++)
		e->free_units[j] = units ? units[j] : 1;
	table_init(&e->grants, 6);
	return e;
}

static uint64_t lists_bytes(const id_list *l, uint32_t count)
{
	uint64_t b = (uint64_t)count * sizeof(id_list);
	uint32_t k;
	for (k = 0; k < count; k++)
		b += (uint64_t)l[k].cap * sizeof(uint32_t);
	return b;
}

static uint64_t fast_bytes(void *ctx)
{
	const fast_lmdda *e = ctx;
	return (uint64_t)e->m * sizeof(uint32_t) + 11ull * e->n * sizeof(uint32_t) +
	       lists_bytes(e->held, e->m) + lists_bytes(e->holders, e->n) +
	       lists_bytes(e->waiters, e->n) + (uint64_t)e->grants.cap * sizeof(grant_edge);
}

static void lists_free(id_list *l, uint32_t count)
{
	uint32_t k;
	for (k = 0; k < count; k++)
		free(l[k].a);
	free(l);
}

static void fast_close(void *ctx)
{
	fast_lmdda *e = ctx;
	lists_free(e->held, e->m);
	lists_free(e->holders, e->n);
	lists_free(e->waiters, e->n);
	free(e->waits_for);
	free(e->free_units);
	free(e->live);
	free(e->queue);
	free(e->mark);
	free(e->seen);
	free(e->index);
	free(e->low);
	free(e->cursor);
	free(e->tstack);
	free(e->call);
	free(e->grants.slot);
	free(e);
}

/* One more unit of q_j for p_i. */
static void fast_give(fast_lmdda *e, uint32_t i, uint32_t j)
{
	grant_edge *g;
	table_make_room(&e->grants);
	g = edge_of(e, i, j);
	if (g->key) {
		g->units++;
		return;
	}
	g->key = (uint64_t)j * e->m + i + 1;
	g->units = 1;
	g->at_res = list_push(&e->holders[j], i);
	g->at_proc = list_push(&e->held[i], j);
	e->grants.used++;
}

/* One unit of q_j fewer for p_i, which holds one; returns the units left. */
static uint32_t fast_take(fast_lmdda *e, uint32_t i, uint32_t j)
{
	grant_edge *g = edge_of(e, i, j);
	uint32_t at_res = g->at_res, at_proc = g->at_proc, moved;

	if (--g->units)
		return g->units;
	table_remove(&e->grants, (size_t)(g - e->grants.slot));
	moved = list_take(&e->holders[j], at_res);
	if (moved != NO_ID)
		edge_of(e, moved, j)->at_res = at_res;
	moved = list_take(&e->held[i], at_proc);
	if (moved != NO_ID)
		edge_of(e, i, moved)->at_proc = at_proc;
	return 0;
}

/* A fresh stamp for arr (n entries); clears arr when the counter wraps. */
static uint32_t next_stamp(uint32_t *counter, uint32_t *arr, uint32_t n)
{
	if (++*counter == 0) {
		memset(arr, 0, (size_t)n * sizeof(uint32_t));
		*counter = 1;
	}
	return *counter;
}

static uint32_t affected_add(fast_lmdda *e, uint32_t k, uint32_t na)
{
	if (e->mark[k] != e->mark_stamp) {
		e->mark[k] = e->mark_stamp;
		e->queue[na++] = k;
	}
	return na;
}

/* Extend queue[0..na) with every resource from which one of them is
 * reachable: a resource reaches q_r iff it is held by a waiter of q_r or
 * reaches one that is. */
static uint32_t add_ancestors(fast_lmdda *e, uint32_t na)
{
	uint32_t head, w, x;
	for (head = 0; head < na; head++) {
		const id_list *wait = &e->waiters[e->queue[head]];
		for (w = 0; w < wait->n; w++) {
			const id_list *hold = &e->held[wait->a[w]];
			for (x = 0; x < hold->n; x++)
				na = affected_add(e, hold->a[x], na);
		}
	}
	return na;
}

static void live_add(uint32_t *pair, uint32_t p)
{
	if (p == RAG_NONE || pair[0] == p || pair[1] == p)
		return;
	if (pair[0] == RAG_NONE)
		pair[0] = p;
	else if (pair[1] == RAG_NONE)
		pair[1] = p;
}

/* Pop the component rooted at k off Tarjan's stack and give every member the
 * same live pair: two of its active holders and of the live processes of
 * the resources its blocked holders wait for outside it. */
static uint32_t finish_component(fast_lmdda *e, uint32_t k, uint32_t top)
{
	uint32_t stamp = next_stamp(&e->seen_stamp, e->seen, e->n), bottom = top, s, h;
	uint32_t pair[2] = {RAG_NONE, RAG_NONE};

	do
		e->seen[e->tstack[--bottom]] = stamp;
	while (e->tstack[bottom] != k);
	for (s = bottom; s < top && pair[1] == RAG_NONE; s++) {
		const id_list *hold = &e->holders[e->tstack[s]];
		for (h = 0; h < hold->n && pair[1] == RAG_NONE; h++) {
			uint32_t p = hold->a[h], w = e->waits_for[p];
			if (w == RAG_NONE) {
				live_add(pair, p);
			} else if (e->seen[w] != stamp) {
				e->seen[w] = stamp;
				live_add(pair, e->live[2 * w]);
				live_add(pair, e->live[2 * w + 1]);
			}
		}
	}
	for (s = bottom; s < top; s++) {
		e->live[2 * e->tstack[s]] = pair[0];
		e->live[2 * e->tstack[s] + 1] = pair[1];
		e->index[e->tstack[s]] = DONE;
	}
	return bottom;
}

/* Recompute the live pairs of the affected resources queue[0..na),
 * successors first, with an iterative Tarjan over the edges q_k -> (blocked
 * holder) -> q_w that stay inside the affected set. */
static void recompute_affected(fast_lmdda *e, uint32_t na)
{
	uint32_t a, next = 0, top = 0, depth;

	for (a = 0; a < na; a++) {
		e->index[e->queue[a]] = UNSEEN;
		e->cursor[e->queue[a]] = 0;
	}
	for (a = 0; a < na; a++) {
		uint32_t root = e->queue[a];
		if (e->index[root] != UNSEEN)
			continue;
		e->index[root] = e->low[root] = next++;
		e->tstack[top++] = e->call[0] = root;
		depth = 1;
		while (depth) {
			uint32_t k = e->call[depth - 1];
			if (e->cursor[k] < e->holders[k].n) {
				uint32_t w = e->waits_for[e->holders[k].a[e->cursor[k]++]];
				if (w == RAG_NONE || e->mark[w] != e->mark_stamp)
					continue;
				if (e->index[w] == UNSEEN) {
					e->index[w] = e->low[w] = next++;
					e->tstack[top++] = e->call[depth++] = w;
				} else if (e->index[w] != DONE && e->index[w] < e->low[k]) {
					e->low[k] = e->index[w];
				}
				continue;
			}
			depth--;
			if (depth && e->low[k] < e->low[e->call[depth - 1]])
				e->low[e->call[depth - 1]] = e->low[k];
			if (e->low[k] == e->index[k])
				top = finish_component(e, k, top);
		}
	}
}

static rag_decision fast_apply(void *ctx, uint8_t type, uint32_t i, uint32_t j)
{
	fast_lmdda *e = ctx;
	rag_decision d = {RAG_GRANTED, RAG_NONE};
	const uint32_t *live = e->live + 2 * (size_t)j;
	uint32_t left, na = 0, x, t;

	if (type == RAG_REQUEST) {
		if (e->free_units[j] > 0) {
			e->free_units[j]--;
			fast_give(e, i, j);
			live_add(e->live + 2 * (size_t)j, i);
			return d;
		}
		if ((live[0] == RAG_NONE || live[0] == i) && (live[1] == RAG_NONE || live[1] == i)) {
			d.outcome = RAG_DEADLOCK;
			return d;
		}
		/* the resources that reach p_i: those it holds and their ancestors */
		next_stamp(&e->mark_stamp, e->mark, e->n);
		for (x = 0; x < e->held[i].n; x++)
			na = affected_add(e, e->held[i].a[x], na);
		na = add_ancestors(e, na);
		e->waits_for[i] = j;
		list_push(&e->waiters[j], i);
		recompute_affected(e, na);
		d.outcome = RAG_BLOCKED;
		return d;
	}
	left = fast_take(e, i, j);
	d.outcome = RAG_RELEASED;
	if (e->waiters[j].n == 0) {
		e->free_units[j]++;
		if (left > 0)
			return d; /* type (i): no edge changed */
	}
	/* q_j and the resources that reach it, on the graph before the regrant */
	next_stamp(&e->mark_stamp, e->mark, e->n);
	na = add_ancestors(e, affected_add(e, j, 0));
	if (e->waiters[j].n > 0) {
		id_list *wait = &e->waiters[j];
		for (t = 1, x = 0; t < wait->n; t++)
			if (wait->a[t] < wait->a[x])
				x = t;
		d.outcome = RAG_REGRANTED;
		d.to = wait->a[x];
		list_take(wait, x);
		e->waits_for[d.to] = RAG_NONE;
		fast_give(e, d.to, j);
	}
	recompute_affected(e, na);
	return d;
}

const rag_engine rag_engine_lmdda_cpu_bits = {
	.head = {.name = "cpu-bits",
		 .summary = "waits-for and adjacency lists, two live processes per resource, SCC updates of "
			    "affected resources",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "lmdda",
	.open = fast_open,
	.apply = fast_apply,
	.bytes = fast_bytes,
	.close = fast_close,
};
