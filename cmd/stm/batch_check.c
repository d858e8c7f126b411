/*
 * Checking a batch against the workload's oracle, and checking batches on
 * other host cores while the device runs the next ones (--verify-threads).
 *
 * An engine that cannot run timed rounds (GPU-STM, which gives transactions
 * up; every engine where the rounds could not fit) runs --duration as batches
 * back to back, and each is checked by a serial replay on the host: on an
 * H200 at 4800 threads GPU-STM's second of device time is 191 batches of 4.8
 * million transactions, and their replays took 54 of the point's 59 s. A
 * batch's check needs only the data before it (the initial data: every batch
 * starts from it, run.c says why), its status words and the data after it,
 * fetched from the device. So the checks of different batches are
 * independent, and a pool of host threads runs them while the caller goes on
 * with the next batch; their verdicts are settled in batch order, with the
 * same messages and counts as checking each batch before the next. What is
 * left on the thread that runs the device is the fetch of each batch's words:
 * the copy of the initial data the replay starts from is the checker
 * thread's, and the checksum of the words after (FNV-1a over every byte, 10.6
 * ms for the bank's 2.6 million accounts on a 2-core VM, against a batch of
 * 15 ms at 9600 threads on an H200) is taken once, of the last batch, when
 * the repetition's checks are settled.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/stm/stm_cmd.h"
#include "common/error.h"
#include "common/memory.h"

uint64_t stm_words_checksum(const uint32_t *b, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;
	for (i = 0; i < n; i++) {
		int k;
		for (k = 0; k < 4; k++) {
			h ^= (b[i] >> (8 * k)) & 0xFFu;
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

uint64_t stm_oracle_batch(const stm_run *r, uint32_t *state, uint32_t *before, const uint32_t *status,
			  const uint32_t *after, const uint32_t *results, stm_check *chk)
{
	const stm_workload *w = r->o.workload;
	uint64_t n = 0;

	memset(chk, 0, sizeof(*chk));
	if (results)
		memcpy(before, state, (size_t)r->in.words * sizeof(uint32_t));
	w->verify_batch(r->inst, state, status, after, chk);
	if (results && chk->ok) {
		stm_check rc = *chk;
		n = w->verify_results(r->inst, before, status, results, &rc);
		if (!rc.ok) {
			snprintf(chk->message, sizeof(chk->message), "%s", rc.message);
			chk->ok = 0;
		}
	}
	return n;
}

void stm_batch_verdict(gb_measure *ms, unsigned k, stm_run *r, const stm_batch_result *b, const gb_rep *rep,
		       uint64_t batch, gb_rep_out *out, const stm_check *found, uint64_t results_n)
{
	engine_run *er = &r->er[k];
	stm_check *chk = &er->chk;

	*chk = *found;
	if (k == 0)
		r->results_checked += results_n;
	out->checked++;
	if (!r->o.workload->stage) /* a staged workload runs them again in its next stage */
		er->abandoned += chk->abandoned;
	if (chk->ok && (chk->committed_update != b->c.commits_update ||
			chk->committed_readonly != b->c.commits_readonly)) {
		snprintf(chk->message, sizeof(chk->message),
			 "engine counted %" PRIu64 " update and %" PRIu64
			 " read-only commits, the status words say %" PRIu64 " and %" PRIu64,
			 b->c.commits_update, b->c.commits_readonly, chk->committed_update,
			 chk->committed_readonly);
		chk->ok = 0;
	}
	if (!chk->ok) {
		out->wrong++;
		gb_measure_wrong(ms, k, "%s%srep %u batch %" PRIu64 ": %s", k ? er->e->head.name : "", k ? ": " : "",
				 rep->timed_index, batch, chk->message);
	}
}

static unsigned long long bad_batch;

static void read_bad_batch(void)
{
	bad_batch = gb_test_env_count(STM_TEST_BAD_BATCH_ENV, 1000000000ull, "batches");
}

void stm_test_bad_batch(const engine_run *er, uint32_t *status, uint64_t ntx)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	uint64_t i;

	pthread_once(&once, read_bad_batch);
	if (!bad_batch || er->batches != bad_batch)
		return;
	for (i = 0; i < ntx; i++)
		if (status[i] != TX_STATUS_PENDING && status[i] != TX_STATUS_READONLY) {
			status[i] = TX_STATUS_PENDING; /* a commit the oracle is not told about */
			return;
		}
}

/* ---- the pool ---- */

enum { SLOT_FREE, SLOT_QUEUED, SLOT_DONE };

typedef struct bc_slot {
	uint32_t *state, *before, *after, *status, *results; /* before, results: NULL without results */
	stm_batch_result b;
	uint64_t batch; /* the repetition's batch number, for the message */
	stm_check chk;
	uint64_t results_n;
	int st;
} bc_slot;

struct stm_batch_checker {
	stm_run *r;
	unsigned k, nslots, nthreads;
	bc_slot *slot;
	pthread_t *th;
	/* batches put in slots, taken by the threads, settled: batch i is in slot i % nslots */
	uint64_t filled, taken, settled;
	int quit;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
};

