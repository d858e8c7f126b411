/* Kmeans generation, its stages and the oracle: replay per batch, a serial k-means per pass (see kmeans.h). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpus.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/stm/kmeans.h"
#include "workloads/stm/stm_order.h"

uint32_t kmeans_nearest(const uint32_t *cx, const uint32_t *cy, uint32_t k, uint32_t x, uint32_t y)
{
	uint64_t best = UINT64_MAX;
	uint32_t c, at = 0;

	for (c = 0; c < k; c++) {
		int64_t dx = (int64_t)x - cx[c], dy = (int64_t)y - cy[c];
		uint64_t d = (uint64_t)(dx * dx + dy * dy);
		if (d < best) {
			best = d;
			at = c;
		}
	}
	return at;
}

void kmeans_centroids(const uint32_t *words, uint32_t k, uint32_t *cx, uint32_t *cy)
{
	uint32_t c;
	for (c = 0; c < k; c++) {
		uint64_t n = words[KMEANS_WORDS_PER_CLUSTER * c];
		if (n == 0)
			continue;
		cx[c] = (uint32_t)((words[KMEANS_WORDS_PER_CLUSTER * c + 1] + n / 2) / n);
		cy[c] = (uint32_t)((words[KMEANS_WORDS_PER_CLUSTER * c + 2] + n / 2) / n);
	}
}

/* One host thread's share of an assignment stage: points [lo, hi). */
typedef struct assign_part {
	const kmeans_workload *w;
	const uint32_t *cx, *cy;
	uint32_t *assign;
	int first;
	uint32_t lo, hi;
	uint64_t moved;
	pthread_t tid;
	int started; /* on a thread of its own (tid), else run by the caller */
} assign_part;

static void *assign_range(void *arg)
{
	assign_part *a = arg;
	uint32_t i;
	for (i = a->lo; i < a->hi && ((i & 0x3FF) || !gb_stop_requested()); i++) {
		uint32_t c = kmeans_nearest(a->cx, a->cy, a->w->cfg.clusters, a->w->x[i], a->w->y[i]);
		a->moved += a->first || c != a->assign[i];
		a->assign[i] = c;
	}
	return NULL;
}

/* Host threads for an assignment stage: cfg.host_threads, or (0) one per 4M distances up to the
 * usable CPUs and KMEANS_MAX_HOST_THREADS (the paper's million points in 16 clusters: 4), so a
 * small stage does not pay for threads it cannot use. */
static uint32_t assign_threads(const kmeans_workload *w)
{
	uint64_t work = (uint64_t)w->cfg.points * w->cfg.clusters, n;
	if (w->cfg.host_threads)
		n = w->cfg.host_threads;
	else {
		int cpus = gb_cpu_count();
		n = work >> 22;
		if (n > (uint64_t)cpus)
			n = (uint64_t)cpus;
		if (n > KMEANS_MAX_HOST_THREADS)
			n = KMEANS_MAX_HOST_THREADS;
	}
	if (n > w->cfg.points)
		n = w->cfg.points;
	return n ? (uint32_t)n : 1;
}

/*
 * The assignment stage: every point to its nearest centroid; returns how many
 * changed cluster. O(points x clusters), spread over host threads in ranges
 * of points (each point's cluster is the same on any number: kmeans_nearest
 * alone decides it). It stops early when the run must (common/stop.h), and
 * its caller, seeing the stop too, uses nothing of it.
 */
static uint64_t assign_all(const kmeans_workload *w, const uint32_t *cx, const uint32_t *cy, uint32_t *assign,
			   int first)
{
	uint32_t n = assign_threads(w), t, per = (w->cfg.points + n - 1) / n;
	assign_part *parts = gb_xcalloc(n, sizeof(*parts), "assignment threads");
	uint64_t moved = 0;

	for (t = 0; t < n; t++) {
		assign_part *a = &parts[t];
		uint64_t lo = (uint64_t)t * per;
		a->w = w;
		a->cx = cx;
		a->cy = cy;
		a->assign = assign;
		a->first = first;
		a->lo = (uint32_t)(lo < w->cfg.points ? lo : w->cfg.points);
		a->hi = (uint32_t)(lo + per < w->cfg.points ? lo + per : w->cfg.points);
		/* the first share is the caller's; a thread that cannot start leaves its share to the caller too */
		a->started = t > 0 && pthread_create(&a->tid, NULL, assign_range, a) == 0;
	}
	for (t = 0; t < n; t++)
		if (!parts[t].started)
			assign_range(&parts[t]);
	for (t = 0; t < n; t++) {
		if (parts[t].started)
			pthread_join(parts[t].tid, NULL);
		moved += parts[t].moved;
	}
	free(parts);
	return moved;
}

