/*
 * PR-STM compiled for the bank workload: the bank body on PR-STM's
 * transactional API (prstm_bank_body) and the scheduler step that runs it
 * (prstm_bank_step), for both backends.
 */
#ifndef GB_PRSTM_BANK_H
#define GB_PRSTM_BANK_H

#include "stm/prstm/prstm_sched.h"
#include "workloads/stm/bank.h"

#include "stm/prstm/prstm_api.h"
#include "workloads/stm/bank_body.h"
#include "api/tx_end.h"

#define PRSTM_STEP prstm_bank_step
#define PRSTM_STEP_LOAD bank_load_entry
#define PRSTM_STEP_BODY prstm_bank_body
#include "stm/prstm/prstm_step.h"

#endif
