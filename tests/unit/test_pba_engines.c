/*
 * Every PBA implementation against the oracle: random streams of small and
 * odd sizes, the worst case, and tight states that make unsafe requests
 * common. Decisions must agree event by event and the final states must be
 * identical. The GPU implementations take part through their kernels run on
 * the CPU (tests/unit/pba_gpu_sim.c), whose safety iterations must also be
 * those of the thesis's CPU-PBA.
 */
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "deadlock/pba_bits.h"
#include "deadlock/pba_engine.h"
#include "tests/unit/entry.h"
#include "tests/unit/pba_gpu_sim.h"
#include "tests/unit/test.h"
#include "workloads/deadlock/pba_gen.h"
#include "workloads/deadlock/pba_oracle.h"

#define MAX_ENGINES 8

static const pba_engine *entry(const char *name)
{
	return tu_entry("avoid", NULL, name);
}

/* The implementations that run here: the CPU ones and the GPU ones' kernels on the CPU driver. */
static unsigned cpu_runnable(const pba_engine *out[MAX_ENGINES])
{
	unsigned k, n = 0;
	for (k = 0; pba_engines[k]; k++)
		if ((pba_engines[k]->head.backends & GB_BACKEND_MASK(GB_BACKEND_CPU)) && n < MAX_ENGINES - 4)
			out[n++] = pba_engines[k];
	out[n++] = &pba_sim_gpu;
	out[n++] = &pba_sim_gpu_small;
	out[n++] = &pba_sim_gpu_global_state;
	out[n++] = &pba_sim_gpu_thesis;
	return n;
}

/*
 * Replay ev through engine e and the oracle; returns the number of
 * disagreements, counting also the requests whose safety iterations differ
 * from those of engine iter_ref when it is given.
 */
static uint64_t replay_iterations(const pba_engine *e, const pba_engine *iter_ref, const pba_system *init,
				  const pba_events *ev, uint64_t counts[PBA_NOUTCOMES])
{
	pba_system want, got;
	void *ctx = e->open(init), *ref = iter_ref ? iter_ref->open(init) : NULL;
	uint64_t i, bad = 0;

	pba_system_init(&want, init->procs, init->res);
	pba_system_init(&got, init->procs, init->res);
	pba_system_copy(&want, init);
	for (i = 0; i < ev->count; i++) {
		double ph[PBA_NPHASES] = {0};
		const int32_t *amt = ev->amount + i * init->res;
		unsigned a = e->apply(ctx, ev->type[i], ev->proc[i], amt, ph);
		unsigned b = pba_oracle_apply(&want, ev->type[i], ev->proc[i], amt);
		bad += a != b;
		if (ref) {
			iter_ref->apply(ref, ev->type[i], ev->proc[i], amt, ph);
			bad += e->last_iterations(ctx) != iter_ref->last_iterations(ref);
		}
		if (counts)
			counts[b]++;
	}
	e->fetch(ctx, &got);
	bad += !pba_system_equal(&got, &want);
	e->close(ctx);
	if (ref)
		iter_ref->close(ref);
	pba_system_free(&want);
	pba_system_free(&got);
	return bad;
}

static uint64_t replay(const pba_engine *e, const pba_system *init, const pba_events *ev,
		       uint64_t counts[PBA_NOUTCOMES])
{
	return replay_iterations(e, NULL, init, ev, counts);
}

/* Whose safety iterations e must report: the GPU implementations iterate as the thesis's cpu does. */
static const pba_engine *iterations_ref(const pba_engine *e)
{
	if (e == &pba_sim_gpu || e == &pba_sim_gpu_small || e == &pba_sim_gpu_global_state ||
	    e == &pba_sim_gpu_thesis)
		return entry("cpu");
	return NULL;
}

