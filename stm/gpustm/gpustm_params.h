/*
 * GPU-STM's own parameters: its part of stm_params (stm_params.engine), set
 * from its options (stm/gpustm/gpustm_options.c); its scheduler reads them.
 */
#ifndef GB_GPUSTM_PARAMS_H
#define GB_GPUSTM_PARAMS_H

#include <stdint.h>

#include "common/port.h"
#include "stm/stm.h"

typedef struct gpustm_params {
	uint32_t retry_limit; /* attempts of one transaction before it is given up */
} gpustm_params;

GB_HD const gpustm_params *gpustm_params_of(const stm_params *p)
{
	return (const gpustm_params *)(const void *)p->engine.bytes;
}

GB_HD gpustm_params *gpustm_params_rw(stm_params *p)
{
	return (gpustm_params *)(void *)p->engine.bytes;
}

#endif
