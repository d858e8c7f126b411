/*
 * The commit order of one batch, from its status words (api/tx_table.h), for
 * the workloads' oracles: what committed as an update, what read-only, what
 * not at all, and the update commits in stamp order. Shared by the oracles,
 * never by an engine.
 */
#ifndef GB_STM_ORDER_H
#define GB_STM_ORDER_H

#include <stdint.h>

typedef struct stm_order {
	uint64_t *entry;   /* entry[s]: the entry whose status is s + 1, for s < updates */
	uint64_t updates;  /* entries that committed with a stamp */
	uint64_t readonly; /* entries that committed read-only */
	uint64_t pending;  /* entries that did not commit */
	uint64_t bad;      /* when stm_order_of fails: the first offending entry */
} stm_order;

/*
 * Fills o from ntx status words. Returns 1 when the stamps are exactly
 * 1..updates, each once, and no entry that may_stamp refuses carries one
 * (may_stamp NULL: any entry may); else 0, with o->bad the first entry that
 * breaks it. o->entry is allocated either way: stm_order_free.
 */
int stm_order_of(stm_order *o, const uint32_t *status, uint64_t ntx,
		 int (*may_stamp)(const void *ctx, uint64_t i), const void *ctx);
void stm_order_free(stm_order *o);

#endif
