/* Vacation table generation and the serial-replay oracle with STAMP's checks (see vacation.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"
#include "workloads/stm/stm_order.h"
#include "workloads/stm/vacation.h"

static const char *const op_names[VACATION_NOPS] = {"book", "cancel", "query", "reprice"};

const char *vacation_op_name(unsigned op)
{
	return op < VACATION_NOPS ? op_names[op] : "unknown";
}

static uint32_t room_word(const vacation_workload *w, uint32_t type)
{
	return type * w->cfg.interval;
}

/* Entry i: a booking or cancellation of a room of `type` by `customer`. */
static void set_step(vacation_workload *w, uint64_t i, unsigned op, uint32_t customer, uint32_t type)
{
	w->tx[i].meta = op;
	w->tx[i].a = w->customer_base + customer;
	w->tx[i].b = room_word(w, type);
	w->tx[i].c = type + 1;
	w->count[op]++;
}

static void set_query(vacation_workload *w, uint64_t i, gb_rng *r)
{
	uint32_t n = w->cfg.room_types;
	w->tx[i].meta = VACATION_QUERY;
	w->tx[i].a = room_word(w, (uint32_t)gb_rng_below(r, n));
	w->tx[i].b = room_word(w, (uint32_t)gb_rng_below(r, n));
	w->tx[i].c = room_word(w, (uint32_t)gb_rng_below(r, n));
	w->count[VACATION_QUERY]++;
}

/*
 * Entry i: a price change of room type t by +d (half 0 of a pair) or -d (half 1);
 * `cut` counts each type's decreases, which must stay within its base price.
 */
static void set_reprice(vacation_workload *w, uint64_t i, uint32_t type, uint32_t d, int half, uint64_t *cut)
{
	w->tx[i].meta = VACATION_REPRICE;
	w->tx[i].a = room_word(w, type) + 1;
	w->tx[i].b = room_word(w, type);
	w->tx[i].c = half ? (uint32_t)0 - d : d;
	if (half)
		cut[type] += d;
	w->count[VACATION_REPRICE]++;
}