TEST(pba_engines_agree_with_oracle_on_random_streams)
{
	static const uint32_t sizes[][2] = {{2, 1}, {3, 2}, {5, 3}, {7, 5}, {13, 3}, {31, 7}, {33, 17}, {64, 1}};
	const pba_engine *e[MAX_ENGINES];
	unsigned s, seed, k, n = cpu_runnable(e);
	for (k = 0; k < n; k++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (seed = 1; seed <= 25; seed++) {
				pba_gen_config cfg = {sizes[s][0], sizes[s][1], 300, PBA_RANDOM, seed, 0};
				pba_system init;
				pba_events ev;
				char err[256];
				REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
				CHECK_EQ(replay_iterations(e[k], iterations_ref(e[k]), &init, &ev, NULL), 0u);
				pba_system_free(&init);
				pba_events_free(&ev);
			}
	}
}

/*
 * The random workload's initial state is safe at every size, its streams grant requests
 * even with two processes, and the free units are a quarter of the claims where that is
 * more than the largest claim (the thesis-sized states keep their shape).
 */
TEST(pba_random_workload_starts_safe)
{
	static const uint32_t sizes[][2] = {{2, 1}, {2, 4}, {3, 2}, {4, 4}, {16, 4}, {1024, 16}};
	unsigned s, seed;
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t granted = 0;
		for (seed = 1; seed <= 20; seed++) {
			pba_gen_config cfg = {sizes[s][0], sizes[s][1], 200, PBA_RANDOM, seed, 0};
			pba_system init, track;
			pba_events ev;
			char err[256];
			uint64_t e;
			uint32_t i, j;
			REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
			CHECK(pba_oracle_safe(&init));
			for (j = 0; j < init.res; j++) {
				int32_t most = 0;
				uint64_t claim = 0;
				for (i = 0; i < init.procs; i++) {
					claim += (uint64_t)init.maximum[(size_t)i * init.res + j];
					if (init.maximum[(size_t)i * init.res + j] > most)
						most = init.maximum[(size_t)i * init.res + j];
				}
				CHECK(init.available[j] >= most && init.available[j] >= 1);
				if (claim / 4 > (uint64_t)most)
					CHECK_EQ((uint64_t)init.available[j], claim / 4);
			}
			pba_system_init(&track, init.procs, init.res);
			pba_system_copy(&track, &init);
			for (e = 0; e < ev.count; e++)
				granted += pba_oracle_apply(&track, ev.type[e], ev.proc[e], ev.amount + e * init.res) ==
					   PBA_GRANTED;
			pba_system_free(&track);
			pba_system_free(&init);
			pba_events_free(&ev);
		}
		if (granted == 0)
			tu_fail(__FILE__, __LINE__, "%u x %u: no request granted in 20 streams", sizes[s][0], sizes[s][1]);
	}
}

/* Tight states: little free, large claims, so many requests are unsafe; now and then a negative amount. */
TEST(pba_engines_agree_with_oracle_on_tight_states)
{
	uint64_t counts[PBA_NOUTCOMES] = {0};
	const pba_engine *en[MAX_ENGINES];
	unsigned k, seed, n = cpu_runnable(en);
	for (k = 0; k < n; k++) {
		memset(counts, 0, sizeof(counts));
		for (seed = 1; seed <= 200; seed++) {
			uint32_t I = 3 + seed % 9, J = 1 + seed % 4, i, j;
			uint64_t e;
			pba_system init;
			pba_events ev;
			gb_rng r;
			gb_rng_init(&r, seed, 99);
			pba_system_init(&init, I, J);
			for (i = 0; i < I; i++)
				for (j = 0; j < J; j++) {
					size_t c = (size_t)i * J + j;
					init.maximum[c] = (int32_t)gb_rng_range(&r, 0, 6);
					init.allocation[c] = (int32_t)gb_rng_below(&r, (uint64_t)init.maximum[c] + 1) / 2;
					init.need[c] = init.maximum[c] - init.allocation[c];
				}
			for (j = 0; j < J; j++)
				init.available[j] = (int32_t)gb_rng_range(&r, 1, 3);
			pba_events_init(&ev, 60, J);
			for (e = 0; e < ev.count; e++) {
				ev.type[e] = gb_rng_below(&r, 3) == 0 ? PBA_RELEASE : PBA_REQUEST;
				ev.proc[e] = (uint32_t)gb_rng_below(&r, I);
				for (j = 0; j < J; j++)
					ev.amount[e * J + j] = gb_rng_below(&r, 40) == 0 ? -1 : (int32_t)gb_rng_below(&r, 3);
			}
			CHECK_EQ(replay_iterations(en[k], iterations_ref(en[k]), &init, &ev, counts), 0u);
			pba_system_free(&init);
			pba_events_free(&ev);
		}
		/* the streams exercise every outcome */
		CHECK(counts[PBA_GRANTED] > 0);
		CHECK(counts[PBA_DENIED_INVALID] > 0);
		CHECK(counts[PBA_DENIED_UNAVAILABLE] > 0);
		CHECK(counts[PBA_DENIED_UNSAFE] > 0);
		CHECK(counts[PBA_RELEASED] > 0);
		CHECK(counts[PBA_RELEASE_INVALID] > 0);
	}
}

