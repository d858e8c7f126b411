/* The deadlock-detection reference decider (see rag_oracle.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "workloads/deadlock/rag_oracle.h"

static void list_push(rag_list *l, const void *item, size_t size)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->a = realloc(l->a, (size_t)l->cap * size);
		if (!l->a)
			gb_die(GB_EXIT_RUNTIME, "out of host memory for the deadlock oracle");
	}
	memcpy((char *)l->a + (size_t)l->n * size, item, size);
	l->n++;
}

/* Remove item k by moving the last one into its place. */
static void list_drop(rag_list *l, uint32_t k, size_t size)
{
	l->n--;
	if (k != l->n)
		memcpy((char *)l->a + (size_t)k * size, (char *)l->a + (size_t)l->n * size, size);
}

void rag_oracle_init(rag_oracle *o, uint32_t procs, uint32_t res, const uint32_t *units)
{
	uint32_t j;
	memset(o, 0, sizeof(*o));
	o->procs = procs;
	o->res = res;
	o->units = gb_xcalloc(res, sizeof(uint32_t), "oracle units");
	o->free_units = gb_xcalloc(res, sizeof(uint32_t), "oracle free units");
	o->waits_for = gb_xmalloc((size_t)procs * sizeof(uint32_t), "oracle process states");
	o->holders = gb_xcalloc(res, sizeof(rag_list), "oracle holder lists");
	o->waiters = gb_xcalloc(res, sizeof(rag_list), "oracle waiter lists");
	o->held = gb_xcalloc(procs, sizeof(rag_list), "oracle holding lists");
	o->seen_res = gb_xcalloc(res, 1, "oracle search marks");
	o->seen_proc = gb_xcalloc(procs, 1, "oracle search marks");
	o->stack = gb_xmalloc(((size_t)res + procs) * sizeof(uint32_t), "oracle search stack");
	for (j = 0; j < res; j++)
		o->units[j] = o->free_units[j] = units ? units[j] : 1;
	memset(o->waits_for, 0xff, (size_t)procs * sizeof(uint32_t));
}

void rag_oracle_free(rag_oracle *o)
{
	uint32_t k;
	for (k = 0; k < o->res; k++) {
		free(o->holders[k].a);
		free(o->waiters[k].a);
	}
	for (k = 0; k < o->procs; k++)
		free(o->held[k].a);
	free(o->holders);
	free(o->waiters);
	free(o->held);
	free(o->units);
	free(o->free_units);
	free(o->waits_for);
	free(o->seen_res);
	free(o->seen_proc);
	free(o->stack);
	memset(o, 0, sizeof(*o));
}

static rag_holder *find_holder(const rag_oracle *o, uint32_t proc, uint32_t res, uint32_t *at)
{
	rag_holder *h = o->holders[res].a;
	uint32_t k;
	for (k = 0; k < o->holders[res].n; k++)
		if (h[k].proc == proc) {
			if (at)
				*at = k;
			return &h[k];
		}
	return NULL;
}

uint32_t rag_oracle_holds(const rag_oracle *o, uint32_t proc, uint32_t res)
{
	const rag_holder *h = find_holder(o, proc, res, NULL);
	return h ? h->count : 0;
}

int rag_oracle_check(const rag_oracle *o, uint8_t type, uint32_t proc, uint32_t res, char *why,
		     size_t whylen)
{
	if (proc >= o->procs) {
		snprintf(why, whylen, "process %u does not exist (there are %u)", proc, o->procs);
		return -1;
	}
	if (res >= o->res) {
		snprintf(why, whylen, "resource %u does not exist (there are %u)", res, o->res);
		return -1;
	}
	if (o->waits_for[proc] != RAG_NONE) {
		snprintf(why, whylen, "process %u is blocked waiting for resource %u: it cannot %s", proc,
			 o->waits_for[proc], type == RAG_REQUEST ? "request" : "release");
		return -1;
	}
	if (type == RAG_RELEASE && rag_oracle_holds(o, proc, res) == 0) {
		snprintf(why, whylen, "process %u holds no unit of resource %u", proc, res);
		return -1;
	}
	if (type != RAG_REQUEST && type != RAG_RELEASE) {
		snprintf(why, whylen, "unknown event type %u", type);
		return -1;
	}
	return 0;
}

