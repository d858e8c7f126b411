/*
 * A reference decider for the parallel banker's algorithm (Abell's thesis,
 * section 5.2.3: the validity check, the availability check, the temporary
 * allocation, the H-safety check of definitions 1.2.18-1.2.19 and the
 * rollback; and the resource release of section 5.3.3).
 *
 * It shares no code with the PBA engines in deadlock/: only the state and
 * outcome types of api/pba_model.h. Its H-safety check is the classic
 * sequential banker's search (pick any unfinished process whose need fits
 * in work, finish it, add its allocation to work at once, repeat) rather
 * than the thesis's rounds of "every process that can finish now", so that a
 * mistake in the round structure of an engine cannot be repeated here. Both
 * searches find an H-safe sequence exactly when one exists, because work only
 * grows as processes finish (allocations are never negative).
 *
 * Choices where the thesis is silent:
 * - a request with a negative amount is denied as invalid, and a release
 *   with a negative amount is an invalid release: neither touches the state;
 * - a release of more than the process holds (any resource) is refused as a
 *   whole (PBA_RELEASE_INVALID) and leaves the state unchanged; the thesis's
 *   release kernel never checks;
 * - the checks run in the thesis's order: validity (need), then
 *   availability, then safety, and the first that fails names the outcome;
 * - an all-zero request is valid and available, so it is granted exactly
 *   when the current state is H-safe;
 * - a process id out of range is an invalid request or release, and an
 *   unknown event type returns PBA_NOUTCOMES; the state is unchanged then.
 * The state must keep need = maximum - allocation with every entry >= 0 and
 * each resource's total (available plus all allocations) within int32, as
 * every state that starts with nothing allocated does.
 */
#ifndef GB_PBA_ORACLE_H
#define GB_PBA_ORACLE_H

#include <stdint.h>

#include "api/pba_model.h"

/*
 * Decide one event (type PBA_REQUEST or PBA_RELEASE by process `proc`, with
 * s->res amounts) and apply it to s: a granted request and a valid release
 * change the state, every other outcome leaves it exactly as it was.
 * Returns an enum pba_outcome.
 */
unsigned pba_oracle_apply(pba_system *s, uint8_t type, uint32_t proc, const int32_t *amount);

/* 1 when s (as it stands) has an H-safe sequence (definition 1.2.19). */
int pba_oracle_safe(const pba_system *s);

#endif
