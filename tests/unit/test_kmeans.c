/*
 * The kmeans workload (workloads/stm/kmeans.c): the generator's points, table and
 * serial reference, its stages, and the oracle, which must accept a correct
 * pass and name what is wrong in a tampered one. Then both engines' CPU
 * backends on it at high contention (two clusters, hundreds of threads), a
 * whole pass each.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "stm/gpustm/gpustm_engines.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/staged_run.h"
#include "tests/unit/test.h"
#include "workloads/stm/kmeans.h"

static kmeans_config small_config(void)
{
	kmeans_config c;
	memset(&c, 0, sizeof(c));
	c.points = 500;
	c.clusters = 4;
	c.iterations = 5;
	c.points_per_tx = 1; /* a transaction per point, unless a test says otherwise */
	c.threads = 16;
	c.seed = 3;
	return c;
}

/* A serial engine: commit every entry of the current stage in table order, stamps in that order. */
static void commit_all(const kmeans_workload *w, uint32_t *words, uint32_t *status)
{
	uint64_t i;
	for (i = 0; i < w->ntx; i++) {
		const kmeans_entry *e = &w->tx[i];
		words[e->base] += KMEANS_COUNT(e->meta);
		words[e->base + 1] += e->x;
		words[e->base + 2] += e->y;
		status[i] = (uint32_t)i + 1;
	}
}

TEST(kmeans_generate_points_table_and_reference)
{
	kmeans_config c = small_config();
	kmeans_workload w;
	tx_input in;
	char err[256];
	uint64_t i, counted = 0;
	uint32_t k;

	REQUIRE(kmeans_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.words, 12u);
	CHECK_EQ(w.ntx, 500u);
	in = kmeans_input_of(&w);
	CHECK_EQ(in.ntx, 500u);
	CHECK_EQ(in.tx_per_thread, 32u); /* ceil(500 / 16): the last block is short */
	CHECK_EQ(in.max_words, 3u);
	CHECK_EQ(in.entry_size, sizeof(kmeans_entry));
	for (i = 0; i < w.ntx; i++) {
		const kmeans_entry *e = &w.tx[i];
		CHECK(w.x[i] < KMEANS_COORD_RANGE && w.y[i] < KMEANS_COORD_RANGE);
		CHECK_EQ(TX_ENTRY_TAG(e->meta), 0u);
		CHECK_EQ(KMEANS_COUNT(e->meta), 1u);
		CHECK_EQ(e->x, w.x[i]);
		CHECK_EQ(e->y, w.y[i]);
		/* stage 0 assigns to the nearest initial centroid */
		CHECK_EQ(e->base, 3u * kmeans_nearest(w.init_cx, w.init_cy, c.clusters, w.x[i], w.y[i]));
	}
	/* the initial centroids are points of the set */
	for (k = 0; k < c.clusters; k++) {
		int found = 0;
		for (i = 0; i < c.points && !found; i++)
			found = w.x[i] == w.init_cx[k] && w.y[i] == w.init_cy[k];
		CHECK(found);
	}
	CHECK(w.ref_iterations >= 1 && w.ref_iterations <= c.iterations);
	for (k = 0; k < c.clusters; k++)
		counted += w.ref_sums[3 * k];
	CHECK_EQ(counted, c.points);
	kmeans_free(&w);

	c.clusters = 501;
	CHECK(kmeans_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "--clusters 501 exceeds --points 500");
}

/* The assignment stages on several host threads give what one gives: the same assignment, tables and
 * reference, stage after stage (shares of 500 points over 1, 7 and 16 threads; 16 is the auto cap). */
