/*
 * Lanes: GB_HD code run by many simulated threads on one OS thread, switching
 * at every shared-memory primitive of common/port.h. A test file that wants
 * it includes this header before anything else, so that GB_PORT_STEP is
 * defined when port.h is first read in that file:
 *
 *   #include "tests/unit/lanes.h"
 *   #include "structures/kma.h"
 *
 * LANES_LOCKSTEP switches round-robin after every access, the way the lanes
 * of a warp issue one instruction each before any issues the next: every
 * lane reads a shared word before any writes it, the interleaving that
 * pthreads on a few cores almost never produce. LANES_RANDOM picks the next
 * lane with a seeded generator, so a failing order can be replayed.
 * LANES_BURSTY runs a lane picked at random for a random burst of 1 to 256
 * switches before picking again: a scheduler that keeps one path of a warp
 * going while the others wait, so one lane can get far ahead of (or hold a
 * lock for long against) the rest. Deterministic: the same call gives the
 * same interleaving.
 */
#ifndef GB_TESTS_LANES_H
#define GB_TESTS_LANES_H

#include <stdint.h>

void lanes_yield(void);
#define GB_PORT_STEP() lanes_yield()

enum lanes_order { LANES_LOCKSTEP = 0, LANES_RANDOM, LANES_BURSTY };

typedef void (*lanes_fn)(uint32_t lane, void *arg);

/*
 * Run fn(lane, arg) for lanes 0..n-1 to completion, interleaved in the given
 * order (seed: LANES_RANDOM's generator). Returns the number of switches, or
 * 0 when the lanes were still running after max_steps switches (a livelock:
 * the lanes are abandoned).
 */
uint64_t lanes_run(uint32_t n, lanes_fn fn, void *arg, unsigned order, uint64_t seed, uint64_t max_steps);

/* The lane running now, or UINT32_MAX outside lanes_run. */
uint32_t lanes_current(void);

#endif
