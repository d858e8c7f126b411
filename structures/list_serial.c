/*
 * The serial C lists the paper compares against (section 6.1.3): nodes from
 * malloc, one thread, the operations in step order (every thread's i-th
 * operation before any (i+1)-th).
 *
 *  cpu:      the paper's C implementation, the same complexity as the OpenCL
 *            list: add walks to the end, delete walks to the node's
 *            predecessor.
 *  cpu-tail: the same list with a tail pointer, so add is O(1): the fair
 *            serial baseline for long lists.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "structures/list_engine.h"

typedef struct snode {
	uint32_t key;
	struct snode *next;
} snode;

typedef struct slist {
	snode *head, *tail;  /* tail: cpu-tail only */
	int use_tail;
	uint64_t live;       /* malloc'd nodes not freed */
} slist;

static int s_add(slist *l, uint32_t key)
{
	snode *n = malloc(sizeof(*n)), **c;
	if (!n)
		return 0;
	n->key = key;
	n->next = NULL;
	l->live++;
	if (l->use_tail) {
		if (l->tail)
			l->tail->next = n;
		else
			l->head = n;
		l->tail = n;
		return 1;
	}
	for (c = &l->head; *c; c = &(*c)->next)
		;
	*c = n;
	return 1;
}

static snode *s_get(const slist *l, uint32_t key)
{
	snode *p;
	for (p = l->head; p; p = p->next)
		if (p->key == key)
			return p;
	return NULL;
}

static int s_delete(slist *l, snode *node)
{
	snode **c, *prev = NULL;
	for (c = &l->head; *c && *c != node; c = &(*c)->next)
		prev = *c;
	if (!*c)
		return 0;
	*c = node->next;
	if (l->tail == node)
		l->tail = prev;
	free(node);
	l->live--;
	return 1;
}

/* The paper's count method. */
static uint64_t s_count(const slist *l)
{
	uint64_t n = 0;
	const snode *p;
	for (p = l->head; p; p = p->next)
		n++;
	return n;
}

static uint8_t s_apply(slist *l, uint32_t op)
{
	uint32_t key = LIST_KEY_OF(op);
	snode *n;
	switch (LIST_OP_OF(op)) {
	case LIST_ADD:
		return s_add(l, key) ? LIST_DONE : LIST_NOMEM;
	case LIST_GET:
		return s_get(l, key) ? LIST_DONE : LIST_MISS;
	case LIST_DEL:
		n = s_get(l, key);
		return n && s_delete(l, n) ? LIST_DONE : LIST_MISS;
	default:
		return LIST_NOT_RUN;
	}
}

static int serial_run(const list_workload *w, list_run *r, int use_tail, char *err, size_t errlen)
{
	uint64_t cells = (uint64_t)w->steps * w->threads, c, cap = 1024, t0;
	double cpn = list_cycles_per_ns();
	slist l;
	snode *p;
	uint32_t i;

	memset(&l, 0, sizeof(l));
	l.use_tail = use_tail;
	for (i = 0; i < w->nprefill; i++)
		if (!s_add(&l, w->prefill[i]))
			return gb_errmsg(err, errlen, "out of memory building the starting list");
	t0 = gb_now_ns();
	for (c = 0; c < cells; c++) {
		uint64_t c0 = gb_cycles();
		r->outcome[c] = s_apply(&l, w->ops[c]);
		r->op_ns[c] = (uint32_t)((double)(gb_cycles() - c0) / cpn);
	}
	r->seconds = gb_seconds_since(t0);
	r->no_op_steps = 1; /* its own list, not the semi-linked list's walks */

	r->snap.keys = gb_xmalloc(cap * sizeof(uint32_t), "list snapshot");
	for (p = l.head; p; p = p->next) {
		if (r->snap.nkeys == cap) {
			cap *= 2;
			r->snap.keys = realloc(r->snap.keys, cap * sizeof(uint32_t));
			if (!r->snap.keys)
				gb_die(GB_EXIT_RUNTIME, "out of memory for a list snapshot");
		}
		r->snap.keys[r->snap.nkeys++] = p->key;
	}
	r->snap.counted = s_count(&l);
	r->snap.live_blocks = l.live;
	while (l.head) {
		p = l.head->next;
		free(l.head);
		l.head = p;
	}
	return 0;
}

static int run_cpu(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	(void)p;
	return serial_run(w, r, 0, err, errlen);
}

static int run_cpu_tail(const list_workload *w, const list_params *p, list_run *r, char *err,
			size_t errlen)
{
	(void)p;
	return serial_run(w, r, 1, err, errlen);
}

const list_engine list_engine_cpu = {
	.head = {.name = "cpu",
		 .summary = "the paper's serial C list: add walks to the end, malloc'd nodes",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.platform = LIST_ON_CPU,
	.run = run_cpu,
};

const list_engine list_engine_cpu_tail = {
	.head = {.name = "cpu-tail",
		 .summary = "serial C list with a tail pointer (add in O(1)), malloc'd nodes",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.platform = LIST_ON_CPU,
	.run = run_cpu_tail,
	.tail = 1,
};
