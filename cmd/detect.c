/*
 * gpubench detect: deadlock detection on resource allocation graphs (Abell's
 * thesis, chapters 3 and 4). Replays a stream of resource events through a
 * detector (--algo, --impl), optionally others beside it (--compare), checks
 * the decisions against the oracle and reports times.
 */
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/device.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/measure.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "deadlock/rag.h"
#include "workloads/deadlock/rag_gen.h"
#include "workloads/deadlock/rag_oracle.h"
#include "workloads/deadlock/rag_trace.h"

#define MAX_IMPLS GB_MAX_IMPLS

static const char *const algos[] = {"osdda", "lmdda", NULL};

static const char *engine_algo(const void *e)
{
	return ((const rag_engine *)e)->algo;
}

/* The detectors of both algorithms, grouped by --algo. */
static const gb_registry registry = {
	.what = "detector",
	.picked_by = "--impl, --compare",
	.entries = (const void *const *)rag_engines,
	.group = engine_algo,
	.group_key = "algo",
	.gpu_default = "gpu",
	.cpu_default = "cpu-bits",
};

typedef struct detect_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	int algo_index;
	const char *algo, *impl_name, *units, *trace, *emit, *decisions;
	uint64_t procs, res, events;
	double release_share, deadlock_share;
	gb_impl_choice impl;               /* rag_engines: [0] is --impl, the rest --compare */
	rag_gen_config gen;
} detect_opts;

#define AT(field) offsetof(detect_opts, field)

enum { ROW_ALGO, ROW_IMPL, ROW_PROCS, ROW_RES, ROW_UNITS, ROW_EVENTS, ROW_RELEASE, ROW_DEADLOCK, ROW_TRACE,
       ROW_EMIT, ROW_DECISIONS, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_ALGO] = {.name = "algo", .kind = GB_OPT_CHOICE, .metavar = "NAME", .choices = algos, .def = "osdda",
		      .offset = AT(algo_index),
		      .help = "osdda (single-unit resources, chapter 3) or lmdda (multi-unit, chapter 4)"},
	[ROW_IMPL] = {.name = "impl", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = AT(impl_name),
		      .help = "detector of the --algo, one of those below (default gpu, or cpu-bits when no "
			      "GPU is found)"},
	[ROW_PROCS] = {.name = "procs", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1u << 20,
		       .def = "1024", .offset = AT(procs), .help = "processes"},
	[ROW_RES] = {.name = "res", .kind = GB_OPT_UINT, .metavar = "M", .lo = 1, .hi = 1u << 20, .def = "1024",
		     .offset = AT(res), .help = "resources"},
	[ROW_UNITS] = {.name = "units", .kind = GB_OPT_TEXT, .metavar = "U|LO-HI", .offset = AT(units),
		       .help = "lmdda: units of every resource, or a range drawn per resource (1..65535, "
			       "default 2); osdda's resources have 1"},
	[ROW_EVENTS] = {.name = "events", .kind = GB_OPT_UINT, .metavar = "E", .lo = 1, .hi = 100000000,
			.def = "2000", .offset = AT(events), .help = "events in the generated stream"},
	[ROW_RELEASE] = {.name = "release-share", .kind = GB_OPT_REAL, .metavar = "F", .flo = 0, .fhi = 1,
			 .def = "0.4", .offset = AT(release_share),
			 .help = "share of events that release a held unit"},
	[ROW_DEADLOCK] = {.name = "deadlock-share", .kind = GB_OPT_REAL, .metavar = "F", .flo = 0, .fhi = 1,
			  .def = "0.02", .offset = AT(deadlock_share),
			  .help = "share of requests made to close a cycle or knot when one can; 0 gives "
				  "streams without deadlocks"},
	[ROW_TRACE] = {.name = "trace", .kind = GB_OPT_TEXT, .metavar = "FILE", .offset = AT(trace),
		       .help = "replay FILE instead of generating (docs/detect-trace.md; '-' for stdin); a "
			       "bad line exits 2 naming it"},
	[ROW_EMIT] = {.name = "emit-trace", .kind = GB_OPT_TEXT, .metavar = "FILE", .offset = AT(emit),
		      .help = "write the stream as a trace that --trace replays"},
	[ROW_DECISIONS] = {.name = "decisions", .kind = GB_OPT_TEXT, .metavar = "FILE", .offset = AT(decisions),
			   .help = "write one line per event with its outcome ('-': stdout)"},
};

static void list_impls(FILE *out)
{
	gb_registry_help(out, &registry);
	gb_help_wrap(out, 0, 0, "gpu and gpu-graph run the same kernels: the thesis's launches with host "
		     "reads between them, or one CUDA graph per event; gpu-stream decides windows of "
		     "events a launch and has no time per event (docs/detect.md). lmdda's cpu "
		     "recomputes reachability in O(N^2 M^2) per release, as the thesis: keep it to about "
		     "128 x 128.");
}

