/*
 * GPU-STM compiled for the skiplist workload: the skiplist body on GPU-STM's
 * transactional API (gpustm_skiplist_body) and the scheduler step that runs
 * it (gpustm_skiplist_step), for both backends. An update touches up to 2 x
 * --levels words, more than the 8 of the other workloads' builds, so the
 * translation units that include this build GPU-STM's sets for
 * GPUSTM_WIDE_SET words (stm/gpustm/gpustm_cpu_set16.c, stm/gpustm/gpustm_gpu_set16.cu).
 */
#ifndef GB_GPUSTM_SKIPLIST_H
#define GB_GPUSTM_SKIPLIST_H

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/skiplist.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/skiplist_body.h"
#include "api/tx_end.h"

#define GPUSTM_STEP gpustm_skiplist_step
#define GPUSTM_STEP_LOAD skiplist_load_entry
#define GPUSTM_STEP_BODY gpustm_skiplist_body
#include "stm/gpustm/gpustm_step.h"

#endif
