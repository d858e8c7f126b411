/*
 * gpubench avoid: deadlock avoidance with the parallel banker's algorithm
 * (Abell's thesis, chapter 5). Replays a stream of resource requests and
 * releases through one implementation (--impl), optionally others beside it
 * (--compare), checks every decision against the oracle and reports times.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/backend.h"
#include "common/device.h"
#include "common/error.h"
#include "common/opts.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "deadlock/pba_engine.h"
#include "workloads/pba_gen.h"
#include "workloads/pba_oracle.h"
#include "workloads/pba_trace.h"

#define MAX_IMPLS 8

typedef struct avoid_opts {
	const pba_engine *impl[MAX_IMPLS]; /* [0] is --impl, the rest --compare */
	unsigned nimpl;
	pba_gen_config gen;
	const char *trace, *decisions, *json;
	uint32_t reps;
	int verify;
	int gpu; /* some implementation runs on the GPU */
} avoid_opts;

static void help(FILE *out)
{
	int i;
	fputs("usage: gpubench avoid [options]\n"
	      "\n"
	      "Deadlock avoidance with the parallel banker's algorithm (PBA, Abell 2013,\n"
	      "chapter 5): every request is granted or denied (invalid: above the process's\n"
	      "need; unavailable; unsafe: no H-safe sequence would remain), every release is\n"
	      "applied. Each decision is checked against an independent oracle.\n"
	      "\n"
	      "  --impl NAME           implementation (default gpu, or cpu-fast when no GPU\n"
	      "                        is found):\n",
	      out);
	for (i = 0; pba_engines[i]; i++)
		fprintf(out, "                          %-10s %s\n", pba_engines[i]->name,
			pba_engines[i]->summary);
	fputs("  --compare LIST        other implementations run on the same events in the\n"
	      "                        same process, e.g. cpu; the report gives the speedup\n"
	      "                        of --impl over each\n"
	      "  --workload NAME       worst-case (default: every request needs I-1 safety\n"
	      "                        iterations, section 5.4), random, or unsafe-mix (a\n"
	      "                        chosen share of the requests is unsafe)\n"
	      "  --unsafe-share F      unsafe-mix: share of requests made unsafe, 0..1\n"
	      "                        (default 0.25)\n"
	      "  --procs N             processes (2..1048576, default 1024)\n"
	      "  --res M               resources (1..65536, default 256)\n"
	      "  --events E            events in the stream (1..100000000, default 20)\n"
	      "  --seed N              seed of the random workload (default 1)\n"
	      "  --trace FILE          replay FILE instead of generating (docs/avoid-trace.md;\n"
	      "                        '-' for stdin); a bad line exits 2 naming it\n"
	      "  --decisions FILE      write one line per event with its outcome ('-': stdout)\n"
	      "  --reps N              repetitions of the whole stream (default 3)\n"
	      "  --no-verify           do not replay the stream through the oracle\n"
	      "  --json PATH           JSON report ('-' for stdout; docs/report-schema.md)\n"
	      "  --quiet               no summary\n"
	      "  -h, --help            this text\n"
	      "\n"
	      "Example: gpubench avoid --procs 2048 --res 256 --workload worst-case --compare cpu\n",
	      out);
}

