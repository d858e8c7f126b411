/*
 * The bank transaction bodies, written once against the transactional API of
 * api/tx.h; each STM engine instantiates them by defining that API and then
 * including this file, which defines TX_NAME(bank_body) (prstm_bank_body,
 * gpustm_bank_body, ...). No include guard: it is included once per engine.
 * A withdrawal or transfer that finds too little money returns
 * TX_BODY_SEMANTIC: the paper's semantic conflict.
 */
#include "api/tx.h"
#include "common/port.h"
#include "workloads/stm/bank.h"

GB_HD int TX_NAME(bank_body)(TX_CTX *tx, const TX_MEM *m, const tx_table *t, uint32_t i,
			     const tx_entry *x)
{
	bank_entry e = bank_entry_of(x);
	uint32_t type = BANK_TYPE(e.meta), n = BANK_NACCT(e.meta), j;
	/* An update touches at most 2K accounts; a balance inquiry reads --read-only-size, and
	 * beyond this array (which engines hold in registers or local memory) reads the rest
	 * one by one. */
	uint32_t addrs[2 * BANK_MAX_TRANSFERS] = {0}, batch = n < 2 * BANK_MAX_TRANSFERS ? n : 2 * BANK_MAX_TRANSFERS;
	int32_t amount = e.amount, bal;

	for (j = 0; j < batch; j++)
		addrs[j] = bank_entry_account(&e, t->aux, t->aux_stride, i, j);
	TX_PREFETCH(tx, m, addrs, batch);
	switch (type) {
	case BANK_DEPOSIT:
		bal = (int32_t)TX_READ(tx, m, e.a);
		TX_WRITE(tx, m, e.a, (uint32_t)(bal + amount));
		break;
	case BANK_WITHDRAW:
		bal = (int32_t)TX_READ(tx, m, e.a);
		if (TX_ABORTED(tx))
			return TX_BODY_ABORT;
		if (bal < amount)
			return TX_BODY_SEMANTIC;
		TX_WRITE(tx, m, e.a, (uint32_t)(bal - amount));
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
	default: { /* BANK_BALANCE: a read-only inquiry, which gives the sum it read */
		uint32_t sum = 0, acct = e.a;
		if (BANK_IS_RANGE(e.meta)) {
			for (j = 0; j < (uint32_t)amount; j++) {
				sum += TX_READ(tx, m, acct);
				if (++acct == e.b)
					acct = 0;
			}
		} else {
			for (j = 0; j < n; j++)
				sum += TX_READ(tx, m,
					       j < batch ? addrs[j] : bank_entry_account(&e, t->aux, t->aux_stride, i, j));
		}
		TX_RESULT(tx, sum);
		break;
	}
	}
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}
