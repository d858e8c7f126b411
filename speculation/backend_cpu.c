/*
 * The CPU backend of the speculative runtime (--backend cpu): the device
 * phases of speculation/check.h run on a pool of host threads, each taking a
 * contiguous slice of the assignment, over a "device" copy of the array kept
 * apart from the host's, so that commit and copy-in move real data as they
 * do over PCIe (speculative writes must not reach the host's array before
 * the check). The read-only inputs are used in place. This is how CI tests
 * the runtime, and `--compare cpu-spec` times it on the host's cores.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "speculation/runtime.h"

/* Below this many threads of a step, waking the pool costs more than it saves. */
#define INLINE_BELOW 2048

typedef struct cpu_ctx {
	sp_dev d;
	uint32_t *words;      /* one allocation behind every device buffer */
	uint32_t max_count;   /* iterations the traces have room for */
	unsigned workers;
	pthread_t *threads;
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint64_t generation;
	unsigned pending;
	int quit;
	unsigned kernel;      /* the step being run */
	sp_dev job;
} cpu_ctx;

static void run_slice(const sp_dev *d, unsigned kernel, unsigned w, unsigned nw)
{
	uint32_t lo = (uint32_t)((uint64_t)d->count * w / nw);
	uint32_t hi = (uint32_t)((uint64_t)d->count * (w + 1) / nw), i;
	for (i = lo; i < hi; i++)
		sp_kernel_run(d, kernel, i);
}

typedef struct worker_arg {
	cpu_ctx *c;
	unsigned index;
} worker_arg;

static void *worker_main(void *arg)
{
	worker_arg *wa = arg;
	cpu_ctx *c = wa->c;
	unsigned w = wa->index;
	uint64_t seen = 0;

	free(wa);
	for (;;) {
		pthread_mutex_lock(&c->mu);
		while (c->generation == seen && !c->quit)
			pthread_cond_wait(&c->go, &c->mu);
		if (c->quit) {
			pthread_mutex_unlock(&c->mu);
			return NULL;
		}
		seen = c->generation;
		pthread_mutex_unlock(&c->mu);
		run_slice(&c->job, c->kernel, w, c->workers);
		pthread_mutex_lock(&c->mu);
		if (--c->pending == 0)
			pthread_cond_signal(&c->done);
		pthread_mutex_unlock(&c->mu);
	}
}

