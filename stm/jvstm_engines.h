/*
 * The backends of JVSTM for each workload it runs, listed in the engine
 * registry (stm/registry.c). CPU only: JVSTM-GPU is not built.
 */
#ifndef GB_JVSTM_ENGINES_H
#define GB_JVSTM_ENGINES_H

#include "stm/stm.h"

extern const stm_ops jvstm_bank_cpu_ops;
extern const stm_ops jvstm_memcached_cpu_ops;

#endif
