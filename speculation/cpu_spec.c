/*
 * Speculative execution of a loop on the host's cores: the `--compare
 * cpu-spec` baseline. Feng, Gupta and Bhuyan compare their GPU runtime with
 * speculation on a multicore CPU; this is a design for a multicore host
 * rather than the GPU runtime's steps run on threads (that is the CPU backend,
 * speculation/backend_cpu.c). It runs the same loop bodies
 * (workloads/spec_bodies.h) and the same misspeculate clauses.
 *
 * The loop runs in rounds; a round's iterations are split into one
 * contiguous chunk per worker, which runs them in order:
 *
 * Irregular memory (thread-level speculation with private views and value
 * validation). The round's first chunk reads only committed state, so it runs
 * the plain loop in place, at sequential speed. Every other chunk reads and
 * writes A through its own view (sp_view in api/loop_body.h): its writes
 * go to a buffer private to the chunk, its reads see the chunk's own earlier
 * writes and otherwise the shared array, and each iteration logs, in
 * thread-local rows, the first value it saw of each element it read and the
 * values it wrote. Chunks commit in loop order, each in its turn once the one
 * before has: an iteration is valid when every value it read is the value A
 * holds at that point of the ordered commit (everything before it is in A by
 * then), since a body computes the same writes from the same values; its
 * logged writes are applied. Any other iteration is re-executed in place
 * right there, so the iterations after it validate against its real
 * effects. Only a read that saw a value which the sequential order changes
 * costs anything: WAR and WAW across chunks are resolved by the ordered
 * commit, a RAW within a chunk is forwarded by the view, and a RAW across
 * chunks whose writer ran first is simply valid. Being cheaper per
 * iteration, the first chunk gets the share of the round that the measured
 * costs say lets every chunk finish together.
 *
 * Irregular control flow. Chunks run in place (by the loops' contract each
 * iteration writes its own range of A); marked branches record their
 * clauses as the runtime does (sp_branch). A chunk stops as soon as a range
 * to the end (Figure 6(c)) has started at or before its iteration, since
 * everything from there on runs again. After the round the coordinating
 * thread re-executes marked iterations in order, then the first iteration
 * of a range to the end, and the next round starts after it.
 *
 * Scheduling is section 4's policy (sp_sched, shared with the runtime):
 * rounds of n/m iterations at first for irregular memory (a longer round
 * would revisit the elements an earlier chunk of it wrote, as ocean's sweeps
 * do), at most MAX_CHUNK per chunk, halved when the misspeculation rate
 * passes --threshold and doubled after --clean-run clean rounds; all
 * iterations for control flow, or the mean interval between branches for an
 * all-subsequent clause. A chunk carries at least MIN_CHUNK iterations and
 * MIN_CHUNK_NS of measured work; a round too short for two chunks runs
 * sequentially: that is the fallback for dense dependences and frequent
 * branches (in order with its branches observed, for an all-subsequent
 * clause, so that the interval schedule keeps seeing them).
 *
 * Why it is strong on a CPU: no step walks an array of the loop's size or
 * shares a cache line between workers (validation reads A and the worker's
 * own logs only), the logs live in each worker's cache, one chunk per round
 * runs untracked, the only barrier is the end of a round (the ordered commit
 * is a hand-off from chunk to chunk that overlaps later chunks' execution),
 * misspeculation costs one in-order re-execution per iteration that saw a
 * stale value, and workers poll briefly before they sleep, so short rounds
 * stay cheap.
 *
 * Deviations from a textbook TLS: validation is by value (as in NOrec-style
 * software transactional memory) rather than by read and write sets, so
 * whether a cross-chunk RAW re-executes depends on which chunk got there
 * first and the counters vary between runs; commit is by chunk; the
 * coordinator, not a worker, recovers control-flow marks (rare by the
 * clauses' design); speculation does not carry across rounds.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/cpu_spec.h"
#include "workloads/spec_bodies.h"

/* A chunk shorter than this many iterations, or than this much measured work, costs more
 * to hand to a worker (a few microseconds) than it saves. */
#define MIN_CHUNK 64
#define MIN_CHUNK_NS 20000.0
/* Iterations of a memory loop's chunk at most, so that its logs and view stay in cache. */
#define MAX_CHUNK 4096
/* Polls before a waiting thread yields its core, and before an idle worker sleeps: rounds
 * follow each other within microseconds, which a sleep and a wake-up would exceed. */
