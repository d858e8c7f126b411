/*
 * gpubench avoid: deadlock avoidance with the parallel banker's algorithm
 * (Abell's thesis, chapter 5). Replays a stream of resource requests and
 * releases through one implementation (--impl), optionally others beside it
 * (--compare), checks every decision against the oracle and reports times.
 */
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/backend.h"
#include "common/device.h"
#include "common/error.h"
#include "common/memory.h"
#include "common/impl.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/progress.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "deadlock/pba_engine.h"
#include "workloads/pba_gen.h"
#include "workloads/pba_oracle.h"
#include "workloads/pba_trace.h"

#define MAX_IMPLS GB_MAX_IMPLS

static const gb_impl_table impl_table = {
	.what = "implementation",
	.entries = (const void *const *)pba_engines,
	.name_at = offsetof(pba_engine, name),
	.summary_at = offsetof(pba_engine, summary),
	.gpu_flag_at = offsetof(pba_engine, needs_gpu),
	.gpu_default = "gpu",
	.cpu_default = "cpu-fast",
};

typedef struct avoid_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *impl_name, *trace, *decisions;
	int workload;
	uint64_t procs, res, events;
	double unsafe_share;
	const pba_engine *impl[MAX_IMPLS]; /* [0] is --impl, the rest --compare */
	unsigned nimpl;
	pba_gen_config gen;
	int gpu; /* some implementation runs on the GPU */
} avoid_opts;

#define AT(field) offsetof(avoid_opts, field)

enum { ROW_IMPL, ROW_WORKLOAD, ROW_UNSAFE, ROW_PROCS, ROW_RES, ROW_EVENTS, ROW_TRACE, ROW_DECISIONS, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_IMPL] = {.name = "impl", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = AT(impl_name),
		      .help = "implementation, one of those below (default gpu, or cpu-fast when no GPU is "
			      "found)"},
	[ROW_WORKLOAD] = {.name = "workload", .kind = GB_OPT_CHOICE, .metavar = "NAME",
			  .choices = pba_workload_names, .def = "worst-case", .offset = AT(workload),
			  .help = "worst-case: every request needs I-1 safety iterations (section 5.4); "
				  "random; unsafe-mix: a chosen share of the requests is unsafe"},
	[ROW_UNSAFE] = {.name = "unsafe-share", .kind = GB_OPT_REAL, .metavar = "F", .flo = 0, .fhi = 1,
			.def = "0.25", .offset = AT(unsafe_share),
			.help = "unsafe-mix: share of the requests made unsafe"},
	[ROW_PROCS] = {.name = "procs", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = 1u << 20,
		       .def = "1024", .offset = AT(procs), .help = "processes"},
	[ROW_RES] = {.name = "res", .kind = GB_OPT_UINT, .metavar = "M", .lo = 1, .hi = 1u << 16, .def = "256",
		     .offset = AT(res), .help = "resources"},
	[ROW_EVENTS] = {.name = "events", .kind = GB_OPT_UINT, .metavar = "E", .lo = 1, .hi = 100000000,
			.def = "20", .offset = AT(events), .help = "events in the generated stream"},
	[ROW_TRACE] = {.name = "trace", .kind = GB_OPT_TEXT, .metavar = "FILE", .offset = AT(trace),
		       .help = "replay FILE instead of generating (docs/avoid-trace.md; '-' for stdin); a bad "
			       "line exits 2 naming it"},
	[ROW_DECISIONS] = {.name = "decisions", .kind = GB_OPT_TEXT, .metavar = "FILE", .offset = AT(decisions),
			   .help = "write one line per event with its outcome ('-': stdout)"},
};

static void list_impls(FILE *out)
{
	fputs("\nImplementations (--impl, --compare):\n", out);
	gb_impl_help(out, &impl_table, 2, 10);
}

