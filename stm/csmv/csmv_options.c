/*
 * The options of CSMV and JVSTM as `gpubench stm` offers them: their rows
 * over their option struct, the parameters they set (stm/csmv/csmv_params.h)
 * and their fields of the report's config. Two families: csmv_options, for
 * the engines on the paper's server (csmv, csmv-nocv, csmv-onlycs), which
 * have --server-workers and --atr-records; csmv_stall_options, for those
 * without it (csmv-index..., jvstm, jvstm-gpu), which have --stall-timeout
 * only (prstm reads it too), so that a server option given to them exits 2.
 */
#include <stddef.h>

#include "common/report.h"
#include "stm/csmv/csmv_options.h"
#include "stm/csmv/csmv_params.h"

#define STR_(x) #x
#define STR(x) STR_(x)

typedef struct csmv_opts {
	double stall;
	uint64_t workers, atr;
} csmv_opts;

_Static_assert(sizeof(csmv_opts) <= STM_ENGINE_OPTS_MAX, "csmv_opts fits stm's area");
_Static_assert(sizeof(csmv_params) <= STM_ENGINE_PARAMS_MAX, "csmv_params fits stm_params");

static const gb_opt_row server_rows[] = {
	STM_STALL_TIMEOUT_ROW(offsetof(csmv_opts, stall)),
	{.name = "server-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = CSMV_WORKERS_MAX,
	 .def = STR(CSMV_WORKERS_DEFAULT), .offset = offsetof(csmv_opts, workers),
	 .help = "csmv, csmv-nocv, csmv-onlycs: worker warps of the server, beside its receiver warp (section "
		 "III-B; the server block has N+1 warps, and every block of the launch that many threads at least)"},
	{.name = "atr-records", .kind = GB_OPT_UINT, .metavar = "N", .lo = CSMV_ATR_MIN, .hi = CSMV_ATR_MAX,
	 .def = STR(CSMV_ATR_DEFAULT), .offset = offsetof(csmv_opts, atr),
	 .help = "csmv, csmv-nocv, csmv-onlycs: committed write sets the server's ATR keeps (72 bytes each, in "
		 "the server block's shared memory on the GPU, which caps it: 3228 on an H100 or H200); an update "
		 "whose snapshot is older than the oldest aborts"},
};

static const gb_opt_row stall_rows[] = {
	STM_STALL_TIMEOUT_ROW(offsetof(csmv_opts, stall)),
};

static void server_params(const void *opts, stm_params *p)
{
	const csmv_opts *o = opts;
	csmv_params_rw(p)->stall_ns = (uint64_t)(o->stall * 1e9);
	csmv_params_rw(p)->server_workers = (uint32_t)o->workers;
	csmv_params_rw(p)->atr_records = (uint32_t)o->atr;
}

static void server_config(const void *opts, cJSON *cfg)
{
	const csmv_opts *o = opts;
	gb_json_num(cfg, "stall_timeout_s", o->stall);
	gb_json_u64(cfg, "server_workers", o->workers);
	gb_json_u64(cfg, "atr_records", o->atr);
}

static void stall_params(const void *opts, stm_params *p)
{
	csmv_params_rw(p)->stall_ns = (uint64_t)(((const csmv_opts *)opts)->stall * 1e9);
}

static void stall_config(const void *opts, cJSON *cfg)
{
	gb_json_num(cfg, "stall_timeout_s", ((const csmv_opts *)opts)->stall);
}

const stm_engine_options csmv_options = {
	.rows = server_rows,
	.nrows = sizeof(server_rows) / sizeof(server_rows[0]),
	.size = sizeof(csmv_opts),
	.params = server_params,
	.config = server_config,
	.abandons = "--stall-timeout",
};

const stm_engine_options csmv_stall_options = {
	.rows = stall_rows,
	.nrows = sizeof(stall_rows) / sizeof(stall_rows[0]),
	.size = sizeof(csmv_opts),
	.params = stall_params,
	.config = stall_config,
	.abandons = "--stall-timeout",
};