#define SPIN 2048
#define SPIN_IDLE 32768

typedef struct worker {
	/* SP_MEM: the chunk's logs, one row per iteration: elements read and the values seen,
	 * elements written and the values written */
	uint32_t *rd, *rv, *wr, *wv, *nrd, *nwr;
	sp_view view;
	uint64_t busy_ns;               /* this round: time spent on the chunk, waits left out */
	uint64_t violations, discarded; /* this round: iterations re-executed, writes dropped */
	uint32_t overflow;
	struct xrun *x;
	uint32_t index;
	pthread_t thread;
} worker;

typedef struct xrun {
	const sp_problem *p;
	uint32_t *A;
	float *s;
	unsigned nw;
	worker *wk;
	/* the current round */
	uint32_t start, count, nchunks;
	uint32_t max_chunk;  /* iterations the logs have room for */
	uint32_t head;       /* iterations of chunk 0 */
	uint32_t token;      /* SP_MEM: the chunk whose turn it is to commit */
	uint32_t executed;   /* chunks done executing */
	uint64_t t_executed;
	uint32_t *misspec, all_from, marks; /* SP_CF: the round's marks */
	/* the pool: gen counts rounds handed out, pending the workers still in one */
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint32_t gen, pending, quit, ready;
} xrun;

/* Wait until *p == v, polling, then yielding the core to the thread being waited for. */
static void wait_for(const uint32_t *p, uint32_t v)
{
	unsigned k;
	for (k = 0; __atomic_load_n(p, __ATOMIC_ACQUIRE) != v; k++)
		if (k >= SPIN)
			sched_yield();
}

/* Chunk 0 takes head iterations, the others share the rest evenly. */
static uint32_t chunk_lo(const xrun *x, uint32_t w)
{
	if (w == 0)
		return x->start;
	return x->start + x->head +
	       (uint32_t)((uint64_t)(x->count - x->head) * (w - 1) / (x->nchunks - 1));
}

static void chunk_executed(xrun *x)
{
	if (__atomic_add_fetch(&x->executed, 1, __ATOMIC_ACQ_REL) == x->nchunks)
		x->t_executed = gb_now_ns();
}

/*
 * Chunk w's turn to commit, in loop order: everything before it is in A. An
 * iteration whose every read saw the value A holds now computed what the
 * sequential loop computes (the bodies are functions of the values they
 * read): its logged writes are applied. Any other is re-executed in place.
 */
static void commit_chunk(xrun *x, uint32_t w, uint32_t lo, uint32_t hi)
{
	const sp_loop *l = x->p->loop;
	worker *k = &x->wk[w];
	uint32_t mr = l->max_reads, mw = l->max_writes, i, q;
	float s[SP_NSCALARS];

	for (i = lo; i < hi; i++) {
		size_t j = i - lo;
		const uint32_t *rd = k->rd + j * mr, *rv = k->rv + j * mr;
		for (q = 0; q < k->nrd[j] && sp_ld(&x->A[rd[q]]) == rv[q]; q++)
			;
		if (q < k->nrd[j]) {
			memcpy(s, x->s, sizeof(s)); /* a memory loop leaves its scalars alone */
			sp_run_sequential(x->p, x->A, s, i, i + 1);
			k->discarded += k->nwr[j];
			k->violations++;
			continue;
		}
		for (q = 0; q < k->nwr[j]; q++)
			sp_st(&x->A[k->wr[j * mw + q]], k->wv[j * mw + q]);
	}
}

/*
 * A memory loop's chunk. The round's first chunk reads only committed state:
 * it runs the plain loop in place. The others run through their views,
 * logging what they read and wrote, then commit in turn.
 */