TEST(kmeans_host_threads_change_nothing)
{
	static const uint32_t threads[] = {7, 16, 0};
	kmeans_config c = small_config();
	kmeans_workload one, many;
	char err[256];
	uint32_t t, words1[3 * 13], words2[3 * 13], *status;

	c.clusters = 13;
	c.points_per_tx = 5;
	c.host_threads = 1;
	REQUIRE(kmeans_generate(&one, &c, err, sizeof(err)) == 0);
	status = calloc(one.capacity, sizeof(uint32_t));
	for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
		uint32_t s = 0;
		int more1, more2;
		c.host_threads = threads[t];
		REQUIRE(kmeans_generate(&many, &c, err, sizeof(err)) == 0);
		CHECK_EQ(many.ref_iterations, one.ref_iterations);
		CHECK_EQ(many.ref_moved, one.ref_moved);
		CHECK(memcmp(many.ref_sums, one.ref_sums, one.words * sizeof(uint32_t)) == 0);
		/* a pass of each, stage by stage */
		kmeans_initial(&one, words1);
		kmeans_initial(&many, words2);
		kmeans_stage(&one, 0, words1, NULL);
		kmeans_stage(&many, 0, words2, NULL);
		do {
			CHECK_EQ(many.ntx, one.ntx);
			CHECK_EQ(many.moved, one.moved);
			CHECK(memcmp(many.assign, one.assign, c.points * sizeof(uint32_t)) == 0);
			CHECK(memcmp(many.tx, one.tx, one.ntx * sizeof(kmeans_entry)) == 0);
			commit_all(&one, words1, status);
			commit_all(&many, words2, status);
			s++;
			more1 = (int)kmeans_stage(&one, s, words1, status);
			more2 = (int)kmeans_stage(&many, s, words2, status);
			CHECK_EQ_I(more2, more1);
		} while (more1 && more2);
		CHECK(s >= 2); /* the pass went past its first iteration */
		CHECK(memcmp(words1, words2, sizeof(words1)) == 0);
		kmeans_free(&many);
	}
	free(status);
	kmeans_free(&one);
}

