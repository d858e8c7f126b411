/*
 * PR-STM compiled for the memcached workload: the memcached body on PR-STM's
 * transactional API (prstm_memcached_body) and the scheduler step that runs
 * it (prstm_memcached_step), for both backends. A GET reads up to --ways + 1
 * words, more than the 8 of most workloads' builds, so the translation units
 * that include this build PR-STM's sets for PRSTM_WIDE_SET words
 * (stm/prstm/prstm_cpu_set16.c, stm/prstm/prstm_gpu_set16.cu); --ways above 15 exit 2 before running.
 */
#ifndef GB_PRSTM_MEMCACHED_H
#define GB_PRSTM_MEMCACHED_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/memcached.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/memcached_body.h"
#include "api/tx_end.h"

#define PRSTM_STEP prstm_memcached_step
#define PRSTM_STEP_LOAD memcached_load_entry
#define PRSTM_STEP_BODY prstm_memcached_body
#include "stm/prstm/prstm_step.h"

#endif