static void mem_chunk(xrun *x, uint32_t w)
{
	const sp_loop *l = x->p->loop;
	worker *k = &x->wk[w];
	uint32_t lo = chunk_lo(x, w), hi = chunk_lo(x, w + 1), mr = l->max_reads, mw = l->max_writes;
	uint64_t t0 = gb_now_ns(), t1;
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential();
	uint32_t i;

	if (w == 0) {
		float s[SP_NSCALARS];
		memcpy(s, x->s, sizeof(s));
		sp_run_sequential(x->p, x->A, s, lo, hi);
		k->busy_ns = gb_now_ns() - t0;
		chunk_executed(x);
		__atomic_store_n(&x->token, 1, __ATOMIC_RELEASE);
		return;
	}
	a.A = x->A;
	memcpy(a.s, x->s, sizeof(a.s));
	t.spec = 1;
	t.maxrd = mr;
	t.maxwr = mw;
	t.view = &k->view;
	k->view.epoch++; /* empties the buffer: at most one round per iteration, no wrap */
	for (i = lo; i < hi; i++) {
		size_t j = i - lo;
		t.rd = k->rd + j * mr;
		t.wr = k->wr + j * mw;
		k->view.rval = k->rv + j * mr;
		k->view.wval = k->wv + j * mw;
		t.nrd = t.nwr = 0;
		sp_body(&a, &t, i);
		k->nrd[j] = t.nrd;
		k->nwr[j] = t.nwr;
	}
	k->overflow = t.overflow;
	k->busy_ns = gb_now_ns() - t0;
	chunk_executed(x);
	wait_for(&x->token, w);
	t1 = gb_now_ns();
	if (!k->overflow)
		commit_chunk(x, w, lo, hi);
	k->busy_ns += gb_now_ns() - t1;
	__atomic_store_n(&x->token, w + 1, __ATOMIC_RELEASE);
}

static void cf_chunk(xrun *x, uint32_t w)
{
	uint32_t lo = chunk_lo(x, w), hi = chunk_lo(x, w + 1), i;
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential();

	a.A = x->A;
	memcpy(a.s, x->s, sizeof(a.s));
	t.spec = 1;
	t.misspec = x->misspec;
	t.all_from = &x->all_from;
	t.marks = &x->marks;
	t.start = x->start;
	t.count = x->count;
	t.clause = &x->p->clause;
	for (i = lo; i < hi && gb_ld_relaxed_u32(&x->all_from) > i; i++)
		sp_body(&a, &t, i);
	chunk_executed(x);
}

static void run_chunk(xrun *x, uint32_t w)
{
	if (w >= x->nchunks)
		return;
	if (x->p->loop->kind == SP_MEM)
		mem_chunk(x, w);
	else
		cf_chunk(x, w);
}

static void *worker_main(void *arg)
{
	worker *k = arg;
	xrun *x = k->x;
	uint32_t seen = 0, g;
	unsigned n;

	__atomic_add_fetch(&x->ready, 1, __ATOMIC_RELEASE);
	for (;;) {
		for (n = 0; (g = __atomic_load_n(&x->gen, __ATOMIC_ACQUIRE)) == seen && n < SPIN_IDLE; n++)
			;
		if (g == seen) {
			pthread_mutex_lock(&x->mu);
			while ((g = __atomic_load_n(&x->gen, __ATOMIC_ACQUIRE)) == seen)
				pthread_cond_wait(&x->go, &x->mu);
			pthread_mutex_unlock(&x->mu);
		}
		seen = g;
		if (__atomic_load_n(&x->quit, __ATOMIC_ACQUIRE))
			return NULL;
		run_chunk(x, k->index);
		if (__atomic_sub_fetch(&x->pending, 1, __ATOMIC_ACQ_REL) == 0) {
			pthread_mutex_lock(&x->mu);
			pthread_cond_signal(&x->done);
			pthread_mutex_unlock(&x->mu);
		}
	}
}

/* Hand out the next generation: a round, or the order to quit. */
static void wake_workers(xrun *x)
{
	__atomic_store_n(&x->pending, x->nw - 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&x->mu);
	__atomic_store_n(&x->gen, x->gen + 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&x->go);
	pthread_mutex_unlock(&x->mu);
}