/*
 * A request that is invalid only for its negative amount, and a release
 * refused only for its negative amount, by every implementation: the
 * amounts elsewhere fit need, available and holdings.
 */
TEST(pba_engines_refuse_negative_amounts)
{
	static const int32_t avail[3] = {3, 3, 2}, max[6] = {4, 2, 2, 3, 3, 3}, alloc[6] = {1, 1, 0, 1, 1, 1};
	static const int32_t request[3] = {1, -1, 1}, release[3] = {1, 1, -1};
	const pba_engine *en[MAX_ENGINES];
	unsigned k, n = cpu_runnable(en);
	pba_system init, got;
	size_t c;

	pba_system_init(&init, 2, 3);
	pba_system_init(&got, 2, 3);
	memcpy(init.available, avail, sizeof(avail));
	for (c = 0; c < 6; c++) {
		init.maximum[c] = max[c];
		init.allocation[c] = alloc[c];
		init.need[c] = max[c] - alloc[c];
	}
	for (k = 0; k < n; k++) {
		double ph[PBA_NPHASES] = {0};
		void *ctx = en[k]->open(&init);
		CHECK_EQ(en[k]->apply(ctx, PBA_REQUEST, 0, request, ph), PBA_DENIED_INVALID);
		CHECK_EQ(en[k]->apply(ctx, PBA_RELEASE, 1, release, ph), PBA_RELEASE_INVALID);
		en[k]->fetch(ctx, &got);
		CHECK(pba_system_equal(&got, &init));
		en[k]->close(ctx);
	}
	pba_system_free(&init);
	pba_system_free(&got);
}

TEST(pba_worst_case_needs_all_iterations)
{
	pba_gen_config cfg = {97, 5, 6, PBA_WORST_CASE, 1, 0};
	const pba_engine *thesis = entry("cpu");
	pba_system init;
	pba_events ev;
	char err[256];
	uint64_t e;
	void *ctx;

	REQUIRE(thesis != NULL);
	REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
	ctx = thesis->open(&init);
	for (e = 0; e < ev.count; e++) {
		double ph[PBA_NPHASES] = {0};
		unsigned r = thesis->apply(ctx, ev.type[e], ev.proc[e], ev.amount + e * init.res, ph);
		if (ev.type[e] == PBA_REQUEST) {
			CHECK_EQ(r, (unsigned)PBA_GRANTED);
			/* one process finishes per iteration, the last two together */
			CHECK_EQ(thesis->last_iterations(ctx), 96u);
			CHECK(ph[PBA_PHASE_SAFETY] > 0);
		} else {
			CHECK_EQ(r, (unsigned)PBA_RELEASED);
		}
	}
	thesis->close(ctx);
	CHECK_EQ(replay(entry("cpu-fast"), &init, &ev, NULL), 0u);
	pba_system_free(&init);
	pba_events_free(&ev);
}

