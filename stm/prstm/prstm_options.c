/*
 * PR-STM's options as `gpubench stm` offers them (--max-passes,
 * --stall-timeout, --no-tags): its rows over its option struct, the
 * parameters they set (stm/prstm/prstm_params.h) and their fields of the
 * report's config. prstm-nocm, PR-STM without its semantic contention
 * manager, has options of its own: of the manager's, only --stall-timeout
 * means anything to a thread that retries a semantic conflict in place.
 */
#include <stddef.h>

#include "common/report.h"
#include "stm/prstm/prstm_options.h"
#include "stm/prstm/prstm_params.h"

typedef struct prstm_opts {
	uint64_t max_passes;
	double stall;
	int no_tags;
} prstm_opts;

_Static_assert(sizeof(prstm_opts) <= STM_ENGINE_OPTS_MAX, "prstm_opts fits stm's area");
_Static_assert(sizeof(prstm_params) <= STM_ENGINE_PARAMS_MAX, "prstm_params fits stm_params");

#define AT(field) offsetof(prstm_opts, field)

static const gb_opt_row rows[] = {
	{.name = "max-passes", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000000, .def = "1000000",
	 .offset = AT(max_passes),
	 .help = "prstm: sweeps over a block before its postponed transactions are abandoned"},
	STM_STALL_TIMEOUT_ROW(AT(stall)),
	{.name = "no-tags", .kind = GB_OPT_FLAG, .offset = AT(no_tags), .set_to = 1,
	 .help = "prstm: ignore the priority tags (bank: deposit 2, transfer 1, withdraw 0) and sweep blocks in "
		 "table order"},
};

static void params(const void *opts, stm_params *p)
{
	const prstm_opts *o = opts;
	prstm_params *pr = prstm_params_rw(p);

	pr->max_passes = (uint32_t)o->max_passes;
	pr->use_tags = !o->no_tags;
	pr->semantic_retry = 0;
	pr->stall_ns = (uint64_t)(o->stall * 1e9);
	pr->window_cycles = pr->counted_cycles = 0; /* the CPU backend sets them when it opens */
	pr->inflight = 0;
}

static void config(const void *opts, cJSON *cfg)
{
	const prstm_opts *o = opts;

	gb_json_u64(cfg, "max_passes", o->max_passes);
	gb_json_num(cfg, "stall_timeout_s", o->stall);
	gb_json_bool(cfg, "priority_tags", !o->no_tags);
}

const stm_engine_options prstm_options = {
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.size = sizeof(prstm_opts),
	.params = params,
	.config = config,
	.abandons = "--max-passes, --stall-timeout",
};

/*
 * prstm-nocm: the version of PR-STM the paper measures its manager's
 * overhead against (section 3.4, "a previous version [30] which has no
 * mechanism for dealing with semantic conflict"; Fig. 5A). No global-table
 * sweep past a semantic conflict and no priority tags: a thread runs its
 * block in table order and retries an entry that meets a semantic conflict
 * until it commits. --stall-timeout still ends a thread that retries while
 * nothing commits anywhere (a withdrawal whose deposit comes later in its
 * own block can never commit).
 */
typedef struct prstm_nocm_opts {
	double stall;
} prstm_nocm_opts;

_Static_assert(sizeof(prstm_nocm_opts) <= STM_ENGINE_OPTS_MAX, "prstm_nocm_opts fits stm's area");

static const gb_opt_row nocm_rows[] = {
	STM_STALL_TIMEOUT_ROW(offsetof(prstm_nocm_opts, stall)),
};

static void nocm_params(const void *opts, stm_params *p)
{
	const prstm_nocm_opts *o = opts;
	prstm_params *pr = prstm_params_rw(p);

	pr->max_passes = 1; /* nothing is ever postponed, so a block takes one sweep */
	pr->use_tags = 0;
	pr->semantic_retry = 1;
	pr->stall_ns = (uint64_t)(o->stall * 1e9);
	pr->window_cycles = pr->counted_cycles = 0;
	pr->inflight = 0;
}

static void nocm_config(const void *opts, cJSON *cfg)
{
	const prstm_nocm_opts *o = opts;

	gb_json_num(cfg, "stall_timeout_s", o->stall);
}

const stm_engine_options prstm_nocm_options = {
	.rows = nocm_rows,
	.nrows = sizeof(nocm_rows) / sizeof(nocm_rows[0]),
	.size = sizeof(prstm_nocm_opts),
	.params = nocm_params,
	.config = nocm_config,
	.abandons = "--stall-timeout",
};
