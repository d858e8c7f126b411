/*
 * The host threads of CPU speculation: speculation/cpu_pool.h says what they
 * promise and why.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "speculation/cpu_pool.h"

/* Polls with a pause (a few microseconds in all) before a waiting thread yields its core,
 * so that a thread waited for gets a core when there are more workers than cores; and how
 * long an idle worker keeps yielding before it sleeps: rounds follow each other within
 * microseconds, which a sleep and a wake-up would exceed. */
#define SPIN_POLLS 128
#define IDLE_NS 200000

static void relax(void)
{
	uint32_t state = 0;
	gb_backoff(&state);
}

static void wait_word(const uint32_t *p, uint32_t v)
{
	unsigned k;
	for (k = 0; __atomic_load_n(p, __ATOMIC_ACQUIRE) != v; k++) {
		if (k < SPIN_POLLS)
			relax();
		else
			sched_yield();
	}
}

/* Wait for a go other than seen, polling then yielding, for IDLE_NS at most; returns it, or
 * seen when there is none yet. */
static uint32_t idle_wait(const uint32_t *go, uint32_t seen)
{
	uint64_t t0 = 0;
	uint32_t r;
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
	return r;
}

static void *worker_main(void *arg)
{
	sp_pool_slot *s = arg;
	sp_pool *p = s->pool;
	uint32_t seen = 0, r;

	__atomic_add_fetch(&p->ready, 1, __ATOMIC_RELEASE);
	for (;;) {
		r = idle_wait(&s->go, seen);
		if (r == seen) {
			pthread_mutex_lock(&p->mu);
			__atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
			while ((r = __atomic_load_n(&s->go, __ATOMIC_SEQ_CST)) == seen)
				pthread_cond_wait(&p->wake, &p->mu);
			__atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_RELAXED);
			pthread_mutex_unlock(&p->mu);
		}
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
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->wake, NULL);
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
	wait_word(&p->ready, p->n - 1);
}

/* Wake the sleepers among workers just handed a round (or the order to quit). */
static void wake_sleepers(sp_pool *p)
{
	/* Paired with a sleeper's increment before it checks go: one of the two sees the other. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_broadcast(&p->wake);
		pthread_mutex_unlock(&p->mu);
	}
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
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->wake);
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
	__atomic_store_n(&p->slot[w].flag[f], r, __ATOMIC_RELEASE);
}

void sp_pool_wait(const sp_pool *p, unsigned w, unsigned f, uint32_t r)
{
	wait_word(&p->slot[w].flag[f], r);
}
