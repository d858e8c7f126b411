/*
 * What the CSMV family runs: the workloads of workloads/stm/list.h that CSMV,
 * its ablations, JVSTM and JVSTM-GPU run, and CSMV's engine names. Their
 * executions, kernels, ops and registry runs are generated from these lists.
 *
 *   CSMV_WORKLOADS(X, ...)  X(name, ahead, ...) for each workload, passing on
 *                           the arguments after X; ahead 1: its read-only
 *                           transactions read their words ahead
 *                           (csmv_tx_read_ahead: memcached's GETs)
 *   CSMV_MODES(X)           X(name, mode): the engine names of one
 *                           implementation, and their mode bits (stm/csmv/csmv.h):
 *                           the paper's server, then the server with the ATR
 *                           indexed by word (csmv-index...)
 */
#ifndef GB_CSMV_WORKLOADS_H
#define GB_CSMV_WORKLOADS_H

#include "workloads/stm/list.h"

#define CSMV_WORKLOADS(X, ...) X(bank, 0, __VA_ARGS__) X(memcached, 1, __VA_ARGS__)

#define CSMV_MODES(X)                                                                              \
	X(csmv, CSMV_FULL) X(csmv_nocv, CSMV_NOCV) X(csmv_onlycs, CSMV_ONLYCS)                     \
	X(csmv_index, CSMV_FULL | CSMV_INDEX) X(csmv_index_nocv, CSMV_NOCV | CSMV_INDEX)            \
	X(csmv_index_onlycs, CSMV_ONLYCS | CSMV_INDEX)

#endif