/* A stop (common/stop.h) leaves it part done: the caller sees the stop too. */
static void shuffle(gb_rng *r, vacation_entry *a, uint64_t n)
{
	uint64_t i;
	for (i = n; i > 1 && !GB_STOP_EVERY(i); i--) {
		uint64_t j = gb_rng_below(r, i);
		vacation_entry t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

/*
 * Thread b's block, presorted: customer b's pairs in pair order, price changes
 * and queries at random places between (each kind's positions are a uniform
 * sample of the block, taken in order).
 */
static void presorted_block(vacation_workload *w, uint64_t b, uint32_t pairs, uint32_t reprices,
			    gb_rng *r, uint64_t *cut)
{
	uint64_t P = w->cfg.tx_per_thread, base = b * P, k;
	uint32_t customer = (uint32_t)(b % w->cfg.customers), updates = 2 * pairs, done = 0, type = 0;
	uint32_t changes = 2 * reprices, changed = 0, ptype = 0, d = 0;

	for (k = 0; k < P; k++) {
		uint64_t x = gb_rng_below(r, P - k);
		if (x < updates - done) {
			if (done % 2 == 0)
				type = (uint32_t)gb_rng_below(r, w->cfg.room_types);
			set_step(w, base + k, done % 2 ? VACATION_CANCEL : VACATION_BOOK, customer, type);
			done++;
		} else if (x < updates - done + changes - changed) {
			if (changed % 2 == 0) {
				ptype = (uint32_t)gb_rng_below(r, w->cfg.room_types);
				d = (uint32_t)gb_rng_range(r, 1, VACATION_MAX_PRICE_STEP);
			}
			set_reprice(w, base + k, ptype, d, changed % 2, cut);
			changed++;
		} else {
			set_query(w, base + k, r);
		}
	}
}

int vacation_generate(vacation_workload *w, const vacation_config *cfg, char *err, size_t errlen)
{
	uint64_t P = cfg->tx_per_thread, T = cfg->threads, U, words, b, k, *cut;
	uint32_t queries_b, pairs_b, reprices_b, t;
	gb_rng r;
	int rc = 0;

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	w->ntx = P * T;
	words = (uint64_t)cfg->room_types * cfg->interval + cfg->customers;
	if (words > UINT32_MAX / 2) {
		snprintf(err, errlen,
			 "--room-types %u x --room-interval %u + --customers %u = %" PRIu64
			 " data words exceeds the limit of %u: use fewer room types, a smaller interval or "
			 "fewer customers",
			 cfg->room_types, cfg->interval, cfg->customers, words, UINT32_MAX / 2);
		return -1;
	}
	w->words = (uint32_t)words;
	w->customer_base = cfg->room_types * cfg->interval;
	/* The read-only share: of every block, or (read_only_threads) whole blocks, the last ones. */
	U = T - (cfg->read_only_threads ? tx_percent_of(T, cfg->read_only) : 0);
	w->update_threads = (uint32_t)U;
	queries_b = cfg->read_only_threads ? 0 : (uint32_t)tx_percent_of(P, cfg->read_only);
	/* Update transactions come in pairs, an odd one out becomes a query. */
	pairs_b = (uint32_t)((P - queries_b) / 2 * cfg->semantic_ratio / 100);
	reprices_b = (uint32_t)((P - queries_b) / 2) - pairs_b;
	w->priced = reprices_b > 0 && U > 0;
	if (w->priced && cfg->interval < 2) {
		snprintf(err, errlen,
			 "--semantic-ratio %u leaves price changes, which need --room-interval 2 or more (a room "
			 "type's price is the word after its free rooms)", cfg->semantic_ratio);
		return -1;
	}
	w->tx = gb_xcalloc(w->ntx ? w->ntx : 1, sizeof(vacation_entry), "transaction table");
	cut = gb_xcalloc(cfg->room_types, sizeof(uint64_t), "price decreases per room type");
	gb_rng_init(&r, cfg->seed, 0);
	for (b = 0; b < T && !gb_stop_requested(); b++) {
		if (b >= U) { /* a read-only thread's block */
			for (k = 0; k < P && !GB_STOP_EVERY(k); k++)
				set_query(w, b * P + k, &r);
			continue;
		}
		if (cfg->presort) {
			presorted_block(w, b, pairs_b, reprices_b, &r, cut);
			continue;
		}
		for (k = 0; k < pairs_b && !GB_STOP_EVERY(k); k++) {
			uint32_t customer = (uint32_t)gb_rng_below(&r, cfg->customers);
			uint32_t type = (uint32_t)gb_rng_below(&r, cfg->room_types);
			set_step(w, b * P + 2 * k, VACATION_BOOK, customer, type);
			set_step(w, b * P + 2 * k + 1, VACATION_CANCEL, customer, type);
		}
		for (k = 0; k < reprices_b; k++) {
			uint64_t e = b * P + 2ull * pairs_b + 2 * k;
			uint32_t type = (uint32_t)gb_rng_below(&r, cfg->room_types);
			uint32_t d = (uint32_t)gb_rng_range(&r, 1, VACATION_MAX_PRICE_STEP);
			set_reprice(w, e, type, d, 0, cut);
			set_reprice(w, e + 1, type, d, 1, cut);
		}
		for (k = 2ull * (pairs_b + reprices_b); k < P; k++)
			set_query(w, b * P + k, &r);
	}
	rc = gb_stop_check(err, errlen); /* the table is not whole */
	for (t = 0; t < cfg->room_types && rc == 0; t++)
		if (cut[t] > VACATION_BASE_PRICE) {
			snprintf(err, errlen,
				 "room type %u's price changes could take %" PRIu64 " off its price of %u: use more "
				 "--room-types, fewer transactions or a higher --semantic-ratio",
				 t, cut[t], VACATION_BASE_PRICE);
			rc = -1;
		}
	free(cut);
	if (rc) {
		vacation_free(w);
		return -1;
	}
	if (!cfg->presort)
		shuffle(&r, w->tx, U * P);
	if (gb_stop_check(err, errlen) != 0) {
		vacation_free(w);
		return -1;
	}
	return 0;
}

void vacation_free(vacation_workload *w)
{
	free(w->tx);
	memset(w, 0, sizeof(*w));
}

tx_input vacation_input_of(const vacation_workload *w)
{
	tx_input in;
	in.words = w->words;
	in.max_words = w->count[VACATION_QUERY] ? VACATION_QUERY_TYPES : 2;
	in.ntx = w->ntx;
	in.tx_per_thread = w->cfg.tx_per_thread;
	in.max_tag = 0;
	in.entries = w->tx;
	in.entry_size = sizeof(vacation_entry);
	in.aux = NULL;
	in.aux_stride = 0;
	return in;
}

void vacation_initial(const vacation_workload *w, uint32_t *words)
{
	uint32_t t;
	memset(words, 0, (size_t)w->words * sizeof(uint32_t));
	for (t = 0; t < w->cfg.room_types; t++) {
		words[room_word(w, t)] = w->cfg.rooms;
		if (w->priced)
			words[room_word(w, t) + 1] = VACATION_BASE_PRICE;
	}
}

/* Apply a committed booking or cancellation to the replay; -1 with a message when it could not commit there. */
static int apply(const vacation_workload *w, uint64_t i, uint32_t *s, char *msg, size_t len, uint64_t stamp)
{
	const vacation_entry *e = &w->tx[i];
	uint32_t customer = e->a - w->customer_base;

	if (VACATION_OP(e->meta) == VACATION_REPRICE) {
		s[e->a] += e->c;
		return 0;
	}
	if (VACATION_OP(e->meta) == VACATION_BOOK) {
		if (s[e->a] != 0) {
			snprintf(msg, len, "customer %u booked a room of type %u (entry %" PRIu64 ", stamp %" PRIu64
				 "), but in the serial replay already holds one of type %u",
				 customer, e->c - 1, i, stamp, s[e->a] - 1);
			return -1;
		}
		if (s[e->b] == 0) {
			snprintf(msg, len, "customer %u booked a room of type %u (entry %" PRIu64 ", stamp %" PRIu64
				 "), sold out in the serial replay", customer, e->c - 1, i, stamp);
			return -1;
		}
		s[e->b]--;
		s[e->a] = e->c;
		return 0;
	}
	if (s[e->a] != e->c) {
		snprintf(msg, len, "customer %u cancelled a room of type %u (entry %" PRIu64 ", stamp %" PRIu64
			 "), but in the serial replay holds %s", customer, e->c - 1, i, stamp,
			 s[e->a] ? "another type" : "none");
		return -1;
	}
	s[e->b]++;
	s[e->a] = 0;
	return 0;
}

/* STAMP vacation's consistency rules on a state; 0 or -1 with a message. */
static int check_rules(const vacation_workload *w, const uint32_t *s, vacation_check *out)
{
	uint32_t types = w->cfg.room_types, t, c, k;
	uint64_t *held = gb_xcalloc(types, sizeof(uint64_t), "rooms held per type");
	int rc = 0;

	for (c = 0; c < w->cfg.customers && rc == 0; c++) {
		uint32_t mark = s[w->customer_base + c];
		if (mark > types) {
			snprintf(out->message, sizeof(out->message),
				 "customer %u holds a room of type %u, and there are only %u types", c, mark - 1, types);
			rc = -1;
		} else if (mark) {
			held[mark - 1]++;
			out->reservations++;
		}
	}
	for (t = 0; t < types && rc == 0; t++) {
		uint64_t free_rooms = s[room_word(w, t)];
		out->rooms_free += free_rooms;
		if (held[t] + free_rooms != w->cfg.rooms) {
			snprintf(out->message, sizeof(out->message),
				 "room type %u: %" PRIu64 " rooms held by customers + %" PRIu64 " free != its %u rooms",
				 t, held[t], free_rooms, w->cfg.rooms);
			rc = -1;
		}
		/* A pair's increase equals its decrease, so a price stays within 0..2 x the base. */
		if (w->priced && (int32_t)s[room_word(w, t) + 1] < 0) {
			snprintf(out->message, sizeof(out->message), "room type %u's price is %d, below 0",
				 t, (int32_t)s[room_word(w, t) + 1]);
			rc = -1;
		}
		for (k = w->priced ? 2 : 1; k < w->cfg.interval && rc == 0; k++)
			if (s[room_word(w, t) + k] != 0) {
				snprintf(out->message, sizeof(out->message),
					 "word %u between room types' words changed to %u", room_word(w, t) + k,
					 s[room_word(w, t) + k]);
				rc = -1;
			}
	}
	free(held);
	return rc;
}

/* A query may not carry a stamp. */
static int vacation_may_stamp(const void *ctx, uint64_t i)
{
	return VACATION_OP(((const vacation_workload *)ctx)->tx[i].meta) != VACATION_QUERY;
}

void vacation_verify_batch(const vacation_workload *w, uint32_t *state, const uint32_t *status,
			   const uint32_t *after, vacation_check *out)
{
	stm_order o;
	uint64_t *order, i, nupd;

	memset(out, 0, sizeof(*out));
	out->ok = stm_order_of(&o, status, w->ntx, vacation_may_stamp, w);
	out->abandoned = o.pending;
	out->committed_readonly = o.readonly;
	out->committed_update = nupd = o.updates;
	order = o.entry;
	if (!out->ok)
		snprintf(out->message, sizeof(out->message),
			 "commit stamps are not a permutation of the committed bookings and cancellations: "
			 "entry %" PRIu64 " (%s) has status %u", o.bad,
			 vacation_op_name(VACATION_OP(w->tx[o.bad].meta)), status[o.bad]);
	for (i = 0; i < nupd && out->ok; i++)
		if (apply(w, order[i], state, out->message, sizeof(out->message), i) != 0)
			out->ok = 0;
	for (i = 0; i < w->words && out->ok; i++)
		if (state[i] != after[i]) {
			snprintf(out->message, sizeof(out->message),
				 "data word %" PRIu64 " is %u on the device, %u in the serial replay", i, after[i],
				 state[i]);
			out->ok = 0;
		}
	if (out->ok && check_rules(w, after, out) != 0)
		out->ok = 0;
	free(order);
}
