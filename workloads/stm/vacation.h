/*
 * The vacation workload (Shen et al. section 4.1, after STAMP's vacation):
 * customers book and cancel rooms of room types, each type with a fixed
 * number of rooms (the paper: 150,000 customers, 1000 room types of 150
 * rooms). Booking a type that is sold out is the paper's semantic conflict;
 * so is cancelling a booking that has not been made yet.
 *
 * Data words: room type t's count of free rooms at word t x interval (the
 * paper sets the interval between room-type words to 100, so that --hash
 * does not put consecutive room types under one lock), then one word per
 * customer: 0, or t + 1 while the customer holds a room of type t. A
 * customer holds at most one room at a time.
 *
 * Generation (the paper gives the mix, not the generator; this one is built
 * so every table has a serial order that commits everything):
 * - --semantic-ratio percent of the update transactions come as pairs
 *   book(c, t) -> cancel(c, t) of a customer c and a room type t, both drawn
 *   at random; a customer has many pairs over a table. In the serial order
 *   that runs pair after pair no customer holds two rooms and no type is
 *   ever short of a room, so everything commits and the table nets to zero;
 * - the other update transactions are the manager's price changes (STAMP's
 *   table updates): reprice(t, +d) and reprice(t, -d) of a random room type,
 *   each reading the type's free rooms and adding its amount to the type's
 *   price, the word after its free rooms (so they need --room-interval 2 or
 *   more). Prices start at VACATION_BASE_PRICE and the generator keeps every
 *   type's price decreases within it, so no order drives a price below 0, no
 *   price change ever meets a semantic conflict, and a pair nets to zero;
 * - --read-only percent of the transactions are queries that read the free
 *   rooms of three room types (that share of every block, or with
 *   read_only_threads that share of the threads, the last ones, whose blocks
 *   hold nothing else);
 * - without --presort the whole table is shuffled (the update threads'
 *   blocks among themselves with read_only_threads), so a cancel often meets
 *   its customer before the booking (a semantic conflict) and a booking meets
 *   its customer holding another room; with --presort every pair of thread
 *   b's block is of customer b (mod --customers), in pair order, queries
 *   interleaved at random: program order resolves every dependence on the
 *   customer, and with no more threads than customers no two threads share
 *   one; price changes go to random places too.
 * Every entry has priority tag 0: the bank's deposit-before-withdraw order
 * has no counterpart here (a pair is ordered per customer, not per kind).
 */
#ifndef GB_VACATION_H
#define GB_VACATION_H

#include <stddef.h>
#include <stdint.h>

#include "api/tx_table.h"
#include "common/port.h"

enum vacation_op {
	VACATION_BOOK = 0,
	VACATION_CANCEL = 1,
	VACATION_QUERY = 2, /* read-only */
	VACATION_REPRICE = 3,
	VACATION_NOPS
};

#define VACATION_QUERY_TYPES 3
/* every room type's price before the first price change, when the table has any */
#define VACATION_BASE_PRICE 1000000u
#define VACATION_MAX_PRICE_STEP 10

/* meta word: the operation in bits 0-3 (the priority tag, bits 4-7, is 0) */
#define VACATION_OP(meta) ((meta) & 0xFu)

/*
 * book, cancel: a = the customer's word, b = the room type's word, c = the mark
 * of the booking (type + 1); query: a, b, c = three room types' words;
 * reprice: a = the type's price word, b = the room type's word, c = the amount
 * added to the price (two's complement).
 */
typedef struct vacation_entry {
	uint32_t meta;
	uint32_t a, b, c;
} vacation_entry;

typedef struct vacation_config {
	uint32_t customers;
	uint32_t room_types;
	uint32_t rooms;    /* per room type */
	uint32_t interval; /* words between two room types' words */
	uint32_t threads;
	uint32_t tx_per_thread;
	uint32_t read_only; /* percent of queries */
	int read_only_threads; /* that share as whole threads, the last ones (else of every block) */
	uint32_t semantic_ratio; /* percent of update transactions in book -> cancel pairs; the rest reprice */
	int presort;
	uint64_t seed;
} vacation_config;

typedef struct vacation_workload {
	vacation_config cfg;
	vacation_entry *tx;
	uint64_t ntx;
	uint32_t words;         /* data words: room types' and customers' */
	uint32_t customer_base; /* customer c's word is customer_base + c */
	int priced;             /* the table changes prices: price words start at VACATION_BASE_PRICE */
	uint64_t count[VACATION_NOPS];
	uint32_t update_threads; /* threads whose blocks hold the updates: all but --read-only-threads' */
} vacation_workload;

/* Build the table. Returns 0, or -1 with a usage message in err (sizes that cannot work). */
int vacation_generate(vacation_workload *w, const vacation_config *cfg, char *err, size_t errlen);
void vacation_free(vacation_workload *w);
tx_input vacation_input_of(const vacation_workload *w);
const char *vacation_op_name(unsigned op);

/* The data words before any transaction: every room free, no customer holding one, every
 * price (in a table that changes prices) at VACATION_BASE_PRICE. */
void vacation_initial(const vacation_workload *w, uint32_t *words);

/* The scheduler's copy of entry i (api/tx_table.h), and the entry back from it. */
GB_HD void vacation_load_entry(const tx_table *t, uint32_t i, tx_entry *out)
{
	vacation_entry e = ((const vacation_entry *)t->entries)[i];
	out->w[0] = e.meta;
	out->w[1] = e.a;
	out->w[2] = e.b;
	out->w[3] = e.c;
}

GB_HD vacation_entry vacation_entry_of(const tx_entry *x)
{
	vacation_entry e;
	e.meta = x->w[0];
	e.a = x->w[1];
	e.b = x->w[2];
	e.c = x->w[3];
	return e;
}

/* What the oracle found for one batch. */
typedef struct vacation_check {
	int ok;
	char message[512];
	uint64_t committed_update, committed_readonly, abandoned;
	uint64_t rooms_free;    /* summed over room types, after the batch */
	uint64_t reservations;  /* customers holding a room, after the batch */
} vacation_check;

/*
 * Verify a batch: `state` holds the data words before it and is advanced to
 * the state after it by replaying the committed bookings and cancellations
 * and price changes in stamp order, checking each one could commit at that
 * point (a booking: its customer held no room and its type had one free; a
 * cancellation: its customer held a room of that type). The replay must
 * equal `after` exactly, and `after` must keep STAMP vacation's rules: for
 * every room type, rooms held by customers + free rooms = its rooms; every
 * customer holds at most one room, of a type that exists; no word between
 * room types' words was touched but the price words of a table that changes
 * prices.
 */
void vacation_verify_batch(const vacation_workload *w, uint32_t *state, const uint32_t *status,
			   const uint32_t *after, vacation_check *out);

#endif
