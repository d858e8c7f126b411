/*
 * GPU-STM compiled for the bank workload: the bank body on GPU-STM's
 * transactional API (gpustm_bank_body) and the scheduler step that runs it
 * (gpustm_bank_step), for both backends.
 */
#ifndef GB_GPUSTM_BANK_H
#define GB_GPUSTM_BANK_H

#include "stm/gpustm/gpustm_sched.h"
#include "workloads/stm/bank.h"

#include "stm/gpustm/gpustm_api.h"
#include "workloads/stm/bank_body.h"
#include "api/tx_end.h"

#define GPUSTM_STEP gpustm_bank_step
#define GPUSTM_STEP_LOAD bank_load_entry
#define GPUSTM_STEP_BODY gpustm_bank_body
#include "stm/gpustm/gpustm_step.h"

#endif
