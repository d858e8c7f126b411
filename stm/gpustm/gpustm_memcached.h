/*
 * GPU-STM compiled for the memcached workload: the memcached body on GPU-STM's
 * transactional API (gpustm_memcached_body) and the scheduler step that runs
 * it (gpustm_memcached_step), for both backends. A GET reads up to --ways + 1
 * words, more than the 8 of most workloads' builds, so the translation units
 * that include this build GPU-STM's sets for GPUSTM_WIDE_SET words
 * (stm/gpustm/gpustm_cpu_set16.c, stm/gpustm/gpustm_gpu_set16.cu); --ways above 15 exit 2 before running.
 */
#ifndef GB_GPUSTM_MEMCACHED_H
#define GB_GPUSTM_MEMCACHED_H

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/memcached.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/memcached_body.h"
#include "api/tx_end.h"

#define GPUSTM_STEP gpustm_memcached_step
#define GPUSTM_STEP_LOAD memcached_load_entry
#define GPUSTM_STEP_BODY gpustm_memcached_body
#include "stm/gpustm/gpustm_step.h"

#endif