static const gb_opt_spec spec = {
	.cmd = "avoid",
	.intro = "Deadlock avoidance with the parallel banker's algorithm (PBA, Abell 2013, chapter 5): "
		 "every request is granted or denied (invalid: above the process's need; unavailable; "
		 "unsafe: no H-safe sequence would remain), every release is applied. Each decision is "
		 "checked against an independent oracle.",
	.rows = rows,
	.nrows = NROWS,
	.unit = "stream",
	.check_unit = "decision (and always the final state)",
	.compare_help = "other implementations run on the same events in the same process, e.g. cpu; "
			"the report gives the speedup of --impl over each",
	.extra_help = list_impls,
	.example = "Example: gpubench avoid --procs 2048 --res 256 --compare cpu",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

static void parse(avoid_opts *o, int argc, char **argv)
{
	unsigned char given[NROWS + GB_OPTS_SHARED];
	gb_impl_choice chosen;
	unsigned k;

	memset(o, 0, sizeof(o[0]));
	gb_opts_parse(&spec, o, given, argc, argv);
	o->gen.procs = (uint32_t)o->procs;
	o->gen.res = (uint32_t)o->res;
	o->gen.events = o->events;
	o->gen.workload = (unsigned)o->workload;
	o->gen.seed = o->run.seed;
	o->gen.unsafe_share = o->unsafe_share;
	{
		const gb_path_use paths[] = {{"trace", o->trace, 1}, {"json", o->run.json, 0},
					     {"decisions", o->decisions, 0}};
		gb_paths_check("avoid", paths, 3);
	}
	if (o->trace && (given[ROW_WORKLOAD] || given[ROW_UNSAFE] || given[ROW_PROCS] || given[ROW_RES] ||
			 given[ROW_EVENTS] || gb_opts_given(&spec, given, "seed")))
		gb_die(GB_EXIT_USAGE, "--trace replays a stream: --workload, --procs, --res, --events, "
				      "--seed and --unsafe-share apply only to generated ones");
	if (given[ROW_UNSAFE] && o->gen.workload != PBA_UNSAFE_MIX)
		gb_die(GB_EXIT_USAGE, "option --unsafe-share applies only to --workload unsafe-mix");
	gb_impl_choose(&impl_table, o->impl_name, o->run.compare, (gb_backend)o->run.backend, &chosen);
	for (k = 0; k < chosen.n; k++)
		o->impl[k] = chosen.e[k];
	o->nimpl = chosen.n;
	o->gpu = chosen.gpu;
	if (o->gen.events * o->gen.res > (1ull << 31))
		gb_die(GB_EXIT_USAGE, "--events %llu x --res %u is above the %llu-amount stream limit",
		       (unsigned long long)o->gen.events, o->gen.res, 1ull << 31);
	if ((uint64_t)o->gen.procs * o->gen.res > (1ull << 31))
		gb_die(GB_EXIT_USAGE, "--procs %u x --res %u is above the %llu-cell matrix limit",
		       o->gen.procs, o->gen.res, 1ull << 31);
}

/* What one implementation did over all repetitions. */
typedef struct impl_run {
	const pba_engine *e;
	double *total;           /* per repetition: seconds for the whole stream */
	gb_stats stream;         /* of total */
	double *lat[2];          /* per event of the last repetition: request, release */
	uint64_t nlat[2];
	double phase[PBA_NPHASES];
	uint64_t outcomes[PBA_NOUTCOMES];
	uint64_t iterations_sum, iterations_max, mismatches, first_mismatch;
	int state_ok;
	int checked;             /* the last repetition finished and was checked */
	uint32_t reps_done;      /* timed repetitions that finished */
	uint8_t *outcome;        /* per event, last repetition */
} impl_run;

/* Whether --timeout has passed since the run started; it sets *incomplete when it has. */
static int timed_out(const avoid_opts *o, uint64_t t_start, int *incomplete)
{
	if (gb_seconds_since(t_start) > o->run.timeout)
		*incomplete = 1;
	return *incomplete;
}

/*
 * --warmup untimed and --reps timed repetitions of the whole stream, each on
 * a fresh engine; the last timed one is checked against the oracle (every
 * --verify-every-th decision, and the final state). Stops at --timeout.
 */
static void run_impl(impl_run *ir, const avoid_opts *o, const pba_system *init, const pba_events *ev,
		     const uint8_t *expect, const pba_system *final, uint64_t t_start, int *incomplete)
{
	uint32_t J = init->res, rep, nrep = (uint32_t)(o->run.warmup + o->run.reps);
	uint64_t e;
	gb_progress pg;

	ir->total = gb_xcalloc(o->run.reps, sizeof(double), "timings");
	ir->lat[0] = gb_xcalloc(ev->count, sizeof(double), "timings");
	ir->lat[1] = gb_xcalloc(ev->count, sizeof(double), "timings");
	ir->outcome = gb_xcalloc(ev->count, 1, "outcomes");
	gb_progress_start(&pg, ir->e->name);
	for (rep = 0; rep < nrep && !timed_out(o, t_start, incomplete); rep++) {
		void *ctx = ir->e->open(init);
		uint64_t t0 = gb_now_ns();
		int last = rep + 1 == nrep;
		if (last) {
			memset(ir->phase, 0, sizeof(ir->phase));
			memset(ir->outcomes, 0, sizeof(ir->outcomes));
			ir->nlat[0] = ir->nlat[1] = 0;
			ir->iterations_sum = ir->iterations_max = 0;
		}
		for (e = 0; e < ev->count && !timed_out(o, t_start, incomplete); e++) {
			double ph[PBA_NPHASES] = {0};
			uint64_t t = gb_now_ns();
			unsigned r = ir->e->apply(ctx, ev->type[e], ev->proc[e], ev->amount + e * J, ph);
			gb_progress_update(&pg, (uint64_t)rep * ev->count + e + 1, (uint64_t)nrep * ev->count);
			if (last) {
				uint32_t it = ir->e->last_iterations(ctx);
				unsigned k;
				ir->lat[ev->type[e]][ir->nlat[ev->type[e]]++] = gb_seconds_since(t);
				for (k = 0; k < PBA_NPHASES; k++)
					ir->phase[k] += ph[k];
				ir->outcomes[r]++;
				ir->outcome[e] = (uint8_t)r;
				ir->iterations_sum += it;
				if (it > ir->iterations_max)
					ir->iterations_max = it;
			}
		}
		if (*incomplete) {
			ir->e->close(ctx);
			break;
		}
		if (rep >= o->run.warmup)
			ir->total[ir->reps_done++] = gb_seconds_since(t0);
		if (last && expect) {
			pba_system got;
			/* the step is clamped so that a --verify-every near 2^64 cannot wrap e around */
			for (e = 0; e < ev->count; e = ev->count - e > o->run.verify_every ? e + o->run.verify_every
											    : ev->count)
				if (ir->outcome[e] != expect[e] && ir->mismatches++ == 0)
					ir->first_mismatch = e;
			pba_system_init(&got, init->procs, init->res);
			ir->e->fetch(ctx, &got);
			ir->state_ok = pba_system_equal(&got, final);
			pba_system_free(&got);
			ir->checked = 1;
		}
		ir->e->close(ctx);
	}
	gb_progress_end(&pg);
	ir->stream = gb_stats_of(ir->total, ir->reps_done);
}

static void free_impl(impl_run *ir)
{
	free(ir->total);
	free(ir->lat[0]);
	free(ir->lat[1]);
	free(ir->outcome);
}

static int run(int argc, char **argv)
{
	avoid_opts o;
	pba_system init, final;
	pba_events ev;
	uint8_t *expect = NULL;
	impl_run ir[MAX_IMPLS];
	gb_report rpt;
	char err[512];
	cJSON *impls;
	unsigned k, p;
	uint64_t e, t_start, checked = 0;
	int bad = 0, rc = 0, incomplete = 0;

	parse(&o, argc, argv);
	t_start = gb_now_ns(); /* --timeout counts from here: generation and the oracle included */
	if (!o.trace) {
		/* Per cell of a procs x res matrix: maximum, allocation and need in the initial
		 * state, the oracle's, the engine's and the fetched copy; per event its amounts,
		 * type, process, outcome and two latencies. */
		gb_memory_term host[] = {
			{"procs", o.gen.procs, (uint64_t)o.gen.res * 4 * 3 * sizeof(int32_t)},
			{"events", o.gen.events, (uint64_t)o.gen.res * sizeof(int32_t) + 6 + 2 * sizeof(double)},
		};
		gb_memory_fit("avoid", "host", gb_host_memory_available(), 0, host, 2);
		if (o.gpu) {
			gb_device_info dev;
			gb_memory_term device[] = {
				{"procs", o.gen.procs, (uint64_t)o.gen.res * 3 * sizeof(int32_t)},
			};
			if (gb_device_query(0, &dev) == 0)
				gb_memory_fit("avoid", "device", dev.global_mem_bytes, 0, device, 1);
		}
	}
	if (o.trace) {
		if (pba_trace_read(o.trace, &init, &ev, err, sizeof(err)) != 0)
			gb_die(GB_EXIT_USAGE, "avoid: %s", err);
		o.gen.procs = init.procs;
		o.gen.res = init.res;
		o.gen.events = ev.count;
	} else if (pba_generate(&o.gen, &init, &ev, err, sizeof(err)) != 0) {
		gb_die(GB_EXIT_USAGE, "avoid: %s", err);
	}

	/* The oracle's decisions and final state, computed once. */
	pba_system_init(&final, init.procs, init.res);
	pba_system_copy(&final, &init);
	if (o.run.verify) {
		expect = gb_xmalloc(ev.count, "oracle outcomes");
		for (e = 0; e < ev.count && !timed_out(&o, t_start, &incomplete); e++)
			expect[e] = (uint8_t)pba_oracle_apply(&final, ev.type[e], ev.proc[e],
							      ev.amount + e * init.res);
	}
	memset(ir, 0, sizeof(ir));
	for (k = 0; k < o.nimpl; k++) {
		ir[k].e = o.impl[k];
		run_impl(&ir[k], &o, &init, &ev, expect, &final, t_start, &incomplete);
		bad |= ir[k].checked && (ir[k].mismatches || !ir[k].state_ok);
	}
	if (ir[0].checked && ev.count)
		checked = (ev.count - 1) / o.run.verify_every + 1;
	if (o.decisions && !incomplete && pba_decisions_write(o.decisions, &ev, ir[0].outcome, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "avoid: %s", err);

	gb_report_init(&rpt, "avoid", argc, argv);
	gb_report_set_machine(&rpt, o.gpu, 1);
	gb_json_str(rpt.config, "impl", o.impl[0]->name);
	{
		cJSON *cmp = cJSON_AddArrayToObject(rpt.config, "compare");
		for (k = 1; k < o.nimpl; k++)
			cJSON_AddItemToArray(cmp, cJSON_CreateString(o.impl[k]->name));
	}
	gb_json_str(rpt.config, "workload", o.trace ? "trace" : pba_workload_names[o.gen.workload]);
	gb_json_str(rpt.config, "trace", o.trace ? o.trace : "");
	gb_json_u64(rpt.config, "procs", init.procs);
	gb_json_u64(rpt.config, "res", init.res);
	gb_json_u64(rpt.config, "events", ev.count);
	if (o.trace)
		cJSON_AddNullToObject(rpt.config, "seed");
	else
		gb_json_u64(rpt.config, "seed", o.gen.seed);
	if (!o.trace && o.gen.workload == PBA_UNSAFE_MIX)
		gb_json_num(rpt.config, "unsafe_share", o.gen.unsafe_share);
	else
		cJSON_AddNullToObject(rpt.config, "unsafe_share");
	gb_opts_config(rpt.config, &o.run);
	gb_json_u64(rpt.config, "matrix_bytes", 3ull * init.procs * init.res * sizeof(int32_t));

	impls = cJSON_AddArrayToObject(rpt.results, "impls");
	for (k = 0; k < o.nimpl; k++) {
		cJSON *j = cJSON_CreateObject(), *ph, *dec;
		gb_stats tot = ir[k].stream;
		gb_json_str(j, "impl", ir[k].e->name);
		gb_json_stats(j, "stream_seconds", tot);
		gb_json_num(j, "events_per_s", tot.median > 0 ? (double)ev.count / tot.median : 0);
		gb_json_stats(j, "request_seconds", gb_stats_of(ir[k].lat[PBA_REQUEST], ir[k].nlat[PBA_REQUEST]));
		gb_json_stats(j, "release_seconds", gb_stats_of(ir[k].lat[PBA_RELEASE], ir[k].nlat[PBA_RELEASE]));
		ph = cJSON_AddObjectToObject(j, "phase_seconds");
		for (p = 0; p < PBA_NPHASES; p++)
			gb_json_num(ph, pba_phase_name(p), ir[k].phase[p]);
		dec = cJSON_AddObjectToObject(j, "decisions");
		for (p = 0; p < PBA_NOUTCOMES; p++)
			gb_json_u64(dec, pba_outcome_name(p), ir[k].outcomes[p]);
		gb_json_u64(j, "safety_steps_max", ir[k].iterations_max);
		gb_json_num(j, "safety_steps_mean",
			    ir[k].nlat[PBA_REQUEST] ? (double)ir[k].iterations_sum / ir[k].nlat[PBA_REQUEST] : 0);
		if (k > 0)
			gb_json_num(j, "speedup_of_impl",
				    ir[0].stream.median > 0 ? tot.median / ir[0].stream.median : 0);
		gb_json_u64(j, "reps_completed", ir[k].reps_done);
		if (o.run.verify) {
			gb_json_u64(j, "mismatches", ir[k].mismatches);
			gb_json_bool(j, "final_state_matches", ir[k].state_ok);
		}
		cJSON_AddItemToArray(impls, j);
	}
	if (incomplete)
		gb_report_incomplete(&rpt);
	if (bad || (o.run.verify && ir[0].checked))
		gb_json_bool(rpt.verification, "verified", !bad);
	else
		cJSON_AddNullToObject(rpt.verification, "verified"); /* nothing was checked */
	gb_json_str(rpt.verification, "method",
		    o.run.verify ? "every --verify-every-th decision and the final state against the sequential "
				   "oracle" : "none");
	gb_json_u64(rpt.verification, "events_checked", checked);

	if (o.run.json && gb_report_write(&rpt, o.run.json) != 0)
		rc = GB_EXIT_RUNTIME;
	if (!rc && !gb_quiet && !(o.run.json && strcmp(o.run.json, "-") == 0)) {
		printf("gpubench avoid: %s, %u processes x %u resources, %" PRIu64 " events (%s)\n",
		       o.impl[0]->name, init.procs, init.res, ev.count,
		       o.trace ? o.trace : pba_workload_names[o.gen.workload]);
		for (k = 0; k < o.nimpl; k++) {
			gb_stats tot = ir[k].stream;
			char speed[128];
			gb_stats req = gb_stats_of(ir[k].lat[PBA_REQUEST], ir[k].nlat[PBA_REQUEST]);
			printf("  %-10s stream %.4g s (median of %u), request median %.4g s, "
			       "safety steps max %" PRIu64 "%s",
			       ir[k].e->name, tot.median, ir[k].reps_done, req.median, ir[k].iterations_max,
			       !ir[k].checked ? "" : (ir[k].mismatches || !ir[k].state_ok) ? ", WRONG" : ", verified");
			if (k > 0 && tot.median > 0)
				printf(", %s\n", gb_speedup_text(speed, sizeof(speed), o.impl[0]->name,
								 ir[0].stream.median, tot.median));
			else
				printf("\n");
		}
		printf("  decisions  granted %" PRIu64 ", denied invalid %" PRIu64 ", unavailable %" PRIu64
		       ", unsafe %" PRIu64 ", released %" PRIu64 "\n",
		       ir[0].outcomes[PBA_GRANTED], ir[0].outcomes[PBA_DENIED_INVALID],
		       ir[0].outcomes[PBA_DENIED_UNAVAILABLE], ir[0].outcomes[PBA_DENIED_UNSAFE],
		       ir[0].outcomes[PBA_RELEASED]);
		if (o.run.verify && ir[0].checked)
			printf("  verified   %s: %" PRIu64 " of %" PRIu64 " decisions and the final state checked "
			       "against the oracle\n", bad ? "FAILED" : "yes", checked, ev.count);
		else
			printf("  verified   not checked (%s)\n", o.run.verify ? "no repetition finished" : "--no-verify");
		if (incomplete)
			printf("  incomplete --timeout %g s reached\n", o.run.timeout);
	}
	if (!rc && bad) {
		for (k = 0; k < o.nimpl; k++)
			if (ir[k].mismatches)
				gb_warn("avoid: %s disagrees with the oracle on %" PRIu64 " events, first event %" PRIu64
					" (%s, oracle %s)", ir[k].e->name, ir[k].mismatches, ir[k].first_mismatch,
					pba_outcome_name(ir[k].outcome[ir[k].first_mismatch]),
					pba_outcome_name(expect[ir[k].first_mismatch]));
			else if (!ir[k].state_ok)
				gb_warn("avoid: %s ends in a state different from the oracle's", ir[k].e->name);
		rc = GB_EXIT_VERIFY;
	} else if (!rc && incomplete) {
		gb_warn("avoid: --timeout %g s reached; the report is marked incomplete", o.run.timeout);
		rc = GB_EXIT_RUNTIME;
	}
	gb_report_free(&rpt);
	for (k = 0; k < o.nimpl; k++)
		free_impl(&ir[k]);
	free(expect);
	pba_system_free(&init);
	pba_system_free(&final);
	pba_events_free(&ev);
	return rc;
}

const gb_command gb_cmd_avoid = {
	.name = "avoid",
	.summary = "deadlock avoidance: the parallel banker's algorithm (GPU-PBA)",
	.run = run,
	.help = help,
};
