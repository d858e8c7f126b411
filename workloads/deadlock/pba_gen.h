/*
 * Event streams for the banker's algorithm (gpubench avoid).
 *
 * worst-case (thesis section 5.4): every process holds one unit of every
 * resource and process i still needs i + 1 of each (maximum i + 2); two units
 * of each resource are free. The stream alternates a request of one unit of
 * every resource by the last process with its release: after the temporary
 * allocation one unit of each is free, so the safety check's iteration k
 * finds exactly process k able to finish (the last two finish together), and
 * every request costs I - 1 iterations. The release restores the state, so
 * every request pair is the same worst case.
 *
 * random: seeded. Each process declares a maximum of 0..8 units of about a
 * quarter of the resources; each resource has a quarter of the total declared
 * claim free (at least one unit). Events are 60% requests (random parts of the
 * process's need on random resources) and 40% releases (random parts of what
 * the process holds, as the oracle's replay says it holds them), so streams
 * contain grants and every kind of denial.
 *
 * unsafe-mix: the random workload's maxima with scarce units (each resource
 * has what its largest claim needs, all free), and a chosen share of the
 * requests unsafe (unsafe_share). 30% of the events release a random part of
 * what a process holds. An unsafe request takes all free units of a resource
 * that its requester and every holder still need (no holder can finish, so
 * the requester never can); a safe one is part of the need of a process able
 * to finish now, or, when that process needs nothing more, its release of all
 * it holds. When no unsafe request can be built a safe one takes its place,
 * so the share is met closely but not exactly: the report's decisions give
 * the share achieved. Every request is valid and available.
 */
#ifndef GB_PBA_GEN_H
#define GB_PBA_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "api/pba_model.h"

enum pba_workload { PBA_WORST_CASE = 0, PBA_RANDOM, PBA_UNSAFE_MIX, PBA_NWORKLOADS };

typedef struct pba_gen_config {
	uint32_t procs, res;
	uint64_t events;
	unsigned workload;
	uint64_t seed;
	double unsafe_share; /* unsafe-mix: wanted share of unsafe requests, 0..1 */
} pba_gen_config;

extern const char *const pba_workload_names[]; /* NULL-terminated, in enum order */

/* Build the initial state and the event stream; -1 with a message for sizes that cannot work. */
int pba_generate(const pba_gen_config *cfg, pba_system *initial, pba_events *ev, char *err,
		 size_t errlen);

#endif
