/* PR-STM's options, which its engine entries name (stm/registry.c); stm/prstm/prstm_options.c. */
#ifndef GB_PRSTM_OPTIONS_H
#define GB_PRSTM_OPTIONS_H

#include "stm/stm.h"

extern const stm_engine_options prstm_options;
/* prstm-nocm's: PR-STM without its semantic contention manager */
extern const stm_engine_options prstm_nocm_options;

#endif
