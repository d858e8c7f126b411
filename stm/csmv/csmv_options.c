/*
 * The option of CSMV and JVSTM as `gpubench stm` offers it (--stall-timeout,
 * which prstm reads too): its row over their option struct, the parameter it
 * sets (stm/csmv/csmv_params.h) and its field of the report's config.
 */
#include <stddef.h>

#include "common/report.h"
#include "stm/csmv/csmv_options.h"
#include "stm/csmv/csmv_params.h"

typedef struct csmv_opts {
	double stall;
} csmv_opts;

_Static_assert(sizeof(csmv_opts) <= STM_ENGINE_OPTS_MAX, "csmv_opts fits stm's area");
_Static_assert(sizeof(csmv_params) <= STM_ENGINE_PARAMS_MAX, "csmv_params fits stm_params");

static const gb_opt_row rows[] = {
	STM_STALL_TIMEOUT_ROW(offsetof(csmv_opts, stall)),
};

static void params(const void *opts, stm_params *p)
{
	csmv_params_rw(p)->stall_ns = (uint64_t)(((const csmv_opts *)opts)->stall * 1e9);
}

static void config(const void *opts, cJSON *cfg)
{
	gb_json_num(cfg, "stall_timeout_s", ((const csmv_opts *)opts)->stall);
}

const stm_engine_options csmv_options = {
	.rows = rows,
	.nrows = sizeof(rows) / sizeof(rows[0]),
	.size = sizeof(csmv_opts),
	.params = params,
	.config = config,
	.abandons = "--stall-timeout",
};
