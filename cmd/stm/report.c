/*
 * gpubench stm's part of the report (docs/report-schema.md) and of the
 * summary: its config, each engine's common counters as results fields and
 * the --algo engine's as summary lines, the engine's own part through its
 * entry's hooks (stm_engine.report_json, .report_lines), the verification
 * block's fields, on the shared result model (common/report.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "cmd/stm/stm_cmd.h"
#include "common/report.h"

static uint64_t commits_of(const engine_run *er)
{
	return er->c.commits_update + er->c.commits_readonly;
}

static uint64_t aborts_of(const engine_run *er)
{
	return er->c.aborts_locked + er->c.aborts_priority + er->c.aborts_validation + er->c.aborts_semantic;
}

/* Thread time per committed transaction, in ns, of a cycle counter. */
static double per_commit_ns(const engine_run *er, uint64_t cycles)
{
	uint64_t commits = commits_of(er);
	return commits && er->cycles_per_ns > 0 ? (double)cycles / er->cycles_per_ns / (double)commits : NAN;
}

static void fill_config(cJSON *cfg, const stm_run *r)
{
	const stm_opts *o = &r->o;

	gb_json_str(cfg, "algo", o->algo);
	gb_json_str(cfg, "workload", o->workload->head.name);
	gb_json_str(cfg, "backend", gb_backend_name(r->backend));
	gb_json_u64(cfg, "threads", o->p.threads);
	gb_json_u64(cfg, "tx_per_thread", r->in.tx_per_thread); /* a staged workload's: its first stage's */
	gb_json_u64(cfg, "read_only", o->read_only);
	gb_json_bool(cfg, "read_only_threads", o->read_only_threads);
	if (o->workload->semantic)
		gb_json_u64(cfg, "semantic_ratio", o->semantic_ratio);
	else
		cJSON_AddNullToObject(cfg, "semantic_ratio"); /* the workload has no semantic transactions */
	gb_json_bool(cfg, "presort", o->presort);
	gb_json_u64(cfg, "block_size", o->p.block_size);
	gb_json_u64(cfg, "cpu_workers", r->backend == GB_BACKEND_CPU ? o->p.cpu_workers : 0);
	gb_json_u64(cfg, "hash", o->p.hash);
	stm_cmd_engine_config(o, cfg);
	gb_json_num(cfg, "duration_s", o->duration);
	gb_json_num(cfg, "warmup_time_s", o->warmup_time);
	gb_json_bool(cfg, "paper", o->paper);
	gb_json_u64(cfg, "verify_threads", o->verify_threads);
	gb_opts_config(cfg, &o->run);
	o->workload->config(r->inst, cfg);
}

/* An engine's fields: its batches, commits, aborts by cause, where its time went, and its own. */
static void engine_json(cJSON *res, unsigned k, const void *arg)
{
	const stm_run *r = arg;
	const engine_run *er = &r->er[k];
	uint64_t commits = commits_of(er), aborts = aborts_of(er);
	uint64_t cycles = er->c.cycles_committed + er->c.cycles_wasted;
	cJSON *ab, *ph;

	gb_json_u64(res, "batches", er->batches);
	gb_json_u64(res, "transactions_per_batch", r->in.ntx);
	if (r->o.workload->stage) { /* staged: transactions_per_batch is the room of its largest stage */
		gb_json_u64(res, "passes", er->passes);
		gb_json_u64(res, "stages", er->stages);
	}
	gb_json_str(res, "timed_run", er->one_run ? "rounds" : "batches");
	gb_json_num(res, "device_seconds", er->seconds);
	gb_json_num(res, "wall_seconds", er->wall_seconds);
	gb_json_u64(res, "gpu_block_size", er->block_size);
	gb_json_u64(res, "commits", commits);
	gb_json_u64(res, "commits_update", er->c.commits_update);
	gb_json_u64(res, "commits_read_only", er->c.commits_readonly);
	ab = cJSON_AddObjectToObject(res, "aborts");
	gb_json_u64(ab, "total", aborts);
	gb_json_u64(ab, "conflict", er->c.aborts_locked + er->c.aborts_priority);
	gb_json_u64(ab, "conflict_locked", er->c.aborts_locked);
	gb_json_u64(ab, "conflict_priority", er->c.aborts_priority);
	gb_json_u64(ab, "validation", er->c.aborts_validation);
	gb_json_u64(ab, "semantic", er->c.aborts_semantic);
	gb_json_u64(res, "abandoned", er->abandoned);
	gb_json_u64(res, "retry_limit_reached", er->c.retry_limit_reached); /* every engine's: stm/stm.h */
	gb_json_num(res, "abort_rate", commits + aborts ? (double)aborts / (double)(commits + aborts) : 0);
	gb_json_num(res, "cycles_per_ns", er->cycles_per_ns > 0 ? er->cycles_per_ns : NAN); /* null: no batch ran */
	gb_json_num(res, "time_per_tx_ns", per_commit_ns(er, cycles));
	gb_json_num(res, "wasted_per_tx_ns", per_commit_ns(er, er->c.cycles_wasted));
	gb_json_num(res, "wasted_fraction", cycles ? (double)er->c.cycles_wasted / (double)cycles : NAN);
	/* null where the engine does not measure it (stm/stm.h, cycles_thread) */
	gb_json_num(res, "thread_time_per_tx_ns", er->c.cycles_thread ? per_commit_ns(er, er->c.cycles_thread) : NAN);
	ph = cJSON_AddObjectToObject(res, "committed_phases_ns");
	gb_json_num(ph, "read", per_commit_ns(er, er->c.cycles_read));
	gb_json_num(ph, "validate", per_commit_ns(er, er->c.cycles_validate));
	gb_json_num(ph, "commit", per_commit_ns(er, er->c.cycles_commit));
	gb_json_u64(res, "passes_max", er->c.passes_max);
	gb_json_u64(res, "threads_gave_up", er->c.threads_gave_up);
	gb_json_u64(res, "threads_stalled", er->c.threads_stalled);
	gb_json_u64(res, "threads_timed_out", er->c.threads_timed_out);
	if (er->e->report_json)
		er->e->report_json(&er->c, er->cycles_per_ns, &er->p, res);
}

