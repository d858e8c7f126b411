/* The lane scheduler of tests/unit/lanes.h: one ucontext coroutine a lane. */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "common/error.h"
#include "tests/unit/lanes.h"

#define LANE_STACK (64u * 1024u)

typedef struct lane {
	ucontext_t ctx;
	void *stack;
	int done;
} lane;

static struct {
	ucontext_t sched;
	lane *lanes;
	uint32_t n, current;
	lanes_fn fn;
	void *arg;
} L = {.current = UINT32_MAX};

uint32_t lanes_current(void)
{
	return L.current;
}

void lanes_yield(void)
{
	uint32_t me = L.current;
	if (me == UINT32_MAX)
		return; /* not in a lane: the primitive runs as usual */
	swapcontext(&L.lanes[me].ctx, &L.sched);
}

static void lane_main(void)
{
	uint32_t me = L.current;
	L.fn(me, L.arg);
	L.lanes[me].done = 1;
	/* returning resumes uc_link, the scheduler */
}

/* xorshift64*: the random order's generator. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

uint64_t lanes_run(uint32_t n, lanes_fn fn, void *arg, unsigned order, uint64_t seed, uint64_t max_steps)
{
	/* volatile: swapcontext returns here like setjmp, and these live across it */
	volatile uint64_t steps = 0, rng = seed * 2 + 1;
	volatile uint32_t live = n, rr = 0, cur = 0, burst = 0; /* cur, burst: LANES_BURSTY's lane and what is left of its burst */
	uint32_t i;

	L.lanes = gb_xcalloc(n, sizeof(lane), "lanes");
	L.n = n;
	L.fn = fn;
	L.arg = arg;
	for (i = 0; i < n; i++) {
		lane *l = &L.lanes[i];
		l->stack = gb_xmalloc(LANE_STACK, "a lane's stack");
		if (getcontext(&l->ctx) != 0)
			gb_die(GB_EXIT_RUNTIME, "lanes: getcontext failed");
		l->ctx.uc_stack.ss_sp = l->stack;
		l->ctx.uc_stack.ss_size = LANE_STACK;
		l->ctx.uc_link = &L.sched;
		makecontext(&l->ctx, lane_main, 0);
	}
	while (live > 0) {
		uint32_t pick;
		if (steps++ == max_steps) {
			steps = 0;
			break;
		}
		if (order == LANES_BURSTY) {
			uint64_t r = rng;
			pick = cur;
			if (burst == 0 || L.lanes[pick].done) {
				pick = (uint32_t)(next_rand(&r) % n);
				burst = (uint32_t)(next_rand(&r) % 256u) + 1u;
			}
			while (L.lanes[pick].done)
				pick = (pick + 1) % n;
			rng = r;
			cur = pick;
			burst--;
		} else if (order == LANES_RANDOM) {
			uint64_t r = rng;
			pick = (uint32_t)(next_rand(&r) % n);
			rng = r;
			while (L.lanes[pick].done)
				pick = (pick + 1) % n;
		} else {
			while (L.lanes[rr].done)
				rr = (rr + 1) % n;
			pick = rr;
			rr = (rr + 1) % n;
		}
		L.current = pick;
		swapcontext(&L.sched, &L.lanes[pick].ctx);
		L.current = UINT32_MAX;
		if (L.lanes[pick].done)
			live--;
	}
	for (i = 0; i < n; i++)
		free(L.lanes[i].stack);
	free(L.lanes);
	L.lanes = NULL;
	return steps;
}
