/*
 * GPU-STM compiled for the vacation workload: the vacation body on GPU-STM's
 * transactional API (gpustm_vacation_body) and the scheduler step that runs
 * it (gpustm_vacation_step), for both backends.
 */
#ifndef GB_GPUSTM_VACATION_H
#define GB_GPUSTM_VACATION_H

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/vacation.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/vacation_body.h"
#include "api/tx_end.h"

#define GPUSTM_STEP gpustm_vacation_step
#define GPUSTM_STEP_LOAD vacation_load_entry
#define GPUSTM_STEP_BODY gpustm_vacation_body
#include "stm/gpustm/gpustm_step.h"

#endif