/* One round on every worker, the calling thread being worker 0. */
static void run_round(xrun *x)
{
	unsigned n;
	x->token = 0;
	x->executed = 0;
	wake_workers(x);
	run_chunk(x, 0);
	for (n = 0; __atomic_load_n(&x->pending, __ATOMIC_ACQUIRE) && n < SPIN; n++)
		;
	if (__atomic_load_n(&x->pending, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&x->mu);
		while (__atomic_load_n(&x->pending, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&x->done, &x->mu);
		pthread_mutex_unlock(&x->mu);
	}
}

/* Zeroed memory with its pages touched now: page faults belong to allocation, not to the loop. */
static void *xalloc(size_t n, size_t size, const char *what)
{
	void *q = gb_xmalloc((n ? n : 1) * size, what);
	memset(q, 0, (n ? n : 1) * size);
	return q;
}

/* Allocate the logs and the per-element arrays for rounds of up to cap iterations, start the workers. */
static void open_run(xrun *x, const sp_problem *p, uint32_t cap, unsigned workers)
{
	const sp_loop *l = p->loop;
	size_t chunk, slots;
	unsigned w;

	memset(x, 0, sizeof(*x));
	x->p = p;
	x->nw = workers;
	x->wk = xalloc(x->nw, sizeof(worker), "CPU speculation workers");
	/* Logs for ceil(cap / nw) iterations and more: a round whose chunks would not fit
	 * takes more of them (sp_cpu_spec_run). */
	chunk = ((size_t)cap + x->nw - 1) / x->nw + 2 * MIN_CHUNK;
	x->max_chunk = (uint32_t)chunk;
	if (l->kind == SP_MEM) {
		for (slots = 1; slots < 2 * chunk * l->max_writes; slots *= 2)
			;
		for (w = 0; w < x->nw; w++) {
			worker *k = &x->wk[w];
			k->rd = xalloc(chunk * l->max_reads, sizeof(uint32_t), "a read log");
			k->rv = xalloc(chunk * l->max_reads, sizeof(uint32_t), "a read log");
			k->wr = xalloc(chunk * l->max_writes, sizeof(uint32_t), "a write log");
			k->wv = xalloc(chunk * l->max_writes, sizeof(uint32_t), "a write log");
			k->nrd = xalloc(chunk, sizeof(uint32_t), "a read log");
			k->nwr = xalloc(chunk, sizeof(uint32_t), "a write log");
			k->view.slot = xalloc(slots * SP_SLOT_WORDS, sizeof(uint32_t), "a private view");
			k->view.mask = (uint32_t)(slots - 1);
		}
	} else {
		x->misspec = xalloc(cap, sizeof(uint32_t), "the round's marks");
	}
	x->all_from = SP_NONE;
	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->go, NULL);
	pthread_cond_init(&x->done, NULL);
	for (w = 1; w < x->nw; w++) {
		int err;
		x->wk[w].x = x;
		x->wk[w].index = w;
		err = pthread_create(&x->wk[w].thread, NULL, worker_main, &x->wk[w]);
		if (err)
			gb_die(GB_EXIT_RUNTIME, "cannot start CPU speculation worker %u of %u: %s", w,
			       x->nw, strerror(err));
	}
	/* Started and polling before the clock starts: thread creation is allocation too. */
	wait_for(&x->ready, x->nw - 1);
}

static void close_run(xrun *x)
{
	unsigned w;
	__atomic_store_n(&x->quit, 1, __ATOMIC_RELEASE);
	wake_workers(x);
	for (w = 1; w < x->nw; w++)
		pthread_join(x->wk[w].thread, NULL);
	for (w = 0; w < x->nw; w++) {
		worker *k = &x->wk[w];
		free(k->rd);
		free(k->rv);
		free(k->wr);
		free(k->wv);
		free(k->nrd);
		free(k->nwr);
		free(k->view.slot);
	}
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->go);
	pthread_cond_destroy(&x->done);
	free(x->wk);
	free(x->misspec);
}

/* After a memory loop's round: what the ordered commit found. Returns the misspeculated iterations. */
static uint64_t mem_round_result(xrun *x, sp_result *r)
{
	uint64_t miss = 0;
	unsigned w;
	for (w = 0; w < x->nchunks; w++) {
		miss += x->wk[w].violations;
		r->wrong_elements += x->wk[w].discarded;
		x->wk[w].violations = x->wk[w].discarded = 0;
	}
	r->misspeculated += miss;
	r->reexecuted += miss;
	r->raw_war += miss > 0;
	r->detections += miss > 0;
	return miss;
}

/*
 * After a control-flow loop's round: re-execute the marked iterations in
 * order, then the first of a range to the end. Returns the iteration the
 * next round starts at; *miss counts the misspeculated ones.
 */
