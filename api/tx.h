/*
 * The transactional API a workload's transaction body is written against.
 * A body is written once, as GB_HD code in a workload header that includes
 * this file, and compiled into every STM engine ("template by include":
 * device function pointers are slow). An engine defines the API below for
 * its own descriptors, includes the workload's body header, and then
 * api/tx_end.h, which takes the definitions back so that the next engine (or
 * the same engine for another workload) can give its own in the same
 * translation unit (stm/prstm/prstm_api.h, stm/prstm/prstm_step.h and
 * workloads/stm/bank_body.h are the pattern; workloads/stm/bodies.h includes
 * every workload's body):
 *   TX_NAME(x)          the engine's name for the body function x: a body
 *                       header defines TX_NAME(bank_body), e.g. prstm_bank_body,
 *                       so each engine gets its own instance
 *   TX_CTX              the engine's per-transaction descriptor type
 *   TX_MEM              the engine's shared-memory descriptor type
 *   TX_READ(tx, m, a)   transactional read of data word a (a uint32_t)
 *   TX_WRITE(tx, m, a, v)
 *   TX_ABORTED(tx)      non-zero once the attempt must abort
 *   TX_PREFETCH(tx, m, addrs, n)  read n words the body will use, as one batch
 *                       (an engine without batching reads them one by one)
 *   TX_PEEK(tx, m, a)   a plain load of data word a outside the transaction: not
 *                       in the read set, never validated, and it may see a commit
 *                       half done. For searches (a skiplist's traversal) whose
 *                       outcome the body then confirms with TX_READ of every word
 *                       its decision and its writes depend on
 *                       (workloads/stm/skiplist_body.h says why that is serializable)
 *   TX_RESULT(tx, v)    optional: the value a read-only body computed (bank: the
 *                       sum of the balances it read), which an engine that runs
 *                       read-only entries on a snapshot records for the oracle
 *                       (api/tx_table.h, TX_RESULT_WORDS); by default it does nothing
 *   TX_MAX_SET          optional: the most distinct words the build's sets hold,
 *                       for a body that keeps a transaction's addresses in an
 *                       array (graph's); the backend opened the build because its
 *                       sets hold the table's largest transaction
 * A body returns one of enum tx_body_result to the engine. A body header has
 * no include guard: it is included once per engine that runs it.
 */
#ifndef GB_API_TX_H
#define GB_API_TX_H

#include "api/tx_table.h"

enum tx_body_result {
	TX_BODY_OK = 0,       /* ready to validate and commit */
	TX_BODY_ABORT = 1,    /* concurrent conflict: the engine retries the attempt */
	TX_BODY_SEMANTIC = 2, /* the data says not now (insufficient funds and the like): the
			       * paper's semantic conflict, which the engine's scheduler postpones;
			       * a body may return it after TX_WRITE (the bank's transfer of several
			       * legs), so an engine that writes in place must undo the attempt */
};

#endif

#if !defined(TX_NAME) || !defined(TX_CTX) || !defined(TX_MEM) || !defined(TX_READ) || \
	!defined(TX_WRITE) || !defined(TX_ABORTED) || !defined(TX_PREFETCH) || !defined(TX_PEEK)
#error "an engine defines the transactional API of api/tx.h before it includes a transaction body"
#endif
#ifndef TX_RESULT
#define TX_RESULT(tx, v) ((void)(tx), (void)(v))
#endif
