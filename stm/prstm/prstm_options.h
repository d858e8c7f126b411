/* PR-STM's options, which its engine entry names (stm/registry.c); stm/prstm/prstm_options.c. */
#ifndef GB_PRSTM_OPTIONS_H
#define GB_PRSTM_OPTIONS_H

#include "stm/stm.h"

extern const stm_engine_options prstm_options;

#endif
