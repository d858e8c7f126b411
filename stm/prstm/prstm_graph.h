/*
 * PR-STM compiled for the graph workload: the graph body on PR-STM's transactional
 * API (prstm_graph_body) and the scheduler step that runs it
 * (prstm_graph_step), for both backends.
 */
#ifndef GB_PRSTM_GRAPH_H
#define GB_PRSTM_GRAPH_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/graph.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/graph_body.h"
#include "api/tx_end.h"

#define PRSTM_STEP prstm_graph_step
#define PRSTM_STEP_LOAD graph_load_entry
#define PRSTM_STEP_BODY prstm_graph_body
#include "stm/prstm/prstm_step.h"

#endif
