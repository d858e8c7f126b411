/*
 * The kmeans transaction body, written once against the transactional API of
 * api/tx.h; each STM engine instantiates it by defining that API and then
 * including this file, which defines TX_NAME(kmeans_body). No include guard:
 * it is included once per engine. A transaction adds its points (a count and
 * two sums) to its cluster's count and sums (three words, read and written):
 * never read-only, never a semantic conflict.
 */
#include "api/tx.h"
#include "common/port.h"
#include "workloads/stm/kmeans.h"

GB_HD int TX_NAME(kmeans_body)(TX_CTX *tx, const TX_MEM *m, const tx_table *t, uint32_t i,
			       const tx_entry *x)
{
	kmeans_entry e = kmeans_entry_of(x);
	uint32_t addrs[KMEANS_WORDS_PER_CLUSTER] = {e.base, e.base + 1, e.base + 2}, n, sx, sy;

	(void)t;
	(void)i;
	TX_PREFETCH(tx, m, addrs, KMEANS_WORDS_PER_CLUSTER);
	n = TX_READ(tx, m, e.base);
	sx = TX_READ(tx, m, e.base + 1);
	sy = TX_READ(tx, m, e.base + 2);
	if (TX_ABORTED(tx))
		return TX_BODY_ABORT;
	TX_WRITE(tx, m, e.base, n + KMEANS_COUNT(e.meta));
	TX_WRITE(tx, m, e.base + 1, sx + e.x);
	TX_WRITE(tx, m, e.base + 2, sy + e.y);
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}
