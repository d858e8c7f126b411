/* The PBA reference decider (see pba_oracle.h). */
#include <stdlib.h>

#include "common/error.h"
#include "workloads/deadlock/pba_oracle.h"

int pba_oracle_safe(const pba_system *s)
{
	uint32_t n = s->procs, m = s->res, i, j, left = n;
	int64_t *work = gb_xmalloc((size_t)m * sizeof(int64_t) + 1, "oracle work vector");
	uint8_t *done = gb_xcalloc((size_t)n + 1, 1, "oracle finish vector");
	/*
	 * at[i]: the first resource at which process i's need exceeded work the
	 * last time it was looked at. Work only grows while processes finish, so
	 * the resources before at[i] still fit and the next look starts there;
	 * this keeps a search over thousands of processes from re-comparing whole
	 * rows on every pass. A negative allocation would shrink work: then
	 * every process is looked at from resource 0 again.
	 */
	uint32_t *at = gb_xcalloc((size_t)n + 1, sizeof(uint32_t), "oracle scan positions");
	int progress = 1;

	for (j = 0; j < m; j++)
		work[j] = s->available[j];
	while (left && progress) {
		progress = 0;
		for (i = 0; i < n; i++) {
			const int32_t *need = s->need + (size_t)i * m;
			const int32_t *held = s->allocation + (size_t)i * m;
			int shrank = 0;

			if (done[i])
				continue;
			for (j = at[i]; j < m && need[j] <= work[j]; j++)
				;
			at[i] = j;
			if (j < m)
				continue;
			/* i can run to its maximum claim and then return all it holds. */
			done[i] = 1;
			left--;
			progress = 1;
			for (j = 0; j < m; j++) {
				work[j] += held[j];
				shrank |= held[j] < 0;
			}
			if (shrank)
				for (j = 0; j < n; j++)
					at[j] = 0;
		}
	}
	free(work);
	free(done);
	free(at);
	return left == 0;
}

static unsigned request(pba_system *s, uint32_t p, const int32_t *amount)
{
	uint32_t m = s->res, j;
	int32_t *need, *held;

	if (p >= s->procs)
		return PBA_DENIED_INVALID;
	need = s->need + (size_t)p * m;
	held = s->allocation + (size_t)p * m;
	for (j = 0; j < m; j++)
		if (amount[j] < 0 || amount[j] > need[j])
			return PBA_DENIED_INVALID;
	for (j = 0; j < m; j++)
		if (amount[j] > s->available[j])
			return PBA_DENIED_UNAVAILABLE;
	/* Pretend to grant it, then keep it only if an H-safe sequence remains. */
	for (j = 0; j < m; j++) {
		s->available[j] -= amount[j];
		held[j] += amount[j];
		need[j] -= amount[j];
	}
	if (pba_oracle_safe(s))
		return PBA_GRANTED;
	for (j = 0; j < m; j++) {
		s->available[j] += amount[j];
		held[j] -= amount[j];
		need[j] += amount[j];
	}
	return PBA_DENIED_UNSAFE;
}

static unsigned release(pba_system *s, uint32_t p, const int32_t *amount)
{
	uint32_t m = s->res, j;
	int32_t *need, *held;

	if (p >= s->procs)
		return PBA_RELEASE_INVALID;
	need = s->need + (size_t)p * m;
	held = s->allocation + (size_t)p * m;
	/* Check every resource before touching any, so a bad release changes nothing. */
	for (j = 0; j < m; j++)
		if (amount[j] < 0 || amount[j] > held[j])
			return PBA_RELEASE_INVALID;
	for (j = 0; j < m; j++) {
		s->available[j] += amount[j];
		held[j] -= amount[j];
		need[j] += amount[j];
	}
	return PBA_RELEASED;
}

unsigned pba_oracle_apply(pba_system *s, uint8_t type, uint32_t proc, const int32_t *amount)
{
	switch (type) {
	case PBA_REQUEST:
		return request(s, proc, amount);
	case PBA_RELEASE:
		return release(s, proc, amount);
	default:
		return PBA_NOUTCOMES;
	}
}