/*
 * A timed run of rounds that stopped before its --duration: a thread gave up
 * (--max-passes) or stalled (--stall-timeout), and the round gate, which
 * waits for every thread, would never have opened again.
 */
static int halted(const engine_run *er)
{
	return er->one_run && (er->c.threads_gave_up || er->c.threads_stalled);
}

#define HALTED "the timed run stopped before --duration: threads gave up (--max-passes) or stalled " \
	       "(--stall-timeout), and every thread must finish a round before the next one starts"

/* The options that decide what an engine's run abandons, and --timeout when the deadline stopped threads. */
static void abandon_options(const engine_run *er, char *buf, size_t len)
{
	const char *own = er->e->options && er->e->options->abandons ? er->e->options->abandons : "";
	int timed_out = er->c.threads_timed_out > 0;

	snprintf(buf, len, "%s%s%s", own, own[0] && timed_out ? ", " : "", timed_out ? "--timeout" : "");
}

static void engine_text(char *buf, size_t len, unsigned k, const void *arg)
{
	snprintf(buf, len, "abandoned %" PRIu64, ((const stm_run *)arg)->er[k].abandoned);
}

/* The --algo engine's commits, aborts, what it abandoned, and its own lines. */
static void lines(FILE *out, const void *arg)
{
	const stm_run *r = arg;
	const engine_run *er = &r->er[0];
	uint64_t commits = commits_of(er), aborts = aborts_of(er);

	fprintf(out, "  %-12s %" PRIu64 " (%" PRIu64 " read-only) in %" PRIu64 " %s, %.3f s of device time\n",
		"commits", commits, er->c.commits_readonly, er->batches, er->one_run ? "runs" : "batches",
		er->seconds);
	fprintf(out, "  %-12s %" PRIu64 " (conflict %" PRIu64 ", validation %" PRIu64 ", semantic %" PRIu64
		"), abort rate %.2f%%\n", "aborts", aborts, er->c.aborts_locked + er->c.aborts_priority,
		er->c.aborts_validation, er->c.aborts_semantic,
		commits + aborts ? 100.0 * aborts / (commits + aborts) : 0);
	if (r->o.workload->stage)
		fprintf(out, "  %-12s %" PRIu64 " complete, %" PRIu64 " %s in them\n", "passes", er->passes, er->stages,
			r->o.workload->stage_name);
	if (er->abandoned) {
		char see[96];
		abandon_options(er, see, sizeof(see));
		fprintf(out, "  %-12s %" PRIu64 " transactions never committed: WARNING, the throughput\n"
			"               counts only the others (see %s)\n", "abandoned", er->abandoned, see);
	} else
		fprintf(out, "  %-12s 0\n", "abandoned");
	if (halted(er))
		fprintf(out, "  %-12s runs of %.3g s on average, not --duration %g s: WARNING,\n"
			"               %" PRIu64 " threads gave up (--max-passes), %" PRIu64 " stalled (--stall-timeout),\n"
			"               and a round waits for every thread\n", "halted",
			er->seconds / (double)(er->batches ? er->batches : 1), r->o.duration, er->c.threads_gave_up,
			er->c.threads_stalled);
	if (er->e->report_lines)
		er->e->report_lines(&er->c, er->cycles_per_ns, &er->p, out);
}

