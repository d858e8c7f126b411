/*
 * gpubench detect: deadlock detection on resource allocation graphs (Abell's
 * thesis, chapters 3 and 4). Replays a stream of resource events through a
 * detector (--algo, --impl), optionally others beside it (--compare), checks
 * the decisions against the oracle and reports times.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/device.h"
#include "common/error.h"
#include "common/opts.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "deadlock/rag.h"
#include "workloads/rag_gen.h"
#include "workloads/rag_oracle.h"
#include "workloads/rag_trace.h"

#define MAX_IMPLS 8

static const char *const algos[] = {"osdda", "lmdda", NULL};

typedef struct detect_opts {
	const char *algo;
	const rag_engine *impl[MAX_IMPLS]; /* [0] is --impl, the rest --compare */
	unsigned nimpl;
	int gpu;                           /* some detector runs on the GPU */
	rag_gen_config gen;
	const char *trace, *emit, *decisions, *json;
	uint32_t reps;
	uint64_t verify_every; /* 0: no verification */
} detect_opts;

static void list_impls(FILE *out, const char *algo)
{
	int i;
	for (i = 0; rag_engines[i]; i++)
		if (strcmp(rag_engines[i]->algo, algo) == 0)
			fprintf(out, "                          %-11s %s\n", rag_engines[i]->name,
				rag_engines[i]->summary);
}

static void help(FILE *out)
{
	fputs("usage: gpubench detect [options]\n"
	      "\n"
	      "Deadlock detection on resource allocation graphs (Abell 2013): every request\n"
	      "is granted, blocked, or refused as a deadlock (a cycle for OSDDA's single-unit\n"
	      "resources, a knot for LMDDA's multi-unit ones); every release frees its unit\n"
	      "or hands it to the waiting process with the lowest id. Each decision is\n"
	      "checked against an independent oracle.\n"
	      "\n"
	      "  --algo NAME           osdda (default: single-unit, chapter 3) or lmdda\n"
	      "                        (multi-unit, chapter 4)\n"
	      "  --impl NAME           detector (default gpu, or cpu-bits when no GPU is\n"
	      "                        found). osdda:\n",
	      out);
	list_impls(out, "osdda");
	fputs("                        lmdda:\n", out);
	list_impls(out, "lmdda");
	fputs("                        gpu and gpu-graph run the same kernels: the thesis's\n"
	      "                        launches with host reads between them, or one CUDA\n"
	      "                        graph per event; gpu-stream decides windows of events\n"
	      "                        a launch and has no time per event (docs/detect.md)\n"
	      "  --compare LIST        other detectors run on the same events in the same\n"
	      "                        process, e.g. cpu; the report gives the speedup of\n"
	      "                        --impl over each. lmdda's cpu recomputes reachability\n"
	      "                        in O(N^2 M^2) per release, as the thesis: keep it to\n"
	      "                        about 128 x 128\n"
	      "  --procs M             processes (1..1048576, default 1024)\n"
	      "  --res N               resources (1..1048576, default 1024)\n"
	      "  --units U | LO-HI     lmdda: units of every resource, or a range drawn per\n"
	      "                        resource (1..65535, default 2); osdda has 1\n"
	      "  --events E            events in the generated stream (1..100000000, default 2000)\n"
	      "  --release-share F     share of events that release a held unit (default 0.4)\n"
	      "  --deadlock-share F    share of requests made to close a cycle or knot when\n"
	      "                        one can (default 0.02; 0 for streams without deadlocks)\n"
	      "  --seed N              seed of the generator (default 1)\n"
	      "  --trace FILE          replay FILE instead of generating (docs/detect-trace.md;\n"
	      "                        '-' for stdin); a bad line exits 2 naming it\n"
	      "  --emit-trace FILE     write the stream as a trace that --trace replays\n"
	      "  --decisions FILE      one line per event with its outcome ('-': stdout)\n"
	      "  --reps N              repetitions of the whole stream (default 3)\n"
	      "  --verify-every K      compare every K-th decision with the oracle's\n"
	      "                        (default 1: all; 0: none)\n"
	      "  --json PATH           JSON report ('-' for stdout; docs/report-schema.md)\n"
	      "  --quiet               no summary\n"
	      "  -h, --help            this text\n"
	      "\n"
	      "Examples:\n"
	      "  gpubench detect --algo osdda --procs 4096 --res 4096 --compare cpu\n"
	      "  gpubench detect --algo osdda --procs 8192 --res 8192 --impl gpu --compare gpu-graph,cpu-bits\n"
	      "  gpubench detect --algo lmdda --procs 256 --res 256 --units 1-4 --decisions out.txt\n",
	      out);
}

