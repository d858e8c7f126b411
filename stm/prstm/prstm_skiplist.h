/*
 * PR-STM compiled for the skiplist workload: the skiplist body on PR-STM's
 * transactional API (prstm_skiplist_body) and the scheduler step that runs
 * it (prstm_skiplist_step), for both backends. An update touches up to 2 x
 * --levels words, more than the 8 of the other workloads' builds, so the
 * translation units that include this build PR-STM's sets for
 * PRSTM_WIDE_SET words (stm/prstm/prstm_cpu_set16.c, stm/prstm/prstm_gpu_set16.cu), or
 * for fewer on the GPU when the table's transactions are smaller
 * (stm/prstm/prstm_gpu.cuh).
 */
#ifndef GB_PRSTM_SKIPLIST_H
#define GB_PRSTM_SKIPLIST_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/skiplist.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/skiplist_body.h"
#include "api/tx_end.h"

#define PRSTM_STEP prstm_skiplist_step
#define PRSTM_STEP_LOAD skiplist_load_entry
#define PRSTM_STEP_BODY prstm_skiplist_body
#include "stm/prstm/prstm_step.h"

#endif
