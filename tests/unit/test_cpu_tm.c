/*
 * Unit tests of speculation with transactional memory on the host's cores
 * (`--compare cpu-tm`): the ordered STM of speculation/tm.h step by step
 * (reads of a transaction's own writes, aborts on reads that a commit made
 * stale, at the read and at commit, WAR and WAW without aborts), the STM
 * serializing many threads' transactions in their order, every body's
 * accesses reaching the transaction, and every loop against the sequential
 * loop bit for bit at several worker counts and densities.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "speculation/cpu_tm.h"
#include "speculation/tm.h"
#include "tests/unit/spec_check.h"
#include "tests/unit/test.h"
#include "workloads/speculation/spec_bodies.h"
#include "workloads/speculation/spec_loops.h"

/* Commit x: 1 when it committed, 0 when it aborted. */
static int try_commit(sp_tm_tx *x)
{
	if (sigsetjmp(x->env, 0))
		return 0;
	sp_tm_commit(x);
	return 1;
}

/* Read word w (key k) in x into *out: 1, or 0 when the read aborted x. */
static int try_read(sp_tm_tx *x, uint32_t *w, uint32_t k, uint32_t *out)
{
	if (sigsetjmp(x->env, 0))
		return 0;
	*out = sp_tm_read(x, w, k);
	return 1;
}

TEST(tm_orders_commits_and_aborts_stale_reads)
{
	sp_tm m;
	sp_tm_tx x0, x1, x2;
	uint32_t W[4] = {10, 20, 30, 40}, v = 0;

	sp_tm_open(&m, 4);
	sp_tm_set_turn(&m, 0);
	sp_tm_tx_open(&x0, &m);
	sp_tm_tx_open(&x1, &m);
	sp_tm_tx_open(&x2, &m);

	/* RAW: 1 reads W[0] before 0 writes it, so its commit aborts; run again, it sees 0's write */
	sp_tm_begin(&x1, 1);
	REQUIRE(try_read(&x1, &W[0], 0, &v));
	CHECK_EQ(v, 10);
	sp_tm_write(&x1, &W[1], 1, v + 1);
	sp_tm_begin(&x0, 0);
	sp_tm_write(&x0, &W[0], 0, 11);
	REQUIRE(try_read(&x0, &W[0], 0, &v));
	CHECK_EQ(v, 11); /* its own write */
	CHECK_EQ(W[0], 10); /* not before its commit */
	REQUIRE(try_commit(&x0));
	CHECK_EQ(W[0], 11);
	CHECK_EQ(m.turn, 1);
	CHECK_EQ(m.clock, 1);
	REQUIRE(!try_commit(&x1));
	CHECK_EQ(x1.commit_aborts, 1);
	CHECK_EQ(W[1], 20); /* nothing of the aborted run */
	CHECK_EQ(m.turn, 1); /* still its turn */
	sp_tm_begin(&x1, 1);
	REQUIRE(try_read(&x1, &W[0], 0, &v));
	sp_tm_write(&x1, &W[1], 1, v + 1);
	REQUIRE(try_commit(&x1));
	CHECK_EQ(W[1], 12);
	CHECK_EQ(m.turn, 2);

	/* a read of a word committed after the reader began aborts at once */
	sp_tm_begin(&x1, 3);
	sp_tm_begin(&x0, 2);
	sp_tm_write(&x0, &W[2], 2, 99);
	REQUIRE(try_commit(&x0));
	CHECK(!try_read(&x1, &W[2], 2, &v));
	CHECK_EQ(x1.read_aborts, 1);
	sp_tm_begin(&x1, 3);
	REQUIRE(try_read(&x1, &W[2], 2, &v));
	CHECK_EQ(v, 99);
	REQUIRE(try_read(&x1, &W[3], 3, &v));
	REQUIRE(try_commit(&x1)); /* read-only, nothing it read changed since */
	CHECK_EQ(m.turn, 4);

	/* WAR: 5 writes W[3] before 4 reads it; 4 sees the old value and neither aborts */
	sp_tm_begin(&x1, 5);
	sp_tm_write(&x1, &W[3], 3, 5);
	sp_tm_begin(&x0, 4);
	REQUIRE(try_read(&x0, &W[3], 3, &v));
	CHECK_EQ(v, 40);
	REQUIRE(try_commit(&x0));
	REQUIRE(try_commit(&x1));
	CHECK_EQ(W[3], 5);

	/* WAW: 7 writes W[1] first, 6 commits its own write later; 7's is last */
	sp_tm_begin(&x2, 7);
	sp_tm_write(&x2, &W[1], 1, 7);
	sp_tm_begin(&x0, 6);
	sp_tm_write(&x0, &W[1], 1, 6);
	REQUIRE(try_commit(&x0));
	REQUIRE(try_commit(&x2));
	CHECK_EQ(W[1], 7);
	CHECK_EQ(x0.commit_aborts + x2.commit_aborts + x2.read_aborts, 0);

	/* a write set longer than its first capacity, with rewrites of its words */
	{
		uint32_t big[300], k;
		sp_tm m2;
		sp_tm_tx y;
		memset(big, 0, sizeof(big));
		sp_tm_open(&m2, 300);
		sp_tm_set_turn(&m2, 0);
		sp_tm_tx_open(&y, &m2);
		sp_tm_begin(&y, 0);
		for (k = 0; k < 600; k++)
			sp_tm_write(&y, &big[k % 300], k % 300, k);
		for (k = 0; k < 300; k++) {
			REQUIRE(try_read(&y, &big[k], k, &v));
			CHECK_EQ(v, k + 300);
		}
		REQUIRE(try_commit(&y));
		for (k = 0; k < 300; k++)
			CHECK_EQ(big[k], k + 300);
		sp_tm_tx_close(&y);
		sp_tm_close(&m2);
	}
	sp_tm_tx_close(&x0);
	sp_tm_tx_close(&x1);
	sp_tm_tx_close(&x2);
	sp_tm_close(&m);
}