/* An update stage over every point, as assigned: per run of points, a transaction per cluster in it. */
static void table_of_all(kmeans_workload *w)
{
	uint32_t first, i, c, k = w->cfg.clusters;
	uint64_t n = 0, *acc = w->acc;

	for (first = 0; first < w->cfg.points; first += w->run) {
		uint32_t end = w->cfg.points - first < w->run ? w->cfg.points : first + w->run;
		for (i = first; i < end; i++) {
			uint64_t *a = acc + 3 * (uint64_t)w->assign[i];
			a[0]++;
			a[1] += w->x[i];
			a[2] += w->y[i];
		}
		for (c = 0; c < k; c++) {
			uint64_t *a = acc + 3 * (uint64_t)c;
			if (!a[0])
				continue;
			w->tx[n].meta = KMEANS_META((uint32_t)a[0]);
			w->tx[n].base = KMEANS_WORDS_PER_CLUSTER * c;
			w->tx[n].x = (uint32_t)a[1];
			w->tx[n].y = (uint32_t)a[2];
			n++;
			a[0] = a[1] = a[2] = 0;
		}
	}
	w->ntx = n;
	w->iteration_tx = n;
}

/*
 * The serial k-means the pass must match: the same rules (nearest centroid,
 * rounded means, at most --iterations, stop when an assignment moves nothing),
 * its sums added in a plain loop.
 */
static void serial_kmeans(kmeans_workload *w)
{
	uint32_t k = w->cfg.clusters, *cx, *cy, *assign, it = 0, i;
	uint64_t moved;

	cx = gb_xmalloc((size_t)k * sizeof(uint32_t), "reference centroids");
	cy = gb_xmalloc((size_t)k * sizeof(uint32_t), "reference centroids");
	assign = gb_xmalloc((size_t)w->cfg.points * sizeof(uint32_t), "reference assignment");
	memcpy(cx, w->init_cx, (size_t)k * sizeof(uint32_t));
	memcpy(cy, w->init_cy, (size_t)k * sizeof(uint32_t));
	moved = assign_all(w, cx, cy, assign, 1);
	for (;;) {
		memset(w->ref_sums, 0, (size_t)w->words * sizeof(uint32_t));
		for (i = 0; i < w->cfg.points; i++) {
			uint32_t *s = w->ref_sums + KMEANS_WORDS_PER_CLUSTER * assign[i];
			s[0]++;
			s[1] += w->x[i];
			s[2] += w->y[i];
		}
		if (it + 1 >= w->cfg.iterations)
			break;
		kmeans_centroids(w->ref_sums, k, cx, cy);
		moved = assign_all(w, cx, cy, assign, 0);
		if (moved == 0 || gb_stop_requested())
			break;
		it++;
	}
	w->ref_iterations = it + 1;
	w->ref_moved = moved;
	free(cx);
	free(cy);
	free(assign);
}

int kmeans_generate(kmeans_workload *w, const kmeans_config *cfg, char *err, size_t errlen)
{
	uint32_t n = cfg->points, k = cfg->clusters, i, c;
	unsigned char *taken;
	gb_rng r;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	if (n < 1 || n > KMEANS_MAX_POINTS) {
		snprintf(err, errlen, "--points %u: kmeans takes 1..%u points, so that a cluster's sum of "
			 "coordinates below %u fits a 32-bit data word", n, KMEANS_MAX_POINTS, KMEANS_COORD_RANGE);
		return -1;
	}
	if (k < 1 || k > n) {
		snprintf(err, errlen, "--clusters %u exceeds --points %u: the initial centroids are %u distinct "
			 "points drawn at random", k, n, k);
		return -1;
	}
	if (cfg->iterations < 1 || cfg->threads < 1) {
		snprintf(err, errlen, "kmeans needs at least one iteration and one thread");
		return -1;
	}
	w->words = KMEANS_WORDS_PER_CLUSTER * k;
	w->x = gb_xmalloc((size_t)n * sizeof(uint32_t), "kmeans points");
	w->y = gb_xmalloc((size_t)n * sizeof(uint32_t), "kmeans points");
	w->init_cx = gb_xmalloc((size_t)k * sizeof(uint32_t), "initial centroids");
	w->init_cy = gb_xmalloc((size_t)k * sizeof(uint32_t), "initial centroids");
	w->cx = gb_xmalloc((size_t)k * sizeof(uint32_t), "centroids");
	w->cy = gb_xmalloc((size_t)k * sizeof(uint32_t), "centroids");
	w->ref_sums = gb_xcalloc(w->words, sizeof(uint32_t), "reference sums");
	w->assign = gb_xcalloc(n, sizeof(uint32_t), "assignment");
	w->run = cfg->points_per_tx ? cfg->points_per_tx : (n + cfg->threads - 1) / cfg->threads;
	if (w->run > n)
		w->run = n;
	w->capacity = (uint64_t)((n + w->run - 1) / w->run) * (w->run < k ? w->run : k);
	if (w->capacity > n)
		w->capacity = n;
	w->tx = gb_xcalloc((size_t)w->capacity, sizeof(kmeans_entry), "transaction table");
	w->acc = gb_xcalloc((size_t)3 * k, sizeof(uint64_t), "cluster sums of a run");
	gb_rng_init(&r, cfg->seed, 0);
	for (i = 0; i < n; i++) {
		w->x[i] = (uint32_t)gb_rng_below(&r, KMEANS_COORD_RANGE);
		w->y[i] = (uint32_t)gb_rng_below(&r, KMEANS_COORD_RANGE);
	}
	/* "the initial clusters are selected randomly": k distinct points */
	taken = gb_xcalloc(n, 1, "initial centroid draw");
	for (c = 0; c < k; c++) {
		uint32_t p;
		do
			p = (uint32_t)gb_rng_below(&r, n);
		while (taken[p]);
		taken[p] = 1;
		w->init_cx[c] = w->x[p];
		w->init_cy[c] = w->y[p];
	}
	free(taken);
	serial_kmeans(w);
	if (gb_stop_check(err, errlen) != 0) { /* the serial k-means, the oracle, did not finish */
		kmeans_free(w);
		return -1;
	}
	kmeans_stage(w, 0, NULL, NULL);
	w->first_tx = w->ntx;
	return 0;
}