/* unsafe-mix: the share of unsafe requests follows --unsafe-share, every request is valid and available. */
TEST(pba_unsafe_mix_controls_the_unsafe_share)
{
	static const double shares[] = {0, 0.1, 0.5, 0.9};
	unsigned s, k;
	for (s = 0; s < sizeof(shares) / sizeof(shares[0]); s++) {
		pba_gen_config cfg = {400, 48, 1500, PBA_UNSAFE_MIX, 3, shares[s]};
		uint64_t counts[PBA_NOUTCOMES] = {0}, requests;
		pba_system init;
		pba_events ev;
		char err[256];
		double got;
		REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
		CHECK_EQ(replay(entry("cpu"), &init, &ev, counts), 0u);
		for (k = 0; pba_engines[k]; k++)
			if ((pba_engines[k]->head.backends & GB_BACKEND_MASK(GB_BACKEND_CPU)))
				CHECK_EQ(replay(pba_engines[k], &init, &ev, NULL), 0u);
		CHECK_EQ(counts[PBA_DENIED_INVALID], 0u);
		CHECK_EQ(counts[PBA_DENIED_UNAVAILABLE], 0u);
		CHECK_EQ(counts[PBA_RELEASE_INVALID], 0u);
		/* counts holds the oracle's outcomes of one replay */
		requests = counts[PBA_GRANTED] + counts[PBA_DENIED_UNSAFE];
		REQUIRE(requests > 500);
		got = (double)counts[PBA_DENIED_UNSAFE] / (double)requests;
		CHECK(got > shares[s] - 0.07 && got < shares[s] + 0.07);
		CHECK(counts[PBA_RELEASED] > 100);
		pba_system_free(&init);
		pba_events_free(&ev);
	}
}

/*
 * The GPU implementations' kernels on rows wider than a scan segment
 * (PBA_SEG resources) and than a block of threads: decisions, final states
 * and safety iterations as the oracle and cpu have them.
 */
TEST(pba_gpu_kernels_on_wide_rows)
{
	static const uint32_t sizes[][2] = {{9, 300}, {20, 257}, {5, 1100}};
	const pba_engine *e[] = {&pba_sim_gpu, &pba_sim_gpu_small, &pba_sim_gpu_global_state,
				 &pba_sim_gpu_thesis};
	unsigned s, seed, k;
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (seed = 1; seed <= 4; seed++) {
				pba_gen_config cfg = {sizes[s][0], sizes[s][1], 120, PBA_UNSAFE_MIX, seed, 0.25};
				uint64_t counts[PBA_NOUTCOMES] = {0};
				pba_system init;
				pba_events ev;
				char err[256];
				REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
				CHECK_EQ(replay_iterations(e[k], entry("cpu"), &init, &ev, counts), 0u);
				CHECK(counts[PBA_GRANTED] > 0);
				CHECK(counts[PBA_DENIED_UNSAFE] > 0);
				pba_system_free(&init);
				pba_events_free(&ev);
			}
}

/* The worst case through the GPU kernels: I - 1 iterations of the chain, every request granted. */
TEST(pba_gpu_kernels_worst_case)
{
	static const uint32_t sizes[][2] = {{40, 300}, {70, 3}, {9, 1}};
	const pba_engine *e[] = {&pba_sim_gpu, &pba_sim_gpu_small, &pba_sim_gpu_global_state,
				 &pba_sim_gpu_thesis};
	unsigned s, k;
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			pba_gen_config cfg = {sizes[s][0], sizes[s][1], 6, PBA_WORST_CASE, 1, 0};
			pba_system init, got;
			pba_events ev;
			char err[256];
			uint64_t x;
			void *ctx;
			REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
			ctx = e[k]->open(&init);
			for (x = 0; x < ev.count; x++) {
				double ph[PBA_NPHASES] = {0};
				unsigned r = e[k]->apply(ctx, ev.type[x], ev.proc[x], ev.amount + x * init.res, ph);
				if (ev.type[x] == PBA_REQUEST) {
					CHECK_EQ(r, (unsigned)PBA_GRANTED);
					CHECK_EQ(e[k]->last_iterations(ctx), init.procs - 1);
				} else {
					CHECK_EQ(r, (unsigned)PBA_RELEASED);
					CHECK_EQ(e[k]->last_iterations(ctx), 0u);
				}
			}
			/* every release restored the initial state */
			pba_system_init(&got, init.procs, init.res);
			e[k]->fetch(ctx, &got);
			CHECK(pba_system_equal(&got, &init));
			e[k]->close(ctx);
			pba_system_free(&got);
			pba_system_free(&init);
			pba_events_free(&ev);
		}
}

