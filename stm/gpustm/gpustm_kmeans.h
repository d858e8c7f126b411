/*
 * GPU-STM compiled for the kmeans workload: the kmeans body on GPU-STM's transactional
 * API (gpustm_kmeans_body) and the scheduler step that runs it
 * (gpustm_kmeans_step), for both backends.
 */
#ifndef GB_GPUSTM_KMEANS_H
#define GB_GPUSTM_KMEANS_H

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/kmeans.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/kmeans_body.h"
#include "api/tx_end.h"

#define GPUSTM_STEP gpustm_kmeans_step
#define GPUSTM_STEP_LOAD kmeans_load_entry
#define GPUSTM_STEP_BODY gpustm_kmeans_body
#include "stm/gpustm/gpustm_step.h"

#endif
