/* The CPU backend every STM engine shares (see stm/backend/stm_cpu.h). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/port.h"
#include "common/timer.h"
#include "stm/backend/stm_cpu.h"

typedef struct worker_thread {
	stm_cpu_worker w;
	void (*fn)(stm_cpu_worker *w);
	pthread_t thread;
} worker_thread;

double stm_cpu_cycles_per_ns(void)
{
	uint64_t t0 = gb_now_ns(), c0 = gb_cycles(), t1, c1;
	do {
		t1 = gb_now_ns();
	} while (t1 - t0 < 20000000ull);
	c1 = gb_cycles();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

void stm_cpu_table_of(tx_table *t, const tx_input *in)
{
	t->entries = in->entries;
	t->aux = in->aux;
	t->aux_stride = in->aux_stride;
	t->tx_per_thread = in->tx_per_thread;
	t->max_tag = in->max_tag;
	t->ntx = (uint32_t)in->ntx;
}

static void *worker_start(void *arg)
{
	worker_thread *t = arg;
	t->fn(&t->w);
	return NULL;
}

void stm_cpu_workers_run(uint32_t count, void (*fn)(stm_cpu_worker *w), void *ctx, stm_counters *sum)
{
	worker_thread *wt = gb_xcalloc(count, sizeof(*wt), "CPU workers");
	uint32_t i;
	int err;

	for (i = 0; i < count; i++) {
		wt[i].w.ctx = ctx;
		wt[i].w.index = i;
		wt[i].w.count = count;
		wt[i].fn = fn;
		err = pthread_create(&wt[i].thread, NULL, worker_start, &wt[i]);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CPU worker %u of %u: %s", i, count, strerror(err));
	}
	for (i = 0; i < count; i++) {
		pthread_join(wt[i].thread, NULL);
		stm_counters_add(sum, &wt[i].w.totals);
	}
	free(wt);
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
	stm_cpu_table_of(&c->table, in);
	c->table.status = c->status;
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
	stm_cpu_table_of(&c->table, in);
}

void stm_cpu_load(void *ctx, const uint32_t *words)
{
	stm_cpu *c = ctx;
	memcpy(c->data, words, c->in.words * sizeof(uint32_t));
	memset(c->locks, 0, c->nlocks * sizeof(uint32_t));
}

static void worker_main(stm_cpu_worker *wk)
{
	stm_cpu *c = wk->ctx;
	const stm_cpu_threads *ops = c->threads;
	uint32_t workers = wk->count, n = 0, active, k, t;
	uint64_t now = gb_clock_ns();
	char *s;

	/* logical thread t runs on worker t % workers, one attempt at a time: PR-STM's read log gives
	 * each worker one slot on that (stm/prstm/prstm.h, "Long reads") */
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
}

int stm_cpu_rounds_ok(void *ctx)
{
	(void)ctx;
	return 1; /* every logical thread is always scheduled */
}

void stm_cpu_run(void *ctx, uint64_t timeout_ns, uint64_t run_ns, stm_batch_result *r)
{
	stm_cpu *c = ctx;
	uint64_t t0;

	memset(c->status, 0, c->in.ntx * sizeof(uint32_t));
	memset(&c->shared, 0, sizeof(c->shared));
	c->timeout_ns = timeout_ns;
	c->run_ns = run_ns;
	memset(r, 0, sizeof(*r));
	t0 = gb_now_ns();
	stm_cpu_workers_run(c->p.cpu_workers, worker_main, c, &r->c);
	r->seconds = gb_seconds_since(t0);
	r->cycles_per_ns = c->cycles_per_ns;
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