/*
 * The chain's batches on the worst case, one request: the first round
 * finishes process 0, the chain's first iteration looks at every chunk (the
 * block runs it), and its last finishes process I - 2 and the requester
 * together (the block again); every iteration between is predicted and kept,
 * PBA_AHEAD a batch but where a batch ends at a chunk's end.
 */
TEST(pba_batches_keep_the_worst_case_chain)
{
	/* and past 32768 processes, where a lane of warp 0 votes on more than 32 chunks */
	static const uint32_t sizes[][2] = {{640, 7}, {40000, 2}};
	const pba_engine *e[] = {&pba_sim_gpu, &pba_sim_gpu_small, &pba_sim_gpu_global_state};
	unsigned k, z;
	for (z = 0; z < 2; z++)
		for (k = 0; k < sizeof(e) / sizeof(e[0]); k++) {
			pba_gen_config cfg = {sizes[z][0], sizes[z][1], 1, PBA_WORST_CASE, 1, 0};
			pba_system init;
			pba_events ev;
			char err[256];
			double ph[PBA_NPHASES] = {0};
			uint64_t batches, kept;
			void *ctx;
			REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
			ctx = e[k]->open(&init);
			CHECK_EQ(e[k]->apply(ctx, ev.type[0], ev.proc[0], ev.amount, ph), (unsigned)PBA_GRANTED);
			CHECK_EQ(e[k]->last_iterations(ctx), init.procs - 1);
			pba_sim_batch_counts(ctx, &batches, &kept);
			CHECK_EQ(kept, (uint64_t)init.procs - 4);
			CHECK(batches >= kept / PBA_AHEAD);
			CHECK(batches <= kept / PBA_AHEAD + init.procs / PBA_CHUNK);
			e[k]->close(ctx);
			pba_system_free(&init);
			pba_events_free(&ev);
		}
}

/* A batch of n predictions with everything held, for pba_batch_accept. */
static void batch_all_held(pba_batch *b, uint32_t n)
{
	uint32_t t;
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->bound = UINT32_MAX;
	for (t = 0; t < n; t++) {
		b->proc[t] = t;
		b->margin[t] = t; /* one unit of growth an iteration, as in the worst case */
		b->reach[t] = t + 1;
		if (t > 0)
			b->short_before |= 1u << t;
	}
}

TEST(pba_batch_accept_keeps_the_prefix_that_held)
{
	pba_batch b;
	/* all held */
	batch_all_held(&b, 5);
	CHECK_EQ(pba_batch_accept(&b), 5u);
	/* the candidate itself is blocked further on: nothing kept, the iteration finishes no one */
	batch_all_held(&b, 5);
	b.short_now |= 1u;
	CHECK_EQ(pba_batch_accept(&b), 0u);
	batch_all_held(&b, 1);
	CHECK_EQ(pba_batch_accept(&b), 1u);
	/* prediction 3 is not covered in its turn: iterations 0-2 kept */
	batch_all_held(&b, 5);
	b.short_now |= 1u << 3;
	CHECK_EQ(pba_batch_accept(&b), 3u);
	/*
	 * prediction 2 is covered one iteration early, with prediction 1 (its
	 * margin 1, what work_1 grew): that iteration had two finishers, so only
	 * iteration 0 is kept
	 */
	batch_all_held(&b, 5);
	b.short_before &= ~(1u << 2);
	b.margin[2] = 1;
	CHECK_EQ(pba_batch_accept(&b), 1u);
	/* prediction 4 covered early, with prediction 3 (margin 3): iterations 0-2 kept */
	batch_all_held(&b, 5);
	b.short_before &= ~(1u << 4);
	b.margin[4] = 3;
	CHECK_EQ(pba_batch_accept(&b), 3u);
	/* a process not predicted may be covered once work grew by 2: iterations 0 and 1 only */
	batch_all_held(&b, 5);
	b.bound = 2;
	CHECK_EQ(pba_batch_accept(&b), 2u);
	b.bound = 1;
	CHECK_EQ(pba_batch_accept(&b), 1u);
}

