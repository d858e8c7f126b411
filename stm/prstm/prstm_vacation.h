/*
 * PR-STM compiled for the vacation workload: the vacation body on PR-STM's
 * transactional API (prstm_vacation_body) and the scheduler step that runs
 * it (prstm_vacation_step), for both backends.
 */
#ifndef GB_PRSTM_VACATION_H
#define GB_PRSTM_VACATION_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/vacation.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/vacation_body.h"
#include "api/tx_end.h"

#define PRSTM_STEP prstm_vacation_step
#define PRSTM_STEP_LOAD vacation_load_entry
#define PRSTM_STEP_BODY prstm_vacation_body
#include "stm/prstm/prstm_step.h"

#endif
