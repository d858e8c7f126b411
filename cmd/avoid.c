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
#include "common/impl.h"
#include "common/measure.h"
#include "common/memory.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/stop.h"
#include "common/timer.h"
#include "deadlock/pba_engine.h"
#include "workloads/deadlock/pba_gen.h"
#include "workloads/deadlock/pba_oracle.h"
#include "workloads/deadlock/pba_trace.h"

#define MAX_IMPLS GB_MAX_IMPLS

static const gb_registry registry = {
	.what = "implementation",
	.picked_by = "--impl, --compare",
	.entries = (const void *const *)pba_engines,
	.gpu_default = "gpu",
	.cpu_default = "cpu-fast",
};

typedef struct avoid_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *impl_name, *trace, *decisions;
	int workload;
	uint64_t procs, res, events;
	double unsafe_share;
	gb_impl_choice impl;               /* pba_engines: [0] is --impl, the rest --compare */
	pba_gen_config gen;
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
	gb_registry_help(out, &registry);
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

	memset(o, 0, sizeof(o[0]));
	gb_opts_parse(&spec, o, given, argc, argv);
	o->gen.procs = (uint32_t)o->procs;
	o->gen.res = (uint32_t)o->res;
	o->gen.events = o->events;
	o->gen.workload = (unsigned)o->workload;
	o->gen.seed = o->run.seed;
	o->gen.unsafe_share = o->unsafe_share;
	{
		const gb_path_use paths[] = {
			{.opt = "trace", .path = o->trace, .is_input = 1},
			{.opt = "json", .path = o->run.json},
			{.opt = "decisions", .path = o->decisions},
		};
		gb_paths_check("avoid", paths, 3);
	}
	if (o->trace && (given[ROW_WORKLOAD] || given[ROW_UNSAFE] || given[ROW_PROCS] || given[ROW_RES] ||
			 given[ROW_EVENTS] || gb_opts_given(&spec, given, "seed")))
		gb_die(GB_EXIT_USAGE, "--trace replays a stream: --workload, --procs, --res, --events, "
				      "--seed and --unsafe-share apply only to generated ones");
	if (given[ROW_UNSAFE] && o->gen.workload != PBA_UNSAFE_MIX)
		gb_die(GB_EXIT_USAGE, "option --unsafe-share applies only to --workload unsafe-mix");
	gb_impl_choose(&registry, NULL, o->impl_name, o->run.compare, (gb_backend)o->run.backend, &o->impl);
	if (o->gen.events * o->gen.res > (1ull << 31))
		gb_die(GB_EXIT_USAGE, "--events %llu x --res %u is above the %llu-amount stream limit",
		       (unsigned long long)o->gen.events, o->gen.res, 1ull << 31);
	if ((uint64_t)o->gen.procs * o->gen.res > PBA_MAX_CELLS)
		gb_die(GB_EXIT_USAGE, "--procs %u x --res %u is above the %llu-cell matrix limit",
		       o->gen.procs, o->gen.res, PBA_MAX_CELLS);
}

/* What one implementation did in its last repetition: the details the report gives beside its times. */
typedef struct avoid_impl {
	const pba_engine *e;
	double *lat[2];          /* per event: request, release */
	uint64_t nlat[2];
	double phase[PBA_NPHASES];
	uint64_t outcomes[PBA_NOUTCOMES];
	uint64_t iterations_sum, iterations_max;
	int state_checked, state_ok; /* the final state was compared with the oracle's, and matched */
	uint8_t *outcome;        /* per event */
} avoid_impl;

/* What the repetitions share. */
typedef struct avoid_run {
	const avoid_opts *o;
	const pba_system *init, *final; /* the oracle's final state */
	const pba_events *ev;
	const uint8_t *expect;          /* the oracle's outcomes; NULL without verification */
	avoid_impl x[MAX_IMPLS];
	char headline[256];
} avoid_run;