/* Many threads, each transaction k appending k to a log at the counter's value: committed in
 * order, the log is 0, 1, 2, ... whatever the interleaving. */
#define SER_N 20000u
#define SER_THREADS 6

typedef struct ser {
	sp_tm m;
	uint32_t words[1 + SER_N]; /* the counter, then the log */
	uint32_t next;
} ser;

typedef struct ser_thread {
	ser *s;
	sp_tm_tx x;
	pthread_t th;
} ser_thread;

static void ser_attempt(sp_tm_tx *x, ser *s, uint32_t k)
{
	uint32_t c;
	sp_tm_begin(x, k);
	c = sp_tm_read(x, &s->words[0], 0);
	sp_tm_write(x, &s->words[0], 0, c + 1);
	if (c < SER_N)
		sp_tm_write(x, &s->words[1 + c], 1 + c, k);
	sp_tm_commit(x);
}

static void ser_one(sp_tm_tx *x, ser *s, uint32_t k)
{
	sigsetjmp(x->env, 0);
	ser_attempt(x, s, k);
}

static void *ser_main(void *arg)
{
	ser_thread *t = arg;
	uint32_t k;
	while ((k = __atomic_fetch_add(&t->s->next, 1, __ATOMIC_RELAXED)) < SER_N)
		ser_one(&t->x, t->s, k);
	return NULL;
}