/*
 * Systems of more than one round of chunks a warp (the small blocks' two
 * warps vote on 64 chunks, 2048 processes, at a time): the worst case's long
 * chain, and random streams, against the oracle and cpu's iterations.
 */
TEST(pba_gpu_kernels_on_many_chunks)
{
	const pba_engine *e[] = {&pba_sim_gpu, &pba_sim_gpu_small, &pba_sim_gpu_global_state};
	unsigned k;
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++) {
		pba_gen_config worst = {2100, 5, 2, PBA_WORST_CASE, 1, 0};
		pba_gen_config random = {3000, 20, 80, PBA_RANDOM, 9, 0};
		uint64_t counts[PBA_NOUTCOMES] = {0};
		pba_system init;
		pba_events ev;
		char err[256];
		REQUIRE(pba_generate(&worst, &init, &ev, err, sizeof(err)) == 0);
		CHECK_EQ(replay_iterations(e[k], entry("cpu"), &init, &ev, counts), 0u);
		CHECK_EQ(counts[PBA_GRANTED], 1u);
		pba_system_free(&init);
		pba_events_free(&ev);
		REQUIRE(pba_generate(&random, &init, &ev, err, sizeof(err)) == 0);
		CHECK_EQ(replay_iterations(e[k], entry("cpu"), &init, &ev, counts), 0u);
		pba_system_free(&init);
		pba_events_free(&ev);
	}
}

/* Unsafe requests through the GPU kernels: denied after the chain, rolled back in place. */
TEST(pba_gpu_kernels_unsafe_mix)
{
	static const double shares[] = {0.2, 0.8};
	const pba_engine *e[] = {&pba_sim_gpu, &pba_sim_gpu_small, &pba_sim_gpu_global_state,
				 &pba_sim_gpu_thesis};
	unsigned s, k;
	for (k = 0; k < sizeof(e) / sizeof(e[0]); k++)
		for (s = 0; s < sizeof(shares) / sizeof(shares[0]); s++) {
			pba_gen_config cfg = {60, 12, 400, PBA_UNSAFE_MIX, 3 + s, shares[s]};
			uint64_t counts[PBA_NOUTCOMES] = {0};
			pba_system init;
			pba_events ev;
			char err[256];
			REQUIRE(pba_generate(&cfg, &init, &ev, err, sizeof(err)) == 0);
			CHECK_EQ(replay_iterations(e[k], entry("cpu"), &init, &ev, counts), 0u);
			CHECK(counts[PBA_GRANTED] > 20);
			CHECK(counts[PBA_DENIED_UNSAFE] > 20);
			pba_system_free(&init);
			pba_events_free(&ev);
		}
}

/*
 * 3 processes x 600 resources (three scan segments), nothing free but
 * free_b units of resource 300. Process 1 needs nothing and holds a unit of
 * resource 10; process 2 needs that unit and holds one of resource 520;
 * process 0 needs one unit each of 10, 300 and 520. In the second safety
 * iteration process 0 is a candidate (10 is covered) blocked in two later
 * segments: it must stay blocked on 300, the first of them, so that
 * resource 520 coming back in the third iteration does not let it finish
 * while 300 is still short.
 */
