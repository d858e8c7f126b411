/*
 * The transactional API of api/tx.h on GPU-STM's descriptors (stm/gpustm/gpustm.h):
 * an engine file includes this, then the workload bodies GPU-STM runs, then
 * api/tx_end.h. No include guard: api/tx_end.h takes the definitions back.
 */
#include "stm/gpustm/gpustm.h"

#define TX_NAME(x) gpustm_##x
#define TX_CTX gpustm_tx
#define TX_MEM gpustm_mem
#define TX_READ(tx, m, a) gpustm_tx_read((tx), (m), (a))
#define TX_WRITE(tx, m, a, v) gpustm_tx_write((tx), (m), (a), (v))
#define TX_ABORTED(tx) ((tx)->abort != GPUSTM_OK)
#define TX_PREFETCH(tx, m, addrs, n) gpustm_tx_prefetch((tx), (m), (addrs), (n))
#define TX_PEEK(tx, m, a) ((void)(tx), gb_ld_relaxed_u32((m)->data + (a)))
#define TX_MAX_SET GPUSTM_MAX_SET
