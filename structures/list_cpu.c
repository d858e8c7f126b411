/*
 * The shared lock-free list (structures/semilist.h) on the KMA-style heap,
 * run by OS threads: the CPU backend of gpu and gpu-tail, and how the tests
 * exercise the concurrent algorithm without a GPU.
 *
 *  cpu-lockfree:      logical thread t goes to worker t % workers; a worker
 *                     interleaves its logical threads one operation at a time.
 *  cpu-lockfree-tail: the tail variant, organised as the GPU runs it: groups
 *                     of LIST_GROUP logical threads (a warp) go to workers
 *                     round-robin, and at each step a group's adds take their
 *                     nodes in one run from the allocator (kma_malloc_run),
 *                     are linked into one chain and appended with one CAS
 *                     (sl_tail_append); its gets and deletes run one by one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "structures/list_apply.h"
#include "structures/list_engine.h"

typedef struct cpu_job {
	const list_workload *w;
	list_run *r;
	kma_heap h;
	uint32_t workers;
	int tail;
	double cpn;
	pthread_barrier_t start;
} cpu_job;

typedef struct worker {
	cpu_job *job;
	uint32_t index;
	pthread_t thread;
} worker;

static void one_op(cpu_job *j, uint64_t c)
{
	uint64_t c0 = gb_cycles();
	uint32_t steps = 0;
	j->r->outcome[c] = list_apply(j->h, j->w->ops[c], j->tail, &steps);
	j->r->op_ns[c] = (uint32_t)((double)(gb_cycles() - c0) / j->cpn);
	j->r->op_steps[c] = steps;
}

/*
 * One step of one group in the tail variant, as a warp does it on the GPU:
 * the adds' nodes in one run from the allocator, keys set, linked in thread
 * order and appended as one chain; then the gets and deletes one by one.
 */
static void group_step(cpu_job *j, uint64_t row, uint32_t lo, uint32_t hi)
{
	const uint32_t *ops = j->w->ops + row;
	uint32_t t, node[LIST_GROUP], adds = 0, got, k, b;
	uint64_t c0 = gb_cycles();

	for (t = lo; t < hi; t++)
		adds += LIST_OP_OF(ops[t]) == LIST_ADD;
	if (adds) {
		got = kma_malloc_run(j->h, SL_NODE_BYTES, adds, &b);
		for (k = 0, t = lo; t < hi; t++) {
			if (LIST_OP_OF(ops[t]) != LIST_ADD)
				continue;
			j->r->outcome[row + t] = k < got ? LIST_DONE : LIST_NOMEM;
			if (k < got) {
				node[k] = b;
				gb_st_relaxed_u32(sl_key(j->h, b), LIST_KEY_OF(ops[t]));
				if (++k < got)
					b = gb_ld_relaxed_u32(kma_word(j->h, b));
			}
		}
		if (got) {
			gb_fence(); /* the keys before the next words */
			for (k = 0; k < got; k++)
				gb_st_relaxed_u32(sl_next(j->h, node[k]), k + 1 < got ? node[k + 1] : SL_LINKING);
			sl_tail_append(j->h, node[0], node[got - 1]);
		}
		c0 = (uint64_t)((double)(gb_cycles() - c0) / j->cpn);
		for (t = lo; t < hi; t++)
			if (LIST_OP_OF(ops[t]) == LIST_ADD)
				j->r->op_ns[row + t] = (uint32_t)c0;
	}
	for (t = lo; t < hi; t++)
		if (LIST_OP_OF(ops[t]) == LIST_GET || LIST_OP_OF(ops[t]) == LIST_DEL)
			one_op(j, row + t);
}

static void *worker_main(void *arg)
{
	worker *wk = arg;
	cpu_job *j = wk->job;
	uint32_t T = j->w->threads, i, t;

	pthread_barrier_wait(&j->start);
	for (i = 0; i < j->w->steps; i++) {
		uint64_t row = (uint64_t)i * T;
		if (j->tail) {
			for (t = wk->index * LIST_GROUP; t < T; t += j->workers * LIST_GROUP)
				group_step(j, row, t, t + LIST_GROUP < T ? t + LIST_GROUP : T);
		} else {
			for (t = wk->index; t < T; t += j->workers)
				if (j->w->ops[row + t])
					one_op(j, row + t);
		}
	}
	return NULL;
}

static int lockfree_run(const list_workload *w, const list_params *p, list_run *r, int tail, char *err,
			size_t errlen)
{
	cpu_job j;
	worker *wk;
	uint32_t k, n;
	uint64_t t0;

	memset(&j, 0, sizeof(j));
	j.w = w;
	j.r = r;
	j.tail = tail;
	j.cpn = list_cycles_per_ns();
	if (list_heap_build(w, p, tail, &j.h, err, errlen) != 0)
		return -1;
	/* No more workers than there are groups of logical threads to give them. */
	n = tail ? (w->threads + LIST_GROUP - 1) / LIST_GROUP : w->threads;
	j.workers = p->cpu_workers < n ? p->cpu_workers : n;
	wk = gb_xcalloc(j.workers, sizeof(*wk), "list workers");
	pthread_barrier_init(&j.start, NULL, j.workers + 1);
	for (k = 0; k < j.workers; k++) {
		wk[k].job = &j;
		wk[k].index = k;
		if (pthread_create(&wk[k].thread, NULL, worker_main, &wk[k]) != 0)
			gb_die(GB_EXIT_RUNTIME, "cannot start list worker %u of %u", k, j.workers);
	}
	t0 = gb_now_ns();
	pthread_barrier_wait(&j.start);
	for (k = 0; k < j.workers; k++)
		pthread_join(wk[k].thread, NULL);
	r->seconds = gb_seconds_since(t0);
	pthread_barrier_destroy(&j.start);
	free(wk);
	list_heap_finish(j.h, r);
	kma_host_destroy(j.h);
	return 0;
}

static int run_plain(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	return lockfree_run(w, p, r, 0, err, errlen);
}

static int run_tail(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	return lockfree_run(w, p, r, 1, err, errlen);
}

const list_engine list_engine_cpu_lockfree = {
	.head = {.name = "cpu-lockfree",
		 .summary = "the lock-free list (Listings 1 and 3) on the KMA-style heap, on CPU threads",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU),
		 .options = list_threaded_options},
	.platform = LIST_ON_CPU,
	.run = run_plain,
};

const list_engine list_engine_cpu_lockfree_tail = {
	.head = {.name = "cpu-lockfree-tail",
		 .summary = "the tail-pointer list, a group's adds appended as one chain, on CPU threads",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU),
		 .options = list_threaded_options},
	.platform = LIST_ON_CPU,
	.run = run_tail,
	.tail = 1,
};