static uint32_t cf_recover(xrun *x, sp_result *r, uint64_t *miss)
{
	uint32_t end = x->start + x->count, af = x->all_from, stop = af < end ? af : end, i;
	*miss = 0;
	if (x->marks) {
		for (i = x->start; i < stop; i++)
			if (x->misspec[i - x->start]) {
				sp_run_sequential(x->p, x->A, x->s, i, i + 1);
				++*miss;
			}
		memset(x->misspec, 0, (size_t)x->count * sizeof(uint32_t));
		x->marks = 0;
	}
	r->reexecuted += *miss;
	r->detections += x->marks || af != SP_NONE || *miss;
	if (af == SP_NONE)
		return end;
	sp_run_sequential(x->p, x->A, x->s, af, af + 1);
	r->reexecuted++;
	r->deferred += end - af - 1;
	*miss += end - af;
	x->all_from = SP_NONE;
	return af + 1;
}

/*
 * A control-flow round too short to split, for an all-subsequent clause: the
 * coordinator runs it in order with the branches marking as in a chunk, and
 * re-executes at once an iteration whose statements were dropped. The loop
 * runs at sequential speed (plus one iteration per branch) and the branches
 * it sees keep the interval schedule up to date.
 */
static void cf_observed_round(xrun *x, const sp_config *c, sp_sched *sc, sp_result *r)
{
	uint32_t end = x->start + x->count, i;
	sp_args a = x->p->args;
	sp_track t = sp_track_sequential(), seq = sp_track_sequential();

	a.A = x->A;
	memcpy(a.s, x->s, sizeof(a.s));
	t.spec = 1;
	t.misspec = x->misspec;
	t.all_from = &x->all_from;
	t.marks = &x->marks;
	t.start = x->start;
	t.count = x->count;
	t.clause = &x->p->clause;
	for (i = x->start; i < end; i++) {
		sp_body(&a, &t, i);
		if (x->all_from <= i || (x->marks && x->misspec[i - x->start])) {
			sp_body(&a, &seq, i);
			r->reexecuted++;
			r->misspeculated++;
		}
		if (x->all_from != SP_NONE) {
			sp_sched_after(sc, x->p, c, 0, 0, x->all_from);
			x->all_from = SP_NONE;
		}
	}
	if (x->marks) {
		memset(x->misspec, 0, (size_t)x->count * sizeof(uint32_t));
		x->marks = 0;
	}
	memcpy(x->s, a.s, sizeof(a.s));
}

/* A speculative chunk's time per iteration over chunk 0's, from the round just run. */
static double measured_slowdown(const xrun *x, double last)
{
	double head = (double)x->wk[0].busy_ns / (x->head ? x->head : 1), rest = 0, ratio;
	uint32_t w;
	for (w = 1; w < x->nchunks; w++)
		rest += (double)x->wk[w].busy_ns;
	rest /= x->count - x->head ? x->count - x->head : 1;
	if (head <= 0 || rest <= 0)
		return last;
	ratio = rest / head;
	return ratio < 1 ? 1 : ratio > 16 ? 16 : ratio;
}

/* The fewest iterations worth a chunk, given the measured time of one (0: not measured yet). */
static uint32_t min_chunk(double ns_per_iter)
{
	if (ns_per_iter * MIN_CHUNK >= MIN_CHUNK_NS)
		return MIN_CHUNK;
	if (ns_per_iter * UINT32_MAX <= MIN_CHUNK_NS)
		return MIN_CHUNK;
	return (uint32_t)(MIN_CHUNK_NS / ns_per_iter);
}

