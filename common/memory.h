/*
 * Memory estimates made before allocating: a size at the top of an option's
 * range must fail with a message naming the option, not be killed by the
 * kernel's out-of-memory killer halfway through generation.
 */
#ifndef GB_MEMORY_H
#define GB_MEMORY_H

#include <stdint.h>

/*
 * Bytes of host memory this process can still get: the smallest of the
 * kernel's MemAvailable, the cgroup's limit less its usage and the
 * address-space limit (ulimit -v). UINT64_MAX when none is known.
 */
uint64_t gb_host_memory_available(void);

/*
 * One option's share of an estimate: value x bytes_each, or for a product of
 * two options (--threads x --tx-per-thread transactions) value x value2 x
 * bytes_each.
 */
typedef struct gb_memory_term {
	const char *opt; /* without the dashes */
	uint64_t value;
	uint64_t bytes_each;
	const char *opt2; /* the second factor's option; NULL: none */
	uint64_t value2;
} gb_memory_term;

/*
 * Exit 1 when fixed plus the terms exceed avail bytes of `where` memory
 * ("host", "device"): the message gives both amounts, the option (or both
 * options of a product) with the largest share, and the largest value of it
 * (of each) that fits with the others as given.
 */
void gb_memory_fit(const char *cmd, const char *where, uint64_t avail, uint64_t fixed,
		   const gb_memory_term *terms, unsigned n);

#endif
