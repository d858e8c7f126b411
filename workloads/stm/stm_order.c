/* The commit order of a batch for the workloads' oracles (workloads/stm/stm_order.h). */
#include <stdlib.h>

#include "api/tx_table.h"
#include "common/error.h"
#include "workloads/stm/stm_order.h"

int stm_order_of(stm_order *o, const uint32_t *status, uint64_t ntx,
		 int (*may_stamp)(const void *ctx, uint64_t i), const void *ctx)
{
	uint64_t i;

	o->updates = o->readonly = o->pending = 0;
	o->bad = 0;
	for (i = 0; i < ntx; i++) {
		if (status[i] == TX_STATUS_PENDING)
			o->pending++;
		else if (status[i] == TX_STATUS_READONLY)
			o->readonly++;
		else
			o->updates++;
	}
	o->entry = gb_xmalloc((o->updates ? o->updates : 1) * sizeof(uint64_t), "replay order");
	for (i = 0; i < o->updates; i++)
		o->entry[i] = UINT64_MAX;
	for (i = 0; i < ntx; i++) {
		uint64_t s = (uint64_t)status[i] - 1;
		if (status[i] == TX_STATUS_PENDING || status[i] == TX_STATUS_READONLY)
			continue;
		if (s >= o->updates || o->entry[s] != UINT64_MAX || (may_stamp && !may_stamp(ctx, i))) {
			o->bad = i;
			return 0;
		}
		o->entry[s] = i;
	}
	return 1;
}

void stm_order_free(stm_order *o)
{
	free(o->entry);
	o->entry = NULL;
}