int rag_oracle_would_deadlock(rag_oracle *o, uint32_t proc, uint32_t res)
{
	uint32_t top = 0, k, found = 0;

	memset(o->seen_res, 0, o->res);
	memset(o->seen_proc, 0, o->procs);
	o->seen_res[res] = 1;
	o->seen_proc[proc] = 1; /* the requester: blocked on res, which is already on the way */
	o->stack[top++] = res;
	while (top && !found) {
		uint32_t r = o->stack[--top];
		const rag_holder *h = o->holders[r].a;
		for (k = 0; k < o->holders[r].n && !found; k++) {
			uint32_t p = h[k].proc, next;
			if (o->seen_proc[p])
				continue;
			o->seen_proc[p] = 1;
			next = o->waits_for[p];
			if (next == RAG_NONE)
				found = 1; /* an active process: it can finish and free what it holds */
			else if (!o->seen_res[next]) {
				o->seen_res[next] = 1;
				o->stack[top++] = next;
			}
		}
	}
	return !found;
}

static void grant(rag_oracle *o, uint32_t proc, uint32_t res)
{
	rag_holder *h = find_holder(o, proc, res, NULL), add = {proc, 1};
	if (h)
		h->count++;
	else
		list_push(&o->holders[res], &add, sizeof(add));
	list_push(&o->held[proc], &res, sizeof(res));
}

void rag_oracle_state_events(const rag_oracle *o, uint64_t extra, rag_events *out)
{
	uint64_t n = 0, e = 0;
	uint32_t p, k;

	for (p = 0; p < o->procs; p++)
		n += o->held[p].n + (o->waits_for[p] != RAG_NONE);
	rag_events_init(out, n + extra);
	out->count = n;
	for (p = 0; p < o->procs; p++)
		for (k = 0; k < o->held[p].n; k++, e++) {
			out->type[e] = RAG_REQUEST;
			out->proc[e] = p;
			out->res[e] = ((const uint32_t *)o->held[p].a)[k];
		}
	for (p = 0; p < o->procs; p++)
		if (o->waits_for[p] != RAG_NONE) {
			out->type[e] = RAG_REQUEST;
			out->proc[e] = p;
			out->res[e] = o->waits_for[p];
			e++;
		}
}

rag_decision rag_oracle_apply(rag_oracle *o, uint8_t type, uint32_t proc, uint32_t res)
{
	rag_decision d = {RAG_NOUTCOMES, RAG_NONE};
	uint32_t k, at = 0;

	if (type == RAG_REQUEST) {
		if (o->free_units[res] > 0) {
			o->free_units[res]--;
			grant(o, proc, res);
			d.outcome = RAG_GRANTED;
		} else if (rag_oracle_would_deadlock(o, proc, res)) {
			d.outcome = RAG_DEADLOCK;
		} else {
			o->waits_for[proc] = res;
			list_push(&o->waiters[res], &proc, sizeof(proc));
			d.outcome = RAG_BLOCKED;
		}
		return d;
	}
	/* a release of one unit proc holds */
	{
		rag_holder *h = find_holder(o, proc, res, &at);
		uint32_t *mine = o->held[proc].a, *w = o->waiters[res].a;
		if (--h->count == 0)
			list_drop(&o->holders[res], at, sizeof(rag_holder));
		for (k = 0; mine[k] != res; k++)
			;
		list_drop(&o->held[proc], k, sizeof(uint32_t));
		if (o->waiters[res].n == 0) {
			o->free_units[res]++;
			d.outcome = RAG_RELEASED;
			return d;
		}
		for (at = 0, k = 1; k < o->waiters[res].n; k++)
			if (w[k] < w[at])
				at = k;
		d.to = w[at];
		list_drop(&o->waiters[res], at, sizeof(uint32_t));
		o->waits_for[d.to] = RAG_NONE;
		grant(o, d.to, res);
		d.outcome = RAG_REGRANTED;
	}
	return d;
}
