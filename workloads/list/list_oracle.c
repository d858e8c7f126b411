/* The list oracle: see list_oracle.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "workloads/list/list_oracle.h"

__attribute__((format(printf, 2, 3)))
static void fail(list_verdict *v, const char *fmt, ...)
{
	va_list ap;
	if (!v->ok)
		return;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	v->ok = 0;
}

static const char *const outcome_names[] = {
	[LIST_NOT_RUN] = "not run", [LIST_DONE] = "done", [LIST_MISS] = "missing", [LIST_NOMEM] = "out of heap",
};

void list_verify(const list_workload *w, const uint8_t *outcome, const list_snapshot *s,
		 list_verdict *v)
{
	uint8_t *in = gb_xcalloc(w->keyspace + 1, 1, "list oracle state");
	uint64_t cells = (uint64_t)w->steps * w->threads, c, expected = 0, deleted = 0;
	uint32_t i;

	memset(v, 0, sizeof(*v));
	v->ok = 1;
	for (i = 0; i < w->nprefill; i++)
		in[w->prefill[i]] = 1;
	/* Step-major order replays each thread in its own order; threads share no keys. */
	for (c = 0; c < cells; c++) {
		uint32_t op = LIST_OP_OF(w->ops[c]), k = LIST_KEY_OF(w->ops[c]);
		uint8_t want, got = outcome[c];
		if (op == LIST_NOP)
			continue;
		want = in[k] ? LIST_DONE : LIST_MISS;
		if (op == LIST_ADD) {
			want = LIST_DONE;
			if (got == LIST_NOMEM) {
				v->nomem++;
				continue;
			}
			in[k] = 1;
		} else if (op == LIST_DEL) {
			deleted += in[k] && got == LIST_DONE;
			in[k] = 0;
		}
		if (got != want && v->outcome_mismatches++ == 0) {
			v->first_mismatch = c;
			fail(v, "operation %llu (thread %llu, %s of key %u): %s, the replay says %s",
			     (unsigned long long)c, (unsigned long long)(c % w->threads), list_opcode_names[op], k,
			     outcome_names[got & 3], outcome_names[want]);
		}
	}
	for (i = 1; i <= w->keyspace; i++)
		expected += in[i];
	v->expected_nodes = expected;
	for (c = 0; c < s->nkeys; c++) {
		uint32_t k = s->keys[c];
		if (k == 0 || k > w->keyspace || in[k] != 1) {
			if (k == 0 || k > w->keyspace || in[k] == 0)
				fail(v, "key %u is in the list but was deleted or never added (position %llu)", k,
				     (unsigned long long)c);
			else
				fail(v, "key %u is in the list twice (second at position %llu)", k,
				     (unsigned long long)c);
			if (k && k <= w->keyspace)
				in[k] = 2;
			continue;
		}
		in[k] = 2;
	}
	for (i = 1; i <= w->keyspace; i++)
		if (in[i] == 1)
			fail(v, "key %u should be in the list but cannot be reached (%llu reachable)", i,
			     (unsigned long long)s->nkeys);
	if (s->nkeys != expected)
		fail(v, "the list holds %llu keys, the replay %llu", (unsigned long long)s->nkeys,
		     (unsigned long long)expected);
	if (s->counted != expected)
		fail(v, "the count method says %llu nodes, the replay %llu", (unsigned long long)s->counted,
		     (unsigned long long)expected);
	if (v->nomem && s->heap_known && s->heap_room > deleted)
		fail(v, "%llu adds were refused for want of heap, yet the heap ended with room for %llu more nodes "
		     "and the run's deletes freed at most %llu: the allocator failed while it had free blocks",
		     (unsigned long long)v->nomem, (unsigned long long)s->heap_room, (unsigned long long)deleted);
	if (s->live_blocks != s->nkeys + s->in_deletion)
		fail(v, "the allocator has %llu live blocks for %llu reachable nodes",
		     (unsigned long long)s->live_blocks, (unsigned long long)(s->nkeys + s->in_deletion));
	free(in);
}
