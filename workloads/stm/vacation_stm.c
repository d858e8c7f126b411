/*
 * The vacation workload (workloads/stm/vacation.h) as a workload of `gpubench
 * stm`: its options, and its generator and oracle behind the registry's
 * interface (workloads/stm/stm_workload.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/report.h"
#include "workloads/stm/stm_workload.h"
#include "workloads/stm/vacation.h"

typedef struct vacation_opts {
	uint64_t customers, room_types, rooms, interval;
} vacation_opts;

_Static_assert(sizeof(vacation_opts) <= STM_WORKLOAD_OPTS_MAX, "vacation_opts fits stm's area");

#define AT(field) offsetof(vacation_opts, field)

static const gb_opt_row rows[] = {
	{.name = "customers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1u << 24, .def = "150000",
	 .offset = AT(customers), .help = "vacation: customers, each holding at most one room at a time"},
	{.name = "room-types", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1u << 16, .def = "1000",
	 .offset = AT(room_types), .help = "vacation: room types"},
	{.name = "rooms", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000, .def = "150",
	 .offset = AT(rooms), .help = "vacation: rooms of each type"},
	{.name = "room-interval", .kind = GB_OPT_UINT, .metavar = "K", .lo = 1, .hi = 4096, .def = "100",
	 .offset = AT(interval),
	 .help = "vacation: data words from one room type's word to the next, so that --hash does not put "
		 "consecutive types under one lock (the paper: 100)"},
};

static uint32_t words(const void *opts)
{
	const vacation_opts *o = opts;
	uint64_t n = o->room_types * o->interval + o->customers;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* A query reads three room types; a booking or cancellation touches two words. */
static uint32_t max_set(const void *opts)
{
	(void)opts;
	return VACATION_QUERY_TYPES;
}

/*
 * Per data word: the three host copies, the engine's data and lock, the
 * replay's copy; per transaction the entry, its status (engine and host) and
 * the replay order; per room type the rules' count.
 */
static unsigned memory(const void *opts, const stm_table_cfg *c, gb_memory_term host[STM_MEMORY_TERMS],
		       gb_memory_term device[STM_MEMORY_TERMS])
{
	const vacation_opts *o = opts;
	uint64_t per_tx = sizeof(vacation_entry) + 2 * sizeof(uint32_t) + sizeof(uint64_t);

	host[0] = (gb_memory_term){.opt = "customers", .value = o->customers,
				   .bytes_each = 6 * sizeof(uint32_t)};
	host[1] = (gb_memory_term){.opt = "room-types", .value = o->room_types,
				   .bytes_each = o->interval * 6 * sizeof(uint32_t) + 8};
	host[2] = (gb_memory_term){.opt = "threads", .value = c->threads, .bytes_each = per_tx,
				   .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	device[0] = (gb_memory_term){.opt = "customers", .value = o->customers,
				     .bytes_each = 2 * sizeof(uint32_t)};
	device[1] = (gb_memory_term){.opt = "room-types", .value = o->room_types,
				     .bytes_each = o->interval * 2 * sizeof(uint32_t)};
	device[2] = (gb_memory_term){.opt = "threads", .value = c->threads,
				     .bytes_each = (sizeof(vacation_entry) + sizeof(uint32_t)),
				     .opt2 = "tx-per-thread", .value2 = c->tx_per_thread};
	return 3;
}

static void *generate(const void *opts, const stm_table_cfg *c, char *err, size_t errlen)
{
	const vacation_opts *o = opts;
	vacation_workload *w = gb_xcalloc(1, sizeof(*w), "vacation workload");
	vacation_config vc = {
		.customers = (uint32_t)o->customers,
		.room_types = (uint32_t)o->room_types,
		.rooms = (uint32_t)o->rooms,
		.interval = (uint32_t)o->interval,
		.threads = c->threads,
		.tx_per_thread = c->tx_per_thread,
		.read_only = c->read_only,
		.read_only_threads = c->read_only_threads,
		.semantic_ratio = c->semantic_ratio,
		.presort = c->presort,
		.seed = c->seed,
	};

	if (vacation_generate(w, &vc, err, errlen) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

static void release(void *inst)
{
	vacation_free(inst);
	free(inst);
}

static tx_input input(const void *inst)
{
	return vacation_input_of(inst);
}

static void initial(const void *inst, uint32_t *words_out)
{
	vacation_initial(inst, words_out);
}

static void verify_batch(const void *inst, uint32_t *state, const uint32_t *status, const uint32_t *after,
			 stm_check *out)
{
	vacation_check v;

	vacation_verify_batch(inst, state, status, after, &v);
	snprintf(out->message, sizeof(out->message), "%s", v.message);
	out->ok = v.ok;
	out->committed_update = v.committed_update;
	out->committed_readonly = v.committed_readonly;
	out->abandoned = v.abandoned;
	out->facts[0] = (stm_fact){"rooms_free", (double)v.rooms_free};
	out->facts[1] = (stm_fact){"reservations", (double)v.reservations};
	out->nfacts = 2;
}

static void config(const void *inst, cJSON *cfg)
{
	const vacation_workload *w = inst;
	cJSON *v = cJSON_AddObjectToObject(cfg, "vacation");

	gb_json_u64(v, "customers", w->cfg.customers);
	gb_json_u64(v, "room_types", w->cfg.room_types);
	gb_json_u64(v, "rooms", w->cfg.rooms);
	gb_json_u64(v, "room_interval", w->cfg.interval);
	gb_json_u64(v, "tx_per_thread", w->cfg.tx_per_thread);
	gb_json_u64(v, "read_only", w->cfg.read_only);
	gb_json_u64(v, "read_only_thread_count", w->cfg.threads - w->update_threads);
	gb_json_u64(v, "semantic_ratio", w->cfg.semantic_ratio);
	gb_json_bool(v, "presort", w->cfg.presort);
	gb_json_u64(v, "seed", w->cfg.seed);
	gb_json_u64(v, "transactions", w->ntx);
	gb_json_u64(v, "bookings", w->count[VACATION_BOOK]);
	gb_json_u64(v, "cancellations", w->count[VACATION_CANCEL]);
	gb_json_u64(v, "queries", w->count[VACATION_QUERY]);
	gb_json_u64(v, "price_changes", w->count[VACATION_REPRICE]);
	gb_json_u64(v, "data_words", w->words);
}

static void describe(const void *inst, char *buf, size_t len)
{
	const vacation_workload *w = inst;
	snprintf(buf, len, "%u customers, %u room types of %u rooms", w->cfg.customers, w->cfg.room_types,
		 w->cfg.rooms);
}

const stm_workload stm_workload_vacation = {
	.head.name = "vacation",
	.head.summary = "customers book and cancel rooms of room types; a sold-out type or a cancellation "
		   "before its booking is a semantic conflict (Shen et al. section 4.1, after STAMP)",
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.opts_size = sizeof(vacation_opts),
	.words = words,
	.words_option = "room-types x --room-interval + --customers",
	.max_set = max_set,
	.max_set_option = "read-only",
	.semantic = 1,
	.memory = memory,
	.generate = generate,
	.free = release,
	.input = input,
	.initial = initial,
	.rounds_unfit = "vacation's oracle replays batches only",
	.verify_batch = verify_batch,
	.method_batch = "serial replay in commit-stamp order, STAMP vacation's rules",
	.checked_batch = "replayed in commit order, rooms held + free = rooms of every type, no customer "
			 "over-booked",
	.checksum_key = "data_fnv1a",
	.config = config,
	.describe = describe,
};
