/* PR-STM's CPU backend with the read log at capacity 16: memcached (stm/prstm/prstm_cpu_long.h). */
/* as stm/prstm/prstm_cpu_set16.c: GCC takes set entries below nr and nw for maybe uninitialized */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET PRSTM_WIDE_SET
#define PRSTM_CPU_SET_8 0
#define PRSTM_CPU_SET_16 1
#define PRSTM_CPU_SET_64 0
#define PRSTM_LONG_OPEN prstm_long16_cpu_open
#include "stm/prstm/prstm_cpu_long.h"
