/*
 * Host/device portability and atomics layer.
 *
 * Algorithm code that must run on both backends is written once as GB_HD
 * inline functions over these primitives. Under nvcc's device pass they map
 * to PTX loads/stores with explicit scope and ordering (so that lock words and
 * shared data bypass the non-coherent L1); everywhere else they map to GCC
 * __atomic builtins on plain integers, which is how the CPU backend runs the
 * very same code on pthreads.
 */
#ifndef GB_PORT_H
#define GB_PORT_H

#include <stdint.h>
#if !defined(__CUDA_ARCH__)
#include <time.h>
#endif

#ifdef __CUDACC__
#define GB_HD static __host__ __device__ __forceinline__
#else
#define GB_HD static inline
#endif

/*
 * GB_HD for a function that takes a compile-time constant choosing its code
 * (an STM engine's step, given the workload it runs): inlined on the host too,
 * so every caller keeps only the code its constant chooses, as the device
 * compiler's __forceinline__ does.
 */
#ifdef __CUDACC__
#define GB_HD_FLAT GB_HD
#else
#define GB_HD_FLAT static inline __attribute__((always_inline))
#endif

/*
 * A hook run by every host-side primitive below before it touches memory. It
 * does nothing unless a translation unit defines it before including this
 * header: the unit tests' lane scheduler (tests/unit/lanes.h) defines it to
 * switch lanes there, so GB_HD code runs with its threads interleaved at
 * every shared access, in lockstep as a warp issues them or in seeded random
 * orders.
 */
#ifndef GB_PORT_STEP
#define GB_PORT_STEP() ((void)0)
#endif

/* Unroll a loop over a small fixed bound so its arrays stay in registers. */
#if defined(__CUDA_ARCH__)
#define GB_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define GB_UNROLL /* nvcc's host pass: this code never runs there */
#else
#define GB_UNROLL _Pragma("GCC unroll 8")
#endif

