/* Operation streams for the lock-free list: see list_gen.h. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/list/list_gen.h"

const char *const list_kind_names[] = {
	[LIST_INSERT] = "insert", [LIST_DELETE] = "delete", [LIST_MIXED] = "mixed", [LIST_NKINDS] = NULL,
};
const char *const list_opcode_names[] = {
	[LIST_NOP] = "nop", [LIST_ADD] = "add", [LIST_GET] = "get", [LIST_DEL] = "delete",
};

uint64_t list_real_ops(const list_workload *w)
{
	return w->count[LIST_ADD] + w->count[LIST_GET] + w->count[LIST_DEL];
}

/* Thread t's j-th owned key (keys 1..), 0 past the keyspace. */
static uint32_t owned_key(const list_workload *w, uint32_t t, uint64_t j)
{
	uint64_t k = j * w->threads + t + 1;
	return k <= w->keyspace ? (uint32_t)k : 0;
}

static uint32_t owned_count(const list_workload *w, uint32_t t)
{
	return t < w->keyspace ? (w->keyspace - t - 1) / w->threads + 1 : 0;
}

int list_generate(const list_config *cfg, list_workload *w, char *err, size_t errlen)
{
	uint64_t c, cells, ops = cfg->ops ? cfg->ops : cfg->nodes;
	uint32_t t, i;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	w->threads = cfg->threads;
	w->keyspace = cfg->kind == LIST_MIXED ? 2 * cfg->nodes : cfg->nodes;
	if (cfg->nodes == 0 || cfg->threads == 0)
		return gb_errmsg(err, errlen, "--nodes and --threads must be at least 1");
	if ((uint64_t)w->keyspace > LIST_MAX_KEY)
		return gb_errmsg(err, errlen, "--nodes %u: keys above %u do not fit an operation word",
				 cfg->nodes, LIST_MAX_KEY);
	if (cfg->kind == LIST_MIXED)
		w->steps = (uint32_t)((ops + cfg->threads - 1) / cfg->threads);
	else
		w->steps = (cfg->nodes + cfg->threads - 1) / cfg->threads;
	cells = (uint64_t)w->steps * w->threads;
	if (cells > (1ull << 31))
		return gb_errmsg(err, errlen, "%llu operation slots (--threads x steps) are above the 2^31 limit",
				 (unsigned long long)cells);
	w->ops = gb_xcalloc(cells, sizeof(uint32_t), "list operations");

	if (cfg->kind != LIST_INSERT) {
		uint32_t k, step = cfg->kind == LIST_MIXED ? 2 : 1;
		w->prefill = gb_xmalloc((size_t)cfg->nodes * sizeof(uint32_t), "list prefill");
		for (k = 1; k <= w->keyspace; k += step)
			w->prefill[w->nprefill++] = k;
	}
	if (cfg->kind != LIST_MIXED) {
		unsigned op = cfg->kind == LIST_INSERT ? LIST_ADD : LIST_DEL;
		for (t = 0; t < w->threads && !gb_stop_requested(); t++)
			for (i = 0; i < w->steps && ((i & 0xFFF) || !gb_stop_requested()); i++) {
				uint32_t k = owned_key(w, t, i);
				if (k)
					w->ops[(uint64_t)i * w->threads + t] = LIST_OP(op, k);
			}
	} else {
		/* Which owned keys each thread's history has in the list, one thread at a time. */
		uint8_t *in = gb_xcalloc(w->keyspace + 1, 1, "list generator state");
		uint64_t left = ops;
		for (i = 0; i < w->nprefill; i++)
			in[w->prefill[i]] = 1;
		for (t = 0; t < w->threads && left && !gb_stop_requested(); t++) {
			uint32_t own = owned_count(w, t);
			gb_rng r;
			if (own == 0)
				continue;
			gb_rng_init(&r, cfg->seed, t);
			for (i = 0; i < w->steps && left && ((i & 0xFFF) || !gb_stop_requested()); i++, left--) {
				uint32_t k = owned_key(w, t, gb_rng_below(&r, own));
				unsigned op = gb_rng_below(&r, 3) == 0 ? LIST_GET : in[k] ? LIST_DEL : LIST_ADD;
				if (op != LIST_GET)
					in[k] = op == LIST_ADD;
				w->ops[(uint64_t)i * w->threads + t] = LIST_OP(op, k);
			}
		}
		free(in);
	}
	if (gb_stop_requested()) { /* --timeout or a signal: the workload is not whole */
		list_workload_free(w);
		return gb_errmsg(err, errlen, "generation stopped: %s", gb_stop_reason());
	}
	for (c = 0; c < cells; c++)
		w->count[LIST_OP_OF(w->ops[c])]++;
	return 0;
}

void list_workload_free(list_workload *w)
{
	free(w->ops);
	free(w->prefill);
	memset(w, 0, sizeof(*w));
}