TEST(tm_serializes_threads_in_their_order)
{
	ser *s = calloc(1, sizeof(*s));
	ser_thread t[SER_THREADS];
	uint32_t k, bad = 0;
	uint64_t aborts;
	REQUIRE(s);
	sp_tm_open(&s->m, 1 + SER_N);
	sp_tm_set_turn(&s->m, 0);
	for (k = 0; k < SER_THREADS; k++) {
		t[k].s = s;
		sp_tm_tx_open(&t[k].x, &s->m);
		REQUIRE(pthread_create(&t[k].th, NULL, ser_main, &t[k]) == 0);
	}
	for (k = 0; k < SER_THREADS; k++)
		pthread_join(t[k].th, NULL);
	CHECK_EQ(s->words[0], SER_N);
	for (k = 0; k < SER_N; k++)
		bad += s->words[1 + k] != k;
	CHECK_EQ(bad, 0);
	CHECK_EQ(s->m.turn, SER_N);
	/* the clock moves once per writing commit that took its locks: every transaction once, and
	 * once more for each that then failed its check (TL2 takes the version before checking) */
	for (k = 0, aborts = 0; k < SER_THREADS; k++)
		aborts += t[k].x.commit_aborts;
	CHECK_EQ(s->m.clock, SER_N + aborts);
	for (k = 0; k < SER_THREADS; k++)
		sp_tm_tx_close(&t[k].x);
	sp_tm_close(&s->m);
	free(s);
}

/* A transaction of the test's: reads from S, or its own log; writes into its log. */
typedef struct rec {
	sp_txn ops;
	const uint32_t *S;
	uint32_t e[64], v[64];
	unsigned n, reads;
} rec;

static uint32_t rec_rd(sp_txn *o, uint32_t e)
{
	rec *r = (rec *)o;
	unsigned k;
	r->reads++;
	for (k = r->n; k-- > 0;)
		if (r->e[k] == e)
			return r->v[k];
	return r->S[e];
}

static void rec_wr(sp_txn *o, uint32_t e, uint32_t v)
{
	rec *r = (rec *)o;
	if (r->n < 64) {
		r->e[r->n] = e;
		r->v[r->n] = v;
	}
	r->n++;
}

/*
 * Every loop, every iteration in order: the body run with the transaction hook over an array
 * of poison (a.A) reads what the hook gives (the state S) and writes only through the hook,
 * and its writes applied to S give what the plain iteration gives: every access of A, tracked
 * or regular, reaches the transaction.
 */
TEST(cpu_tm_bodies_access_a_only_through_the_transaction)
{
	unsigned l, k;
	for (l = 0; sp_loops[l]; l++) {
		const sp_loop *lp = sp_loops[l];
		sp_loop_gen g = {2000, lp->max_density > 0.2 ? 0.2 : lp->max_density, 4, 5};
		sp_problem p;
		uint32_t i, *S, *ref, *poison, size, bad = 0, reads = 0;
		sp_args plain, hooked;
		if (lp->id == SP_FIGURE3)
			g.density = 1;
		REQUIRE(sp_problem_generate(lp, &g, &p, NULL, 0) == 0);
		size = p.args.size;
		S = malloc((size_t)size * sizeof(uint32_t));
		ref = malloc((size_t)size * sizeof(uint32_t));
		poison = malloc((size_t)size * sizeof(uint32_t) + 4);
		REQUIRE(S && ref && poison);
		memcpy(S, p.A0, (size_t)size * sizeof(uint32_t));
		memcpy(ref, p.A0, (size_t)size * sizeof(uint32_t));
		for (i = 0; i < size; i++)
			poison[i] = 0x7fbadbadu ^ i;
		plain = p.args;
		plain.A = ref;
		hooked = p.args;
		hooked.A = poison;
		for (i = 0; i < p.args.n; i++) {
			sp_track t = sp_track_sequential(), tp = sp_track_sequential();
			rec r;
			memset(&r, 0, sizeof(r));
			r.ops.rd = rec_rd;
			r.ops.wr = rec_wr;
			r.S = S;
			t.tx = &r.ops;
			sp_body(&plain, &tp, i);
			sp_body(&hooked, &t, i);
			REQUIRE(r.n <= 64);
			reads += r.reads;
			for (k = 0; k < r.n; k++)
				S[r.e[k]] = r.v[k];
		}
		for (i = 0; i < size; i++) {
			bad += S[i] != ref[i];
			bad += poison[i] != (0x7fbadbadu ^ i);
		}
		if (bad)
			tu_fail(__FILE__, __LINE__, "%s: %u elements differ or were touched outside the "
				"transaction", lp->head.name, bad);
		CHECK(memcmp(hooked.s, plain.s, sizeof(plain.s)) == 0);
		/* the loops that read A (all but mdg, strcat and gothic) read it through the hook */
		if (lp->id != SP_MDG && lp->id != SP_STRCAT && lp->id != SP_GOTHIC && !reads)
			tu_fail(__FILE__, __LINE__, "%s: no read reached the transaction", lp->head.name);
		free(S);
		free(ref);
		free(poison);
		sp_problem_free(&p);
	}
}

