/*
 * The graph transaction body, written once against the transactional API of
 * api/tx.h; each STM engine instantiates it by defining that API and then
 * including this file, which defines TX_NAME(graph_body). No include guard:
 * it is included once per engine. It reads the source vertex's value and its
 * neighbours' (all as one batch: the addresses are in the entry), and lowers
 * every neighbour whose value is larger to the source's; one that lowers any
 * also writes the source's value back, unchanged (graph.h says why). One
 * that lowers nothing has written nothing and commits read-only; none meets
 * a semantic conflict.
 */
#include "api/tx.h"
#include "common/port.h"
#include "workloads/stm/graph.h"

/*
 * The addresses of one transaction, as many as the build's sets hold (TX_MAX_SET): a kernel of 16
 * words keeps 16 on its stack, not the 64 of the widest. The backend opened this build because
 * its sets hold the table's largest transaction; a neighbour past them (which cannot be) would be
 * read by TX_READ alone and abort on the engine's capacity.
 */
#ifdef TX_MAX_SET
#define GRAPH_BODY_ADDRS TX_MAX_SET
#else
#define GRAPH_BODY_ADDRS (1 + GRAPH_MAX_EDGES_PER_TX)
#endif

GB_HD int TX_NAME(graph_body)(TX_CTX *tx, const TX_MEM *m, const tx_table *t, uint32_t i, const tx_entry *x)
{
	graph_entry e = graph_entry_of(x);
	uint32_t n = GRAPH_COUNT(e.meta), addrs[GRAPH_BODY_ADDRS] = {0}, j, src, lowered = 0;
	uint32_t held = n + 1 < GRAPH_BODY_ADDRS ? n + 1 : GRAPH_BODY_ADDRS;

	addrs[0] = e.src;
	for (j = 0; j + 1 < held; j++)
		addrs[1 + j] = graph_neighbour(&e, t->aux, t->aux_stride, i, j);
	TX_PREFETCH(tx, m, addrs, held);
	src = TX_READ(tx, m, e.src);
	for (j = 0; j < n; j++) {
		uint32_t a = j + 1 < held ? addrs[1 + j] : graph_neighbour(&e, t->aux, t->aux_stride, i, j);
		uint32_t v = TX_READ(tx, m, a);
		if (TX_ABORTED(tx))
			return TX_BODY_ABORT;
		if (v > src) {
			TX_WRITE(tx, m, a, src);
			lowered = 1;
		}
	}
	/* A transaction that lowers a neighbour writes its source's value back, unchanged: the
	 * value it sends is then one its commit holds the lock of (see graph.h). */
	if (lowered)
		TX_WRITE(tx, m, e.src, src);
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}
#undef GRAPH_BODY_ADDRS