/* Runs of points: a transaction per cluster present in each run, adding that cluster's points of the run. */
TEST(kmeans_runs_of_points_add_by_cluster)
{
	kmeans_config c = small_config();
	kmeans_workload w;
	kmeans_check chk;
	char err[256];
	uint32_t words[12], *status, first, s = 0;
	uint64_t i = 0, counted = 0;

	c.points_per_tx = 7;
	REQUIRE(kmeans_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.run, 7u);
	CHECK_EQ(w.capacity, 72u * 4); /* 72 runs (the last of 3 points), at most 4 clusters each */
	CHECK(w.ntx >= 72 && w.ntx <= w.capacity);
	for (first = 0; first < c.points; first += 7) {
		uint32_t end = first + 7 < c.points ? first + 7 : c.points, k, last = 0;
		int any = 0;
		for (k = 0; k < c.clusters; k++) {
			uint64_t n = 0, sx = 0, sy = 0, p;
			for (p = first; p < end; p++)
				if (w.assign[p] == k) {
					n++;
					sx += w.x[p];
					sy += w.y[p];
				}
			if (!n)
				continue;
			REQUIRE(i < w.ntx);
			CHECK(!any || w.tx[i].base > last); /* clusters in order within a run */
			CHECK_EQ(w.tx[i].base, 3u * k);
			CHECK_EQ(KMEANS_COUNT(w.tx[i].meta), n);
			CHECK_EQ(w.tx[i].x, sx);
			CHECK_EQ(w.tx[i].y, sy);
			counted += KMEANS_COUNT(w.tx[i].meta);
			last = w.tx[i].base;
			any = 1;
			i++;
		}
	}
	CHECK_EQ(i, w.ntx);
	CHECK_EQ(counted, c.points);
	CHECK_EQ(kmeans_input_of(&w).tx_per_thread, (uint32_t)((w.ntx + 15) / 16));

	/* a serial engine over the runs reaches the same serial k-means */
	status = calloc(w.capacity, sizeof(uint32_t));
	kmeans_initial(&w, words);
	kmeans_stage(&w, 0, words, NULL);
	do {
		uint32_t state[12];
		memcpy(state, words, sizeof(words));
		memset(status, 0, w.capacity * sizeof(uint32_t));
		commit_all(&w, words, status);
		kmeans_verify_batch(&w, state, status, words, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK(w.ntx <= w.capacity);
	} while (kmeans_stage(&w, ++s, words, status));
	kmeans_verify_pass(&w, NULL, words, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	free(status);
	kmeans_free(&w);

	/* 0: a thread's share of the points */
	c.points_per_tx = 0;
	REQUIRE(kmeans_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.run, 32u); /* ceil(500 / 16) */
	kmeans_free(&w);
}

TEST(kmeans_nearest_and_centroids)
{
	uint32_t cx[3] = {0, 10, 10}, cy[3] = {0, 0, 10}, words[9] = {4, 10, 6, 0, 0, 0, 3, 4, 5};

	CHECK_EQ(kmeans_nearest(cx, cy, 3, 1, 1), 0u);
	CHECK_EQ(kmeans_nearest(cx, cy, 3, 9, 2), 1u);
	CHECK_EQ(kmeans_nearest(cx, cy, 3, 5, 0), 0u); /* a tie goes to the lower cluster */
	kmeans_centroids(words, 3, cx, cy);
	CHECK_EQ(cx[0], 3u); /* 10 / 4 = 2.5 rounds to 3 */
	CHECK_EQ(cy[0], 2u); /* 6 / 4 = 1.5 rounds to 2 */
	CHECK_EQ(cx[1], 10u); /* empty: unchanged */
	CHECK_EQ(cy[1], 0u);
	CHECK_EQ(cx[2], 1u);
	CHECK_EQ(cy[2], 2u);
}

/* Stages: a serial engine reaches the serial k-means; given-up entries run again, alone. */
TEST(kmeans_stages_rerun_what_was_given_up)
{
	kmeans_config c = small_config();
	kmeans_workload w;
	kmeans_check chk;
	char err[256];
	uint32_t words[12], state[12], *status, s = 0;
	uint64_t i;

	REQUIRE(kmeans_generate(&w, &c, err, sizeof(err)) == 0);
	status = calloc(c.points, sizeof(uint32_t));
	kmeans_initial(&w, words);
	CHECK_EQ(kmeans_stage(&w, 0, words, NULL), 1u);
	/* stage 0: leave every third entry uncommitted */
	memset(state, 0, sizeof(state));
	for (i = 0; i < w.ntx; i++) {
		if (i % 3 == 0) {
			status[i] = 0;
			continue;
		}
		words[w.tx[i].base] += KMEANS_COUNT(w.tx[i].meta);
		words[w.tx[i].base + 1] += w.tx[i].x;
		words[w.tx[i].base + 2] += w.tx[i].y;
		status[i] = (uint32_t)(i - i / 3); /* stamps 1..: a permutation of the committed */
	}
	kmeans_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.abandoned, 167u);
	CHECK_EQ(chk.points_counted, 333u);
	CHECK_EQ(kmeans_stage(&w, ++s, words, status), 1u);
	CHECK_EQ(w.ntx, 167u); /* just the given-up entries, from the sums as they are */
	CHECK_EQ(w.reruns, 1u);
	CHECK_EQ(w.iteration, 0u);
	CHECK_EQ(w.tx[1].x, w.x[3]);
	/* the report names the first iteration's table, not the rerun's few in progress */
	CHECK_EQ(w.first_tx, 500u);
	{
		cJSON *cfg = cJSON_CreateObject(), *k;
		stm_workload_kmeans.config(&w, cfg);
		k = cJSON_GetObjectItem(cfg, "kmeans");
		CHECK_EQ(strtoull(cJSON_GetObjectItem(k, "transactions_first_iteration")->valuestring, NULL, 10), 500u);
		CHECK_EQ(strtoull(cJSON_GetObjectItem(k, "tx_per_thread")->valuestring, NULL, 10), 32u); /* ceil(500 / 16) */
		cJSON_Delete(cfg);
	}
	for (;;) {
		memset(status, 0, c.points * sizeof(uint32_t));
		commit_all(&w, words, status);
		if (!kmeans_stage(&w, ++s, words, status))
			break;
	}
	CHECK_EQ(w.iteration + 1, w.ref_iterations);
	kmeans_verify_pass(&w, NULL, words, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s", chk.message);
	CHECK_EQ(chk.points_counted, c.points);
	CHECK(chk.sse > 0);

	/* a stage in which nothing committed ends the pass, and the pass is refused */
	kmeans_initial(&w, words);
	kmeans_stage(&w, 0, words, NULL);
	memset(status, 0, c.points * sizeof(uint32_t));
	CHECK_EQ(kmeans_stage(&w, 1, words, status), 0u);
	kmeans_verify_pass(&w, NULL, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "none of its 500 transactions committed");
	free(status);
	kmeans_free(&w);
}

TEST(kmeans_oracle_names_what_is_wrong)
{
	kmeans_config c = small_config();
	kmeans_workload w;
	kmeans_check chk;
	char err[256];
	uint32_t words[12], state[12], *status, t;

	REQUIRE(kmeans_generate(&w, &c, err, sizeof(err)) == 0);
	status = calloc(c.points, sizeof(uint32_t));
	kmeans_initial(&w, words);
	commit_all(&w, words, status);

	/* a lost update: one cluster's sum of x off by one */
	words[4]++;
	memset(state, 0, sizeof(state));
	kmeans_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "cluster 1's sum of x (data word 4) is");
	words[4]--;

	/* two transactions with one stamp */
	t = status[7];
	status[7] = status[8];
	memset(state, 0, sizeof(state));
	kmeans_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "commit stamps");
	status[7] = t;

	/* a read-only commit */
	t = status[9];
	status[9] = TX_STATUS_READONLY;
	memset(state, 0, sizeof(state));
	kmeans_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "committed read-only");
	status[9] = t;

	memset(state, 0, sizeof(state));
	kmeans_verify_batch(&w, state, status, words, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.committed_update, 500u);

	/* the pass: a point counted in the wrong cluster agrees with no serial k-means */
	while (kmeans_stage(&w, 1, words, status)) {
		memset(status, 0, c.points * sizeof(uint32_t));
		commit_all(&w, words, status);
	}
	kmeans_verify_pass(&w, NULL, words, &chk);
	CHECK_EQ_I(chk.ok, 1);
	words[0]--;
	words[3]++;
	kmeans_verify_pass(&w, NULL, words, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "cluster 0's count is");
	free(status);
	kmeans_free(&w);
}