static const rag_engine *engine_or_die(const char *opt, const char *algo, const char *name)
{
	const rag_engine *e = rag_engine_find(algo, name);
	if (!e) {
		char list[256] = "";
		int i;
		for (i = 0; rag_engines[i]; i++)
			if (strcmp(rag_engines[i]->algo, algo) == 0)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 list[0] ? "|" : "", rag_engines[i]->name);
		gb_die(GB_EXIT_USAGE, "option --%s: unknown %s detector '%s' (accepted: %s)", opt, algo,
		       name, list);
	}
	return e; /* a GPU detector missing from this build fails the needs-a-GPU check */
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
	enum { O_ALGO = 256, O_IMPL, O_COMPARE, O_PROCS, O_RES, O_UNITS, O_EVENTS, O_RELEASE,
	       O_DEADLOCK, O_SEED, O_TRACE, O_EMIT, O_DECISIONS, O_REPS, O_VERIFY, O_JSON, O_QUIET };
	static const struct option opts[] = {
		{"algo", required_argument, NULL, O_ALGO},
		{"impl", required_argument, NULL, O_IMPL},
		{"compare", required_argument, NULL, O_COMPARE},
		{"procs", required_argument, NULL, O_PROCS},
		{"res", required_argument, NULL, O_RES},
		{"units", required_argument, NULL, O_UNITS},
		{"events", required_argument, NULL, O_EVENTS},
		{"release-share", required_argument, NULL, O_RELEASE},
		{"deadlock-share", required_argument, NULL, O_DEADLOCK},
		{"seed", required_argument, NULL, O_SEED},
		{"trace", required_argument, NULL, O_TRACE},
		{"emit-trace", required_argument, NULL, O_EMIT},
		{"decisions", required_argument, NULL, O_DECISIONS},
		{"reps", required_argument, NULL, O_REPS},
		{"verify-every", required_argument, NULL, O_VERIFY},
		{"json", required_argument, NULL, O_JSON},
		{"quiet", no_argument, NULL, O_QUIET},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *impl = NULL, *compare = NULL, *units = NULL;
	char why[256] = "";
	unsigned k;
	int c, gen_given = 0;

	memset(o, 0, sizeof(o[0]));
	o->algo = "osdda";
	rag_gen_defaults(&o->gen);
	o->reps = 3;
	o->verify_every = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_ALGO:
			o->algo = algos[gb_opt_choice("algo", optarg, algos)];
			break;
		case O_IMPL:
			impl = optarg;
			break;
		case O_COMPARE:
			compare = optarg;
			break;
		case O_PROCS:
			o->gen.procs = gb_opt_u32("procs", optarg, 1, 1u << 20);
			break;
		case O_RES:
			o->gen.res = gb_opt_u32("res", optarg, 1, 1u << 20);
			break;
		case O_UNITS:
			units = optarg;
			break;
		case O_EVENTS:
			o->gen.events = gb_opt_u64("events", optarg, 1, 100000000);
			gen_given = 1;
			break;
		case O_RELEASE:
			o->gen.release_share = gb_opt_double("release-share", optarg, 0, 1);
			gen_given = 1;
			break;
		case O_DEADLOCK:
			o->gen.deadlock_share = gb_opt_double("deadlock-share", optarg, 0, 1);
			gen_given = 1;
			break;
		case O_SEED:
			o->gen.seed = gb_opt_u64("seed", optarg, 0, UINT64_MAX);
			gen_given = 1;
			break;
		case O_TRACE:
			o->trace = optarg;
			break;
		case O_EMIT:
			o->emit = optarg;
			break;
		case O_DECISIONS:
			o->decisions = optarg;
			break;
		case O_REPS:
			o->reps = gb_opt_u32("reps", optarg, 1, 100000);
			break;
		case O_VERIFY:
			o->verify_every = gb_opt_u64("verify-every", optarg, 0, UINT64_MAX);
			break;
		case O_JSON:
			o->json = optarg;
			break;
		case O_QUIET:
			gb_quiet = 1;
			break;
		case 'h':
			help(stdout);
			exit(0);
		default:
			gb_opt_fail("detect", c, argv, opts);
		}
	}
	gb_opt_no_operands("detect", argc, argv);
	if (o->trace && (gen_given || units))
		gb_die(GB_EXIT_USAGE, "--trace replays a stream: --events, --units, --seed, "
				      "--release-share and --deadlock-share apply only to generated ones");
	if (strcmp(o->algo, "lmdda") == 0) {
		if (units)
			parse_units(&o->gen, units);
		else
			o->gen.units_lo = o->gen.units_hi = 2;
	} else if (units) {
		gb_die(GB_EXIT_USAGE, "option --units: osdda's resources have one unit each (use --algo lmdda)");
	}
	if (!impl) {
		impl = gb_device_count(why, sizeof(why)) > 0 ? "gpu" : "cpu-bits";
		if (strcmp(impl, "cpu-bits") == 0)
			gb_note("note: %s; running --impl cpu-bits", why);
	}
	o->impl[0] = engine_or_die("impl", o->algo, impl);
	o->nimpl = 1;
	if (compare) {
		char *names[MAX_IMPLS - 1];
		unsigned n = gb_opt_list("compare", compare, names, MAX_IMPLS - 1);
		for (k = 0; k < n; k++)
			o->impl[o->nimpl++] = engine_or_die("compare", o->algo, names[k]);
		free(names[0]);
	}
	for (k = 0; k < o->nimpl; k++) {
		if (o->impl[k]->needs_gpu && !o->gpu && gb_device_count(why, sizeof(why)) <= 0)
			gb_die(GB_EXIT_RUNTIME, "--impl/--compare %s needs a GPU: %s", o->impl[k]->name, why);
		o->gpu |= o->impl[k]->needs_gpu;
	}
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
} impl_run;