void kmeans_free(kmeans_workload *w)
{
	free(w->x);
	free(w->y);
	free(w->init_cx);
	free(w->init_cy);
	free(w->cx);
	free(w->cy);
	free(w->ref_sums);
	free(w->assign);
	free(w->tx);
	free(w->acc);
	memset(w, 0, sizeof(*w));
}

uint32_t kmeans_tx_per_thread(const kmeans_workload *w, uint64_t ntx)
{
	uint32_t per = (uint32_t)((ntx + w->cfg.threads - 1) / w->cfg.threads);
	return per ? per : 1;
}

tx_input kmeans_input_of(const kmeans_workload *w)
{
	tx_input in;
	in.words = w->words;
	in.max_words = KMEANS_WORDS_PER_CLUSTER;
	in.ntx = w->ntx;
	in.tx_per_thread = kmeans_tx_per_thread(w, w->ntx);
	in.max_tag = 0;
	in.entries = w->tx;
	in.entry_size = sizeof(kmeans_entry);
	in.aux = NULL;
	in.aux_stride = 0;
	return in;
}

void kmeans_initial(const kmeans_workload *w, uint32_t *words)
{
	memset(words, 0, (size_t)w->words * sizeof(uint32_t));
}

uint32_t kmeans_stage(kmeans_workload *w, uint32_t s, uint32_t *words, const uint32_t *status)
{
	uint64_t i, pending = 0;

	if (s == 0) {
		memcpy(w->cx, w->init_cx, (size_t)w->cfg.clusters * sizeof(uint32_t));
		memcpy(w->cy, w->init_cy, (size_t)w->cfg.clusters * sizeof(uint32_t));
		w->iteration = 0;
		w->reruns = 0;
		w->stalled = 0;
		w->moved = assign_all(w, w->cx, w->cy, w->assign, 1);
		table_of_all(w);
		return 1;
	}
	/* Entries the stage left uncommitted run again before the iteration ends. */
	for (i = 0; i < w->ntx; i++)
		if (status[i] == TX_STATUS_PENDING)
			w->tx[pending++] = w->tx[i];
	if (pending) {
		w->stalled = pending == w->ntx; /* nothing committed: nothing would next time either */
		w->ntx = pending;
		if (w->stalled)
			return 0;
		w->reruns++;
		return 1;
	}
	if (w->iteration + 1 >= w->cfg.iterations)
		return 0;
	kmeans_centroids(words, w->cfg.clusters, w->cx, w->cy);
	w->moved = assign_all(w, w->cx, w->cy, w->assign, 0);
	if (w->moved == 0)
		return 0; /* converged: the sums would repeat */
	w->iteration++;
	kmeans_initial(w, words);
	table_of_all(w);
	return 1;
}