/* Every --verify-every-th decision and the final state of ctx against the oracle's. */
/* An implementation's outcomes beside the oracle's. */
typedef struct outcomes {
	const uint8_t *got, *expect;
} outcomes;

static int outcome_differs(uint64_t e, const void *arg)
{
	const outcomes *o = arg;
	return o->got[e] != o->expect[e];
}

static const char *outcome_got(uint64_t e, const void *arg)
{
	return pba_outcome_name(((const outcomes *)arg)->got[e]);
}

static const char *outcome_expected(uint64_t e, const void *arg)
{
	return pba_outcome_name(((const outcomes *)arg)->expect[e]);
}

static void check(gb_measure *ms, unsigned k, avoid_run *a, void *ctx, gb_rep_out *out)
{
	avoid_impl *x = &a->x[k];
	const outcomes o = {.got = x->outcome, .expect = a->expect};
	const gb_unit_check c = {.unit = "event", .differs = outcome_differs, .got = outcome_got,
				 .oracle = outcome_expected, .arg = &o};
	pba_system got;

	gb_measure_check_units(ms, k, a->ev->count, &c, out);
	pba_system_init(&got, a->init->procs, a->init->res);
	x->e->fetch(ctx, &got);
	x->state_checked = 1;
	x->state_ok = pba_system_equal(&got, a->final);
	pba_system_free(&got);
	if (!x->state_ok)
		gb_measure_wrong(ms, k, "%s ends in a state different from the oracle's", x->e->head.name);
}

/* One repetition of the whole stream on a fresh engine; the last one keeps its details. */
static gb_rep_end avoid_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	avoid_run *a = arg;
	avoid_impl *x = &a->x[k];
	const pba_events *ev = a->ev;
	uint32_t J = a->init->res;
	void *ctx = x->e->open(a->init);
	uint64_t t0 = gb_now_ns(), e;

	if (rep->last) {
		memset(x->phase, 0, sizeof(x->phase));
		memset(x->outcomes, 0, sizeof(x->outcomes));
		x->nlat[0] = x->nlat[1] = 0;
		x->iterations_sum = x->iterations_max = 0;
	}
	for (e = 0; e < ev->count; e++) {
		double ph[PBA_NPHASES] = {0};
		uint64_t t;
		unsigned r;
		if (gb_measure_timed_out(ms)) {
			x->e->close(ctx);
			return GB_REP_CUT;
		}
		t = gb_now_ns();
		r = x->e->apply(ctx, ev->type[e], ev->proc[e], ev->amount + e * J, ph);
		gb_measure_progress(ms, rep, e + 1, ev->count);
		if (rep->last) {
			uint32_t it = x->e->last_iterations(ctx);
			unsigned p;
			x->lat[ev->type[e]][x->nlat[ev->type[e]]++] = gb_seconds_since(t);
			for (p = 0; p < PBA_NPHASES; p++)
				x->phase[p] += ph[p];
			x->outcomes[r]++;
			x->outcome[e] = (uint8_t)r;
			x->iterations_sum += it;
			if (it > x->iterations_max)
				x->iterations_max = it;
		}
	}
	out->seconds = gb_seconds_since(t0);
	if (rep->check)
		check(ms, k, a, ctx, out);
	x->e->close(ctx);
	return GB_REP_DONE;
}

static void impl_json(cJSON *j, unsigned k, const void *arg)
{
	const avoid_run *a = arg;
	const avoid_impl *x = &a->x[k];
	cJSON *ph, *dec;
	unsigned p;

	gb_json_stats(j, "request_seconds", gb_stats_of(x->lat[PBA_REQUEST], x->nlat[PBA_REQUEST]));
	gb_json_stats(j, "release_seconds", gb_stats_of(x->lat[PBA_RELEASE], x->nlat[PBA_RELEASE]));
	ph = cJSON_AddObjectToObject(j, "phase_seconds");
	for (p = 0; p < PBA_NPHASES; p++)
		gb_json_num(ph, pba_phase_name(p), x->phase[p]);
	dec = cJSON_AddObjectToObject(j, "decisions");
	for (p = 0; p < PBA_NOUTCOMES; p++)
		gb_json_u64(dec, pba_outcome_name(p), x->outcomes[p]);
	gb_json_u64(j, "safety_steps_max", x->iterations_max);
	gb_json_num(j, "safety_steps_mean",
		    x->nlat[PBA_REQUEST] ? (double)x->iterations_sum / x->nlat[PBA_REQUEST] : 0);
	if (!a->o->run.verify)
		return;
	if (x->state_checked)
		gb_json_bool(j, "final_state_matches", x->state_ok);
	else
		cJSON_AddNullToObject(j, "final_state_matches");
}

