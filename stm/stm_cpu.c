/* The CPU backend every STM engine shares (see stm/stm_cpu.h). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "stm/stm_cpu.h"

typedef struct worker {
	stm_cpu *c;
	uint32_t index;
	stm_counters totals;
	pthread_t thread;
} worker;

double stm_cpu_cycles_per_ns(void)
{
	uint64_t t0 = gb_now_ns(), c0 = gb_cycles(), t1, c1;
	do {
		t1 = gb_now_ns();
	} while (t1 - t0 < 20000000ull);
	c1 = gb_cycles();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

stm_cpu *stm_cpu_open(const tx_input *in, const stm_params *p, const stm_cpu_threads *threads)
{
	stm_cpu *c = gb_xcalloc(1, sizeof(*c), "CPU backend state");
	c->in = *in;
	c->p = *p;
	c->threads = threads;
	c->nlocks = (in->words + p->hash - 1) / p->hash;
	c->data = gb_xcalloc(in->words, sizeof(uint32_t), "data words");
	c->locks = gb_xcalloc(c->nlocks, sizeof(uint32_t), "lock table");
	c->status = gb_xcalloc(in->ntx, sizeof(uint32_t), "transaction status");
	c->table.entries = in->entries;
	c->table.aux = in->aux;
	c->table.aux_stride = in->aux_stride;
	c->table.status = c->status;
	c->table.tx_per_thread = in->tx_per_thread;
	c->table.max_tag = in->max_tag;
	c->table.ntx = (uint32_t)in->ntx;
	c->capacity = in->ntx;
	c->cycles_per_ns = stm_cpu_cycles_per_ns();
	return c;
}

void stm_cpu_retable(void *ctx, const tx_input *in)
{
	stm_cpu *c = ctx;
	if (in->ntx > c->capacity || in->words != c->in.words || in->max_words > c->in.max_words ||
	    in->entry_size != c->in.entry_size || in->aux_stride != c->in.aux_stride)
		gb_die(GB_EXIT_RUNTIME, "stm: a stage's table (%llu entries, %u words per transaction) outgrows "
		       "the one the CPU backend was opened with (%llu, %u)", (unsigned long long)in->ntx,
		       in->max_words, (unsigned long long)c->capacity, c->in.max_words);
	c->in.ntx = in->ntx;
	c->in.tx_per_thread = in->tx_per_thread;
	c->in.max_tag = in->max_tag;
	c->in.entries = in->entries;
	c->in.aux = in->aux;
	c->table.entries = in->entries;
	c->table.aux = in->aux;
	c->table.tx_per_thread = in->tx_per_thread;
	c->table.max_tag = in->max_tag;
	c->table.ntx = (uint32_t)in->ntx;
}

void stm_cpu_load(void *ctx, const uint32_t *words)
{
	stm_cpu *c = ctx;
	memcpy(c->data, words, c->in.words * sizeof(uint32_t));
	memset(c->locks, 0, c->nlocks * sizeof(uint32_t));
}

static void *worker_main(void *arg)
{
	worker *wk = arg;
	stm_cpu *c = wk->c;
	const stm_cpu_threads *ops = c->threads;
	uint32_t workers = c->p.cpu_workers, n = 0, active, k, t;
	uint64_t now = gb_clock_ns();
	char *s;

	for (t = wk->index; t < c->p.threads; t += workers)
		n++;
	s = gb_xmalloc((size_t)n * ops->size + 1, "CPU logical threads");
	for (t = wk->index, k = 0; t < c->p.threads; t += workers, k++)
		ops->init(s + (size_t)k * ops->size, t, c, now);
	active = n;
	while (active) {
		int busy = 0;
		for (k = 0; k < active;) {
			void *th = s + (size_t)k * ops->size;
			if (ops->step(th, c) == STM_RUNNING) {
				busy |= ops->wait_ns(th) == 0;
				k++;
				continue;
			}
			{
				stm_counters done = ops->totals(th);
				stm_counters_add(&wk->totals, &done);
			}
			if (k != --active)
				memcpy(th, s + (size_t)active * ops->size, ops->size);
		}
		/* Every logical thread of this worker waits (backoff, round gate):
		 * let the workers they wait for have the core. */
		if (!busy && active)
			sched_yield();
	}
	free(s);
	return NULL;
}

int stm_cpu_rounds_ok(void *ctx)
{
	(void)ctx;
	return 1; /* every logical thread is always scheduled */
}

void stm_cpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	stm_cpu *c = ctx;
	uint32_t nw = c->p.cpu_workers, i;
	worker *wk = gb_xcalloc(nw, sizeof(*wk), "CPU workers");
	uint64_t t0;
	int err;

	memset(c->status, 0, c->in.ntx * sizeof(uint32_t));
	memset(&c->shared, 0, sizeof(c->shared));
	c->timeout_ns = timeout_ns;
	c->run_ns = run_ns;
	memset(r, 0, sizeof(*r));
	t0 = gb_now_ns();
	for (i = 0; i < nw; i++) {
		wk[i].c = c;
		wk[i].index = i;
		err = pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CPU worker %u of %u: %s", i, nw,
			       strerror(err));
	}
	for (i = 0; i < nw; i++) {
		pthread_join(wk[i].thread, NULL);
		stm_counters_add(&r->c, &wk[i].totals);
	}
	r->seconds = gb_seconds_since(t0);
	r->cycles_per_ns = c->cycles_per_ns;
	free(wk);
}

void stm_cpu_fetch(void *ctx, uint32_t *words, uint32_t *status)
{
	stm_cpu *c = ctx;
	if (words)
		memcpy(words, c->data, c->in.words * sizeof(uint32_t));
	if (status)
		memcpy(status, c->status, c->in.ntx * sizeof(uint32_t));
}

void stm_cpu_close(void *ctx)
{
	stm_cpu *c = ctx;
	free(c->data);
	free(c->locks);
	free(c->status);
	free(c->engine);
	free(c);
}
