/*
 * PR-STM's own parameters: its part of stm_params (stm_params.engine), set
 * from its options (stm/prstm/prstm_options.c: prstm's, and prstm-nocm's,
 * which turns the semantic contention manager off) and, for the attempt
 * window, by its CPU backend (stm/prstm/prstm_cpu.h); its scheduler reads them.
 */
#ifndef GB_PRSTM_PARAMS_H
#define GB_PRSTM_PARAMS_H

#include <stdint.h>

#include "common/port.h"
#include "stm/stm.h"

typedef struct prstm_params {
	uint64_t stall_ns;      /* give up postponed work after this long without any commit */
	uint64_t window_cycles; /* an attempt older than this at validation aborts (0: no limit) */
	uint64_t counted_cycles; /* unless the commits counted since prove otherwise within this
				  * long (stm/prstm/prstm.h prstm_versions_held; 0: never) */
	uint32_t inflight;      /* commits that may be in flight at once: the CPU backend's workers */
	uint32_t max_passes;    /* sweeps over a block before its postponed work is abandoned */
	uint32_t use_tags;      /* run higher priority tags first within a pass */
	uint32_t semantic_retry; /* no semantic contention manager (prstm-nocm): a semantic conflict
				  * retries its entry, as a concurrent one does, instead of postponing it */
} prstm_params;

GB_HD const prstm_params *prstm_params_of(const stm_params *p)
{
	return (const prstm_params *)(const void *)p->engine.bytes;
}

GB_HD prstm_params *prstm_params_rw(stm_params *p)
{
	return (prstm_params *)(void *)p->engine.bytes;
}

#endif