static void *bc_thread(void *arg)
{
	stm_batch_checker *c = arg;

	for (;;) {
		bc_slot *s;
		pthread_mutex_lock(&c->mu);
		while (!c->quit && c->taken == c->filled)
			pthread_cond_wait(&c->work, &c->mu);
		if (c->taken == c->filled) { /* quit, nothing left */
			pthread_mutex_unlock(&c->mu);
			return NULL;
		}
		s = &c->slot[c->taken++ % c->nslots];
		pthread_mutex_unlock(&c->mu);
		/* the replay's start: every batch runs from the initial data (run.c) */
		memcpy(s->state, c->r->initial, (size_t)c->r->in.words * sizeof(uint32_t));
		s->results_n = stm_oracle_batch(c->r, s->state, s->before, s->status, s->after, s->results, &s->chk);
		pthread_mutex_lock(&c->mu);
		s->st = SLOT_DONE;
		pthread_cond_broadcast(&c->done);
		pthread_mutex_unlock(&c->mu);
	}
}

/* Bytes of one slot. */
static size_t slot_bytes(const stm_run *r, int results)
{
	size_t words = (size_t)r->in.words * sizeof(uint32_t);
	return 2 * words + r->in.ntx * sizeof(uint32_t) +
	       (results ? words + r->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t) : 0);
}

stm_batch_checker *stm_batch_checker_open(stm_run *r, unsigned k, unsigned threads)
{
	engine_run *er = &r->er[k];
	int results = er->ops->fetch_results && r->o.workload->verify_results;
	size_t each = slot_bytes(r, results), room = gb_host_memory_available() / 4;
	unsigned nslots = threads + 2, i;
	stm_batch_checker *c;

	if (!threads)
		return NULL;
	/* a slot a thread and two more (the batch the device runs, the one being settled), within a
	 * quarter of the host's free memory; fewer threads where fewer slots fit, none below two */
	if (room / each < nslots)
		nslots = room / each > 2 ? (unsigned)(room / each) : 2;
	if (threads > nslots - 1)
		threads = nslots - 1;
	c = gb_xcalloc(1, sizeof(*c), "the batch checkers");
	c->r = r;
	c->k = k;
	c->nslots = nslots;
	c->slot = gb_xcalloc(nslots, sizeof(*c->slot), "the batch checkers' slots");
	for (i = 0; i < nslots; i++) {
		bc_slot *s = &c->slot[i];
		s->state = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words before a checked batch");
		s->after = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words after a checked batch");
		s->status = gb_xmalloc(r->in.ntx * sizeof(uint32_t), "a checked batch's status words");
		if (results) {
			s->before = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words before a batch");
			s->results = gb_xmalloc(r->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t), "read-only results");
		}
	}
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->work, NULL);
	pthread_cond_init(&c->done, NULL);
	c->th = gb_xcalloc(threads, sizeof(*c->th), "the batch checkers' threads");
	for (i = 0; i < threads; i++) {
		if (pthread_create(&c->th[i], NULL, bc_thread, c) != 0)
			break;
		c->nthreads++;
	}
	if (!c->nthreads) { /* no thread to be had: check in the loop */
		stm_batch_checker_close(c);
		return NULL;
	}
	return c;
}

/* Settle the oldest batch not yet settled: wait for its check, then its verdict. */
static void settle_one(stm_batch_checker *c, gb_measure *ms, const gb_rep *rep, gb_rep_out *out)
{
	bc_slot *s = &c->slot[c->settled % c->nslots];

	pthread_mutex_lock(&c->mu);
	while (s->st != SLOT_DONE)
		pthread_cond_wait(&c->done, &c->mu);
	pthread_mutex_unlock(&c->mu);
	stm_batch_verdict(ms, c->k, c->r, &s->b, rep, s->batch, out, &s->chk, s->results_n);
	s->st = SLOT_FREE;
	c->settled++;
}

void stm_batch_checker_next(stm_batch_checker *c, gb_measure *ms, const gb_rep *rep, gb_rep_out *out)
{
	if (c->filled - c->settled == c->nslots)
		settle_one(c, ms, rep, out);
}

void stm_batch_checker_submit(stm_batch_checker *c, const stm_batch_result *b, uint64_t batch)
{
	engine_run *er = &c->r->er[c->k];
	bc_slot *s = &c->slot[c->filled % c->nslots];

	er->ops->fetch(er->ctx, s->after, s->status);
	stm_test_bad_batch(er, s->status, c->r->in.ntx);
	if (s->results)
		er->ops->fetch_results(er->ctx, s->results);
	s->b = *b;
	s->batch = batch;
	pthread_mutex_lock(&c->mu);
	s->st = SLOT_QUEUED;
	c->filled++;
	pthread_cond_signal(&c->work);
	pthread_mutex_unlock(&c->mu);
}

void stm_batch_checker_settle(stm_batch_checker *c, gb_measure *ms, const gb_rep *rep, gb_rep_out *out)
{
	while (c->settled < c->filled)
		settle_one(c, ms, rep, out);
	/* the checksum of the last batch's words, once (the slot keeps them until the next batch) */
	if (c->settled)
		c->r->er[c->k].checksum = stm_words_checksum(c->slot[(c->settled - 1) % c->nslots].after,
							     c->r->in.words);
}

void stm_batch_checker_close(stm_batch_checker *c)
{
	unsigned i;

	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	c->quit = 1;
	pthread_cond_broadcast(&c->work);
	pthread_mutex_unlock(&c->mu);
	for (i = 0; i < c->nthreads; i++)
		pthread_join(c->th[i], NULL);
	for (i = 0; i < c->nslots; i++) {
		free(c->slot[i].state);
		free(c->slot[i].after);
		free(c->slot[i].status);
		free(c->slot[i].before);
		free(c->slot[i].results);
	}
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->work);
	pthread_cond_destroy(&c->done);
	free(c->slot);
	free(c->th);
	free(c);
}