static sp_config tm_config(unsigned workers)
{
	sp_config c;
	memset(&c, 0, sizeof(c));
	c.opt = SP_OPT_ALL;
	c.workers = workers;
	return c;
}

static int tm_runner(const sp_problem *p, const sp_config *c, uint32_t *host, float *scalars, sp_result *r)
{
	return sp_cpu_tm_run(p, c, host, scalars, r);
}

/* Every loop, two seeds, default and dense dependences, 1 to 7 workers (more than cores). */
TEST(cpu_tm_all_loops)
{
	static const unsigned workers[] = {1, 2, 3, 7};
	unsigned l, seed, w, dense;
	for (l = 0; sp_loops[l]; l++)
		for (seed = 1; seed <= 2; seed++)
			for (dense = 0; dense <= 1; dense++)
				for (w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
					const sp_loop *lp = sp_loops[l];
					double d = dense ? (lp->max_density > 0.5 ? 0.5 : lp->max_density)
							 : lp->default_density;
					sp_loop_gen g = {10000, d, 4, seed};
					sp_problem p;
					sp_result r;
					sp_config c = tm_config(workers[w]);
					if (lp->id == SP_FIGURE3 && d == 0)
						g.density = 1;
					REQUIRE(sp_problem_generate(lp, &g, &p, NULL, 0) == 0);
					if (!spec_matches_seq(tm_runner, &p, &c, &r))
						tu_fail(__FILE__, __LINE__, "cpu-tm of %s (seed %u, density %g, %u "
							"workers) differs from the sequential loop", lp->head.name, seed,
							g.density, workers[w]);
					/* every iteration runs once, and again once per abort */
					CHECK_EQ(r.iterations_gpu, p.args.n + r.reexecuted);
					CHECK(r.misspeculated <= r.reexecuted);
					CHECK(r.assignments >= 1 && r.max_assignment <= p.args.n);
					CHECK(!r.incomplete);
					if (workers[w] == 1) /* nothing commits between a begin and its commit */
						CHECK_EQ(r.reexecuted, 0);
					sp_problem_free(&p);
				}
}

/* figure3 where every iteration reads what the one before wrote, on two workers and more:
 * the result is still the sequential loop's, whatever the aborts. */
TEST(cpu_tm_chain_of_raw_dependences)
{
	static const unsigned workers[] = {2, 5};
	uint32_t set[255][3], i;
	unsigned w;
	for (i = 1; i < 256; i++) { /* iteration i reads element i - 1, which iteration i - 1 writes */
		set[i - 1][0] = 1;
		set[i - 1][1] = i;
		set[i - 1][2] = i - 1;
	}
	for (w = 0; w < 2; w++) {
		sp_problem p;
		sp_result r;
		sp_config c = tm_config(workers[w]);
		spec_figure3_256(&p, (const uint32_t(*)[3])set, 255);
		CHECK(spec_matches_seq(tm_runner, &p, &c, &r));
		CHECK_EQ(r.iterations_gpu, 256 + r.reexecuted);
		sp_problem_free(&p);
	}
}
