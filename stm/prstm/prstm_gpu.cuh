/*
 * PR-STM's GPU kernels, built once per read/write set capacity and workload.
 *
 * At 6720 threads the kernel is bound by the latency of its instruction
 * stream (docs/stm.md, "The floor of a transaction"), and much of that stream
 * is the loops over the capacity of the read, write and lock sets, unrolled
 * and predicated for PRSTM_MAX_SET entries. A table whose transactions touch
 * at most two words runs faster on a kernel built for two (H100, bank without
 * semantic transactions: 8.9e8 committed tx/s with 8, 1.0e9 with 4, 1.05e9
 * with 2). So each capacity is its own translation unit (prstm_gpu_set2.cu,
 * prstm_gpu_set4.cu, prstm_gpu_set16.cu, prstm_gpu_set32.cu, prstm_gpu_set64.cu; 8 in prstm_gpu.cu) that defines
 * PRSTM_MAX_SET and includes stm/prstm/prstm_gpu_kernel.cuh, which builds a kernel
 * for each workload of workloads/stm/list.h whose `sizes` include that
 * capacity, and the backend picks the smallest capacity that holds every
 * transaction of the table (tx_input.max_words). Capacity 16 is built for the
 * skiplist, whose updates touch up to 2 x --levels words, memcached (built
 * at 8 and 16), whose GETs read --ways + 1 in the compact layout, and graph;
 * 32 and 64 (prstm_gpu_set32.cu, prstm_gpu_set64.cu) for graph alone, whose
 * paper's transaction touches 1 + a vertex's degree; the narrow workloads
 * never need more than 8, and their entries there are empty. A table with
 * read-only transactions longer than every capacity built for its workload
 * (the bank's inquiries past 8 accounts, memcached's GETs) runs on the kernels
 * with the read log in global memory (stm/prstm/prstm.h, "Long reads") at
 * its set's capacity: stm/prstm/prstm_gpu_long.cu (8) and
 * stm/prstm/prstm_gpu_long16.cu (16).
 */
#ifndef GB_PRSTM_GPU_CUH
#define GB_PRSTM_GPU_CUH

#include <stdint.h>

#include "api/tx_table.h"
#include "stm/prstm/prstm.h"
#include "stm/stm.h"
#include "workloads/stm/list.h"

/* The kernel's arguments, one struct so every capacity and workload launches the same way
 * (prstm_mem does not depend on the capacity). */
typedef struct prstm_kernel_args {
	prstm_mem m;
	tx_table v;
	stm_params p;
	uint64_t timeout_ns, run_ns;
	stm_shared *sh;
	stm_counters *out;
} prstm_kernel_args;

typedef struct prstm_gpu_kernel {
	uint32_t capacity;   /* PRSTM_MAX_SET it was built with */
	uint32_t long_reads; /* 1: built with the read log (PRSTM_LONG_READS) */
	const void *fn;      /* __global__ void (prstm_kernel_args); NULL: not built at this capacity */
	const char *name;
} prstm_gpu_kernel;

/* One capacity's kernels, indexed by workload (workloads/stm/list.h). */
extern const prstm_gpu_kernel prstm_gpu_kernels_set2[STM_NWORKLOADS], prstm_gpu_kernels_set4[STM_NWORKLOADS],
	prstm_gpu_kernels_set8[STM_NWORKLOADS], prstm_gpu_kernels_set16[STM_NWORKLOADS],
	prstm_gpu_kernels_set32[STM_NWORKLOADS], prstm_gpu_kernels_set64[STM_NWORKLOADS];
/* With the read log, the workloads with long_reads at the capacity of their set: 8
 * (stm/prstm/prstm_gpu_long.cu) and 16 (stm/prstm/prstm_gpu_long16.cu). */
extern const prstm_gpu_kernel prstm_gpu_kernels_long[STM_NWORKLOADS], prstm_gpu_kernels_long16[STM_NWORKLOADS];

#endif