static const gb_opt_spec spec = {
	.cmd = "detect",
	.intro = "Deadlock detection on resource allocation graphs (Abell 2013): every request is "
		 "granted, blocked, or refused as a deadlock (a cycle for OSDDA's single-unit "
		 "resources, a knot for LMDDA's multi-unit ones); every release frees its unit or hands "
		 "it to the waiting process with the lowest id. Each decision is checked against an "
		 "independent oracle.",
	.rows = rows,
	.nrows = NROWS,
	.unit = "stream",
	.check_unit = "decision",
	.compare_help = "other detectors run on the same events in the same process, e.g. cpu; the "
			"report gives the speedup of --impl over each",
	.extra_help = list_impls,
	.example = "Example: gpubench detect --algo osdda --procs 4096 --res 4096 --compare cpu",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

/* --units U or LO-HI */
static void parse_units(rag_gen_config *g, const char *text)
{
	const char *dash = strchr(text, '-');
	if (!dash) {
		g->units_lo = g->units_hi = gb_opt_u32("units", text, 1, 65535);
		return;
	}
	{
		char lo[32];
		size_t n = (size_t)(dash - text);
		if (n == 0 || n >= sizeof(lo))
			gb_die(GB_EXIT_USAGE, "option --units: '%s' is not U or LO-HI (1..65535)", text);
		memcpy(lo, text, n);
		lo[n] = 0;
		g->units_lo = gb_opt_u32("units", lo, 1, 65535);
		g->units_hi = gb_opt_u32("units", dash + 1, 1, 65535);
		if (g->units_hi < g->units_lo)
			gb_die(GB_EXIT_USAGE, "option --units: range %s is empty", text);
	}
}

static void parse(detect_opts *o, int argc, char **argv)
{
	unsigned char given[NROWS + GB_OPTS_SHARED];

	memset(o, 0, sizeof(o[0]));
	gb_opts_parse(&spec, o, given, argc, argv);
	o->algo = algos[o->algo_index];
	rag_gen_defaults(&o->gen);
	o->gen.procs = (uint32_t)o->procs;
	o->gen.res = (uint32_t)o->res;
	o->gen.events = o->events;
	o->gen.seed = o->run.seed;
	o->gen.release_share = o->release_share;
	o->gen.deadlock_share = o->deadlock_share;
	{
		const gb_path_use paths[] = {
			{.opt = "trace", .path = o->trace, .is_input = 1},
			{.opt = "json", .path = o->run.json},
			{.opt = "decisions", .path = o->decisions},
			{.opt = "emit-trace", .path = o->emit},
		};
		gb_paths_check("detect", paths, 4);
	}
	if (o->trace && (given[ROW_PROCS] || given[ROW_RES] || given[ROW_UNITS] || given[ROW_EVENTS] ||
			 given[ROW_RELEASE] || given[ROW_DEADLOCK] || gb_opts_given(&spec, given, "seed")))
		gb_die(GB_EXIT_USAGE, "--trace replays a stream: --procs, --res, --events, --units, "
				      "--seed, --release-share and --deadlock-share apply only to generated "
				      "ones");
	if (strcmp(o->algo, "lmdda") == 0) {
		if (o->units)
			parse_units(&o->gen, o->units);
		else
			o->gen.units_lo = o->gen.units_hi = 2;
	} else if (o->units) {
		gb_die(GB_EXIT_USAGE, "option --units: osdda's resources have one unit each (use --algo lmdda)");
	}
	gb_impl_choose(&registry, o->algo, o->impl_name, o->run.compare, (gb_backend)o->run.backend, &o->impl);
}

/* What one detector did in its last repetition: the details the report gives beside its times. */
typedef struct detect_impl {
	const rag_engine *e;
	double *lat[RAG_NOUTCOMES];      /* per event, by outcome */
	uint64_t nlat[RAG_NOUTCOMES];
	uint64_t bytes;
	rag_decision *got;
} detect_impl;

/* What the repetitions share. */
typedef struct detect_run {
	const detect_opts *o;
	uint32_t procs, res;
	const uint32_t *units;
	const rag_events *ev;
	const rag_decision *expect;      /* the oracle's; NULL without verification */
	detect_impl x[MAX_IMPLS];
	uint64_t counts[RAG_NOUTCOMES];  /* the --impl's decisions */
	char headline[256];
} detect_run;

/* A detector's decisions beside the oracle's. */
typedef struct decisions {
	const rag_decision *got, *expect;
} decisions;

static int decision_differs(uint64_t e, const void *arg)
{
	const decisions *d = arg;
	return d->got[e].outcome != d->expect[e].outcome || d->got[e].to != d->expect[e].to;
}

static const char *decision_got(uint64_t e, const void *arg)
{
	return rag_outcome_name(((const decisions *)arg)->got[e].outcome);
}

static const char *decision_expected(uint64_t e, const void *arg)
{
	return rag_outcome_name(((const decisions *)arg)->expect[e].outcome);
}

/* Every --verify-every-th decision against the oracle's. */
static void check(gb_measure *ms, unsigned k, const detect_run *d, gb_rep_out *out)
{
	const decisions dec = {.got = d->x[k].got, .expect = d->expect};
	const gb_unit_check c = {.unit = "event", .differs = decision_differs, .got = decision_got,
				 .oracle = decision_expected, .arg = &dec};

	gb_measure_check_units(ms, k, d->ev->count, &c, out);
}

/* One repetition of the whole stream on a fresh detector; the last one keeps its decisions and times. */
static gb_rep_end detect_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	detect_run *d = arg;
	detect_impl *x = &d->x[k];
	const rag_events *ev = d->ev;
	void *ctx = x->e->open(d->procs, d->res, d->units);
	uint64_t t0 = gb_now_ns(), e;

	if (rep->last)
		memset(x->nlat, 0, sizeof(x->nlat));
	/* a stream detector decides windows of events: no time per event */
	if (x->e->apply_stream)
		x->e->apply_stream(ctx, ev, x->got);
	for (e = 0; !x->e->apply_stream && e < ev->count; e++) {
		uint64_t t;
		rag_decision r;
		if (gb_measure_timed_out(ms)) {
			x->e->close(ctx);
			return GB_REP_CUT;
		}
		t = gb_now_ns();
		r = x->e->apply(ctx, ev->type[e], ev->proc[e], ev->res[e]);
		gb_measure_progress(ms, rep, e + 1, ev->count);
		if (rep->last && r.outcome < RAG_NOUTCOMES) {
			x->lat[r.outcome][x->nlat[r.outcome]++] = gb_seconds_since(t);
			x->got[e] = r;
		}
	}
	out->seconds = gb_seconds_since(t0);
	if (rep->last)
		x->bytes = x->e->bytes(ctx);
	x->e->close(ctx);
	if (rep->check)
		check(ms, k, d, out);
	return GB_REP_DONE;
}

