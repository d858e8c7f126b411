/*
 * PR-STM's options as `gpubench stm` offers them (--max-passes,
 * --stall-timeout, --no-tags): its rows over its option struct, the
 * parameters they set (stm/prstm/prstm_params.h) and their fields of the
 * report's config.
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
	pr->stall_ns = (uint64_t)(o->stall * 1e9);
	pr->window_cycles = 0; /* the CPU backend sets it when it opens */
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
