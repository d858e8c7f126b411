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
#include "common/options.h"
#include "common/opts.h"
#include "common/progress.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "deadlock/rag.h"
#include "workloads/rag_gen.h"
#include "workloads/rag_oracle.h"
#include "workloads/rag_trace.h"

#define MAX_IMPLS GB_MAX_IMPLS

static const char *const algos[] = {"osdda", "lmdda", NULL};

static int engine_of_algo(const void *e, const void *algo)
{
	return strcmp(((const rag_engine *)e)->algo, (const char *)algo) == 0;
}

/* The detectors of one algorithm. */
static gb_impl_table impl_table(const char *algo)
{
	gb_impl_table t = {
		.what = strcmp(algo, "osdda") == 0 ? "osdda detector" : "lmdda detector",
		.entries = (const void *const *)rag_engines,
		.name_at = offsetof(rag_engine, name),
		.summary_at = offsetof(rag_engine, summary),
		.gpu_flag_at = offsetof(rag_engine, needs_gpu),
		.belongs = engine_of_algo,
		.arg = algo,
		.gpu_default = "gpu",
		.cpu_default = "cpu-bits",
	};
	return t;
}

typedef struct detect_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	int algo_index;
	const char *algo, *impl_name, *units, *trace, *emit, *decisions;
	uint64_t procs, res, events;
	double release_share, deadlock_share;
	const rag_engine *impl[MAX_IMPLS]; /* [0] is --impl, the rest --compare */
	unsigned nimpl;
	int gpu;                           /* some detector runs on the GPU */
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
	gb_impl_table osdda = impl_table("osdda"), lmdda = impl_table("lmdda");

	fputs("\nosdda detectors (--impl, --compare):\n", out);
	gb_impl_help(out, &osdda, 2, 11);
	fputs("lmdda detectors:\n", out);
	gb_impl_help(out, &lmdda, 2, 11);
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
	gb_impl_choice chosen;
	gb_impl_table table;
	unsigned k;

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
		const gb_path_use paths[] = {{"trace", o->trace, 1}, {"json", o->run.json, 0},
					     {"decisions", o->decisions, 0}, {"emit-trace", o->emit, 0}};
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
	table = impl_table(o->algo);
	gb_impl_choose(&table, o->impl_name, o->run.compare, (gb_backend)o->run.backend, &chosen);
	for (k = 0; k < chosen.n; k++)
		o->impl[k] = chosen.e[k];
	o->nimpl = chosen.n;
	o->gpu = chosen.gpu;
}

/* What one detector did over all repetitions. */
typedef struct impl_run {
	const rag_engine *e;
	double *total;                   /* per repetition: seconds for the whole stream */
	gb_stats stream;
	double *lat[RAG_NOUTCOMES];      /* per event of the last repetition, by outcome */
	uint64_t nlat[RAG_NOUTCOMES];
	uint64_t bytes, mismatches, first_mismatch;
	rag_decision *got;               /* last repetition */
	uint32_t reps_done;              /* timed repetitions that finished */
	int finished;                    /* the last repetition finished */
} impl_run;

/* Whether --timeout has passed since the run started; it sets *incomplete when it has. */
static int timed_out(const detect_opts *o, uint64_t t_start, int *incomplete)
{
	if (gb_seconds_since(t_start) > o->run.timeout)
		*incomplete = 1;
	return *incomplete;
}

/* --warmup untimed and --reps timed repetitions of the stream; the last one is checked. */
static void run_impl(impl_run *ir, const detect_opts *o, uint32_t procs, uint32_t res,
		     const uint32_t *units, const rag_events *ev, const rag_decision *expect,
		     uint64_t t_start, int *incomplete)
{
	uint32_t rep, nrep = (uint32_t)(o->run.warmup + o->run.reps);
	uint64_t e;
	unsigned k;
	gb_progress pg;

	ir->total = gb_xcalloc(o->run.reps, sizeof(double), "timings");
	for (k = 0; k < RAG_NOUTCOMES; k++)
		ir->lat[k] = gb_xcalloc(ev->count, sizeof(double), "timings");
	ir->got = gb_xcalloc(ev->count, sizeof(rag_decision), "decisions");
	gb_progress_start(&pg, ir->e->name);
	for (rep = 0; rep < nrep && !timed_out(o, t_start, incomplete); rep++) {
		void *ctx = ir->e->open(procs, res, units);
		int last = rep + 1 == nrep;
		uint64_t t0 = gb_now_ns();
		if (last)
			memset(ir->nlat, 0, sizeof(ir->nlat));
		/* a stream detector decides windows of events: no time per event */
		if (ir->e->apply_stream)
			ir->e->apply_stream(ctx, ev, ir->got);
		for (e = 0; !ir->e->apply_stream && e < ev->count && !timed_out(o, t_start, incomplete); e++) {
			uint64_t t = gb_now_ns();
			rag_decision d = ir->e->apply(ctx, ev->type[e], ev->proc[e], ev->res[e]);
			gb_progress_update(&pg, (uint64_t)rep * ev->count + e + 1, (uint64_t)nrep * ev->count);
			if (last && d.outcome < RAG_NOUTCOMES) {
				ir->lat[d.outcome][ir->nlat[d.outcome]++] = gb_seconds_since(t);
				ir->got[e] = d;
			}
		}
		if (!*incomplete && rep >= o->run.warmup)
			ir->total[ir->reps_done++] = gb_seconds_since(t0);
		if (last && !*incomplete) {
			ir->bytes = ir->e->bytes(ctx);
			ir->finished = 1;
		}
		ir->e->close(ctx);
	}
	gb_progress_end(&pg);
	ir->stream = gb_stats_of(ir->total, ir->reps_done);
	/* The step is clamped so that a --verify-every near 2^64 cannot wrap e around. */
	if (expect && ir->finished)
		for (e = 0; e < ev->count;
		     e = ev->count - e > o->run.verify_every ? e + o->run.verify_every : ev->count)
			if ((ir->got[e].outcome != expect[e].outcome || ir->got[e].to != expect[e].to) &&
			    ir->mismatches++ == 0)
				ir->first_mismatch = e;
}

