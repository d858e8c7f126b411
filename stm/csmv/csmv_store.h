/*
 * The versioned store in host memory that the CPU backends of csmv
 * (stm/csmv/csmv_cpu.c) and jvstm (stm/csmv/jvstm_cpu.c) keep: stm/csmv/csmv.h's boxes
 * (a version count and CSMV_VERSIONS slots per data word), GTS and the
 * reclamation bound, the snapshot announcement slots, and the status and
 * read-only result words the oracle reads. One copy, so that the load, the
 * newest-version fetch and what a run starts from are the same for both
 * engines. What each engine adds (csmv's mailboxes and ATR index, jvstm's
 * ATR) it allocates and sets in m itself.
 */
#ifndef GB_CSMV_STORE_H
#define GB_CSMV_STORE_H

#include <stdint.h>

#include "api/tx_table.h"
#include "stm/csmv/csmv.h"
#include "stm/stm.h"

typedef struct csmv_store {
	tx_input in;
	uint32_t *status, *results;
	csmv_words words;
	csmv_mem m;     /* head, ver, g (words) and client_ts, m.ngroups of them */
	tx_table table; /* over the workload's host table and status and results */
} csmv_store;

/* slots: announcement slots (client groups, or workers); slots_what names them in an out-of-memory message. */
void csmv_store_open(csmv_store *s, const tx_input *in, uint32_t slots, const char *slots_what);

/* Before a run: no entry committed, GTS and the bound 0, every slot idle, every word's newest value its
 * only version (csmv_box_rebase: the run starts from what the last one left). */
void csmv_store_clear(csmv_store *s);

/* Frees what csmv_store_open allocated. */
void csmv_store_close(csmv_store *s);

/* The stm_ops functions, for a backend whose state begins with its csmv_store (ctx points to both). */
void csmv_store_load(void *ctx, const uint32_t *words);
void csmv_store_fetch(void *ctx, uint32_t *words, uint32_t *status);
void csmv_store_fetch_results(void *ctx, uint32_t *results);

/* 0: both engines' commit timestamps order one pass over the table, which the oracle replays (stm/registry.c). */
int csmv_store_rounds_ok(void *ctx);

/* A backend's stm_ops over the store: its own open, run and close, the store's other functions. */
#define CSMV_STORE_OPS(open_fn, run_fn, close_fn)                                     \
	{                                                                             \
		.open = open_fn,                                                      \
		.load = csmv_store_load,                                              \
		.run = run_fn,                                                        \
		.rounds_ok = csmv_store_rounds_ok,                                    \
		.fetch = csmv_store_fetch,                                            \
		.close = close_fn,                                                    \
		.fetch_results = csmv_store_fetch_results,                            \
	}

#endif