static void two_segments_blocked(pba_system *s, int32_t free_b)
{
	pba_system_init(s, 3, 600);
	s->available[300] = free_b;
	s->allocation[1 * 600 + 10] = s->maximum[1 * 600 + 10] = 1;
	s->allocation[2 * 600 + 520] = s->maximum[2 * 600 + 520] = 1;
	s->maximum[2 * 600 + 10] = s->need[2 * 600 + 10] = 1;
	s->maximum[10] = s->need[10] = 1;
	s->maximum[300] = s->need[300] = 1;
	s->maximum[520] = s->need[520] = 1;
}

TEST(pba_engines_keep_the_first_blocking_resource)
{
	static int32_t nothing[600];
	const pba_engine *en[MAX_ENGINES];
	unsigned k, n = cpu_runnable(en);
	int32_t free_b;

	for (free_b = 0; free_b <= 1; free_b++)
		for (k = 0; k < n; k++) {
			double ph[PBA_NPHASES] = {0};
			pba_system init, got;
			void *ctx;
			two_segments_blocked(&init, free_b);
			pba_system_init(&got, 3, 600);
			CHECK_EQ(pba_oracle_safe(&init), (unsigned)free_b);
			ctx = en[k]->open(&init);
			CHECK_EQ(en[k]->apply(ctx, PBA_REQUEST, 1, nothing, ph),
				 free_b ? PBA_GRANTED : PBA_DENIED_UNSAFE);
			/* process 1, then 2, then 0 or nobody */
			if (iterations_ref(en[k]) || strcmp(en[k]->head.name, "cpu") == 0)
				CHECK_EQ(en[k]->last_iterations(ctx), 3u);
			en[k]->fetch(ctx, &got);
			CHECK(pba_system_equal(&got, &init));
			en[k]->close(ctx);
			pba_system_free(&init);
			pba_system_free(&got);
		}
}

/*
 * 3 processes x 600 resources, nothing free. Process 1 needs nothing and
 * holds a unit of resource 300; process 0 needs that unit and holds one of
 * resource 10; process 2 needs that one. In the second safety iteration
 * process 0 is the only candidate and finishes from pos 300: what it returns
 * lies before pos, in a segment its need scan skips, and must still reach
 * work[] (gpu stages the whole allocation row) for process 2 to finish in
 * the third.
 */
TEST(pba_engines_return_what_lies_before_pos)
{
	static int32_t nothing[600];
	const pba_engine *en[MAX_ENGINES];
	unsigned k, n = cpu_runnable(en);
	pba_system init, got;

	pba_system_init(&init, 3, 600);
	pba_system_init(&got, 3, 600);
	init.allocation[1 * 600 + 300] = init.maximum[1 * 600 + 300] = 1;
	init.maximum[300] = init.need[300] = 1;
	init.allocation[10] = 1;
	init.maximum[10] = 1;
	init.maximum[2 * 600 + 10] = init.need[2 * 600 + 10] = 1;
	CHECK_EQ(pba_oracle_safe(&init), 1u);
	for (k = 0; k < n; k++) {
		double ph[PBA_NPHASES] = {0};
		void *ctx = en[k]->open(&init);
		CHECK_EQ(en[k]->apply(ctx, PBA_REQUEST, 1, nothing, ph), PBA_GRANTED);
		/* process 1, then 0, then 2 */
		if (iterations_ref(en[k]) || strcmp(en[k]->head.name, "cpu") == 0)
			CHECK_EQ(en[k]->last_iterations(ctx), 3u);
		en[k]->fetch(ctx, &got);
		CHECK(pba_system_equal(&got, &init));
		en[k]->close(ctx);
	}
	pba_system_free(&init);
	pba_system_free(&got);
}

/*
 * The chain kernel's shared-memory plan (deadlock/pba_bits.h): within the
 * budget, the arrays carved from it one after the other, 8-byte ones first,
 * ending at its last byte; on an H100 the worst case of 8192 x 1024 keeps the
 * processes' words in shared memory with a slot for every process and staged
 * rows, 65536 x 1024 leaves the words in global memory, rows of 40000
 * resources stage nothing, and a million processes leave the wakes out too.
 */
