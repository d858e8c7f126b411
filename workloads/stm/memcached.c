/* The memcached workload's generator and oracle (workloads/stm/memcached.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/stm/memcached.h"
#include "workloads/stm/stm_order.h"

uint32_t memcached_set_of(uint32_t k, uint32_t sets)
{
	uint64_t h = ((uint64_t)k + 1u) * 0x9E3779B97F4A7C15ull;
	h ^= h >> 29;
	return (uint32_t)((h >> 16) % sets);
}

void memcached_zipf_init(memcached_zipf *z, uint32_t n, double alpha)
{
	double sum = 0;
	uint32_t k;

	z->n = n;
	z->cdf = gb_xmalloc((size_t)n * sizeof(double), "zipf distribution");
	for (k = 0; k < n; k++) {
		sum += 1.0 / pow((double)k + 1.0, alpha);
		z->cdf[k] = sum;
	}
	for (k = 0; k < n; k++)
		z->cdf[k] /= sum;
	z->cdf[n - 1] = 1.0;
}

uint32_t memcached_zipf_draw(const memcached_zipf *z, double u)
{
	uint32_t lo = 0, hi = z->n - 1;
	while (lo < hi) { /* the first k with cdf[k] > u */
		uint32_t mid = lo + (hi - lo) / 2;
		if (z->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void memcached_zipf_free(memcached_zipf *z)
{
	free(z->cdf);
	z->cdf = NULL;
}

/* Word offsets within a set: word l of way j's key and value, way j's stamp. */
static uint32_t key_at(const memcached_workload *w, uint32_t j, uint32_t l)
{
	return 1u + j * w->cfg.key_words + l;
}
static uint32_t value_at(const memcached_workload *w, uint32_t j, uint32_t l)
{
	return 1u + w->cfg.ways * w->cfg.key_words + j * w->cfg.value_words + l;
}
static uint32_t stamp_at(const memcached_workload *w, uint32_t j)
{
	return 1u + w->cfg.ways * (w->cfg.key_words + w->cfg.value_words) + j;
}

/*
 * The oracle's SET of the key whose first word is `key` with the value whose
 * first word is `value` on set words `s`: the way holding the key, else the
 * empty way of lowest index, else the way of the smallest stamp. Returns 1
 * when it evicted a key.
 */
static int replay_set(const memcached_workload *w, uint32_t *s, uint32_t key, uint32_t value)
{
	uint32_t W = w->cfg.ways, j, l, way = W, clock = s[0] + 1u;
	int evicted;

	for (j = 0; j < W && way == W; j++)
		if (s[key_at(w, j, 0)] == key)
			way = j;
	for (j = 0; j < W && way == W; j++)
		if (s[key_at(w, j, 0)] == 0)
			way = j;
	if (way == W) {
		way = 0;
		for (j = 1; j < W; j++)
			if (s[stamp_at(w, j)] < s[stamp_at(w, way)])
				way = j;
	}
	evicted = s[key_at(w, way, 0)] != 0 && s[key_at(w, way, 0)] != key;
	for (l = 0; l < w->cfg.key_words; l++)
		s[key_at(w, way, l)] = memcached_key_word(key, l);
	for (l = 0; l < w->cfg.value_words; l++)
		s[value_at(w, way, l)] = memcached_value_word(value, l);
	s[stamp_at(w, way)] = clock;
	s[0] = clock;
	return evicted;
}

/* What a GET of the key whose first word is `key` gives on set words `s`: the value's digest, 0 for a miss. */
static uint32_t replay_get(const memcached_workload *w, const uint32_t *s, uint32_t key)
{
	uint32_t j, l, h = 0;
	for (j = 0; j < w->cfg.ways; j++)
		if (s[key_at(w, j, 0)] == key) {
			for (l = 0; l < w->cfg.value_words; l++)
				h = memcached_digest_step(h, l, s[value_at(w, j, l)]);
			return memcached_digest_end(h);
		}
	return 0;
}

int memcached_generate(memcached_workload *w, const memcached_config *cfg, char *err, size_t errlen)
{
	memcached_zipf z;
	uint8_t *seen;
	uint64_t i;
	uint32_t k;
	gb_rng r;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	if (cfg->items < cfg->ways) {
		snprintf(err, errlen, "--items %u is fewer than one set of --ways %u", cfg->items, cfg->ways);
		return -1;
	}
	if (cfg->key_words < 1 || cfg->key_words > MEMCACHED_MAX_KEY_WORDS || cfg->value_words < 1 ||
	    cfg->value_words > MEMCACHED_MAX_VALUE_WORDS) {
		snprintf(err, errlen, "--key-words %u --value-words %u: keys take 1..%u words, values 1..%u",
			 cfg->key_words, cfg->value_words, MEMCACHED_MAX_KEY_WORDS, MEMCACHED_MAX_VALUE_WORDS);
		return -1;
	}
	w->sets = cfg->items / cfg->ways;
	w->stride = MEMCACHED_STRIDE(cfg->ways, cfg->key_words, cfg->value_words);
	if ((uint64_t)w->sets * w->stride > UINT32_MAX / 2) {
		snprintf(err, errlen, "--items %u of --ways %u with --key-words %u --value-words %u take more than %u "
			 "data words", cfg->items, cfg->ways, cfg->key_words, cfg->value_words, UINT32_MAX / 2);
		return -1;
	}
	w->words = w->sets * w->stride;
	w->ntx = (uint64_t)cfg->threads * cfg->tx_per_thread;
	w->tx = gb_xcalloc(w->ntx ? w->ntx : 1, sizeof(memcached_entry), "transaction table");
	seen = gb_xcalloc(cfg->keys, 1, "keys asked for");
	memcached_zipf_init(&z, cfg->keys, cfg->zipf);
	gb_rng_init(&r, cfg->seed, 0);
	for (i = 0; i < w->ntx && ((i & 0xFFFF) || !gb_stop_requested()); i++) {
		memcached_entry *e = &w->tx[i];
		unsigned op = gb_rng_below(&r, 1000) < cfg->set_permille ? MEMCACHED_SET : MEMCACHED_GET;
		double u = (double)(gb_rng_next(&r) >> 11) * (1.0 / 9007199254740992.0);

		k = memcached_zipf_draw(&z, u);
		e->meta = MEMCACHED_META(op, cfg->ways, cfg->key_words, cfg->value_words);
		e->a = memcached_set_of(k, w->sets) * w->stride;
		e->b = k + 1u;
		e->c = op == MEMCACHED_SET ? (uint32_t)gb_rng_range(&r, 1, UINT32_MAX) : 0u;
		w->count[op]++;
		if (!seen[k]) {
			seen[k] = 1;
			w->distinct_keys++;
		}
	}
	memcached_zipf_free(&z);
	free(seen);
	if (gb_stop_check(err, errlen) != 0) { /* the table is not whole */
		memcached_free(w);
		return -1;
	}
	/* The initial cache: keys by increasing id into their sets while a way is free. */
	w->start = gb_xcalloc(w->words, sizeof(uint32_t), "initial cache");
	for (k = 0; k < cfg->keys; k++) {
		uint32_t *s = w->start + (size_t)memcached_set_of(k, w->sets) * w->stride;
		if (s[0] < cfg->ways)
			replay_set(w, s, k + 1u, (k + 1u) * 2654435761u | 1u);
	}
	return 0;
}

void memcached_free(memcached_workload *w)
{
	free(w->tx);
	free(w->start);
	w->tx = NULL;
	w->start = NULL;
}

tx_input memcached_input_of(const memcached_workload *w)
{
	tx_input in;
	in.words = w->words;
	uint32_t get = w->cfg.ways * w->cfg.key_words + w->cfg.value_words,
		 set = MEMCACHED_SET_WORDS(w->cfg.key_words, w->cfg.value_words);

	in.max_words = w->count[MEMCACHED_GET] ? get : set;
	if (in.max_words < set && w->count[MEMCACHED_SET])
		in.max_words = set;
	in.ntx = w->ntx;
	in.tx_per_thread = w->cfg.tx_per_thread;
	in.max_tag = 0;
	in.entries = w->tx;
	in.entry_size = sizeof(memcached_entry);
	in.aux = NULL;
	in.aux_stride = 0;
	return in;
}

void memcached_initial(const memcached_workload *w, uint32_t *words)
{
	memcpy(words, w->start, (size_t)w->words * sizeof(uint32_t));
}

static int only_sets_stamp(const void *ctx, uint64_t i)
{
	const memcached_workload *w = ctx;
	return MEMCACHED_OP(w->tx[i].meta) == MEMCACHED_SET;
}

/* Set s of `after` as a cache: 1, or 0 with the offence in msg. */
static int consistent_set(const memcached_workload *w, uint32_t s, const uint32_t *set, uint64_t *items, char *msg,
			  size_t len)
{
	uint32_t W = w->cfg.ways, KW = w->cfg.key_words, VW = w->cfg.value_words, j, l, clock = set[0];

	for (j = 0; j < W; j++) {
		uint32_t key = set[key_at(w, j, 0)], value = set[value_at(w, j, 0)], stamp = set[stamp_at(w, j)];
		if (key == 0) {
			for (l = 0; l < KW; l++)
				if (set[key_at(w, j, l)] != 0)
					break;
			if (l < KW || stamp != 0) {
				snprintf(msg, len, "set %u way %u is empty but holds key word %u = %u, stamp %u", s, j,
					 l < KW ? l : 0, l < KW ? set[key_at(w, j, l)] : 0, stamp);
				return 0;
			}
			for (l = 0; l < VW; l++)
				if (set[value_at(w, j, l)] != 0) {
					snprintf(msg, len, "set %u way %u is empty but holds value word %u = %u", s, j, l,
						 set[value_at(w, j, l)]);
					return 0;
				}
			continue;
		}
		(*items)++;
		if (key > w->cfg.keys || memcached_set_of(key - 1u, w->sets) != s) {
			snprintf(msg, len, "set %u way %u holds key word %u, which is not a key of that set", s, j, key);
			return 0;
		}
		for (l = 1; l < KW; l++)
			if (set[key_at(w, j, l)] != memcached_key_word(key, l)) {
				snprintf(msg, len, "set %u way %u holds key %u with word %u = %u, not %u: a torn key", s, j,
					 key - 1u, l, set[key_at(w, j, l)], memcached_key_word(key, l));
				return 0;
			}
		if (value == 0 || stamp == 0 || stamp > clock) {
			snprintf(msg, len, "set %u way %u (key %u) has value %u and stamp %u with the set's clock at %u",
				 s, j, key - 1u, value, stamp, clock);
			return 0;
		}
		for (l = 1; l < VW; l++)
			if (set[value_at(w, j, l)] != memcached_value_word(value, l)) {
				snprintf(msg, len, "set %u way %u (key %u) has value word %u = %u, not %u: a torn value", s,
					 j, key - 1u, l, set[value_at(w, j, l)], memcached_value_word(value, l));
				return 0;
			}
		for (l = 0; l < j; l++) {
			if (set[key_at(w, l, 0)] == key) {
				snprintf(msg, len, "set %u holds key %u twice, in ways %u and %u", s, key - 1u, l, j);
				return 0;
			}
			if (set[key_at(w, l, 0)] != 0 && set[stamp_at(w, l)] == stamp) {
				snprintf(msg, len, "set %u ways %u and %u share LRU stamp %u: no strict LRU order", s, l,
					 j, stamp);
				return 0;
			}
		}
	}
	return 1;
}

void memcached_verify_batch(const memcached_workload *w, uint32_t *state, const uint32_t *status,
			    const uint32_t *after, memcached_check *out)
{
	stm_order o;
	uint64_t s, i;
	uint32_t set;

	memset(out, 0, sizeof(*out));
	out->ok = stm_order_of(&o, status, w->ntx, only_sets_stamp, w);
	out->committed_update = o.updates;
	out->committed_readonly = o.readonly;
	out->abandoned = o.pending;
	if (!out->ok) {
		snprintf(out->message, sizeof(out->message),
			 "entry %" PRIu64 " (%s) has status %u: the stamps of the SETs are not 1..%" PRIu64
			 " each once, or a GET took one",
			 o.bad, MEMCACHED_OP(w->tx[o.bad].meta) == MEMCACHED_SET ? "SET" : "GET", status[o.bad],
			 o.updates);
		stm_order_free(&o);
		return;
	}
	for (i = 0; i < w->ntx; i++)
		if (status[i] == TX_STATUS_READONLY && MEMCACHED_OP(w->tx[i].meta) == MEMCACHED_SET) {
			snprintf(out->message, sizeof(out->message),
				 "SET entry %" PRIu64 " committed read-only: its writes are lost", i);
			out->ok = 0;
			stm_order_free(&o);
			return;
		}
	for (s = 0; s < o.updates; s++) {
		const memcached_entry *e = &w->tx[o.entry[s]];
		out->evictions += (uint64_t)replay_set(w, state + e->a, e->b, e->c);
	}
	stm_order_free(&o);
	for (i = 0; i < w->words; i++)
		if (state[i] != after[i]) {
			uint32_t off = (uint32_t)(i % w->stride), W = w->cfg.ways, KW = w->cfg.key_words,
				 VW = w->cfg.value_words;
			snprintf(out->message, sizeof(out->message),
				 "set %" PRIu64 " word %u (%s) is %u, but the serial replay of the %" PRIu64
				 " committed SETs in commit order gives %u",
				 i / w->stride, off,
				 off == 0 ? "clock" : off <= W * KW ? "a key" : off <= W * (KW + VW) ? "a value" : "an LRU stamp",
				 after[i], out->committed_update, state[i]);
			out->ok = 0;
			return;
		}
	for (set = 0; set < w->sets; set++)
		if (!consistent_set(w, set, after + (size_t)set * w->stride, &out->items, out->message,
				    sizeof(out->message))) {
			out->ok = 0;
			return;
		}
}

static int by_snapshot(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

uint64_t memcached_verify_snapshots(const memcached_workload *w, const uint32_t *before, const uint32_t *status,
				    const uint32_t *results, uint64_t sample, memcached_check *out)
{
	uint64_t i, nro = 0, nupd = 0, every, k, s, picked = 0, checked = 0;
	uint64_t *order, *ro;
	uint32_t *state;

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	for (i = 0; i < w->ntx; i++) {
		if (status[i] == TX_STATUS_READONLY)
			nro++;
		else if (status[i] != TX_STATUS_PENDING)
			nupd++;
	}
	if (!nro)
		return 0;
	every = sample && nro > sample ? (nro + sample - 1) / sample : 1;
	order = gb_xmalloc((nupd ? nupd : 1) * sizeof(uint64_t), "replay order");
	ro = gb_xmalloc(2 * ((nro + every - 1) / every) * sizeof(uint64_t), "sampled GETs");
	for (i = 0, k = 0; i < w->ntx; i++) {
		uint32_t st = status[i];
		if (st != TX_STATUS_PENDING && st != TX_STATUS_READONLY && st - 1u < nupd)
			order[st - 1u] = i;
		if (st != TX_STATUS_READONLY)
			continue;
		if (k++ % every == 0) {
			ro[2 * picked] = results[(size_t)i * TX_RESULT_WORDS];
			ro[2 * picked + 1] = i;
			picked++;
		}
	}
	qsort(ro, picked, 2 * sizeof(uint64_t), by_snapshot);
	state = gb_xmalloc((size_t)w->words * sizeof(uint32_t), "replayed cache");
	memcpy(state, before, (size_t)w->words * sizeof(uint32_t));
	for (s = 0, k = 0; k < picked && out->ok; s++) {
		while (k < picked && ro[2 * k] == s) {
			uint64_t e = ro[2 * k + 1];
			const memcached_entry *x = &w->tx[e];
			uint32_t got = results[(size_t)e * TX_RESULT_WORDS + 1], want = replay_get(w, state + x->a, x->b);
			checked++;
			k++;
			if (got != want) {
				snprintf(out->message, sizeof(out->message),
					 "GET %" PRIu64 " of key %u with snapshot %" PRIu64 " found %u, but the serial "
					 "replay after %" PRIu64 " SETs has %u (0: a miss; else the value's digest): not a consistent snapshot",
					 e, x->b - 1u, s, got, s, want);
				out->ok = 0;
				break;
			}
		}
		if (k == picked || !out->ok)
			break;
		if (s >= nupd) {
			snprintf(out->message, sizeof(out->message),
				 "GET %" PRIu64 " has snapshot %" PRIu64 ", beyond the %" PRIu64 " SETs of the batch",
				 ro[2 * k + 1], ro[2 * k], nupd);
			out->ok = 0;
			break;
		}
		replay_set(w, state + w->tx[order[s]].a, w->tx[order[s]].b, w->tx[order[s]].c);
	}
	free(state);
	free(ro);
	free(order);
	return checked;
}