static void impl_json(cJSON *j, unsigned k, const void *arg)
{
	const detect_impl *x = &((const detect_run *)arg)->x[k];
	cJSON *lat = cJSON_AddObjectToObject(j, "event_seconds");
	unsigned p;

	for (p = 0; p < RAG_NOUTCOMES; p++)
		gb_json_stats(lat, rag_outcome_name(p), gb_stats_of(x->lat[p], x->nlat[p]));
	gb_json_u64(j, "matrix_bytes", x->bytes);
}

static void impl_text(char *buf, size_t len, unsigned k, const void *arg)
{
	snprintf(buf, len, "%.4g MB of matrices", ((const detect_run *)arg)->x[k].bytes / 1e6);
}

static void lines(FILE *out, const void *arg)
{
	const uint64_t *n = ((const detect_run *)arg)->counts;

	fprintf(out, "  %-12s granted %" PRIu64 ", blocked %" PRIu64 ", deadlock %" PRIu64 ", released %" PRIu64
		", regranted %" PRIu64 "\n", "decisions", n[RAG_GRANTED], n[RAG_BLOCKED], n[RAG_DEADLOCK],
		n[RAG_RELEASED], n[RAG_REGRANTED]);
}

static void fill_config(cJSON *cfg, const detect_opts *o, const detect_run *d)
{
	uint32_t j, lo = UINT32_MAX, hi = 0;

	gb_json_str(cfg, "algo", o->algo);
	gb_json_str(cfg, "workload", o->trace ? "trace" : "generated");
	gb_json_str(cfg, "trace", o->trace ? o->trace : "");
	gb_json_u64(cfg, "procs", d->procs);
	gb_json_u64(cfg, "res", d->res);
	for (j = 0; j < d->res; j++) {
		lo = d->units[j] < lo ? d->units[j] : lo;
		hi = d->units[j] > hi ? d->units[j] : hi;
	}
	gb_json_u64(cfg, "units_min", lo);
	gb_json_u64(cfg, "units_max", hi);
	gb_json_u64(cfg, "events", d->ev->count);
	if (o->trace) {
		cJSON_AddNullToObject(cfg, "seed");
		cJSON_AddNullToObject(cfg, "release_share");
		cJSON_AddNullToObject(cfg, "deadlock_share");
	} else {
		gb_json_u64(cfg, "seed", o->gen.seed);
		gb_json_num(cfg, "release_share", o->gen.release_share);
		gb_json_num(cfg, "deadlock_share", o->gen.deadlock_share);
	}
	gb_opts_config(cfg, &o->run);
}

