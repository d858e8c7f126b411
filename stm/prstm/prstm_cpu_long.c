/* PR-STM's CPU backend with the read log at capacity 8: the bank (stm/prstm/prstm_cpu_long.h). */
#define PRSTM_MAX_SET 8
#define PRSTM_CPU_SET_8 1
#define PRSTM_CPU_SET_16 0
#define PRSTM_CPU_SET_64 0
#define PRSTM_LONG_OPEN prstm_long_cpu_open
#include "stm/prstm/prstm_cpu_long.h"
