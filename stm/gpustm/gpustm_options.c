/*
 * GPU-STM's option as `gpubench stm` offers it (--retry-limit): its row over
 * its option struct, the parameter it sets (stm/gpustm/gpustm_params.h) and
 * its field of the report's config.
 */
#include <stddef.h>

#include "common/report.h"
#include "stm/gpustm/gpustm_options.h"
#include "stm/gpustm/gpustm_params.h"

typedef struct gpustm_opts {
	uint64_t retry_limit;
} gpustm_opts;

_Static_assert(sizeof(gpustm_opts) <= STM_ENGINE_OPTS_MAX, "gpustm_opts fits stm's area");
_Static_assert(sizeof(gpustm_params) <= STM_ENGINE_PARAMS_MAX, "gpustm_params fits stm_params");

static const gb_opt_row rows[] = {
	{.name = "retry-limit", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000000, .def = "100",
	 .offset = offsetof(gpustm_opts, retry_limit),
	 .help = "gpustm, gpustm-local: attempts of one transaction before it is given up, counted in "
		 "results.retry_limit_reached and as abandoned (the paper: 100)"},
};

static void params(const void *opts, stm_params *p)
{
	gpustm_params_rw(p)->retry_limit = (uint32_t)((const gpustm_opts *)opts)->retry_limit;
}

static void config(const void *opts, cJSON *cfg)
{
	gb_json_u64(cfg, "retry_limit", ((const gpustm_opts *)opts)->retry_limit);
}

const stm_engine_options gpustm_options = {
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.size = sizeof(gpustm_opts),
	.params = params,
	.config = config,
	.abandons = "--retry-limit",
};
