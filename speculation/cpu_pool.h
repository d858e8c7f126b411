/*
 * The host threads of CPU speculation (speculation/cpu_spec.c): a pool that
 * starts a round on some of its workers within a fraction of a microsecond,
 * since control-flow rounds can be that short (gothic's last a few
 * microseconds on 16 cores). The calling thread is worker 0 and takes part
 * in every round.
 *
 * Each worker has a cache line of its own, holding the round it was handed
 * (go) and the flags it raises during the round, so that neither starting a
 * round nor waiting for a flag makes workers share a written line. Waiting
 * threads poll with a pause instruction, then yield their core, then block
 * in the kernel on the word they wait for: a thread that waits for a worker
 * another task took the core from must not keep every other core busy, or
 * the kernel finds no idle core to move that worker to and it waits for the
 * other task's time slice (milliseconds). Raising a flag or starting a
 * round wakes blocked waiters with one call, and only when there are any.
 */
#ifndef GB_SPEC_CPU_POOL_H
#define GB_SPEC_CPU_POOL_H

#include <pthread.h>
#include <stdint.h>

/* A worker's line: the round it runs (go), and what it raised in that round (flag[]). */
enum { SP_FLAG_EXECUTED = 0, SP_FLAG_RESOLVED, SP_FLAG_DONE, SP_NFLAGS };

typedef struct sp_pool_slot {
	_Alignas(64) uint32_t go;
	uint32_t flag[SP_NFLAGS];
	uint32_t blocked;         /* threads blocked on a flag of this slot */
	struct sp_pool *pool;
	unsigned index;
	pthread_t thread;
} sp_pool_slot;

/* What a worker runs in a round: its part, given its index (1 and up) and the round. */
typedef void (*sp_pool_fn)(void *ctx, unsigned w, uint32_t round);

typedef struct sp_pool {
	sp_pool_slot *slot;       /* one per worker; slot 0 is the calling thread's */
	unsigned n;
	sp_pool_fn fn;
	void *ctx;
	uint32_t round;           /* the last round handed out */
	/* sleepers: idle workers blocked on starts, which counts rounds handed out (and the
	 * order to quit) for them */
	_Alignas(64) uint32_t sleepers, starts, ready, quit;
} sp_pool;

/* Start n - 1 threads that run fn(ctx, w, round) for each round they are handed; returns
 * once they are all polling, so that thread creation falls outside any timing. */
void sp_pool_open(sp_pool *p, unsigned n, sp_pool_fn fn, void *ctx);
void sp_pool_close(sp_pool *p);

/* Hand a new round to workers 1..m-1 (worker 0 being the caller); returns its number. The
 * round's parameters must be written before: a worker reads them after it sees its go. */
uint32_t sp_pool_start(sp_pool *p, unsigned m);

/* Raise flag f of worker w for round r (release: what w wrote before is visible to a waiter). */
void sp_pool_raise(sp_pool *p, unsigned w, unsigned f, uint32_t r);

/* Wait until worker w has raised flag f for round r: poll, yield, then block. */
void sp_pool_wait(sp_pool *p, unsigned w, unsigned f, uint32_t r);

/*
 * The same waiting on a word of the caller's: until *p == v, blocked counting the threads
 * blocked on p. sp_wake_word stores v into *p and wakes them (speculation/cpu_tm.c: an
 * iteration's turn to commit).
 */
void sp_wait_word(uint32_t *p, uint32_t v, uint32_t *blocked);
void sp_wake_word(uint32_t *p, uint32_t v, uint32_t *blocked);

#endif
