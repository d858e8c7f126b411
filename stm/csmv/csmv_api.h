/*
 * The transactional API of api/tx.h on CSMV's descriptors (stm/csmv/csmv.h): an
 * engine file includes this, then the workload bodies CSMV runs, then
 * api/tx_end.h. No include guard: api/tx_end.h takes the definitions back.
 */
#include "stm/csmv/csmv.h"

#define TX_NAME(x) csmv_##x
#define TX_CTX csmv_tx
#define TX_MEM csmv_mem
#define TX_READ(tx, m, a) csmv_tx_read((tx), (m), (a))
#define TX_WRITE(tx, m, a, v) ((void)(m), csmv_tx_write((tx), (a), (v)))
#define TX_ABORTED(tx) ((tx)->abort != CSMV_OK)
#define TX_PREFETCH(tx, m, addrs, n) csmv_tx_prefetch((tx), (m), (addrs), (n))
#define TX_PEEK(tx, m, a) csmv_tx_peek((tx), (m), (a))
#define TX_RESULT(tx, v) ((tx)->result = (v))