void kmeans_verify_batch(const kmeans_workload *w, uint32_t *state, const uint32_t *status,
			 const uint32_t *after, kmeans_check *out)
{
	stm_order o;
	uint64_t *order, i, nupd;
	uint32_t c;

	memset(out, 0, sizeof(*out));
	out->ok = stm_order_of(&o, status, w->ntx, NULL, NULL);
	out->abandoned = o.pending;
	out->committed_readonly = o.readonly;
	out->committed_update = nupd = o.updates;
	order = o.entry;
	/* the first offence in entry order: a read-only commit, or a stamp out of place */
	for (i = 0; i < (out->ok ? w->ntx : o.bad); i++)
		if (status[i] == TX_STATUS_READONLY) {
			snprintf(out->message, sizeof(out->message),
				 "entry %" PRIu64 " committed read-only, but every kmeans transaction adds its point", i);
			out->ok = 0;
			break;
		}
	if (!out->ok && !out->message[0])
		snprintf(out->message, sizeof(out->message),
			 "commit stamps are not a permutation of the committed transactions: entry %" PRIu64
			 " has status %u", o.bad, status[o.bad]);
	for (i = 0; i < nupd && out->ok; i++) {
		const kmeans_entry *e = &w->tx[order[i]];
		if (e->base + 2 >= w->words) {
			snprintf(out->message, sizeof(out->message), "entry %" PRIu64 " adds to word %u, past the "
				 "%u clusters' words", order[i], e->base, w->cfg.clusters);
			out->ok = 0;
			break;
		}
		state[e->base] += KMEANS_COUNT(e->meta);
		state[e->base + 1] += e->x;
		state[e->base + 2] += e->y;
	}
	for (i = 0; i < w->words && out->ok; i++)
		if (state[i] != after[i]) {
			static const char *const what[KMEANS_WORDS_PER_CLUSTER] = {"count", "sum of x", "sum of y"};
			snprintf(out->message, sizeof(out->message),
				 "cluster %" PRIu64 "'s %s (data word %" PRIu64 ") is %u on the device, %u in the "
				 "serial replay of the committed transactions", i / KMEANS_WORDS_PER_CLUSTER,
				 what[i % KMEANS_WORDS_PER_CLUSTER], i, after[i], state[i]);
			out->ok = 0;
		}
	for (c = 0; c < w->cfg.clusters; c++) {
		out->points_counted += after[KMEANS_WORDS_PER_CLUSTER * c];
		out->clusters_nonempty += after[KMEANS_WORDS_PER_CLUSTER * c] != 0;
	}
	free(order);
}

void kmeans_verify_pass(const kmeans_workload *w, const uint32_t *start, const uint32_t *outcome,
			kmeans_check *out)
{
	uint32_t k = w->cfg.clusters, i, c, *cx, *cy;

	(void)start; /* every pass starts from zeroed sums */
	memset(out, 0, sizeof(*out));
	out->ok = 1;
	for (c = 0; c < k; c++) {
		out->points_counted += outcome[KMEANS_WORDS_PER_CLUSTER * c];
		out->clusters_nonempty += outcome[KMEANS_WORDS_PER_CLUSTER * c] != 0;
	}
	if (w->stalled) {
		snprintf(out->message, sizeof(out->message),
			 "the pass ended in iteration %u after a stage in which none of its %" PRIu64
			 " transactions committed", w->iteration + 1, w->ntx);
		out->ok = 0;
		return;
	}
	if (w->iteration + 1 != w->ref_iterations) {
		snprintf(out->message, sizeof(out->message), "the pass ran %u iterations, the serial k-means %u",
			 w->iteration + 1, w->ref_iterations);
		out->ok = 0;
		return;
	}
	for (i = 0; i < w->words; i++)
		if (outcome[i] != w->ref_sums[i]) {
			static const char *const what[KMEANS_WORDS_PER_CLUSTER] = {"count", "sum of x", "sum of y"};
			snprintf(out->message, sizeof(out->message),
				 "after %u iterations cluster %u's %s is %u, %u in the serial k-means", w->ref_iterations,
				 i / KMEANS_WORDS_PER_CLUSTER, what[i % KMEANS_WORDS_PER_CLUSTER], outcome[i],
				 w->ref_sums[i]);
			out->ok = 0;
			return;
		}
	/* The objective: squared distances of the points to their clusters' final centroids. */
	cx = gb_xmalloc((size_t)k * sizeof(uint32_t), "final centroids");
	cy = gb_xmalloc((size_t)k * sizeof(uint32_t), "final centroids");
	memcpy(cx, w->cx, (size_t)k * sizeof(uint32_t));
	memcpy(cy, w->cy, (size_t)k * sizeof(uint32_t));
	kmeans_centroids(outcome, k, cx, cy);
	for (i = 0; i < w->cfg.points; i++) {
		double dx = (double)w->x[i] - cx[w->assign[i]], dy = (double)w->y[i] - cy[w->assign[i]];
		out->sse += dx * dx + dy * dy;
	}
	free(cx);
	free(cy);
}