static const pba_engine *engine_or_die(const char *opt, const char *name)
{
	const pba_engine *e = pba_engine_find(name);
	if (!e) {
		char list[256] = "";
		int i;
		for (i = 0; pba_engines[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "|" : "",
				 pba_engines[i]->name);
		gb_die(GB_EXIT_USAGE, "option --%s: unknown implementation '%s' (accepted: %s)", opt,
		       name, list);
	}
	return e;
}

static void parse(avoid_opts *o, int argc, char **argv)
{
	enum { O_IMPL = 256, O_COMPARE, O_WORKLOAD, O_PROCS, O_RES, O_EVENTS, O_SEED, O_TRACE,
	       O_DECISIONS, O_REPS, O_NOVERIFY, O_JSON, O_QUIET, O_UNSAFE };
	static const struct option opts[] = {
		{"impl", required_argument, NULL, O_IMPL},
		{"compare", required_argument, NULL, O_COMPARE},
		{"workload", required_argument, NULL, O_WORKLOAD},
		{"procs", required_argument, NULL, O_PROCS},
		{"res", required_argument, NULL, O_RES},
		{"events", required_argument, NULL, O_EVENTS},
		{"seed", required_argument, NULL, O_SEED},
		{"unsafe-share", required_argument, NULL, O_UNSAFE},
		{"trace", required_argument, NULL, O_TRACE},
		{"decisions", required_argument, NULL, O_DECISIONS},
		{"reps", required_argument, NULL, O_REPS},
		{"no-verify", no_argument, NULL, O_NOVERIFY},
		{"json", required_argument, NULL, O_JSON},
		{"quiet", no_argument, NULL, O_QUIET},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *compare = NULL;
	unsigned k;
	int c, unsafe_given = 0;

	memset(o, 0, sizeof(o[0]));
	o->gen.procs = 1024;
	o->gen.res = 256;
	o->gen.events = 20;
	o->gen.workload = PBA_WORST_CASE;
	o->gen.seed = 1;
	o->gen.unsafe_share = 0.25;
	o->reps = 3;
	o->verify = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_IMPL:
			o->impl[0] = engine_or_die("impl", optarg);
			break;
		case O_COMPARE:
			compare = optarg;
			break;
		case O_WORKLOAD:
			o->gen.workload = (unsigned)gb_opt_choice("workload", optarg, pba_workload_names);
			break;
		case O_PROCS:
			o->gen.procs = gb_opt_u32("procs", optarg, 2, 1u << 20);
			break;
		case O_RES:
			o->gen.res = gb_opt_u32("res", optarg, 1, 1u << 16);
			break;
		case O_EVENTS:
			o->gen.events = gb_opt_u64("events", optarg, 1, 100000000);
			break;
		case O_SEED:
			o->gen.seed = gb_opt_u64("seed", optarg, 0, UINT64_MAX);
			break;
		case O_UNSAFE:
			o->gen.unsafe_share = gb_opt_double("unsafe-share", optarg, 0, 1);
			unsafe_given = 1;
			break;
		case O_TRACE:
			o->trace = optarg;
			break;
		case O_DECISIONS:
			o->decisions = optarg;
			break;
		case O_REPS:
			o->reps = gb_opt_u32("reps", optarg, 1, 100000);
			break;
		case O_NOVERIFY:
			o->verify = 0;
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
			gb_opt_fail("avoid", c, argv, opts);
		}
	}
	gb_opt_no_operands("avoid", argc, argv);
	if (unsafe_given && (o->trace || o->gen.workload != PBA_UNSAFE_MIX))
		gb_die(GB_EXIT_USAGE, "option --unsafe-share applies only to --workload unsafe-mix");
	if (!o->impl[0]) {
		char why[256] = "";
		if (gb_device_count(why, sizeof(why)) > 0) {
			o->impl[0] = pba_engine_find("gpu");
		} else {
			o->impl[0] = pba_engine_find("cpu-fast");
			gb_note("note: %s; running --impl cpu-fast", why);
		}
	}
	o->nimpl = 1;
	if (compare) {
		char *names[MAX_IMPLS - 1];
		unsigned k, n = gb_opt_list("compare", compare, names, MAX_IMPLS - 1);
		for (k = 0; k < n; k++)
			o->impl[o->nimpl++] = engine_or_die("compare", names[k]);
		free(names[0]);
	}
	for (k = 0; k < o->nimpl; k++) {
		char why[256] = "";
		if (o->impl[k]->needs_gpu && !o->gpu && gb_device_count(why, sizeof(why)) <= 0)
			gb_die(GB_EXIT_RUNTIME, "--impl/--compare %s needs a GPU: %s", o->impl[k]->name, why);
		o->gpu |= o->impl[k]->needs_gpu;
	}
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
	uint8_t *outcome;        /* per event, last repetition */
} impl_run;

