/*
 * The memcached workload (workloads/stm/memcached.c): the generator's table and
 * initial cache, the zipfian key popularity, and the oracle, which must
 * accept a serial run and catch a corrupted set, a lost SET, a GET that took
 * a stamp, a broken LRU order and a GET result no snapshot gives, in the
 * compact layout (one word a key and a value) and the paper's (4 and 8: torn
 * keys and values, the value's digest). Then every engine's CPU backend on a
 * hot cache, in both layouts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stm/csmv/csmv_engines.h"
#include "stm/gpustm/gpustm_engines.h"
#include "stm/csmv/jvstm_engines.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/test.h"
#include "workloads/stm/memcached.h"

static memcached_config small_config(void)
{
	memcached_config c = {
		.items = 64,
		.ways = 4,
		.key_words = 1,
		.value_words = 1,
		.keys = 100,
		.zipf = 0.99,
		.set_permille = 300,
		.threads = 40,
		.tx_per_thread = 25,
		.seed = 7,
	};
	return c;
}

TEST(memcached_generate_table_and_initial_cache)
{
	memcached_config c = small_config();
	memcached_workload w;
	uint64_t i, sets = 0;
	uint32_t s, j, items = 0;
	char err[256];

	REQUIRE(memcached_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.sets, 16u);
	CHECK_EQ(w.stride, 13u);
	CHECK_EQ(w.words, 16u * 13u);
	CHECK_EQ(w.ntx, 1000u);
	for (i = 0; i < w.ntx; i++) {
		const memcached_entry *e = &w.tx[i];
		unsigned op = MEMCACHED_OP(e->meta);
		CHECK_EQ(MEMCACHED_WAYS(e->meta), 4u);
		CHECK(e->b >= 1 && e->b <= c.keys);
		CHECK_EQ(e->a, memcached_set_of(e->b - 1u, w.sets) * w.stride);
		CHECK_EQ((e->meta & TX_ENTRY_READONLY) != 0, op == MEMCACHED_GET);
		if (op == MEMCACHED_SET) {
			CHECK(e->c != 0);
			sets++;
		}
	}
	CHECK_EQ(sets, w.count[MEMCACHED_SET]);
	CHECK(sets > 240 && sets < 360); /* 300 per mille of 1000 */
	/* 100 keys over 64 ways: the initial cache is full where its sets' keys allow, each set in LRU order */
	for (s = 0; s < w.sets; s++) {
		const uint32_t *set = w.start + s * w.stride;
		uint32_t occupied = 0;
		for (j = 0; j < 4; j++) {
			if (!set[1 + j])
				continue;
			occupied++;
			CHECK_EQ(memcached_set_of(set[1 + j] - 1u, w.sets), s);
			CHECK(set[5 + j] != 0);
			CHECK_EQ(set[9 + j], occupied); /* inserted in way order, clock 1, 2, ... */
		}
		CHECK_EQ(set[0], occupied);
		items += occupied;
	}
	CHECK(items > 48);
	memcached_free(&w);

	c.items = 3;
	CHECK(memcached_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK(strstr(err, "fewer than one set") != NULL);
	memcached_free(&w);
	c = small_config();
	c.key_words = 5;
	CHECK(memcached_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK(strstr(err, "keys take 1..4 words") != NULL);
	memcached_free(&w);
}

/* The paper's layout, 4-word keys and 8-word values, written here without the workload's offsets. */
#define PW 4u  /* ways */
#define PKW 4u
#define PVW 8u
#define P_KEY(j, l) (1u + (j) * PKW + (l))
#define P_VALUE(j, l) (1u + PW * PKW + (j) * PVW + (l))
#define P_STAMP(j) (1u + PW * (PKW + PVW) + (j))

static uint32_t test_digest(const uint32_t *set, uint32_t j)
{
	uint32_t h = set[P_VALUE(j, 0)], l;
	for (l = 1; l < PVW; l++)
		h = (h ^ set[P_VALUE(j, l)]) * 16777619u;
	return h ? h : 1u;
}

/* Word *word of `after` flipped in a batch where nothing committed: the oracle names it as `what`. */
static void check_torn(const memcached_workload *w, uint32_t *before, const uint32_t *status, const uint32_t *after,
		       uint32_t *word, const char *what)
{
	memcached_check chk;

	*word ^= 1u;
	memcpy(before, after, w->words * sizeof(uint32_t));
	memcached_verify_batch(w, before, status, after, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK(strstr(chk.message, what) != NULL);
	*word ^= 1u;
}

TEST(memcached_paper_layout_keys_values_and_digests)
{
	memcached_config c = small_config();
	memcached_workload w;
	memcached_check chk;
	uint32_t *before, *after, *status, *results, *set = NULL, s, j = 0, l;
	uint64_t i, get = 0;
	char err[256];

	c.key_words = PKW;
	c.value_words = PVW;
	REQUIRE(memcached_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.stride, PW * (PKW + PVW + 1) + 1);
	CHECK_EQ(memcached_input_of(&w).max_words, PW * PKW + PVW);
	for (i = 0; i < w.ntx; i++) {
		CHECK_EQ(MEMCACHED_KEY_WORDS(w.tx[i].meta), PKW);
		CHECK_EQ(MEMCACHED_VALUE_WORDS(w.tx[i].meta), PVW);
		CHECK_EQ(MEMCACHED_WAYS(w.tx[i].meta), PW);
	}
	/* whole keys and values in the initial cache: words past the first derived from it, empty ways all 0 */
	for (s = 0; s < w.sets; s++) {
		uint32_t *x = w.start + s * w.stride;
		for (j = 0; j < PW; j++) {
			if (!x[P_KEY(j, 0)]) {
				for (l = 0; l < PKW; l++)
					CHECK_EQ(x[P_KEY(j, l)], 0u);
				for (l = 0; l < PVW; l++)
					CHECK_EQ(x[P_VALUE(j, l)], 0u);
				continue;
			}
			for (l = 1; l < PKW; l++)
				CHECK_EQ(x[P_KEY(j, l)], memcached_key_word(x[P_KEY(j, 0)], l));
			for (l = 1; l < PVW; l++)
				CHECK_EQ(x[P_VALUE(j, l)], memcached_value_word(x[P_VALUE(j, 0)], l));
			if (!set)
				set = x;
		}
	}
	REQUIRE(set != NULL);
	before = calloc(w.words, sizeof(uint32_t));
	after = calloc(w.words, sizeof(uint32_t));
	status = calloc(w.ntx, sizeof(uint32_t));
	results = calloc(w.ntx * TX_RESULT_WORDS, sizeof(uint32_t));
	memcached_initial(&w, before);
	memcpy(after, before, w.words * sizeof(uint32_t));
	memcached_verify_batch(&w, before, status, after, &chk); /* nothing committed: the cache as it was */
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	/* a torn key and a torn value, each in a batch where nothing committed */
	set = after + (set - w.start);
	check_torn(&w, before, status, after, &set[P_KEY(0, 2)], "torn key");
	check_torn(&w, before, status, after, &set[P_VALUE(0, 7)], "torn value");
	/* a GET of a key in the cache, at snapshot 0: its result is the digest of the value's 8 words */
	memcached_initial(&w, before);
	for (i = 0; i < w.ntx; i++) {
		const memcached_entry *e = &w.tx[i];
		const uint32_t *x = before + e->a;
		if (MEMCACHED_OP(e->meta) != MEMCACHED_GET)
			continue;
		for (j = 0; j < PW && x[P_KEY(j, 0)] != e->b; j++)
			;
		if (j < PW) {
			get = i;
			break;
		}
	}
	REQUIRE(i < w.ntx);
	status[get] = TX_STATUS_READONLY;
	results[get * TX_RESULT_WORDS] = 0;
	results[get * TX_RESULT_WORDS + 1] = test_digest(before + w.tx[get].a, j);
	CHECK_EQ(memcached_verify_snapshots(&w, before, status, results, 0, &chk), 1u);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	results[get * TX_RESULT_WORDS + 1] = before[w.tx[get].a + P_VALUE(j, 0)]; /* the first word only */
	memcached_verify_snapshots(&w, before, status, results, 0, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK(strstr(chk.message, "not a consistent snapshot") != NULL);
	free(before);
	free(after);
	free(status);
	free(results);
	memcached_free(&w);
}

TEST(memcached_zipf_distribution)
{
	memcached_zipf z;
	uint32_t n = 1000, k, counts[1000] = {0};
	double h = 0;
	uint64_t d, draws = 200000, state = 12345;

	memcached_zipf_init(&z, n, 0.99);
	for (k = 0; k < n; k++)
		h += 1.0 / pow(k + 1.0, 0.99);
	CHECK(fabs(z.cdf[0] - 1.0 / h) < 1e-9);
	CHECK(z.cdf[n - 1] == 1.0);
	CHECK_EQ(memcached_zipf_draw(&z, 0.0), 0u);
	CHECK_EQ(memcached_zipf_draw(&z, 0.999999999), n - 1);
	for (d = 0; d < draws; d++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		counts[memcached_zipf_draw(&z, (double)(state >> 11) / 9007199254740992.0)]++;
	}
	/* the hottest key about 1/H of the draws, key 1 about half of key 0's, key 9 a tenth */
	CHECK(fabs((double)counts[0] / draws - 1.0 / h) < 0.01);
	CHECK(fabs((double)counts[1] / counts[0] - 1.0 / pow(2, 0.99)) < 0.05);
	CHECK(fabs((double)counts[9] / counts[0] - 1.0 / pow(10, 0.99)) < 0.03);
	memcached_zipf_free(&z);
	/* alpha 0: uniform */
	memcached_zipf_init(&z, 10, 0.0);
	for (k = 0; k < 10; k++)
		CHECK(fabs(z.cdf[k] - (k + 1) / 10.0) < 1e-12);
	memcached_zipf_free(&z);
}

/* A serial run in table order, written here without the oracle's code. */
typedef struct serial_run {
	memcached_workload w;
	uint32_t *before, *after, *status, *results;
} serial_run;

static void test_set(const memcached_workload *w, uint32_t *s, uint32_t key, uint32_t value)
{
	uint32_t W = w->cfg.ways, j, pick = 0;
	for (j = 0; j < W; j++)
		if (s[1 + j] == key)
			break;
	if (j < W) {
		pick = j;
	} else {
		for (j = 1; j < W; j++) /* empty ways have stamp 0, so they go first */
			if (s[1 + 2 * W + j] < s[1 + 2 * W + pick])
				pick = j;
	}
	s[0]++;
	s[1 + pick] = key;
	s[1 + W + pick] = value;
	s[1 + 2 * W + pick] = s[0];
}

static void run_serially(serial_run *r, const memcached_config *c)
{
	memcached_workload *w = &r->w;
	uint32_t stamp = 0, j;
	uint64_t i;
	char err[256];

	if (memcached_generate(w, c, err, sizeof(err)) != 0)
		abort();
	r->before = calloc(w->words, sizeof(uint32_t));
	r->after = calloc(w->words, sizeof(uint32_t));
	r->status = calloc(w->ntx, sizeof(uint32_t));
	r->results = calloc(w->ntx * TX_RESULT_WORDS, sizeof(uint32_t));
	memcached_initial(w, r->before);
	memcpy(r->after, r->before, w->words * sizeof(uint32_t));
	for (i = 0; i < w->ntx; i++) {
		const memcached_entry *e = &w->tx[i];
		uint32_t *s = r->after + e->a;
		if (MEMCACHED_OP(e->meta) == MEMCACHED_SET) {
			test_set(w, s, e->b, e->c);
			r->status[i] = ++stamp;
			continue;
		}
		r->status[i] = TX_STATUS_READONLY;
		r->results[i * TX_RESULT_WORDS] = stamp;
		for (j = 0; j < c->ways; j++)
			if (s[1 + j] == e->b)
				r->results[i * TX_RESULT_WORDS + 1] = s[1 + c->ways + j];
	}
}

static void free_serial(serial_run *r)
{
	free(r->before);
	free(r->after);
	free(r->status);
	free(r->results);
	memcached_free(&r->w);
}

static void check_of(serial_run *r, memcached_check *chk)
{
	uint32_t *state = malloc(r->w.words * sizeof(uint32_t));
	memcpy(state, r->before, r->w.words * sizeof(uint32_t));
	memcached_verify_batch(&r->w, state, r->status, r->after, chk);
	free(state);
}

TEST(memcached_verify_accepts_a_serial_run)
{
	memcached_config c = small_config();
	serial_run r;
	memcached_check chk;
	uint64_t checked;

	run_serially(&r, &c);
	check_of(&r, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	CHECK_EQ(chk.committed_update, r.w.count[MEMCACHED_SET]);
	CHECK_EQ(chk.committed_readonly, r.w.count[MEMCACHED_GET]);
	CHECK_EQ(chk.abandoned, 0u);
	CHECK(chk.evictions > 0);
	CHECK(chk.items > 48 && chk.items <= 64);
	checked = memcached_verify_snapshots(&r.w, r.before, r.status, r.results, 0, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(checked, r.w.count[MEMCACHED_GET]);
	free_serial(&r);
}

TEST(memcached_verify_catches_corruption_and_lost_sets)
{
	memcached_config c = small_config();
	serial_run r;
	memcached_check chk;
	uint64_t i, first_set = 0, first_get = 0;
	uint32_t saved, *set;

	run_serially(&r, &c);
	for (i = 0; i < r.w.ntx; i++)
		if (MEMCACHED_OP(r.w.tx[i].meta) == MEMCACHED_SET) {
			first_set = i;
			break;
		}
	for (i = 0; i < r.w.ntx; i++)
		if (MEMCACHED_OP(r.w.tx[i].meta) == MEMCACHED_GET) {
			first_get = i;
			break;
		}
	/* a corrupted value in a set */
	set = r.after + r.w.tx[first_set].a;
	saved = set[5];
	set[5] ^= 0x100u;
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK(strstr(chk.message, "a value") != NULL);
	set[5] = saved;
	/* a lost SET: it committed with its stamp, but `after` is the cache without it */
	{
		serial_run lost;
		uint64_t last = 0;
		for (i = 0; i < r.w.ntx; i++)
			if (r.status[i] == r.w.count[MEMCACHED_SET])
				last = i;
		run_serially(&lost, &c);
		memcpy(lost.after, lost.before, lost.w.words * sizeof(uint32_t));
		for (i = 0; i < lost.w.ntx; i++)
			if (MEMCACHED_OP(lost.w.tx[i].meta) == MEMCACHED_SET && i != last)
				test_set(&lost.w, lost.after + lost.w.tx[i].a, lost.w.tx[i].b, lost.w.tx[i].c);
		check_of(&lost, &chk);
		CHECK_EQ_I(chk.ok, 0);
		CHECK(strstr(chk.message, "serial replay") != NULL);
		/* the same SET left uncommitted is a correct run */
		lost.status[last] = TX_STATUS_PENDING;
		check_of(&lost, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.abandoned, 1u);
		free_serial(&lost);
	}
	/* a GET that took a stamp */
	r.status[first_get] = (uint32_t)r.w.count[MEMCACHED_SET] + 2;
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK(strstr(chk.message, "GET") != NULL);
	r.status[first_get] = TX_STATUS_READONLY;
	/* a broken LRU order (two ways of one stamp) in a batch where nothing committed: the replay
	 * agrees, the cache check does not */
	memset(r.status, 0, r.w.ntx * sizeof(uint32_t));
	for (i = 0; i < r.w.sets; i++) {
		uint32_t *b = r.before + i * r.w.stride;
		if (b[1] && b[2]) {
			b[10] = b[9];
			break;
		}
	}
	REQUIRE(i < r.w.sets);
	memcpy(r.after, r.before, r.w.words * sizeof(uint32_t));
	check_of(&r, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK(strstr(chk.message, "LRU") != NULL);
	CHECK_EQ(chk.abandoned, r.w.ntx);
	free_serial(&r);
}

TEST(memcached_snapshots_catch_a_wrong_get)
{
	memcached_config c = small_config();
	serial_run r;
	memcached_check chk;
	uint64_t i, checked;

	run_serially(&r, &c);
	for (i = 0; i < r.w.ntx; i++)
		if (r.status[i] == TX_STATUS_READONLY && r.results[i * TX_RESULT_WORDS + 1] != 0)
			break;
	REQUIRE(i < r.w.ntx);
	r.results[i * TX_RESULT_WORDS + 1] = 0; /* a hit reported as a miss */
	checked = memcached_verify_snapshots(&r.w, r.before, r.status, r.results, 0, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK(checked >= 1);
	CHECK(strstr(chk.message, "not a consistent snapshot") != NULL);
	free_serial(&r);
}

/* An engine's CPU backend on a hot cache: 4 sets, half SETs, 400 threads on 8 workers; keys of kw words, values of vw. */
static void run_engine(const stm_ops *ops, int results, const char *label, uint32_t kw, uint32_t vw)
{
	static const char *const engine_opts[] = {"max-passes=1000000000", "retry-limit=1000000000",
						  "stall-timeout=10", NULL};
	memcached_config c = small_config();
	memcached_workload w;
	stm_params p;
	stm_batch_result r;
	memcached_check chk;
	tx_input in;
	uint32_t *initial, *state, *after, *status, *res = NULL;
	char err[256];
	void *ctx;

	c.items = 16;
	c.keys = 24;
	c.set_permille = 500;
	c.threads = 400;
	c.tx_per_thread = 5;
	c.key_words = kw;
	c.value_words = vw;
	REQUIRE(memcached_generate(&w, &c, err, sizeof(err)) == 0);
	memset(&p, 0, sizeof(p));
	p.threads = c.threads;
	p.hash = 1;
	p.cpu_workers = 8;
	tu_engine_params(&p, tu_engine_of(ops), engine_opts);
	initial = calloc(w.words, sizeof(uint32_t));
	state = calloc(w.words, sizeof(uint32_t));
	after = calloc(w.words, sizeof(uint32_t));
	status = calloc(w.ntx, sizeof(uint32_t));
	memcached_initial(&w, initial);
	in = memcached_input_of(&w);
	CHECK_EQ(in.max_words, 4 * kw + vw > kw + vw + 2 ? 4 * kw + vw : kw + vw + 2); /* a GET over 4 ways, a SET */
	ctx = ops->open(&in, &p);
	ops->load(ctx, initial);
	ops->run(ctx, 60ull * 1000000000ull, 0, &r);
	ops->fetch(ctx, after, status);
	if (results) {
		res = calloc(w.ntx * TX_RESULT_WORDS, sizeof(uint32_t));
		ops->fetch_results(ctx, res);
	}
	ops->close(ctx);
	memcpy(state, initial, w.words * sizeof(uint32_t));
	memcached_verify_batch(&w, state, status, after, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", label, chk.message);
	CHECK_EQ(chk.committed_update, w.count[MEMCACHED_SET]);
	CHECK_EQ(chk.committed_readonly, w.count[MEMCACHED_GET]);
	CHECK_EQ(chk.committed_update, r.c.commits_update);
	CHECK_EQ(chk.committed_readonly, r.c.commits_readonly);
	if (results) {
		memcached_check snap;
		uint64_t checked = memcached_verify_snapshots(&w, initial, status, res, 0, &snap);
		if (!snap.ok)
			tu_fail(__FILE__, __LINE__, "%s: %s", label, snap.message);
		CHECK_EQ(checked, w.count[MEMCACHED_GET]);
		free(res);
	}
	free(initial);
	free(state);
	free(after);
	free(status);
	memcached_free(&w);
}

TEST(memcached_cpu_backends_at_high_contention)
{
	run_engine(&prstm_memcached_cpu_ops, 0, "prstm", 1, 1);
	run_engine(&gpustm_memcached_cpu_ops, 0, "gpustm", 1, 1);
	run_engine(&csmv_memcached_cpu_ops, 1, "csmv", 1, 1);
	run_engine(&csmv_onlycs_memcached_cpu_ops, 1, "csmv-onlycs", 1, 1);
	run_engine(&jvstm_memcached_cpu_ops, 1, "jvstm", 1, 1);
}

/* The paper's layout: GETs of 24 words (prstm's read log at capacity 16), SETs of 14 (csmv's sets of 16). */
TEST(memcached_cpu_backends_paper_layout)
{
	run_engine(&prstm_memcached_cpu_ops, 0, "prstm", 4, 8);
	run_engine(&csmv_memcached_cpu_ops, 1, "csmv", 4, 8);
	run_engine(&csmv_onlycs_memcached_cpu_ops, 1, "csmv-onlycs", 4, 8);
	run_engine(&jvstm_memcached_cpu_ops, 1, "jvstm", 4, 8);
}
