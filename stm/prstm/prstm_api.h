/*
 * The transactional API of api/tx.h on PR-STM's descriptors (stm/prstm/prstm.h):
 * an engine file includes this, then the workload bodies PR-STM runs, then
 * api/tx_end.h. No include guard: api/tx_end.h takes the definitions back.
 */
#include "stm/prstm/prstm.h"

#define TX_NAME(x) prstm_##x
#define TX_CTX prstm_tx
#define TX_MEM prstm_mem
#define TX_READ(tx, m, a) prstm_tx_read((tx), (m), (a))
#define TX_WRITE(tx, m, a, v) prstm_tx_write((tx), (m), (a), (v))
#define TX_ABORTED(tx) ((tx)->abort != PRSTM_OK)
#define TX_PREFETCH(tx, m, addrs, n) prstm_tx_prefetch((tx), (m), (addrs), (n))
#define TX_PEEK(tx, m, a) ((void)(tx), gb_ld_relaxed_u32((m)->data + (a)))
#define TX_MAX_SET PRSTM_MAX_SET
