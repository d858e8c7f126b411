/*
 * The own parameters of CSMV and JVSTM, which share its lanes
 * (stm/csmv/csmv_sched.h): their part of stm_params (stm_params.engine), set
 * from their options (stm/csmv/csmv_options.c).
 */
#ifndef GB_CSMV_PARAMS_H
#define GB_CSMV_PARAMS_H

#include <stdint.h>

#include "common/port.h"
#include "stm/csmv/csmv_server.h"
#include "stm/stm.h"

typedef struct csmv_params {
	uint64_t stall_ns;      /* give up postponed work after this long while nothing commits */
	uint32_t server_workers; /* the paper's server: worker warps (0: CSMV_WORKERS_DEFAULT) */
	uint32_t atr_records;    /* the paper's server: ATR records (0: CSMV_ATR_DEFAULT) */
} csmv_params;

GB_HD const csmv_params *csmv_params_of(const stm_params *p)
{
	return (const csmv_params *)(const void *)p->engine.bytes;
}

GB_HD csmv_params *csmv_params_rw(stm_params *p)
{
	return (csmv_params *)(void *)p->engine.bytes;
}

GB_HD uint32_t csmv_server_workers(const stm_params *p)
{
	uint32_t w = csmv_params_of(p)->server_workers;
	return w ? w : CSMV_WORKERS_DEFAULT;
}

GB_HD uint32_t csmv_atr_records(const stm_params *p)
{
	uint32_t n = csmv_params_of(p)->atr_records;
	return n ? n : CSMV_ATR_DEFAULT;
}

#endif