static void free_impl(impl_run *ir)
{
	unsigned k;
	free(ir->total);
	for (k = 0; k < RAG_NOUTCOMES; k++)
		free(ir->lat[k]);
	free(ir->got);
}

static void write_units(cJSON *config, const uint32_t *units, uint32_t res)
{
	uint32_t j, lo = UINT32_MAX, hi = 0;
	for (j = 0; j < res; j++) {
		lo = units[j] < lo ? units[j] : lo;
		hi = units[j] > hi ? units[j] : hi;
	}
	gb_json_u64(config, "units_min", lo);
	gb_json_u64(config, "units_max", hi);
}

static int run(int argc, char **argv)
{
	detect_opts o;
	uint32_t procs, res, *units = NULL;
	rag_events ev;
	rag_decision *expect = NULL;
	impl_run ir[MAX_IMPLS];
	uint64_t counts[RAG_NOUTCOMES] = {0}, e, checked = 0;
	gb_report rpt;
	char err[512];
	cJSON *impls;
	unsigned k, p;
	uint64_t t_start;
	int bad = 0, rc = 0, incomplete = 0;

	parse(&o, argc, argv);
	t_start = gb_now_ns(); /* --timeout counts from here: generation and the oracle included */
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
		for (e = 0; e < ev.count && !timed_out(&o, t_start, &incomplete); e++)
			expect[e] = rag_oracle_apply(&oracle, ev.type[e], ev.proc[e], ev.res[e]);
		rag_oracle_free(&oracle);
	}
	memset(ir, 0, sizeof(ir));
	for (k = 0; k < o.nimpl; k++) {
		ir[k].e = o.impl[k];
		gb_note("detect: running %s %s over %" PRIu64 " events", o.algo, ir[k].e->name, ev.count);
		run_impl(&ir[k], &o, procs, res, units, &ev, expect, t_start, &incomplete);
		bad |= ir[k].mismatches != 0;
	}
	if (expect && ir[0].finished && ev.count)
		checked = (ev.count - 1) / o.run.verify_every + 1;
	for (e = 0; e < ev.count && ir[0].finished; e++)
		counts[ir[0].got[e].outcome]++;
	if (o.decisions && !incomplete && rag_decisions_write(o.decisions, &ev, ir[0].got, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "detect: %s", err);

	gb_report_init(&rpt, "detect", argc, argv);
	gb_report_set_machine(&rpt, o.gpu, 1);
	gb_json_str(rpt.config, "algo", o.algo);
	gb_json_str(rpt.config, "impl", o.impl[0]->name);
	{
		cJSON *cmp = cJSON_AddArrayToObject(rpt.config, "compare");
		for (k = 1; k < o.nimpl; k++)
			cJSON_AddItemToArray(cmp, cJSON_CreateString(o.impl[k]->name));
	}
	gb_json_str(rpt.config, "workload", o.trace ? "trace" : "generated");
	gb_json_str(rpt.config, "trace", o.trace ? o.trace : "");
	gb_json_u64(rpt.config, "procs", procs);
	gb_json_u64(rpt.config, "res", res);
	write_units(rpt.config, units, res);
	gb_json_u64(rpt.config, "events", ev.count);
	if (o.trace) {
		cJSON_AddNullToObject(rpt.config, "seed");
		cJSON_AddNullToObject(rpt.config, "release_share");
		cJSON_AddNullToObject(rpt.config, "deadlock_share");
	} else {
		gb_json_u64(rpt.config, "seed", o.gen.seed);
		gb_json_num(rpt.config, "release_share", o.gen.release_share);
		gb_json_num(rpt.config, "deadlock_share", o.gen.deadlock_share);
	}
	gb_opts_config(rpt.config, &o.run);

	{
		cJSON *dec = cJSON_AddObjectToObject(rpt.results, "decisions");
		for (p = 0; p < RAG_NOUTCOMES; p++)
			gb_json_u64(dec, rag_outcome_name(p), counts[p]);
		gb_json_u64(rpt.results, "deadlocks", counts[RAG_DEADLOCK]);
	}
	impls = cJSON_AddArrayToObject(rpt.results, "impls");
	for (k = 0; k < o.nimpl; k++) {
		cJSON *j = cJSON_CreateObject(), *lat;
		gb_stats tot = ir[k].stream;
		gb_json_str(j, "impl", ir[k].e->name);
		gb_json_stats(j, "stream_seconds", tot);
		gb_json_num(j, "events_per_s", tot.median > 0 ? (double)ev.count / tot.median : 0);
		lat = cJSON_AddObjectToObject(j, "event_seconds");
		for (p = 0; p < RAG_NOUTCOMES; p++)
			gb_json_stats(lat, rag_outcome_name(p), gb_stats_of(ir[k].lat[p], ir[k].nlat[p]));
		gb_json_u64(j, "matrix_bytes", ir[k].bytes);
		gb_json_u64(j, "reps_completed", ir[k].reps_done);
		if (k > 0)
			gb_json_num(j, "speedup_of_impl",
				    ir[0].stream.median > 0 ? tot.median / ir[0].stream.median : 0);
		if (expect)
			gb_json_u64(j, "mismatches", ir[k].mismatches);
		cJSON_AddItemToArray(impls, j);
	}
	if (incomplete)
		gb_report_incomplete(&rpt);
	if (bad || checked)
		gb_json_bool(rpt.verification, "verified", !bad);
	else
		cJSON_AddNullToObject(rpt.verification, "verified"); /* nothing was checked */
	gb_json_str(rpt.verification, "method",
		    expect ? "decisions (outcome and regranted process) against the graph-search oracle" : "none");
	gb_json_u64(rpt.verification, "events_checked", checked);

	if (o.run.json && gb_report_write(&rpt, o.run.json) != 0)
		rc = GB_EXIT_RUNTIME;
	if (!rc && !gb_quiet && !(o.run.json && strcmp(o.run.json, "-") == 0)) {
		printf("gpubench detect: %s %s, %u processes x %u resources, %" PRIu64 " events (%s)\n",
		       o.algo, o.impl[0]->name, procs, res, ev.count, o.trace ? o.trace : "generated");
		for (k = 0; k < o.nimpl; k++) {
			gb_stats tot = ir[k].stream;
			char speed[128];
			printf("  %-11s stream %.4g s (median of %u), %.4g events/s, %.4g MB of matrices%s",
			       ir[k].e->name, tot.median, ir[k].reps_done, tot.median > 0 ? ev.count / tot.median : 0,
			       ir[k].bytes / 1e6,
			       expect && ir[k].finished ? (ir[k].mismatches ? ", WRONG" : ", verified") : "");
			if (k > 0 && tot.median > 0)
				printf(", %s\n", gb_speedup_text(speed, sizeof(speed), o.impl[0]->name,
								 ir[0].stream.median, tot.median));
			else
				printf("\n");
		}
		printf("  decisions  granted %" PRIu64 ", blocked %" PRIu64 ", deadlock %" PRIu64
		       ", released %" PRIu64 ", regranted %" PRIu64 "\n",
		       counts[RAG_GRANTED], counts[RAG_BLOCKED], counts[RAG_DEADLOCK], counts[RAG_RELEASED],
		       counts[RAG_REGRANTED]);
		if (checked)
			printf("  verified   %s: %" PRIu64 " of %" PRIu64 " events checked against the oracle\n",
			       bad ? "FAILED" : "yes", checked, ev.count);
		else
			printf("  verified   not checked (%s)\n",
			       o.run.verify ? "no repetition finished" : "--no-verify or --verify-every 0");
		if (incomplete)
			printf("  incomplete --timeout %g s reached\n", o.run.timeout);
	}
	if (!rc && bad) {
		for (k = 0; k < o.nimpl; k++)
			if (ir[k].mismatches) {
				e = ir[k].first_mismatch;
				gb_warn("detect: %s disagrees with the oracle on %" PRIu64 " events, first event %" PRIu64
					" (%s, oracle %s)", ir[k].e->name, ir[k].mismatches, e,
					rag_outcome_name(ir[k].got[e].outcome), rag_outcome_name(expect[e].outcome));
			}
		rc = GB_EXIT_VERIFY;
	} else if (!rc && incomplete) {
		gb_warn("detect: --timeout %g s reached; the report is marked incomplete", o.run.timeout);
		rc = GB_EXIT_RUNTIME;
	}
	gb_report_free(&rpt);
	for (k = 0; k < o.nimpl; k++)
		free_impl(&ir[k]);
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
};
