/*
 * Every STM workload's transaction body (workloads/stm/list.h), compiled
 * against the transactional API an engine has just defined (api/tx.h). No
 * include guard: an engine includes it once per definition of the API, then
 * api/tx_end.h.
 */
#include "workloads/stm/bank_body.h"
#include "workloads/stm/vacation_body.h"
#include "workloads/stm/skiplist_body.h"
#include "workloads/stm/kmeans_body.h"
#include "workloads/stm/graph_body.h"
#include "workloads/stm/memcached_body.h"