static void run_impl(impl_run *ir, const detect_opts *o, uint32_t procs, uint32_t res,
		     const uint32_t *units, const rag_events *ev, const rag_decision *expect)
{
	uint32_t rep;
	uint64_t e;
	unsigned k;

	ir->total = gb_xcalloc(o->reps, sizeof(double), "timings");
	for (k = 0; k < RAG_NOUTCOMES; k++)
		ir->lat[k] = gb_xcalloc(ev->count, sizeof(double), "timings");
	ir->got = gb_xcalloc(ev->count, sizeof(rag_decision), "decisions");
	for (rep = 0; rep < o->reps; rep++) {
		void *ctx = ir->e->open(procs, res, units);
		int last = rep + 1 == o->reps;
		uint64_t t0 = gb_now_ns();
		if (last)
			memset(ir->nlat, 0, sizeof(ir->nlat));
		/* a stream detector decides windows of events: no time per event */
		if (ir->e->apply_stream)
			ir->e->apply_stream(ctx, ev, ir->got);
		for (e = 0; !ir->e->apply_stream && e < ev->count; e++) {
			uint64_t t = gb_now_ns();
			rag_decision d = ir->e->apply(ctx, ev->type[e], ev->proc[e], ev->res[e]);
			if (last && d.outcome < RAG_NOUTCOMES) {
				ir->lat[d.outcome][ir->nlat[d.outcome]++] = gb_seconds_since(t);
				ir->got[e] = d;
			}
		}
		ir->total[rep] = gb_seconds_since(t0);
		if (last)
			ir->bytes = ir->e->bytes(ctx);
		ir->e->close(ctx);
	}
	ir->stream = gb_stats_of(ir->total, o->reps);
	if (expect)
		for (e = 0; e < ev->count; e += o->verify_every)
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
	int bad = 0, rc = 0;

	parse(&o, argc, argv);
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
	if (o.verify_every) {
		rag_oracle oracle;
		expect = gb_xmalloc(ev.count * sizeof(rag_decision), "oracle decisions");
		rag_oracle_init(&oracle, procs, res, units);
		for (e = 0; e < ev.count; e++)
			expect[e] = rag_oracle_apply(&oracle, ev.type[e], ev.proc[e], ev.res[e]);
		rag_oracle_free(&oracle);
		checked = (ev.count + o.verify_every - 1) / o.verify_every;
	}
	memset(ir, 0, sizeof(ir));
	for (k = 0; k < o.nimpl; k++) {
		ir[k].e = o.impl[k];
		gb_note("detect: running %s %s over %" PRIu64 " events", o.algo, ir[k].e->name, ev.count);
		run_impl(&ir[k], &o, procs, res, units, &ev, expect);
		bad |= ir[k].mismatches != 0;
	}
	for (e = 0; e < ev.count; e++)
		counts[ir[0].got[e].outcome]++;
	if (o.decisions && rag_decisions_write(o.decisions, &ev, ir[0].got, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "detect: %s", err);

	gb_report_init(&rpt, "detect", argc, argv);
	if (o.gpu) {
		gb_device_info dev;
		if (gb_device_query(0, &dev) != 0)
			gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device 0");
		gb_report_set_device(&rpt, GB_BACKEND_GPU, &dev, 1);
	} else {
		gb_report_set_device(&rpt, GB_BACKEND_CPU, NULL, 1);
	}
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
	gb_json_u64(rpt.config, "reps", o.reps);
	gb_json_u64(rpt.config, "verify_every", o.verify_every);

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
		if (k > 0)
			gb_json_num(j, "speedup_of_impl",
				    ir[0].stream.median > 0 ? tot.median / ir[0].stream.median : 0);
		if (expect)
			gb_json_u64(j, "mismatches", ir[k].mismatches);
		cJSON_AddItemToArray(impls, j);
	}
	if (expect)
		gb_json_bool(rpt.verification, "verified", !bad);
	else
		cJSON_AddNullToObject(rpt.verification, "verified");
	gb_json_str(rpt.verification, "method",
		    expect ? "decisions (outcome and regranted process) against the graph-search oracle" : "none");
	gb_json_u64(rpt.verification, "events_checked", checked);

	if (o.json && gb_report_write(&rpt, o.json) != 0)
		rc = GB_EXIT_RUNTIME;
	if (!rc && !gb_quiet && !(o.json && strcmp(o.json, "-") == 0)) {
		printf("gpubench detect: %s %s, %u processes x %u resources, %" PRIu64 " events (%s)\n",
		       o.algo, o.impl[0]->name, procs, res, ev.count, o.trace ? o.trace : "generated");
		for (k = 0; k < o.nimpl; k++) {
			gb_stats tot = ir[k].stream;
			printf("  %-11s stream %.4g s (median of %u), %.4g events/s, %.4g MB of matrices%s",
			       ir[k].e->name, tot.median, o.reps, tot.median > 0 ? ev.count / tot.median : 0,
			       ir[k].bytes / 1e6,
			       expect ? (ir[k].mismatches ? ", WRONG" : ", verified") : "");
			if (k > 0 && tot.median > 0)
				printf(", %s is %.3gx faster\n", o.impl[0]->name, tot.median / ir[0].stream.median);
			else
				printf("\n");
		}
		printf("  decisions  granted %" PRIu64 ", blocked %" PRIu64 ", deadlock %" PRIu64
		       ", released %" PRIu64 ", regranted %" PRIu64 "\n",
		       counts[RAG_GRANTED], counts[RAG_BLOCKED], counts[RAG_DEADLOCK], counts[RAG_RELEASED],
		       counts[RAG_REGRANTED]);
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
	"detect", "deadlock detection: OSDDA (single-unit) and LMDDA (multi-unit) on event streams",
	run, help,
};