static void cpu_launch(void *vctx, unsigned kernel, uint32_t start, uint32_t count,
		       const float s[SP_NSCALARS])
{
	cpu_ctx *c = vctx;
	sp_dev d = c->d;
	if (kernel != SP_K_SCATTER && kernel != SP_K_RESET && kernel != SP_K_RESTORE &&
	    count > c->max_count)
		gb_die(GB_EXIT_RUNTIME, "an assignment of %u iterations exceeds the %u the device state "
		       "was sized for", count, c->max_count);
	d.start = start;
	d.count = count;
	memcpy(d.args.s, s, sizeof(d.args.s));
	if (c->workers == 1 || count < INLINE_BELOW) {
		run_slice(&d, kernel, 0, 1);
		return;
	}
	pthread_mutex_lock(&c->mu);
	c->job = d;
	c->kernel = kernel;
	c->pending = c->workers - 1;
	c->generation++;
	pthread_cond_broadcast(&c->go);
	pthread_mutex_unlock(&c->mu);
	run_slice(&d, kernel, 0, c->workers);
	pthread_mutex_lock(&c->mu);
	while (c->pending)
		pthread_cond_wait(&c->done, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

/* Steps and copies run synchronously on the host: nothing to wait for. */
static void cpu_sync(void *vctx, const char *what)
{
	(void)vctx, (void)what;
}

static uint32_t *buffer(cpu_ctx *c, unsigned buf)
{
	switch (buf) {
	case SP_BUF_A: return c->d.args.A;
	case SP_BUF_COUNTERS: return c->d.counters;
	case SP_BUF_MLIST: return c->d.mlist;
	case SP_BUF_WLIST: return c->d.wlist;
	case SP_BUF_SIDX: return c->d.sidx;
	case SP_BUF_SVAL: return c->d.sval;
	case SP_BUF_ROUNDS: return (uint32_t *)c->d.rounds;
	case SP_BUF_ROWS: return c->d.rows;
	case SP_BUF_PLAN: return c->d.plan;
	default: /* the inputs are used in place (host_memory) */
		gb_die(GB_EXIT_RUNTIME, "the CPU backend has no device buffer %u", buf);
	}
}

static void cpu_upload(void *vctx, unsigned buf, size_t off, const uint32_t *src, size_t words)
{
	memcpy(buffer(vctx, buf) + off, src, words * sizeof(uint32_t));
}

static void cpu_download(void *vctx, unsigned buf, size_t off, uint32_t *dst, size_t words)
{
	memcpy(dst, buffer(vctx, buf) + off, words * sizeof(uint32_t));
}

static void *cpu_open(const sp_problem *p, uint32_t *host, uint32_t max_count, unsigned workers,
		      unsigned flags)
{
	cpu_ctx *c = gb_xcalloc(1, sizeof(*c), "the CPU backend");
	const sp_loop *l = p->loop;
	size_t size = p->args.size, n = max_count ? max_count : 1, total, at = 0, staging, resident = 0;
	unsigned w;
	uint32_t *q;

	(void)host;
	c->max_count = (uint32_t)n;
	c->d.args = p->args;
	c->d.clause = p->clause;
	c->d.kind = l->kind;
	c->d.maxrd = l->kind == SP_MEM ? l->max_reads : 0;
	c->d.maxwr = l->kind == SP_MEM ? l->max_writes : 0;
	/* The rounds' state; A, Read, Write, Read-min, Wrong, Wrong list; staging x2; traces;
	 * Misspec, Misspec list; counters; where resident, the committed copy, rows and plan. */
	staging = n * l->max_writes > size ? n * l->max_writes : size;
	if (flags & SP_OPEN_RESIDENT)
		resident = size + n * SP_ROW_WORDS(c->d.maxrd, c->d.maxwr) + SP_PLAN_WORDS(n);
	total = 6 * size + 2 * staging + n * (c->d.maxrd + c->d.maxwr + 2) + 2 * n + SP_NCOUNTERS +
		SP_ROUND_WORDS + resident + (flags & SP_OPEN_SHADOW ? size : 0);
	q = c->words = gb_xcalloc(total, sizeof(uint32_t), "the CPU backend's device memory");
	/* First, where the allocation's alignment suits its 64-bit fields. */
	c->d.rounds = (sp_rounds *)q;
	at = SP_ROUND_WORDS;
#define TAKE(field, words) (c->d.field = q + at, at += (words))
	TAKE(args.A, size);
	TAKE(readf, size);
	TAKE(writec, size);
	TAKE(minrd, size);
	TAKE(wrongf, size);
	TAKE(wlist, size);
	TAKE(sidx, staging);
	TAKE(sval, staging);
	TAKE(rd, n * c->d.maxrd);
	TAKE(wr, n * c->d.maxwr);
	TAKE(nrd, n);
	TAKE(nwr, n);
	TAKE(misspec, n);
	TAKE(mlist, n);
	TAKE(counters, SP_NCOUNTERS);
	if (flags & SP_OPEN_RESIDENT) {
		TAKE(committed, size);
		TAKE(rows, n * SP_ROW_WORDS(c->d.maxrd, c->d.maxwr));
		TAKE(plan, SP_PLAN_WORDS(n));
	}
	if (flags & SP_OPEN_SHADOW)
		TAKE(shadow, size);
#undef TAKE
	memset(c->d.minrd, 0xFF, size * sizeof(uint32_t));
	/* An array the runtime does not copy in must not find the right values here by chance:
	 * a loop that declares it writes the whole array and does not then fails verification. */
	memset(c->d.args.A, 0xFF, size * sizeof(uint32_t));

	c->workers = workers ? workers : 1;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->go, NULL);
	pthread_cond_init(&c->done, NULL);
	c->threads = gb_xcalloc(c->workers, sizeof(pthread_t), "CPU workers");
	for (w = 1; w < c->workers; w++) {
		worker_arg *wa = gb_xmalloc(sizeof(*wa), "a CPU worker");
		int err;
		wa->c = c;
		wa->index = w;
		err = pthread_create(&c->threads[w], NULL, worker_main, wa);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CPU worker %u of %u: %s", w, c->workers,
			       strerror(err));
	}
	return c;
}

static void cpu_close(void *vctx)
{
	cpu_ctx *c = vctx;
	unsigned w;
	pthread_mutex_lock(&c->mu);
	c->quit = 1;
	pthread_cond_broadcast(&c->go);
	pthread_mutex_unlock(&c->mu);
	for (w = 1; w < c->workers; w++)
		pthread_join(c->threads[w], NULL);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->go);
	pthread_cond_destroy(&c->done);
	free(c->threads);
	free(c->words);
	free(c);
}

const sp_backend sp_backend_cpu = {
	.name = "cpu",
	.host_memory = 1,
	.open = cpu_open,
	.launch = cpu_launch,
	.sync = cpu_sync,
	.upload = cpu_upload,
	.download = cpu_download,
	.upload_async = cpu_upload,
	.download_async = cpu_download,
	.drain = cpu_sync,
	.close = cpu_close,
};
