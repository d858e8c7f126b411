/*
 * CSMV compiled for the memcached workload: the memcached body on CSMV's transactional
 * API (csmv_memcached_body) and the execution of a lane's entry that runs it
 * (csmv_memcached_execute), for both backends; jvstm runs it too. A GET is a
 * read-only entry and keeps no read set, so any --ways run; a SET touches 4
 * words.
 */
#ifndef GB_CSMV_MEMCACHED_H
#define GB_CSMV_MEMCACHED_H

#include "stm/csmv/csmv_sched.h"
#include "workloads/stm/memcached.h"

#include "stm/csmv/csmv_api.h"
#include "workloads/stm/memcached_body.h"
#include "api/tx_end.h"

#define CSMV_STEP csmv_memcached_execute
#define CSMV_STEP_LOAD memcached_load_entry
#define CSMV_STEP_BODY csmv_memcached_body
#define CSMV_STEP_AHEAD 1 /* a GET reads its set's ways ahead */
#include "stm/csmv/csmv_step.h"

#endif
