/* Host wall-clock timing (CLOCK_MONOTONIC). Device work is timed with CUDA events in the .cu files. */
#ifndef GB_TIMER_H
#define GB_TIMER_H

#include <stdint.h>

uint64_t gb_now_ns(void);
double gb_seconds_since(uint64_t start_ns);

#endif
