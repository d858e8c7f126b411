/*
 * PR-STM compiled for the kmeans workload: the kmeans body on PR-STM's transactional
 * API (prstm_kmeans_body) and the scheduler step that runs it
 * (prstm_kmeans_step), for both backends.
 */
#ifndef GB_PRSTM_KMEANS_H
#define GB_PRSTM_KMEANS_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/kmeans.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/kmeans_body.h"
#include "api/tx_end.h"

#define PRSTM_STEP prstm_kmeans_step
#define PRSTM_STEP_LOAD kmeans_load_entry
#define PRSTM_STEP_BODY prstm_kmeans_body
#include "stm/prstm/prstm_step.h"

#endif
