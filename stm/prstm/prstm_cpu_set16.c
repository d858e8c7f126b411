/*
 * PR-STM's CPU backend for the workloads whose transactions touch more than
 * 8 words (skiplist: 2 x --levels; memcached: --ways + 1): the same code as stm/prstm/prstm_cpu.c, with
 * read, write and lock sets of PRSTM_WIDE_SET words.
 */
/* GCC cannot follow prstm_tx's set counts through the skiplist body's branches: it takes entries
 * below nr and nw, always written before they are read, for maybe uninitialized. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "stm/prstm/prstm_engines.h"
#define PRSTM_MAX_SET PRSTM_WIDE_SET
#include "stm/prstm/prstm_skiplist.h"
#include "stm/prstm/prstm_memcached.h"
#include "stm/prstm/prstm_cpu.h"

STM_CPU_WORKLOAD(prstm, skiplist, open_with);
/* A GET past 15 ways: the build with the read log. */
static void *open_memcached(const tx_input *in, const stm_params *p, const stm_cpu_threads *threads)
{
	return in->max_words > PRSTM_MAX_SET ? prstm_memcached_long_cpu_open(in, p) : open_with(in, p, threads);
}

STM_CPU_WORKLOAD(prstm, memcached, open_memcached);