/* The --algo engine's batches, and the oracle's measures and checksum of its last verified one. */
static void verification_json(cJSON *ver, const void *arg)
{
	const stm_run *r = arg;
	const engine_run *er = &r->er[0];
	const stm_check *facts;
	char hex[24];
	unsigned f;

	gb_json_u64(ver, "batches_total", er->batches);
	if (!r->ms->m[0].units_checked)
		return;
	if (er->ops && er->ops->fetch_results && r->o.workload->verify_results)
		gb_json_u64(ver, "read_only_results_checked", r->results_checked);
	/* a staged workload reports its last verified pass, once it has one */
	facts = er->pass_chk.nfacts ? &er->pass_chk : &er->chk;
	for (f = 0; f < facts->nfacts; f++)
		gb_json_num(ver, facts->facts[f].name, facts->facts[f].value);
	snprintf(hex, sizeof(hex), "%016llx",
		 (unsigned long long)(er->pass_chk.nfacts ? er->pass_checksum : er->checksum));
	gb_json_str(ver, r->o.workload->checksum_key, hex);
}

void stm_cmd_view(gb_measure *ms, void *arg, gb_result_view *v)
{
	stm_run *r = arg;
	const stm_opts *o = &r->o;
	const stm_workload *w = o->workload;
	const engine_run *er0 = &r->er[0];
	int gpu = r->backend == GB_BACKEND_GPU;
	char what[128];

	(void)ms;
	w->describe(r->inst, what, sizeof(what));
	snprintf(r->headline, sizeof(r->headline), "%s on %s, %s backend%s%s%s, %u threads, %s, hash %u", o->algo,
		 w->head.name, gb_backend_name(r->backend), gpu ? " (" : "", gpu ? r->dev.name : "", gpu ? ")" : "",
		 o->p.threads, what, o->p.hash);
	snprintf(r->checked_what, sizeof(r->checked_what), "%s%s%s%s", er0->one_run ? "runs: " : "batches ",
		 er0->one_run ? w->checked_counts : w->checked_batch,
		 r->results_checked ? "; " : "", r->results_checked ? w->checked_results : "");
	*v = (gb_result_view){
		.headline = r->headline,
		.entries_key = "compare",
		.first_in_results = 1,
		.name_key = "algo",
		.rate_key = "throughput_tx_per_s",
		.rate_unit = "committed tx/s",
		.rate_tracked = 1,
		.speedup_key = "speedup_of_algo",
		.checked_key = "batches_verified",
		.checked_what = r->checked_what,
		.units = er0->batches,
		.method = er0->one_run ? w->method_counts : w->method_batch,
		.entry_json = engine_json,
		.entry_text = engine_text,
		.lines = lines,
		.verification_json = verification_json,
		.arg = r,
	};
}

int stm_cmd_report(stm_run *r, gb_measure *ms, int argc, char **argv)
{
	const stm_opts *o = &r->o;
	int gpu = r->backend == GB_BACKEND_GPU, rc;
	gb_result_view view;
	gb_report rpt;
	unsigned k;

	gb_report_init(&rpt, "stm", argc, argv);
	gb_report_set_device(&rpt, r->backend, gpu ? &r->dev : NULL, (int)o->p.cpu_workers);
	fill_config(rpt.config, r);
	for (k = 0; k < o->nengines; k++) {
		const engine_run *er = &r->er[k];
		const char *name = k ? er->e->head.name : "", *sep = k ? ": " : "";
		if (er->abandoned)
			gb_report_warn(&rpt, "%s%s%" PRIu64 " transactions were abandoned (never committed%s): the "
				       "throughput counts only the others", name, sep, er->abandoned,
				       er->c.retry_limit_reached ? ", some given up at --retry-limit" : "");
		if (halted(er))
			gb_report_warn(&rpt, "%s%s%s", name, sep, HALTED);
	}
	stm_cmd_view(ms, r, &view);
	rc = gb_report_finish_to(&rpt, o->run.json, ms, &view);
	gb_report_free(&rpt);
	return rc;
}