int sp_cpu_spec_run(const sp_problem *p, const sp_config *c, uint32_t *host,
		    float scalars[SP_NSCALARS], sp_result *r)
{
	const sp_loop *l = p->loop;
	uint32_t n = p->args.n, start = 0, overflow = 0, cap, workers = c->workers ? c->workers : 1;
	uint64_t t0, t_phase;
	double ns_per_iter = 0; /* measured: a chunk's time over its iterations, last round */
	double slowdown = 1;    /* memory loops: a speculative chunk's time per iteration over chunk 0's */
	int observed = l->kind == SP_CF && sp_clause_all_subsequent(&p->clause);
	sp_sched sc;
	xrun x;
	unsigned w;

	memset(r, 0, sizeof(*r));
	r->min_assignment = UINT64_MAX;
	cap = sp_first_assignment(p, c);
	if (l->kind == SP_MEM && cap / workers > MAX_CHUNK)
		cap = workers * MAX_CHUNK;
	sp_sched_init(&sc, cap);
	open_run(&x, p, cap, workers); /* not timed, as the runtime's allocation */
	x.A = host;
	x.s = scalars;
	t_phase = t0 = gb_now_ns();
	while (start < n && !overflow) {
		uint32_t count = sc.size < n - start ? sc.size : n - start, next = start + count;
		uint32_t all_from = SP_NONE;
		uint64_t miss = 0, now;

		if (c->timeout_s > 0 && gb_seconds_since(t0) > c->timeout_s) {
			r->incomplete = 1;
			break;
		}
		x.nchunks = count / min_chunk(ns_per_iter) < x.nw ? count / min_chunk(ns_per_iter) : x.nw;
		/* more, shorter chunks than the work floor asks when the logs need it (ceil(count /
		 * max_chunk) <= nw, since max_chunk >= ceil(cap / nw)) */
		if (x.nchunks >= 2 && (count + x.nchunks - 1) / x.nchunks > x.max_chunk)
			x.nchunks = (count + x.max_chunk - 1) / x.max_chunk;
		/* Chunk 0 runs in place at nearly sequential speed: give it the share that makes
		 * every chunk take as long as the others (the rest stays within the logs). */
		x.head = x.nchunks >= 2 ? (uint32_t)(count * slowdown / (slowdown + x.nchunks - 1)) : count;
		if (x.nchunks >= 2 && (count - x.head + x.nchunks - 2) / (x.nchunks - 1) > x.max_chunk)
			x.head = count - (x.nchunks - 1) * x.max_chunk;
		if (x.nchunks >= 2 && x.head < 1)
			x.head = 1;
		if (x.nchunks < 2 && observed) {
			/* In order anyway: enough iterations that the round's own cost vanishes. */
			uint32_t want = 8 * min_chunk(ns_per_iter) < sc.cap ? 8 * min_chunk(ns_per_iter) : sc.cap;
			if (want > count)
				count = want < n - start ? want : n - start;
			next = start + count;
		}
		r->assignments++;
		r->iterations_gpu += count;
		if (count < r->min_assignment)
			r->min_assignment = count;
		if (count > r->max_assignment)
			r->max_assignment = count;
		now = gb_now_ns();
		r->phase_s[SP_PH_SCHEDULE] += (double)(now - t_phase) / 1e9;
		t_phase = now;
		if (x.nchunks < 2) {
			x.start = start;
			x.count = count;
			if (observed)
				cf_observed_round(&x, c, &sc, r);
			else
				sp_run_sequential(p, host, scalars, start, next);
			ns_per_iter = (double)(gb_now_ns() - t_phase) / count;
		} else {
			x.start = start;
			x.count = count;
			run_round(&x);
			/* Computation until the last chunk ran; the rest of the round is the ordered
			 * validation and commit (memory) or reading the marks (control flow). */
			r->phase_s[SP_PH_COMPUTE] += (double)(x.t_executed - t_phase) / 1e9;
			if (x.all_from == SP_NONE) /* else chunks stopped early: no measure */
				ns_per_iter = (double)(x.t_executed - t_phase) * x.nchunks / count;
			t_phase = x.t_executed;
			for (w = 0; w < x.nchunks; w++)
				overflow |= x.wk[w].overflow;
			if (l->kind == SP_MEM) {
				miss = mem_round_result(&x, r);
				slowdown = measured_slowdown(&x, slowdown);
			} else {
				all_from = x.all_from;
				now = gb_now_ns();
				r->phase_s[SP_PH_CHECK] += (double)(now - t_phase) / 1e9;
				t_phase = now;
				next = cf_recover(&x, r, &miss);
				r->misspeculated += miss;
			}
		}
		now = gb_now_ns();
		r->phase_s[x.nchunks < 2 ? SP_PH_COMPUTE : l->kind == SP_MEM ? SP_PH_COMMIT : SP_PH_RECOVERY] +=
			(double)(now - t_phase) / 1e9;
		t_phase = now;
		r->assignments_misspeculated += miss > 0;
		sp_sched_after(&sc, p, c, count, miss, all_from);
		start = next;
	}
	if (r->min_assignment == UINT64_MAX)
		r->min_assignment = 0;
	r->total_s = (double)(t_phase - t0) / 1e9;
	close_run(&x);
	if (overflow) {
		snprintf(r->error, sizeof(r->error), "an iteration of %s accessed more distinct "
			 "elements than its declared trace size", l->name);
		return -1;
	}
	return 0;
}
