/*
 * The vacation workload (workloads/stm/vacation.c): the generator's table, and the
 * oracle's replay and STAMP rules, which must accept a correct run and name
 * what is wrong in a tampered one. Then both engines' CPU backends on it,
 * oversubscribed at high contention.
 */
#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm_engines.h"
#include "stm/prstm/prstm_engines.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/test.h"
#include "workloads/stm/vacation.h"

static vacation_config small_config(void)
{
	vacation_config c;
	memset(&c, 0, sizeof(c));
	c.customers = 40;
	c.room_types = 5;
	c.rooms = 3;
	c.interval = 4;
	c.threads = 8;
	c.tx_per_thread = 25;
	c.read_only = 20;
	c.semantic_ratio = 100;
	c.seed = 7;
	return c;
}

TEST(vacation_generate_pairs_and_layout)
{
	vacation_config c = small_config();
	vacation_workload w;
	char err[256];
	uint64_t i, net_rooms = 0;
	int64_t *held;

	REQUIRE(vacation_generate(&w, &c, err, sizeof(err)) == 0);
	CHECK_EQ(w.ntx, 200u);
	CHECK_EQ(w.customer_base, 20u);
	CHECK_EQ(w.words, 60u);
	/* per block: 5 queries, 10 pairs */
	CHECK_EQ(w.count[VACATION_QUERY], 8u * 5);
	CHECK_EQ(w.count[VACATION_BOOK], 8u * 10);
	CHECK_EQ(w.count[VACATION_CANCEL], 8u * 10);
	held = calloc(c.customers * c.room_types, sizeof(int64_t));
	REQUIRE(held != NULL);
	for (i = 0; i < w.ntx; i++) {
		const vacation_entry *e = &w.tx[i];
		unsigned op = VACATION_OP(e->meta);
		CHECK_EQ(TX_ENTRY_TAG(e->meta), 0u);
		if (op == VACATION_QUERY) {
			CHECK(e->a % c.interval == 0 && e->a < w.customer_base);
			CHECK(e->c % c.interval == 0 && e->c < w.customer_base);
			continue;
		}
		CHECK(e->a >= w.customer_base && e->a < w.words);
		CHECK(e->c >= 1 && e->c <= c.room_types);
		CHECK_EQ(e->b, (e->c - 1) * c.interval);
		held[(e->a - w.customer_base) * c.room_types + e->c - 1] += op == VACATION_BOOK ? 1 : -1;
		net_rooms += op == VACATION_BOOK;
	}
	/* every booking has its cancellation: the table nets to zero per customer and type */
	for (i = 0; i < (uint64_t)c.customers * c.room_types; i++)
		CHECK_EQ_I(held[i], 0);
	CHECK_EQ(net_rooms, 80u);
	free(held);
	vacation_free(&w);

	/* beyond the options' ranges (which cannot get there): the data words would not fit */
	c.room_types = 1u << 20;
	c.interval = 4096;
	c.customers = 1u << 24;
	CHECK(vacation_generate(&w, &c, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "--room-types 1048576 x --room-interval 4096 + --customers 16777216");
}

/* Presorted: each block is one customer's pairs in order, queries between. */
TEST(vacation_presort_keeps_a_customer_per_block_in_order)
{
	vacation_config c = small_config();
	vacation_workload w;
	char err[256];
	uint64_t b, k;

	c.presort = 1;
	REQUIRE(vacation_generate(&w, &c, err, sizeof(err)) == 0);
	for (b = 0; b < c.threads; b++) {
		uint32_t expect = VACATION_BOOK, mark = 0, steps = 0;
		for (k = 0; k < c.tx_per_thread; k++) {
			const vacation_entry *e = &w.tx[b * c.tx_per_thread + k];
			if (VACATION_OP(e->meta) == VACATION_QUERY)
				continue;
			CHECK_EQ(e->a, w.customer_base + b);
			CHECK_EQ(VACATION_OP(e->meta), expect);
			if (expect == VACATION_BOOK)
				mark = e->c;
			else
				CHECK_EQ(e->c, mark);
			expect = expect == VACATION_BOOK ? VACATION_CANCEL : VACATION_BOOK;
			steps++;
		}
		CHECK_EQ(steps, 20u);
		CHECK_EQ(expect, (uint32_t)VACATION_BOOK);
	}
	vacation_free(&w);
}

/* A serial execution of the whole table, as a one-thread engine in table order would do it. */
typedef struct serial_run {
	vacation_workload w;
	uint32_t *initial, *state, *after, *status;
} serial_run;

/* Commit what can commit, sweeping until nothing more can; stamps in commit order. */
static void run_serially(serial_run *s, const vacation_config *c)
{
	char err[256];
	uint32_t stamp = 0, progress = 1;
	uint64_t i;

	memset(s, 0, sizeof(*s));
	if (vacation_generate(&s->w, c, err, sizeof(err)) != 0)
		return;
	s->initial = calloc(s->w.words, sizeof(uint32_t));
	s->state = calloc(s->w.words, sizeof(uint32_t));
	s->after = calloc(s->w.words, sizeof(uint32_t));
	s->status = calloc(s->w.ntx, sizeof(uint32_t));
	vacation_initial(&s->w, s->initial);
	memcpy(s->after, s->initial, s->w.words * sizeof(uint32_t));
	while (progress) {
		progress = 0;
		for (i = 0; i < s->w.ntx; i++) {
			const vacation_entry *e = &s->w.tx[i];
			unsigned op = VACATION_OP(e->meta);
			if (s->status[i])
				continue;
			if (op == VACATION_QUERY) {
				s->status[i] = TX_STATUS_READONLY;
			} else if (op == VACATION_REPRICE) {
				s->after[e->a] += e->c;
				s->status[i] = ++stamp;
			} else if (op == VACATION_BOOK && s->after[e->a] == 0 && s->after[e->b] > 0) {
				s->after[e->b]--;
				s->after[e->a] = e->c;
				s->status[i] = ++stamp;
			} else if (op == VACATION_CANCEL && s->after[e->a] == e->c) {
				s->after[e->b]++;
				s->after[e->a] = 0;
				s->status[i] = ++stamp;
			} else {
				continue;
			}
			progress = 1;
		}
	}
}

static void free_serial(serial_run *s)
{
	free(s->initial);
	free(s->state);
	free(s->after);
	free(s->status);
	vacation_free(&s->w);
}

static void check_of(serial_run *s, vacation_check *chk)
{
	memcpy(s->state, s->initial, s->w.words * sizeof(uint32_t));
	vacation_verify_batch(&s->w, s->state, s->status, s->after, chk);
}

TEST(vacation_verify_accepts_a_serial_run)
{
	vacation_config c = small_config();
	serial_run s;
	vacation_check chk;

	run_serially(&s, &c);
	REQUIRE(s.status != NULL);
	check_of(&s, &chk);
	CHECK_EQ_I(chk.ok, 1);
	CHECK_EQ(chk.committed_update, 160u);
	CHECK_EQ(chk.committed_readonly, 40u);
	CHECK_EQ(chk.abandoned, 0u);
	CHECK_EQ(chk.reservations, 0u); /* every booking was cancelled */
	CHECK_EQ(chk.rooms_free, 15u);
	CHECK(memcmp(s.state, s.after, s.w.words * sizeof(uint32_t)) == 0);
	free_serial(&s);
}

/* --read-only-threads: the share as whole threads, the last ones, with and without presort. */
TEST(vacation_read_only_threads_are_whole_blocks)
{
	int presort;

	for (presort = 0; presort < 2; presort++) {
		vacation_config c = small_config();
		serial_run s;
		vacation_check chk;
		uint64_t b, i, q_in_updates = 0, not_q_in_ro = 0;

		c.presort = presort;
		c.read_only_threads = 1;
		run_serially(&s, &c);
		REQUIRE(s.status != NULL);
		/* 20% of 8 threads is 1.6: 2 read-only threads (6 and 7) of 25 queries each; the others
		 * 12 pairs and an odd one out, a query */
		CHECK_EQ(s.w.update_threads, 6u);
		CHECK_EQ(s.w.count[VACATION_QUERY], 2u * 25 + 6);
		CHECK_EQ(s.w.count[VACATION_BOOK], 6u * 12);
		for (b = 0; b < c.threads; b++)
			for (i = b * c.tx_per_thread; i < (b + 1) * c.tx_per_thread; i++) {
				int q = VACATION_OP(s.w.tx[i].meta) == VACATION_QUERY;
				q_in_updates += b < 6 && q;
				not_q_in_ro += b >= 6 && !q;
			}
		CHECK_EQ(q_in_updates, 6u); /* the odd ones out, shuffled among the update threads or not */
		CHECK_EQ(not_q_in_ro, 0u);
		check_of(&s, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.committed_update, 6u * 24);
		CHECK_EQ(chk.committed_readonly, 56u);
		CHECK_EQ(chk.abandoned, 0u);
		CHECK_EQ(chk.reservations, 0u);
		free_serial(&s);
	}
}

TEST(vacation_verify_names_what_is_wrong)
{
	vacation_config c = small_config();
	serial_run s;
	vacation_check chk;
	uint64_t i, book = 0, cancel = 0;

	run_serially(&s, &c);
	REQUIRE(s.status != NULL);
	for (i = 0; i < s.w.ntx; i++)
		if (VACATION_OP(s.w.tx[i].meta) == VACATION_BOOK)
			book = i;
	for (i = 0; i < s.w.ntx; i++)
		if (VACATION_OP(s.w.tx[i].meta) == VACATION_CANCEL && s.w.tx[i].a == s.w.tx[book].a &&
		    s.status[i] == s.status[book] + 1)
			cancel = i;

	/* a lost update: one free-room count off */
	s.after[0]++;
	check_of(&s, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "data word 0 is");
	s.after[0]--;

	/* a gap word between room types written */
	s.after[1] = 9;
	check_of(&s, &chk);
	CHECK_EQ_I(chk.ok, 0);
	s.after[1] = 0;

	/* a cancellation that committed before its booking */
	if (cancel) {
		uint32_t t = s.status[book];
		s.status[book] = s.status[cancel];
		s.status[cancel] = t;
		check_of(&s, &chk);
		CHECK_EQ_I(chk.ok, 0);
		CHECK_CONTAINS(chk.message, "cancelled a room");
		s.status[cancel] = s.status[book];
		s.status[book] = t;
	}

	/* a query with a stamp */
	for (i = 0; i < s.w.ntx; i++)
		if (VACATION_OP(s.w.tx[i].meta) == VACATION_QUERY)
			break;
	s.status[i] = 1;
	check_of(&s, &chk);
	CHECK_EQ_I(chk.ok, 0);
	CHECK_CONTAINS(chk.message, "commit stamps");
	s.status[i] = TX_STATUS_READONLY;

	check_of(&s, &chk);
	CHECK_EQ_I(chk.ok, 1);
	free_serial(&s);
}

/* STAMP's rules on a state the replay agrees with: a booking the rooms do not account for. */
TEST(vacation_rules_catch_an_unaccounted_booking)
{
	vacation_config c = small_config();
	serial_run s;
	vacation_check chk;

	run_serially(&s, &c);
	REQUIRE(s.status != NULL);
	/* customer 0 holds a room of type 2 without a booking, in the start state and after */
	s.initial[s.w.customer_base] = 3;
	s.after[s.w.customer_base] = 3;
	check_of(&s, &chk);
	/* the replay may fail first on customer 0's own bookings; either way the run is refused */
	CHECK_EQ_I(chk.ok, 0);
	free_serial(&s);
}

/* Both engines' CPU backends on a hot vacation table: verified, everything accounted for. */
static void run_engine(const stm_ops *ops, uint32_t retry_limit, int presort, uint32_t semantic_ratio,
		       const char *label)
{
	vacation_config c = small_config();
	vacation_workload w;
	char retry[32];
	/* a waiting prstm thread sweeps its block fast: only a stall may end it */
	const char *const engine_opts[] = {"max-passes=1000000000", "stall-timeout=10", retry, NULL};
	stm_params p;
	stm_batch_result r;
	vacation_check chk;
	tx_input in;
	uint32_t *initial, *state, *after, *status;
	char err[256];
	void *ctx;

	c.threads = 600;
	c.tx_per_thread = 6;
	c.customers = 50;
	c.room_types = 4;
	c.rooms = 5;
	c.presort = presort;
	c.semantic_ratio = semantic_ratio;
	REQUIRE(vacation_generate(&w, &c, err, sizeof(err)) == 0);
	memset(&p, 0, sizeof(p));
	p.threads = c.threads;
	p.hash = 2;
	p.cpu_workers = 32;
	snprintf(retry, sizeof(retry), "retry-limit=%u", retry_limit);
	tu_engine_params(&p, tu_engine_of(ops), engine_opts);
	initial = calloc(w.words, sizeof(uint32_t));
	state = calloc(w.words, sizeof(uint32_t));
	after = calloc(w.words, sizeof(uint32_t));
	status = calloc(w.ntx, sizeof(uint32_t));
	vacation_initial(&w, initial);
	in = vacation_input_of(&w);
	ctx = ops->open(&in, &p);
	ops->load(ctx, initial);
	ops->run(ctx, 60ull * 1000000000ull, 0, &r);
	ops->fetch(ctx, after, status);
	ops->close(ctx);
	memcpy(state, initial, w.words * sizeof(uint32_t));
	vacation_verify_batch(&w, state, status, after, &chk);
	if (!chk.ok)
		tu_fail(__FILE__, __LINE__, "%s: %s", label, chk.message);
	CHECK_EQ(chk.committed_update, r.c.commits_update);
	CHECK_EQ(chk.committed_readonly, r.c.commits_readonly);
	CHECK_EQ(chk.abandoned, r.c.retry_limit_reached); /* prstm: 0 and 0 */
	CHECK_EQ(r.c.threads_timed_out + r.c.threads_failed + r.c.threads_stalled + r.c.threads_gave_up, 0u);
	free(initial);
	free(state);
	free(after);
	free(status);
	vacation_free(&w);
}

TEST(vacation_cpu_backends_oversubscribed)
{
	run_engine(&prstm_vacation_cpu_ops, 0, 0, 100, "prstm, shuffled");
	run_engine(&prstm_vacation_cpu_ops, 0, 1, 100, "prstm, presorted");
	run_engine(&gpustm_vacation_cpu_ops, 100, 0, 100, "gpustm, shuffled");
	run_engine(&gpustm_vacation_cpu_ops, 1000000000, 1, 100, "gpustm, presorted, no limit reached");
	/* price changes read the free rooms that bookings write, and share locks with them at hash 2 */
	run_engine(&prstm_vacation_cpu_ops, 0, 0, 30, "prstm, shuffled, 30% semantic");
	run_engine(&gpustm_vacation_cpu_ops, 1000000000, 0, 0, "gpustm, shuffled, price changes only");
}

/*
 * --semantic-ratio: that share of the update transactions are book -> cancel
 * pairs, the rest price changes in +d/-d pairs on the word after a room
 * type's free rooms; a serial run commits everything and leaves every price
 * at its base; the oracle replays price changes and names a wrong price.
 */
TEST(vacation_semantic_ratio_mixes_in_price_changes)
{
	static const uint32_t ratios[] = {0, 40, 100};
	unsigned k;

	for (k = 0; k < 3; k++) {
		vacation_config c = small_config();
		serial_run s;
		vacation_check chk;
		uint64_t i, updates, pairs_b;
		int64_t net = 0;
		uint32_t t, at_base = 1, on_price_word = 1;

		c.semantic_ratio = ratios[k];
		c.presort = k == 1;
		run_serially(&s, &c);
		REQUIRE(s.status != NULL);
		updates = 20; /* 25 per block, 5 of them queries */
		pairs_b = updates / 2 * ratios[k] / 100;
		CHECK_EQ(s.w.count[VACATION_BOOK], pairs_b * c.threads);
		CHECK_EQ(s.w.count[VACATION_CANCEL], pairs_b * c.threads);
		CHECK_EQ(s.w.count[VACATION_REPRICE], (updates - 2 * pairs_b) * c.threads);
		CHECK_EQ_I(s.w.priced, ratios[k] < 100);
		for (i = 0; i < s.w.ntx; i++)
			if (VACATION_OP(s.w.tx[i].meta) == VACATION_REPRICE) {
				net += (int32_t)s.w.tx[i].c;
				on_price_word &= s.w.tx[i].a == s.w.tx[i].b + 1 && s.w.tx[i].b % c.interval == 0;
			}
		CHECK_EQ_I(net, 0);
		CHECK(on_price_word);
		check_of(&s, &chk);
		CHECK_EQ_I(chk.ok, 1);
		CHECK_EQ(chk.committed_update, s.w.ntx - s.w.count[VACATION_QUERY]);
		for (t = 0; t < c.room_types; t++)
			at_base &= s.after[t * c.interval + 1] == (s.w.priced ? VACATION_BASE_PRICE : 0u);
		CHECK(at_base);
		if (s.w.priced) {
			/* a price change lost */
			s.after[1]--;
			check_of(&s, &chk);
			CHECK_EQ_I(chk.ok, 0);
			CHECK_CONTAINS(chk.message, "data word 1 is");
			s.after[1]++;
		}
		free_serial(&s);
	}
}

TEST(vacation_price_changes_need_a_price_word)
{
	vacation_config c = small_config();
	vacation_workload w;
	char err[256];

	c.interval = 1;
	c.semantic_ratio = 50;
	CHECK_EQ_I(vacation_generate(&w, &c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "--room-interval 2 or more");
	c.semantic_ratio = 100; /* no price changes: no price words */
	REQUIRE(vacation_generate(&w, &c, err, sizeof(err)) == 0);
	vacation_free(&w);
}
