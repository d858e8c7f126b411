/*
 * The vacation transaction bodies, written once against the transactional
 * API of api/tx.h; each STM engine instantiates them by defining that API and
 * then including this file, which defines TX_NAME(vacation_body). No include
 * guard: it is included once per engine. A booking of a sold-out room type,
 * a booking by a customer who holds a room, and a cancellation of a booking
 * not made yet return TX_BODY_SEMANTIC: the paper's semantic conflict. A
 * price change never does.
 */
#include "api/tx.h"
#include "common/port.h"
#include "workloads/stm/vacation.h"

GB_HD int TX_NAME(vacation_body)(TX_CTX *tx, const TX_MEM *m, const tx_table *t, uint32_t i,
				 const tx_entry *x)
{
	vacation_entry e = vacation_entry_of(x);
	uint32_t addrs[VACATION_QUERY_TYPES] = {e.a, e.b, e.c}, holds, free_rooms;

	(void)t;
	(void)i;
	if (VACATION_OP(e.meta) == VACATION_QUERY) {
		TX_PREFETCH(tx, m, addrs, VACATION_QUERY_TYPES);
		return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
	}
	TX_PREFETCH(tx, m, addrs, 2); /* the customer's (or price) word and the room type's */
	holds = TX_READ(tx, m, e.a);
	free_rooms = TX_READ(tx, m, e.b);
	if (TX_ABORTED(tx))
		return TX_BODY_ABORT;
	if (VACATION_OP(e.meta) == VACATION_REPRICE) {
		/* a = the price word, b = the free rooms the manager looks at */
		TX_WRITE(tx, m, e.a, holds + e.c);
		return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
	}
	if (VACATION_OP(e.meta) == VACATION_BOOK) {
		if (holds != 0 || free_rooms == 0)
			return TX_BODY_SEMANTIC;
		TX_WRITE(tx, m, e.b, free_rooms - 1);
		TX_WRITE(tx, m, e.a, e.c);
	} else {
		if (holds != e.c)
			return TX_BODY_SEMANTIC;
		TX_WRITE(tx, m, e.b, free_rooms + 1);
		TX_WRITE(tx, m, e.a, 0);
	}
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}
