/*
 * Takes back an engine's definition of the transactional API (api/tx.h)
 * after it has included the transaction bodies it runs, so another engine's
 * definition can follow in the same translation unit. No include guard: it
 * is included after every instantiation.
 */
#undef TX_NAME
#undef TX_CTX
#undef TX_MEM
#undef TX_READ
#undef TX_WRITE
#undef TX_ABORTED
#undef TX_PREFETCH
#undef TX_PEEK
#undef TX_RESULT
#undef TX_MAX_SET
