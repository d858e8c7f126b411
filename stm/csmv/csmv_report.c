/*
 * The part of the report that is CSMV's own: its commit split into the
 * phases of its client-server design (commit_phases_ns: the paper's Tables I
 * and III) and what its versioned boxes kept (versions), which JVSTM, on the
 * same boxes, reports too, with its own commit's phases (validation, record
 * insert, write-back: the paper's JVSTM-GPU rows); as results fields and as
 * summary lines.
 */
#include <inttypes.h>
#include <math.h>

#include "common/report.h"
#include "stm/csmv/csmv_report.h"

/* Cycles over the committed update transactions, in ns each (the commit's phases happen once per update). */
static double per_update_ns(const stm_counters *c, double cycles_per_ns, uint64_t cycles)
{
	return c->commits_update && cycles_per_ns > 0 ? (double)cycles / cycles_per_ns / (double)c->commits_update
						      : NAN;
}

void csmv_versions_json(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry)
{
	cJSON *v = cJSON_AddObjectToObject(entry, "versions");

	(void)cycles_per_ns;
	(void)p;
	gb_json_u64(v, "kept_peak", c->versions_kept_peak);
	gb_json_u64(v, "reclaim_waits", c->reclaim_waits);
}

void csmv_report_json(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry)
{
	cJSON *cp = cJSON_AddObjectToObject(entry, "commit_phases_ns");

	gb_json_num(cp, "divergence", per_update_ns(c, cycles_per_ns, c->cycles_diverge));
	gb_json_num(cp, "pre_validation", per_update_ns(c, cycles_per_ns, c->cycles_prevalidate));
	gb_json_num(cp, "wait_server", per_update_ns(c, cycles_per_ns, c->cycles_wait_server));
	gb_json_num(cp, "server_validation", per_update_ns(c, cycles_per_ns, c->server_cycles_validate));
	gb_json_num(cp, "server_insert", per_update_ns(c, cycles_per_ns, c->server_cycles_insert));
	gb_json_num(cp, "write_back", per_update_ns(c, cycles_per_ns, c->cycles_commit));
	csmv_versions_json(c, cycles_per_ns, p, entry);
}

/*
 * JVSTM's commit of an update, per committed update: validation from the end
 * of execution to the insertion into the ATR (waits for the ATR's holder
 * included), the record, and the write-back (the versions installed and GTS
 * published). Divergence, the paper's fourth phase of JVSTM-GPU, is null: a
 * lane commits by itself, and the time its warp spends on other lanes' paths
 * is inside its own phases, not apart from them.
 */
void jvstm_report_json(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry)
{
	cJSON *cp = cJSON_AddObjectToObject(entry, "commit_phases_ns");

	gb_json_num(cp, "divergence", NAN); /* not measured: see above */
	gb_json_num(cp, "validation", per_update_ns(c, cycles_per_ns, c->cycles_validate));
	gb_json_num(cp, "record_insert", per_update_ns(c, cycles_per_ns, c->cycles_record));
	gb_json_num(cp, "write_back", per_update_ns(c, cycles_per_ns, c->cycles_commit - c->cycles_record));
	csmv_versions_json(c, cycles_per_ns, p, entry);
}

void csmv_versions_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out)
{
	(void)cycles_per_ns;
	(void)p;
	fprintf(out, "  %-12s at most %" PRIu64 " of one word kept at once, %" PRIu64
		" write-backs waited for reclamation\n", "versions", c->versions_kept_peak, c->reclaim_waits);
}

void csmv_report_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out)
{
	if (c->commits_update)
		fprintf(out, "  %-12s an update's commit: waits for its group %.3g us, pre-validation %.3g us,\n"
			"               for the server %.3g us (server validation %.3g us, insert %.3g us),\n"
			"               write-back %.3g us\n", "commit",
			per_update_ns(c, cycles_per_ns, c->cycles_diverge) / 1e3,
			per_update_ns(c, cycles_per_ns, c->cycles_prevalidate) / 1e3,
			per_update_ns(c, cycles_per_ns, c->cycles_wait_server) / 1e3,
			per_update_ns(c, cycles_per_ns, c->server_cycles_validate) / 1e3,
			per_update_ns(c, cycles_per_ns, c->server_cycles_insert) / 1e3,
			per_update_ns(c, cycles_per_ns, c->cycles_commit) / 1e3);
	csmv_versions_lines(c, cycles_per_ns, p, out);
}

void jvstm_report_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out)
{
	if (c->commits_update)
		fprintf(out, "  %-12s an update's commit: validation %.3g us, record %.3g us, write-back %.3g us\n",
			"commit", per_update_ns(c, cycles_per_ns, c->cycles_validate) / 1e3,
			per_update_ns(c, cycles_per_ns, c->cycles_record) / 1e3,
			per_update_ns(c, cycles_per_ns, c->cycles_commit - c->cycles_record) / 1e3);
	csmv_versions_lines(c, cycles_per_ns, p, out);
}
