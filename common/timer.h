/* Host wall-clock timing (CLOCK_MONOTONIC). Device work is timed with CUDA events in the .cu files. */
#ifndef GB_TIMER_H
#define GB_TIMER_H

#include <stdint.h>

uint64_t gb_now_ns(void);
/* Seconds since start_ns; ends GB_TEST_DELAY_ENV microseconds late when that is set. */
double gb_seconds_since(uint64_t start_ns);

/*
 * A run slowed on purpose, to test that `gpubench compare` catches a
 * regression: with GPUBENCH_TEST_DELAY_US=N in the environment, every
 * host-timed interval (each gb_seconds_since) does N microseconds more work
 * before it reads the clock (the thread spins for N us of its CPU time, so on
 * a loaded machine the delay stretches as the run's own work does), and every
 * CUDA-event interval (gb_cuda_timer_stop) is reported N microseconds longer,
 * so timings grow on both backends. The report records N in meta.test_delay_us. A value that is
 * not an integer in 0..10000000 exits 2.
 */
#define GB_TEST_DELAY_ENV "GPUBENCH_TEST_DELAY_US"
uint64_t gb_test_delay_us(void);

#endif