GB_HD uint32_t gb_ld_acquire_u32(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
	uint32_t v;
	asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
#else
	GB_PORT_STEP();
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

GB_HD uint32_t gb_ld_relaxed_u32(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
	uint32_t v;
	asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
#else
	GB_PORT_STEP();
	return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

GB_HD void gb_st_relaxed_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	asm volatile("st.relaxed.gpu.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
#else
	GB_PORT_STEP();
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/* Compare-and-swap; returns the value found at *p (as CUDA's atomicCAS). */
GB_HD uint32_t gb_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired)
{
#if defined(__CUDA_ARCH__)
	return atomicCAS(p, expected, desired);
#else
	GB_PORT_STEP();
	__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	return expected;
#endif
}

/* Atomic add; returns the value found at *p (as CUDA's atomicAdd). Relaxed: a counter. */
GB_HD uint32_t gb_add_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	return atomicAdd(p, v);
#else
	GB_PORT_STEP();
	return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

/* Atomic add on a signed word; returns the value found at *p. Relaxed. Two's complement: the unsigned add. */
GB_HD int32_t gb_add_i32(int32_t *p, int32_t v)
{
	return (int32_t)gb_add_u32((uint32_t *)p, (uint32_t)v);
}

/* The index of the lowest set bit of v, which is not 0. */
GB_HD int gb_ctz32(uint32_t v)
{
#if defined(__CUDA_ARCH__)
	return __ffs((int)v) - 1;
#else
	return __builtin_ctz(v);
#endif
}

/* Atomic or; returns the value found at *p (as CUDA's atomicOr). Relaxed. */
GB_HD uint32_t gb_or_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	return atomicOr(p, v);
#else
	GB_PORT_STEP();
	return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
#endif
}

/* Atomic minimum; returns the value found at *p (as CUDA's atomicMin). Relaxed. */
GB_HD uint32_t gb_min_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	return atomicMin(p, v);
#else
	GB_PORT_STEP();
	uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
	while (v < old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
	return old;
#endif
}

/*
 * Acquire-release fence at device (or process) scope. After relaxed loads it
 * makes them acquire (later accesses stay after them); before relaxed stores
 * it makes them release (earlier accesses stay before them). Lighter than
 * __threadfence(), which is sequentially consistent.
 */
GB_HD void gb_fence(void)
{
#if defined(__CUDA_ARCH__)
	asm volatile("fence.acq_rel.gpu;" : : : "memory");
#else
	GB_PORT_STEP();
	__atomic_thread_fence(__ATOMIC_ACQ_REL);
#endif
}

/*
 * The same at block scope, for words that only the threads of one block share
 * (its shared memory: CSMV's ATR ring on the server block). On the GPU they
 * order accesses within the block only, which costs a small fraction of the
 * device-scope fence (that one waits for the thread's global memory traffic);
 * on the host they are the process-scope ones above.
 */
GB_HD uint32_t gb_ld_acquire_cta_u32(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
	uint32_t v;
	asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
#else
	return gb_ld_acquire_u32(p);
#endif
}

GB_HD uint32_t gb_ld_relaxed_cta_u32(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
	uint32_t v;
	asm volatile("ld.relaxed.cta.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
#else
	return gb_ld_relaxed_u32(p);
#endif
}

GB_HD void gb_st_relaxed_cta_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	asm volatile("st.relaxed.cta.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
#else
	gb_st_relaxed_u32(p, v);
#endif
}

/*
 * A store as an atomic exchange at block scope (relaxed): for words other
 * threads read with plain strong loads while it is written, which
 * compute-sanitizer's racecheck reports as a hazard unless one side is atomic.
 */
GB_HD void gb_st_atomic_cta_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	(void)atomicExch_block(p, v);
#else
	gb_st_relaxed_u32(p, v);
#endif
}

GB_HD uint32_t gb_cas_cta_u32(uint32_t *p, uint32_t expected, uint32_t desired)
{
#if defined(__CUDA_ARCH__)
	return atomicCAS_block(p, expected, desired);
#else
	return gb_cas_u32(p, expected, desired);
#endif
}

GB_HD void gb_fence_cta(void)
{
#if defined(__CUDA_ARCH__)
	asm volatile("fence.acq_rel.cta;" : : : "memory");
#else
	gb_fence();
#endif
}

/*
 * Sequentially consistent fence at device (or process) scope: for the
 * store-then-load handshakes that acquire-release fences do not order (a
 * thread publishes a word, then reads one another thread published first;
 * csmv's snapshot announcement against the server's reclamation bound).
 */
GB_HD void gb_fence_sc(void)
{
#if defined(__CUDA_ARCH__)
	asm volatile("fence.sc.gpu;" : : : "memory");
#else
	GB_PORT_STEP();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/*
 * A ticket from a shared counter, for ordering events globally, taken in two
 * halves so its latency can overlap other memory work: gb_ticket_begin issues
 * the atomic, gb_ticket_end (called by the same lanes, with nothing in between
 * that needs the value) returns the ticket. On the GPU the lanes of a warp that
 * arrive together share one atomicAdd: the leader takes a block of tickets and
 * hands them out by rank, so a warp of committers costs one atomic, not 32.
 * Built with -DGB_TICKET_PER_LANE, every lane takes its own ticket with its
 * own atomic and no lane waits for another: a diagnostic build (docs/stm.md,
 * GPU-STM, says how to make it) to run the GPU-STM skiplist configurations that
 * stall at times on, whose stalled lane waits in gb_ticket_end's shuffle.
 * Built with -DGB_TICKET_SYNCWARP, the lanes of a ticket's mask wait for each
 * other (__syncwarp on the mask, a WARPSYNC on each lane's own mask) before
 * the shuffle, whose divergence check the compiler makes on one lane's mask
 * for every lane that reaches it together: the other diagnostic build.
 */
typedef struct gb_ticket {
	uint32_t base;
	uint32_t mask, leader, rank;
} gb_ticket;

GB_HD gb_ticket gb_ticket_begin(uint32_t *counter)
{
	gb_ticket t;
#if defined(__CUDA_ARCH__) && !defined(GB_TICKET_PER_LANE)
	unsigned lane;
	asm("mov.u32 %0, %%laneid;" : "=r"(lane));
	t.mask = __activemask();
	t.leader = (uint32_t)(__ffs(t.mask) - 1);
	t.rank = (uint32_t)__popc(t.mask & ((1u << lane) - 1u));
	t.base = lane == t.leader ? atomicAdd(counter, (unsigned)__popc(t.mask)) : 0;
#elif defined(__CUDA_ARCH__)
	t.base = atomicAdd(counter, 1u);
	t.mask = t.leader = t.rank = 0;
#else
	GB_PORT_STEP();
	t.base = __atomic_fetch_add(counter, 1u, __ATOMIC_ACQ_REL);
	t.mask = t.leader = t.rank = 0;
#endif
	return t;
}

GB_HD uint32_t gb_ticket_end(const gb_ticket *t)
{
#if defined(__CUDA_ARCH__) && !defined(GB_TICKET_PER_LANE)
#if defined(GB_TICKET_SYNCWARP)
	__syncwarp(t->mask);
#endif
	return __shfl_sync(t->mask, t->base, (int)t->leader) + t->rank;
#else
	return t->base;
#endif
}

/* Count of leading zero bits; x must not be 0. */
GB_HD uint32_t gb_clz_u32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
	return (uint32_t)__clz(x);
#else
	return (uint32_t)__builtin_clz(x);
#endif
}

/*
 * A cheap per-thread cycle counter for timing short intervals: the SM clock
 * (clock64) on the GPU, the TSC on x86 hosts, nanoseconds elsewhere. Only
 * differences taken by one thread are meaningful.
 */
GB_HD uint64_t gb_cycles(void)
{
#if defined(__CUDA_ARCH__)
	return (uint64_t)clock64();
#elif defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}

/* Nanoseconds on a clock shared by all threads of one backend (for deadlines). */
GB_HD uint64_t gb_clock_ns(void)
{
#if defined(__CUDA_ARCH__)
	uint64_t t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
#else
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}

/*
 * Whether a deadline on gb_clock_ns has passed at now. On the host a stopped
 * run (--timeout, SIGINT, SIGTERM: common/stop.h raises gb_stop_flag) counts
 * as past its deadline too, so CPU threads stop at once; a kernel sees only
 * its clock.
 */
#if !defined(__CUDA_ARCH__)
#ifdef __cplusplus
extern "C" volatile int gb_stop_flag;
#else
extern volatile int gb_stop_flag;
#endif
#endif

GB_HD int gb_past_deadline(uint64_t now, uint64_t deadline)
{
#if defined(__CUDA_ARCH__)
	return now >= deadline;
#else
	return now >= deadline || __atomic_load_n(&gb_stop_flag, __ATOMIC_RELAXED) != 0;
#endif
}

/* 64-bit variants, for words that pair a value with an ABA tag. */
GB_HD uint64_t gb_ld_relaxed_u64(const uint64_t *p)
{
#if defined(__CUDA_ARCH__)
	uint64_t v;
	asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
#else
	GB_PORT_STEP();
	return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

GB_HD uint64_t gb_ld_acquire_u64(const uint64_t *p)
{
#if defined(__CUDA_ARCH__)
	uint64_t v;
	asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
#else
	GB_PORT_STEP();
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

GB_HD void gb_st_relaxed_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
	asm volatile("st.relaxed.gpu.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#else
	GB_PORT_STEP();
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

GB_HD uint64_t gb_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired)
{
#if defined(__CUDA_ARCH__)
	return (uint64_t)atomicCAS((unsigned long long *)p, (unsigned long long)expected,
				   (unsigned long long)desired);
#else
	GB_PORT_STEP();
	__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	return expected;
#endif
}

/* 64-bit atomic add; returns the value found at *p. Relaxed. */
GB_HD uint64_t gb_add_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
	return (uint64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
	GB_PORT_STEP();
	return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

/* 64-bit atomic minimum; returns the value found at *p. Relaxed. */
GB_HD uint64_t gb_min_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
	return (uint64_t)atomicMin((unsigned long long *)p, (unsigned long long)v);
#else
	GB_PORT_STEP();
	uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
	while (v < old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
	return old;
#endif
}

/* 64-bit atomic exchange; returns the value found at *p. Relaxed. */
GB_HD uint64_t gb_xchg_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
	return (uint64_t)atomicExch((unsigned long long *)p, (unsigned long long)v);
#else
	GB_PORT_STEP();
	return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
#endif
}

/*
 * Back off after a failed CAS or while waiting for another thread: on the GPU
 * the warp sleeps for an exponentially growing time up to about a
 * microsecond, so that thousands of spinning threads do not saturate the L2
 * slice that holds the contended word and slow its owner down; on the host a
 * pause instruction. *state starts at 0 for each wait.
 */
GB_HD void gb_backoff(uint32_t *state)
{
#if defined(__CUDA_ARCH__)
	uint32_t ns = *state ? *state : 32u;
	__nanosleep(ns);
	*state = ns < 1024u ? ns * 2u : 1024u;
#else
	(void)state;
	GB_PORT_STEP();
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
#endif
}

/*
 * The value of a word that the first caller sets from 0 to v (later callers
 * get the first one's v): a deadline all threads of a run share, whichever
 * starts first. On the GPU one lane per warp does the CAS for the warp.
 */
GB_HD uint64_t gb_set_once_u64(uint64_t *word, uint64_t v)
{
	uint64_t old;
#if defined(__CUDA_ARCH__)
	unsigned lane, mask = __activemask(), leader = (unsigned)(__ffs(mask) - 1);
	asm("mov.u32 %0, %%laneid;" : "=r"(lane));
	old = 0;
	if (lane == leader) {
		old = gb_ld_relaxed_u64(word);
		if (old == 0)
			old = gb_cas_u64(word, 0, v);
	}
	old = (uint64_t)__shfl_sync(mask, (unsigned long long)old, (int)leader);
	if (old == 0)
		old = __shfl_sync(mask, (unsigned long long)v, (int)leader);
#else
	old = gb_cas_u64(word, 0, v);
#endif
	return old ? old : v;
}

#endif
