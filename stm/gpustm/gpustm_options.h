/* GPU-STM's options, which its engine entry names (stm/registry.c); stm/gpustm/gpustm_options.c. */
#ifndef GB_GPUSTM_OPTIONS_H
#define GB_GPUSTM_OPTIONS_H

#include "stm/stm.h"

extern const stm_engine_options gpustm_options;

#endif