static int run(int argc, char **argv)
{
	detect_opts o;
	detect_run *d = gb_xcalloc(1, sizeof(*d), "run state");
	gb_measure ms;
	uint32_t procs, res, *units = NULL;
	rag_events ev;
	rag_decision *expect = NULL;
	gb_report rpt;
	char err[512];
	cJSON *dec;
	uint64_t e;
	unsigned k, p;
	int rc;

	parse(&o, argc, argv);
	gb_measure_init(&ms, "detect", &o.run, GB_CHECK_LAST, 0);
	if (o.trace) {
		if (rag_trace_read(o.trace, &procs, &res, &units, &ev, err, sizeof(err)) != 0)
			gb_die(GB_EXIT_USAGE, "detect: %s", err);
	} else {
		procs = o.gen.procs;
		res = o.gen.res;
		units = gb_xmalloc((size_t)res * sizeof(uint32_t), "unit counts");
		if (rag_generate(&o.gen, units, &ev, err, sizeof(err)) != 0)
			gb_die(GB_EXIT_USAGE, "detect: %s", err);
	}
	if (strcmp(o.algo, "osdda") == 0) {
		uint32_t j;
		for (j = 0; j < res; j++)
			if (units[j] != 1)
				gb_die(GB_EXIT_USAGE, "detect: osdda handles single-unit resources, but "
						      "resource %u has %u units (use --algo lmdda)", j, units[j]);
	}
	if (o.emit && rag_trace_write(o.emit, procs, res, units, &ev, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "detect: %s", err);

	/* The oracle's decisions, computed once. */
	if (o.run.verify) {
		rag_oracle oracle;
		expect = gb_xmalloc(ev.count * sizeof(rag_decision), "oracle decisions");
		rag_oracle_init(&oracle, procs, res, units);
		for (e = 0; e < ev.count && !gb_measure_timed_out(&ms); e++)
			expect[e] = rag_oracle_apply(&oracle, ev.type[e], ev.proc[e], ev.res[e]);
		rag_oracle_free(&oracle);
	}
	d->o = &o;
	d->procs = procs;
	d->res = res;
	d->units = units;
	d->ev = &ev;
	d->expect = expect;
	for (k = 0; k < o.impl.n; k++) {
		detect_impl *x = &d->x[k];
		x->e = o.impl.e[k];
		gb_measure_add(&ms, x->e->head.name);
		for (p = 0; p < RAG_NOUTCOMES; p++)
			x->lat[p] = gb_xcalloc(ev.count, sizeof(double), "timings");
		x->got = gb_xcalloc(ev.count, sizeof(rag_decision), "decisions");
	}
	for (k = 0; k < ms.n; k++) {
		gb_note("detect: running %s %s over %" PRIu64 " events", o.algo, ms.m[k].name, ev.count);
		gb_measure_run(&ms, k, detect_rep, d);
	}
	for (e = 0; e < ev.count && ms.m[0].finished; e++)
		d->counts[d->x[0].got[e].outcome]++;
	if (o.decisions && !ms.incomplete &&
	    rag_decisions_write(o.decisions, &ev, d->x[0].got, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "detect: %s", err);

	gb_report_init(&rpt, "detect", argc, argv);
	gb_report_set_machine(&rpt, o.impl.gpu, 1);
	fill_config(rpt.config, &o, d);
	dec = cJSON_AddObjectToObject(rpt.results, "decisions");
	for (p = 0; p < RAG_NOUTCOMES; p++)
		gb_json_u64(dec, rag_outcome_name(p), d->counts[p]);
	gb_json_u64(rpt.results, "deadlocks", d->counts[RAG_DEADLOCK]);
	snprintf(d->headline, sizeof(d->headline), "%s %s, %u processes x %u resources, %" PRIu64 " events (%s)",
		 o.algo, ms.m[0].name, procs, res, ev.count, o.trace ? o.trace : "generated");
	{
		const gb_result_view view = {
			.headline = d->headline,
			GB_VIEW_EVENT_STREAM(ev.count),
			.checked_what = "events checked against the oracle",
			.method = "decisions (outcome and regranted process) against the graph-search oracle",
			.entry_json = impl_json,
			.entry_text = impl_text,
			.lines = lines,
			.arg = d,
		};
		rc = gb_report_finish_to(&rpt, o.run.json, &ms, &view);
	}
	gb_report_free(&rpt);
	for (k = 0; k < ms.n; k++) {
		for (p = 0; p < RAG_NOUTCOMES; p++)
			free(d->x[k].lat[p]);
		free(d->x[k].got);
	}
	free(d);
	gb_measure_free(&ms);
	free(expect);
	free(units);
	rag_events_free(&ev);
	return rc;
}

const gb_command gb_cmd_detect = {
	.name = "detect",
	.summary = "deadlock detection: OSDDA and LMDDA on resource event streams",
	.run = run,
	.help = help,
	.registry = &registry,
};