/* Both engines' CPU backends, a whole pass at high contention: two clusters, 600 threads on 32 workers. */
static void run_hot(const stm_ops *ops, uint32_t retry_limit, const char *per_tx, const char *label)
{
	const char *const opts[] = {"points=6000", "clusters=2", "iterations=4", per_tx, NULL};
	stm_table_cfg tc = {.threads = 600, .seed = 11};
	char retry[32];
	const char *const engine_opts[] = {"max-passes=1000000000", "stall-timeout=10", retry, NULL};
	stm_params p;
	staged_result res;

	memset(&p, 0, sizeof(p));
	p.threads = tc.threads;
	p.hash = 1;
	p.cpu_workers = 32;
	snprintf(retry, sizeof(retry), "retry-limit=%u", retry_limit);
	tu_engine_params(&p, tu_engine_of(ops), engine_opts);
	REQUIRE(staged_run(&stm_workload_kmeans, opts, &tc, ops, &p, &res) == 0);
	if (!res.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", label, res.message);
	CHECK(res.stages >= 1);
	CHECK_EQ(res.commits_readonly, 0u);
	CHECK_EQ(res.abandoned, res.retry_limit_reached); /* prstm: 0 and 0 */
	/* every iteration adds every point once, reruns included: one transaction per point ... */
	if (strcmp(per_tx, "points-per-tx=1") == 0)
		CHECK_EQ(res.commits_update, 6000u * (uint64_t)res.pass.facts[2].value);
	else /* ... or one per cluster in each thread's 10 points */
		CHECK(res.commits_update <= 2 * 600u * (uint64_t)res.pass.facts[2].value);
	CHECK_EQ((uint64_t)res.pass.facts[0].value, 6000u);
}

TEST(kmeans_cpu_backends_at_high_contention)
{
	run_hot(&prstm_kmeans_cpu_ops, 0, "points-per-tx=1", "prstm, a point per transaction");
	run_hot(&prstm_kmeans_cpu_ops, 0, "points-per-tx=0", "prstm, a thread's points by cluster");
	run_hot(&gpustm_kmeans_cpu_ops, 100, "points-per-tx=1", "gpustm");
	run_hot(&gpustm_kmeans_cpu_ops, 100, "points-per-tx=0", "gpustm, a thread's points by cluster");
	/* a retry limit of 1 gives many transactions up: the stages after run them again */
	run_hot(&gpustm_kmeans_cpu_ops, 1, "points-per-tx=1", "gpustm, retry limit 1");
}
