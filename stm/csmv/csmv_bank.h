/*
 * CSMV compiled for the bank workload: the bank body on CSMV's transactional
 * API (csmv_bank_body) and the execution of a lane's entry that runs it
 * (csmv_bank_execute), for both backends.
 */
#ifndef GB_CSMV_BANK_H
#define GB_CSMV_BANK_H

#include "stm/csmv/csmv_sched.h"
#include "workloads/stm/bank.h"

#include "stm/csmv/csmv_api.h"
#include "workloads/stm/bank_body.h"
#include "api/tx_end.h"

#define CSMV_STEP csmv_bank_execute
#define CSMV_STEP_LOAD bank_load_entry
#define CSMV_STEP_BODY csmv_bank_body
#include "stm/csmv/csmv_step.h"

#endif
