/*
 * The bank transaction bodies, written once against the transactional API of
 * api/tx.h; each STM engine instantiates them by defining that API and then
 * including this file. A withdrawal or transfer that finds too little money
 * returns TX_BODY_SEMANTIC: the paper's semantic conflict.
 */
#ifndef GB_BANK_BODY_H
#define GB_BANK_BODY_H

#include "api/tx.h"
#include "common/port.h"
#include "workloads/bank.h"

GB_HD int bank_tx_body(TX_CTX *tx, const TX_MEM *m, const bank_view *v, uint32_t i,
		       const bank_entry *e)
{
	uint32_t type = BANK_TYPE(e->meta), n = BANK_NACCT(e->meta), j;
	uint32_t addrs[2 * BANK_MAX_TRANSFERS];
	int32_t amount = e->amount, bal;

	for (j = 0; j < n; j++)
		addrs[j] = bank_entry_account(e, v->extra, v->extra_stride, i, j);
	TX_PREFETCH(tx, m, addrs, n);
	switch (type) {
	case BANK_DEPOSIT:
		bal = (int32_t)TX_READ(tx, m, e->a);
		TX_WRITE(tx, m, e->a, (uint32_t)(bal + amount));
		break;
	case BANK_WITHDRAW:
		bal = (int32_t)TX_READ(tx, m, e->a);
		if (TX_ABORTED(tx))
			return TX_BODY_ABORT;
		if (bal < amount)
			return TX_BODY_SEMANTIC;
		TX_WRITE(tx, m, e->a, (uint32_t)(bal - amount));
		break;
	case BANK_TRANSFER:
		for (j = 0; j + 1 < n; j += 2) {
			uint32_t src = addrs[j], dst = addrs[j + 1];
			bal = (int32_t)TX_READ(tx, m, src);
			if (TX_ABORTED(tx))
				return TX_BODY_ABORT;
			if (bal < amount)
				return TX_BODY_SEMANTIC;
			TX_WRITE(tx, m, src, (uint32_t)(bal - amount));
			/* Read the destination after the debit so src == dst stays correct. */
			bal = (int32_t)TX_READ(tx, m, dst);
			TX_WRITE(tx, m, dst, (uint32_t)(bal + amount));
		}
		break;
	default: /* BANK_BALANCE: a read-only inquiry over n accounts */
		for (j = 0; j < n; j++)
			(void)TX_READ(tx, m, addrs[j]);
		break;
	}
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}

#endif