static void impl_text(char *buf, size_t len, unsigned k, const void *arg)
{
	const avoid_impl *x = &((const avoid_run *)arg)->x[k];
	gb_stats req = gb_stats_of(x->lat[PBA_REQUEST], x->nlat[PBA_REQUEST]);

	snprintf(buf, len, "request median %.4g s, safety steps max %" PRIu64, req.median, x->iterations_max);
}

static void lines(FILE *out, const void *arg)
{
	const uint64_t *n = ((const avoid_run *)arg)->x[0].outcomes;

	fprintf(out, "  %-12s granted %" PRIu64 ", denied invalid %" PRIu64 ", unavailable %" PRIu64
		", unsafe %" PRIu64 ", released %" PRIu64 "\n", "decisions", n[PBA_GRANTED],
		n[PBA_DENIED_INVALID], n[PBA_DENIED_UNAVAILABLE], n[PBA_DENIED_UNSAFE], n[PBA_RELEASED]);
}

/* Per cell of a procs x res matrix: maximum, allocation and need in the initial state, the
 * oracle's, the engine's and the fetched copy; per event its amounts, type, process, outcome
 * and two latencies. */
static void check_memory(const avoid_opts *o)
{
	gb_memory_term host[] = {
		{.opt = "procs", .value = o->gen.procs, .bytes_each = 4 * 3 * sizeof(int32_t), .opt2 = "res",
		 .value2 = o->gen.res},
		{.opt = "events", .value = o->gen.events, .bytes_each = sizeof(int32_t), .opt2 = "res",
		 .value2 = o->gen.res},
		{.opt = "events", .value = o->gen.events, .bytes_each = 6 + 2 * sizeof(double)},
	};
	gb_memory_fit("avoid", "host", gb_host_memory_available(), 0, host, 3);
	if (o->impl.gpu) {
		gb_device_info dev;
		gb_memory_term device[] = {
			{.opt = "procs", .value = o->gen.procs, .bytes_each = 3 * sizeof(int32_t), .opt2 = "res",
			 .value2 = o->gen.res},
		};
		if (gb_device_query(gb_device_current(), &dev) == 0)
			gb_memory_fit("avoid", "device", dev.global_mem_bytes, 0, device, 1);
	}
}

static void fill_config(cJSON *cfg, const avoid_opts *o, const pba_system *init, const pba_events *ev)
{
	gb_json_str(cfg, "workload", o->trace ? "trace" : pba_workload_names[o->gen.workload]);
	gb_json_str(cfg, "trace", o->trace ? o->trace : "");
	gb_json_u64(cfg, "procs", init->procs);
	gb_json_u64(cfg, "res", init->res);
	gb_json_u64(cfg, "events", ev->count);
	if (o->trace)
		cJSON_AddNullToObject(cfg, "seed");
	else
		gb_json_u64(cfg, "seed", o->gen.seed);
	if (!o->trace && o->gen.workload == PBA_UNSAFE_MIX)
		gb_json_num(cfg, "unsafe_share", o->gen.unsafe_share);
	else
		cJSON_AddNullToObject(cfg, "unsafe_share");
	gb_opts_config(cfg, &o->run);
	gb_json_u64(cfg, "matrix_bytes", 3ull * init->procs * init->res * sizeof(int32_t));
}