static void run_impl(impl_run *ir, const avoid_opts *o, const pba_system *init,
		     const pba_events *ev, const uint8_t *expect, const pba_system *final)
{
	uint32_t J = init->res, rep;
	uint64_t e;

	ir->total = gb_xcalloc(o->reps, sizeof(double), "timings");
	ir->lat[0] = gb_xcalloc(ev->count, sizeof(double), "timings");
	ir->lat[1] = gb_xcalloc(ev->count, sizeof(double), "timings");
	ir->outcome = gb_xcalloc(ev->count, 1, "outcomes");
	for (rep = 0; rep < o->reps; rep++) {
		void *ctx = ir->e->open(init);
		uint64_t t0 = gb_now_ns();
		int last = rep + 1 == o->reps;
		if (last) {
			memset(ir->phase, 0, sizeof(ir->phase));
			memset(ir->outcomes, 0, sizeof(ir->outcomes));
			ir->nlat[0] = ir->nlat[1] = 0;
			ir->iterations_sum = ir->iterations_max = 0;
		}
		for (e = 0; e < ev->count; e++) {
			double ph[PBA_NPHASES] = {0};
			uint64_t t = gb_now_ns();
			unsigned r = ir->e->apply(ctx, ev->type[e], ev->proc[e], ev->amount + e * J, ph);
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
		ir->total[rep] = gb_seconds_since(t0);
		if (last && expect) {
			pba_system got;
			for (e = 0; e < ev->count; e++)
				if (ir->outcome[e] != expect[e] && ir->mismatches++ == 0)
					ir->first_mismatch = e;
			pba_system_init(&got, init->procs, init->res);
			ir->e->fetch(ctx, &got);
			ir->state_ok = pba_system_equal(&got, final);
			pba_system_free(&got);
		}
		ir->e->close(ctx);
	}
	ir->stream = gb_stats_of(ir->total, o->reps);
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
	uint64_t e;
	int bad = 0, rc = 0;

	parse(&o, argc, argv);
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
	if (o.verify) {
		expect = gb_xmalloc(ev.count, "oracle outcomes");
		for (e = 0; e < ev.count; e++)
			expect[e] = (uint8_t)pba_oracle_apply(&final, ev.type[e], ev.proc[e],
							      ev.amount + e * init.res);
	}
	memset(ir, 0, sizeof(ir));
	for (k = 0; k < o.nimpl; k++) {
		ir[k].e = o.impl[k];
		run_impl(&ir[k], &o, &init, &ev, expect, &final);
		bad |= o.verify && (ir[k].mismatches || !ir[k].state_ok);
	}
	if (o.decisions && pba_decisions_write(o.decisions, &ev, ir[0].outcome, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_RUNTIME, "avoid: %s", err);

	gb_report_init(&rpt, "avoid", argc, argv);
	if (o.gpu) {
		gb_device_info dev;
		if (gb_device_query(0, &dev) != 0)
			gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device 0");
		gb_report_set_device(&rpt, GB_BACKEND_GPU, &dev, 1);
	} else {
		gb_report_set_device(&rpt, GB_BACKEND_CPU, NULL, 1);
	}
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
	gb_json_u64(rpt.config, "seed", o.gen.seed);
	if (!o.trace && o.gen.workload == PBA_UNSAFE_MIX)
		gb_json_num(rpt.config, "unsafe_share", o.gen.unsafe_share);
	else
		cJSON_AddNullToObject(rpt.config, "unsafe_share");
	gb_json_u64(rpt.config, "reps", o.reps);
	gb_json_bool(rpt.config, "verify", o.verify);
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
		if (o.verify) {
			gb_json_u64(j, "mismatches", ir[k].mismatches);
			gb_json_bool(j, "final_state_matches", ir[k].state_ok);
		}
		cJSON_AddItemToArray(impls, j);
	}
	if (o.verify)
		gb_json_bool(rpt.verification, "verified", !bad);
	else
		cJSON_AddNullToObject(rpt.verification, "verified");
	gb_json_str(rpt.verification, "method",
		    o.verify ? "every decision and the final state against the sequential oracle" : "none");
	gb_json_u64(rpt.verification, "events_checked", o.verify ? ev.count : 0);

	if (o.json && gb_report_write(&rpt, o.json) != 0)
		rc = GB_EXIT_RUNTIME;
	if (!rc && !gb_quiet && !(o.json && strcmp(o.json, "-") == 0)) {
		printf("gpubench avoid: %s, %u processes x %u resources, %" PRIu64 " events (%s)\n",
		       o.impl[0]->name, init.procs, init.res, ev.count,
		       o.trace ? o.trace : pba_workload_names[o.gen.workload]);
		for (k = 0; k < o.nimpl; k++) {
			gb_stats tot = ir[k].stream;
			gb_stats req = gb_stats_of(ir[k].lat[PBA_REQUEST], ir[k].nlat[PBA_REQUEST]);
			printf("  %-10s stream %.4g s (median of %u), request median %.4g s, "
			       "safety steps max %" PRIu64 "%s",
			       ir[k].e->name, tot.median, o.reps, req.median, ir[k].iterations_max,
			       o.verify ? ((ir[k].mismatches || !ir[k].state_ok) ? ", WRONG" : ", verified") : "");
			if (k > 0 && tot.median > 0)
				printf(", %s is %.3gx faster\n", o.impl[0]->name,
				       tot.median / ir[0].stream.median);
			else
				printf("\n");
		}
		printf("  decisions  granted %" PRIu64 ", denied invalid %" PRIu64 ", unavailable %" PRIu64
		       ", unsafe %" PRIu64 ", released %" PRIu64 "\n",
		       ir[0].outcomes[PBA_GRANTED], ir[0].outcomes[PBA_DENIED_INVALID],
		       ir[0].outcomes[PBA_DENIED_UNAVAILABLE], ir[0].outcomes[PBA_DENIED_UNSAFE],
		       ir[0].outcomes[PBA_RELEASED]);
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
	"avoid", "deadlock avoidance: the parallel banker's algorithm (GPU-PBA)",
	run, help,
};
