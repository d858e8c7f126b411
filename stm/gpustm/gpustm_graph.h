/*
 * GPU-STM compiled for the graph workload: the graph body on GPU-STM's transactional
 * API (gpustm_graph_body) and the scheduler step that runs it
 * (gpustm_graph_step), for both backends.
 */
#ifndef GB_GPUSTM_GRAPH_H
#define GB_GPUSTM_GRAPH_H

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/graph.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/graph_body.h"
#include "api/tx_end.h"

#define GPUSTM_STEP gpustm_graph_step
#define GPUSTM_STEP_LOAD graph_load_entry
#define GPUSTM_STEP_BODY gpustm_graph_body
#include "stm/gpustm/gpustm_step.h"

#endif