/* The summary's and the report's view of what finished; what a runtime failure shows too. */
static void view_of(gb_measure *ms, void *arg, gb_result_view *v)
{
	avoid_run *a = arg;
	const avoid_opts *o = a->o;
	uint64_t n = a->ev->count;

	snprintf(a->headline, sizeof(a->headline), "%s, %u processes x %u resources, %" PRIu64 " events (%s)",
		 ms->m[0].name, a->init->procs, a->init->res, n, o->trace ? o->trace : pba_workload_names[o->gen.workload]);
	*v = (gb_result_view){
		.headline = a->headline,
		GB_VIEW_EVENT_STREAM(n),
		.checked_what = "decisions and the final state checked against the oracle",
		.method = "every --verify-every-th decision and the final state against the sequential oracle",
		.entry_json = impl_json,
		.entry_text = impl_text,
		.lines = lines,
		.arg = a,
	};
}

static int run(int argc, char **argv)
{
	avoid_opts o;
	avoid_run *a = gb_xcalloc(1, sizeof(*a), "run state");
	gb_measure ms;
	pba_system init, final;
	pba_events ev;
	uint8_t *expect = NULL;
	gb_report rpt;
	char err[512];
	uint64_t e;
	unsigned k;
	int rc;

	parse(&o, argc, argv);
	gb_measure_init(&ms, "avoid", &o.run, GB_CHECK_LAST, 0);
	if (o.trace) {
		if (pba_trace_read(o.trace, &init, &ev, err, sizeof(err)) != 0) {
			gb_stop_exit_if_requested("reading the trace");
			gb_die(GB_EXIT_USAGE, "avoid: %s", err);
		}
	} else {
		check_memory(&o);
		if (pba_generate(&o.gen, &init, &ev, err, sizeof(err)) != 0) {
			gb_stop_exit_if_requested("generation");
			gb_die(GB_EXIT_USAGE, "avoid: %s", err);
		}
	}

	/* The oracle's decisions and final state, computed once. */
	pba_system_init(&final, init.procs, init.res);
	pba_system_copy(&final, &init);
	if (o.run.verify) {
		expect = gb_xmalloc(ev.count, "oracle outcomes");
		for (e = 0; e < ev.count && !gb_measure_timed_out(&ms); e++)
			expect[e] = (uint8_t)pba_oracle_apply(&final, ev.type[e], ev.proc[e], ev.amount + e * init.res);
	}
	a->o = &o;
	a->init = &init;
	a->final = &final;
	a->ev = &ev;
	a->expect = expect;
	for (k = 0; k < o.impl.n; k++) {
		avoid_impl *x = &a->x[k];
		x->e = o.impl.e[k];
		gb_measure_add(&ms, x->e->head.name);
		x->lat[0] = gb_xcalloc(ev.count, sizeof(double), "timings");
		x->lat[1] = gb_xcalloc(ev.count, sizeof(double), "timings");
		x->outcome = gb_xcalloc(ev.count, 1, "outcomes");
	}
	gb_report_on_failure(&ms, view_of, a, o.run.json);
	for (k = 0; k < ms.n; k++)
		gb_measure_run(&ms, k, avoid_rep, a);
	if (o.decisions && !ms.incomplete &&
	    pba_decisions_write(o.decisions, &ev, a->x[0].outcome, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "avoid: %s", err);

	gb_report_init(&rpt, "avoid", argc, argv);
	gb_report_set_machine(&rpt, o.impl.gpu, 1);
	fill_config(rpt.config, &o, &init, &ev);
	{
		gb_result_view view;
		view_of(&ms, a, &view);
		rc = gb_report_finish_to(&rpt, o.run.json, &ms, &view);
	}
	gb_report_free(&rpt);
	for (k = 0; k < ms.n; k++) {
		free(a->x[k].lat[0]);
		free(a->x[k].lat[1]);
		free(a->x[k].outcome);
	}
	free(a);
	gb_measure_free(&ms);
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
	.registry = &registry,
};
