/*
 * The options of CSMV's and JVSTM's engines, which their entries name (stm/registry.c;
 * stm/csmv/csmv_options.c): csmv_options for the engines on the paper's server,
 * csmv_stall_options for csmv-index..., jvstm and jvstm-gpu.
 */
#ifndef GB_CSMV_OPTIONS_H
#define GB_CSMV_OPTIONS_H

#include "stm/stm.h"

extern const stm_engine_options csmv_options;
extern const stm_engine_options csmv_stall_options;

#endif
