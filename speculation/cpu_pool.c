/*
 * The host threads of CPU speculation: speculation/cpu_pool.h says what they
 * promise and why.
 */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "speculation/cpu_pool.h"

/* Polls with a pause (a few microseconds in all) before a waiting thread yields its core;
 * how long it keeps yielding before it blocks, waiting for a flag (the waits inside a
 * round, which take microseconds when every worker has a core: longer means one of them
 * has none) and waiting for a round (rounds follow each other within microseconds, which
 * a wake-up from the kernel would exceed, but stretches in order can last long). */
#define SPIN_POLLS 128
#define FLAG_YIELD_NS 50000
#define IDLE_NS 200000

static void relax(void)
{
	uint32_t state = 0;
	gb_backoff(&state);
}

#ifdef __linux__
/* Block until *p may differ from seen (returns at once if it already does). */
static void block_on(uint32_t *p, uint32_t seen)
{
	syscall(SYS_futex, p, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void wake_all(uint32_t *p)
{
	syscall(SYS_futex, p, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
#else
/* Without futexes a blocked thread keeps yielding. */
static void block_on(uint32_t *p, uint32_t seen)
{
	(void)p;
	(void)seen;
	sched_yield();
}

static void wake_all(uint32_t *p)
{
	(void)p;
}
#endif

/* Wait until *p == v: poll, yield for yield_ns, then block on p, counted in *blocked
 * (whoever changes *p then wakes p's waiters: store, then read *blocked, both
 * sequentially consistent, so that one of the two sides sees the other; sp_wake_word). */
static void wait_word(uint32_t *p, uint32_t v, uint32_t *blocked, uint64_t yield_ns)
{
	uint64_t t0 = 0;
	uint32_t cur;
	unsigned k;
	for (k = 0; (cur = __atomic_load_n(p, __ATOMIC_ACQUIRE)) != v; k++) {
		if (k < SPIN_POLLS) {
			relax();
			continue;
		}
		if (!t0) {
			t0 = gb_now_ns();
		} else if (gb_now_ns() - t0 > yield_ns) {
			__atomic_add_fetch(blocked, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(p, __ATOMIC_SEQ_CST) == cur)
				block_on(p, cur);
			__atomic_sub_fetch(blocked, 1, __ATOMIC_RELAXED);
			continue;
		}
		sched_yield();
	}
}

/* Wait for a go other than seen: poll, yield for IDLE_NS, then block on the pool's count
 * of starts, which every start bumps (one wake-up call for all the sleepers); returns the
 * new go. */
static uint32_t idle_wait(sp_pool *p, const uint32_t *go, uint32_t seen)
{
	uint64_t t0 = 0;
	uint32_t r, e;
	unsigned k;
	for (k = 0; (r = __atomic_load_n(go, __ATOMIC_ACQUIRE)) == seen; k++) {
		if (k < SPIN_POLLS) {
			relax();
			continue;
		}
		if (!t0)
			t0 = gb_now_ns();
		else if (gb_now_ns() - t0 > IDLE_NS)
			break;
		sched_yield();
	}
	if (r != seen)
		return r;
	__atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		e = __atomic_load_n(&p->starts, __ATOMIC_SEQ_CST);
		if ((r = __atomic_load_n(go, __ATOMIC_SEQ_CST)) != seen)
			break;
		block_on(&p->starts, e);
	}
	__atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_RELAXED);
	return r;
}

/* Until all n - 1 workers have started (before the pool is used, not timed). */
static void wait_ready(const sp_pool *p)
{
	while (__atomic_load_n(&p->ready, __ATOMIC_ACQUIRE) != p->n - 1)
		sched_yield();
}

static void *worker_main(void *arg)
{
	sp_pool_slot *s = arg;
	sp_pool *p = s->pool;
	uint32_t seen = 0, r;

	__atomic_add_fetch(&p->ready, 1, __ATOMIC_RELEASE);
	/* the idle clock starts when the pool is open: none sleeps through the first round */
	wait_ready(p);
	for (;;) {
		r = idle_wait(p, &s->go, seen);
		seen = r;
		if (__atomic_load_n(&p->quit, __ATOMIC_ACQUIRE))
			return NULL;
		p->fn(p->ctx, s->index, r);
	}
}

void sp_pool_open(sp_pool *p, unsigned n, sp_pool_fn fn, void *ctx)
{
	unsigned w;
	memset(p, 0, sizeof(*p));
	p->n = n ? n : 1;
	p->fn = fn;
	p->ctx = ctx;
	p->slot = aligned_alloc(64, (size_t)p->n * sizeof(sp_pool_slot));
	if (!p->slot)
		gb_die(GB_EXIT_RUNTIME, "out of memory for %u CPU speculation workers", p->n);
	memset(p->slot, 0, (size_t)p->n * sizeof(sp_pool_slot));
	for (w = 0; w < p->n; w++) {
		p->slot[w].pool = p;
		p->slot[w].index = w;
	}
	for (w = 1; w < p->n; w++) {
		int err = pthread_create(&p->slot[w].thread, NULL, worker_main, &p->slot[w]);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CPU speculation worker %u of %u: %s", w,
			       p->n, strerror(err));
	}
	wait_ready(p);
}

/* Count a start for the sleepers, and wake them if there are any (after the gos are stored). */
static void wake_sleepers(sp_pool *p)
{
	__atomic_add_fetch(&p->starts, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST))
		wake_all(&p->starts);
}

void sp_pool_close(sp_pool *p)
{
	unsigned w;
	__atomic_store_n(&p->quit, 1, __ATOMIC_RELEASE);
	p->round++;
	for (w = 1; w < p->n; w++)
		__atomic_store_n(&p->slot[w].go, p->round, __ATOMIC_RELEASE);
	wake_sleepers(p);
	for (w = 1; w < p->n; w++)
		pthread_join(p->slot[w].thread, NULL);
	free(p->slot);
}

uint32_t sp_pool_start(sp_pool *p, unsigned m)
{
	unsigned w;
	if (++p->round == 0) /* 0 is no round: every flag starts there */
		++p->round;
	for (w = 1; w < m && w < p->n; w++)
		__atomic_store_n(&p->slot[w].go, p->round, __ATOMIC_RELEASE);
	wake_sleepers(p);
	return p->round;
}

void sp_pool_raise(sp_pool *p, unsigned w, unsigned f, uint32_t r)
{
	sp_pool_slot *s = &p->slot[w];
	__atomic_store_n(&s->flag[f], r, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&s->blocked, __ATOMIC_SEQ_CST))
		wake_all(&s->flag[f]);
}

void sp_pool_wait(sp_pool *p, unsigned w, unsigned f, uint32_t r)
{
	wait_word(&p->slot[w].flag[f], r, &p->slot[w].blocked, FLAG_YIELD_NS);
}

void sp_wait_word(uint32_t *p, uint32_t v, uint32_t *blocked)
{
	wait_word(p, v, blocked, FLAG_YIELD_NS);
}

void sp_wake_word(uint32_t *p, uint32_t v, uint32_t *blocked)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(blocked, __ATOMIC_SEQ_CST))
		wake_all(p);
}