static void check_plan(uint32_t I, uint32_t J, size_t budget, pba_chain_plan *pl)
{
	static uint64_t smem[227 * 1024 / 8];
	uint64_t gstate, gwake;
	int32_t gwork;
	uint32_t gflist;
	pba_dev d = {0};
	pba_chain_mem m;
	size_t bytes;
	char *at = (char *)smem;

	pba_chain_plan_for(pl, I, J, budget);
	bytes = pba_chain_bytes(pl, I, J);
	CHECK(bytes <= budget);
	CHECK(pl->cap >= 1 && pl->cap <= I);
	CHECK(pl->stage_rows <= pl->cap && pl->stage_rows <= PBA_STAGE_MAX);
	if (pl->smem_state)
		CHECK(pl->cap >= (I < PBA_MIN_SLOTS ? I : PBA_MIN_SLOTS));
	REQUIRE(budget <= sizeof(smem));
	d.I = I;
	d.J = J;
	d.state = &gstate;
	d.wake = &gwake;
	d.work = &gwork;
	d.flist = &gflist;
	pba_chain_carve(pl, &d, smem, &m);
	CHECK((char *)m.minf == at);
	at += (size_t)pl->cap * 8;
	CHECK(m.wake == (pl->smem_wake ? (uint64_t *)at : &gwake));
	at += pl->smem_wake ? (size_t)pba_chunks(I) * 8 : 0;
	CHECK(m.state == (pl->smem_state ? (uint64_t *)at : &gstate));
	at += pl->smem_state ? (size_t)I * 8 : 0;
	at += (at - (char *)smem) % 16; /* work[] starts on 16 bytes */
	CHECK(m.work == (pl->smem_work ? (int32_t *)at : &gwork));
	at += pl->smem_work ? (size_t)J * 4 : 0;
	CHECK(m.flist == (pl->smem_state ? (uint32_t *)at : &gflist));
	at += pl->smem_state ? (size_t)I * 4 : 0;
	CHECK((char *)m.cand == at);
	at += (size_t)pl->cap * 4;
	at += (16 - (at - (char *)smem) % 16) % 16; /* the staged rows start on 16 bytes */
	CHECK((char *)m.stage == at);
	at += (size_t)pl->stage_rows * J * 4;
	CHECK(at == (char *)smem + bytes);
}

TEST(pba_chain_plan_fits_shared_memory)
{
	static const uint32_t procs[] = {1, 2, 3, 100, 1000, 8192, 16384, 20000, 65536, 1u << 20};
	static const uint32_t res[] = {1, 2, 7, 256, 1024, 2048, 8192, 40000};
	const size_t h100 = 227 * 1024 - 64, small = 48 * 1024 - 64;
	pba_chain_plan pl;
	unsigned a, b;

	for (a = 0; a < sizeof(procs) / sizeof(procs[0]); a++)
		for (b = 0; b < sizeof(res) / sizeof(res[0]); b++) {
			check_plan(procs[a], res[b], h100, &pl);
			check_plan(procs[a], res[b], small, &pl);
		}
	check_plan(8192, 1024, h100, &pl);
	CHECK(pl.smem_work && pl.smem_wake && pl.smem_state);
	CHECK_EQ(pl.cap, 8192u);
	CHECK(pl.stage_rows >= 2);
	check_plan(65536, 1024, h100, &pl);
	CHECK(pl.smem_work && pl.smem_wake && !pl.smem_state);
	CHECK(pl.stage_rows >= 2);
	check_plan(40, 40000, h100, &pl);
	CHECK(!pl.smem_work && pl.smem_wake && pl.smem_state);
	CHECK_EQ(pl.stage_rows, 0u);
	check_plan(1u << 20, 1024, h100, &pl);
	CHECK(pl.smem_work && !pl.smem_wake && !pl.smem_state);
}
