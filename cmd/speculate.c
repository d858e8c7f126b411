/*
 * gpubench speculate: speculative parallelization of irregular loops (Feng,
 * Gupta and Bhuyan, "Optimistic Parallelism on GPUs"). Runs one loop through
 * the five-phase runtime (speculation/) on the GPU or the CPU backend, under
 * one of the ablations of Figure 8, times baselines beside it (--compare),
 * verifies the final array and scalars against the sequential loop bit for
 * bit and reports per-phase times, assignments, misspeculation and copies.
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
#include "common/options.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/timer.h"
#include "speculation/cpu_spec.h"
#include "speculation/runtime.h"
#include "workloads/spec_loops.h"

enum baseline { BL_SEQ = 0, BL_CPU_SPEC, BL_GPU_NOSPEC, NBASELINES };
static const char *const baseline_names[] = {"seq", "cpu-spec", "gpu-nospec", NULL};

typedef struct spec_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *loop_name, *density, *work, *clause;
	uint64_t iters, workers, clean_run, max_assignment;
	int opt;
	double threshold;
	const sp_loop *loop;
	sp_loop_gen gen;
	sp_config cfg;
	gb_backend backend;
	int compare[NBASELINES];
	uint32_t reps;
	int verify;
	const char *json;
} spec_opts;

#define AT(field) offsetof(spec_opts, field)

enum { ROW_LOOP, ROW_ITERS, ROW_DENSITY, ROW_WORK, ROW_CLAUSE, ROW_OPT, ROW_WORKERS, ROW_THRESHOLD,
       ROW_CLEAN, ROW_MAXASSIGN, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_LOOP] = {.name = "loop", .kind = GB_OPT_TEXT, .metavar = "NAME", .def = "ocean",
		      .offset = AT(loop_name), .help = "the loop, one of those below"},
	[ROW_ITERS] = {.name = "iters", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 100000000,
		       .offset = AT(iters), .help = "iterations (default: the loop's, see docs/speculate.md)"},
	[ROW_DENSITY] = {.name = "density", .kind = GB_OPT_TEXT, .metavar = "F", .offset = AT(density),
			 .help = "dependence density: how often the loop's dependence or branch occurs "
				 "(0..the loop's maximum; meaning and default per loop)"},
	[ROW_WORK] = {.name = "work", .kind = GB_OPT_TEXT, .metavar = "N", .offset = AT(work),
		      .help = "per-iteration work of trfd, mdg, gothic, alvinn; sweeps over the cells for "
			      "ocean (1..the loop's maximum, docs/speculate.md)"},
	[ROW_CLAUSE] = {.name = "clause", .kind = GB_OPT_TEXT, .metavar = "TEXT", .offset = AT(clause),
			.help = "override the misspeculate(...) clause of a control-flow loop: (+1), "
				"(-1,+1), (+0:+4), (10), (+0:end); a wrong one is caught by verification"},
	[ROW_OPT] = {.name = "opt", .kind = GB_OPT_CHOICE, .metavar = "MODE", .choices = sp_opt_names,
		     .def = "all", .offset = AT(opt),
		     .help = "all, no-mo (no misspeculation localization), no-co (no copy optimization), "
			     "no-sched (all remaining iterations in every assignment): Figure 8"},
	[ROW_WORKERS] = {.name = "cpu-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 4096,
			 .offset = AT(workers),
			 .help = "host threads of the CPU backend and of cpu-spec (default: all cores)"},
	[ROW_THRESHOLD] = {.name = "threshold", .kind = GB_OPT_REAL, .metavar = "F", .flo = 0, .fhi = 1,
			   .def = "0.01", .offset = AT(threshold),
			   .help = "halve the assignment above this misspeculation rate (irregular memory)"},
	[ROW_CLEAN] = {.name = "clean-run", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000,
		       .def = "4", .offset = AT(clean_run), .help = "double it after N clean assignments"},
	[ROW_MAXASSIGN] = {.name = "max-assignment", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1,
			   .hi = 100000000, .offset = AT(max_assignment),
			   .help = "never assign more than N iterations (default: no limit)"},
};

static void list_loops(FILE *out)
{
	int i;

	fputs("\nLoops (--loop):\n", out);
	for (i = 0; sp_loops[i]; i++)
		gb_help_wrap(out, fprintf(out, "  %-9s ", sp_loops[i]->name), 12, sp_loops[i]->summary);
}

static const gb_opt_spec spec = {
	.cmd = "speculate",
	.intro = "Speculative parallelization of irregular loops (Feng, Gupta and Bhuyan, \"Optimistic "
		 "Parallelism on GPUs\"): the loop runs in assignments of iterations through five phases "
		 "(scheduling, computation with access tracking, misspeculation check, commit, recovery "
		 "on the CPU). The final array is compared with the sequential loop's, bit for bit.",
	.rows = rows,
	.nrows = NROWS,
	.unit = "loop",
	.check_unit = "timed repetition",
	.compare_help = "baselines timed in the same process: seq (sequential host loop), cpu-spec "
			"(speculation designed for the host's cores: chunks with private views, committed "
			"in order), gpu-nospec (no tracking or check; fftbench and alvinn at density 0 "
			"only)",
	.extra_help = list_loops,
	.example = "Example: gpubench speculate --loop ocean --iters 4000000 --compare seq,cpu-spec",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

static void parse(spec_opts *o, int argc, char **argv)
{
	unsigned char given[NROWS + GB_OPTS_SHARED];
	const char *loop, *density, *work;

	memset(o, 0, sizeof(*o));
	gb_opts_parse(&spec, o, given, argc, argv);
	loop = o->loop_name;
	density = o->density;
	work = o->work;
	o->gen.iters = (uint32_t)o->iters;
	o->gen.seed = o->run.seed;
	o->cfg.opt = (unsigned)o->opt;
	o->cfg.threshold = o->threshold;
	o->cfg.clean_run = (uint32_t)o->clean_run;
	o->cfg.max_assignment = (uint32_t)o->max_assignment;
	o->cfg.workers = (unsigned)o->workers;
	o->cfg.timeout_s = o->run.timeout;
	o->backend = (gb_backend)o->run.backend;
	o->reps = (uint32_t)o->run.reps;
	o->verify = o->run.verify;
	o->json = o->run.json;
	if (o->run.compare) {
		char *names[NBASELINES];
		unsigned k, n = gb_opt_list("compare", o->run.compare, names, NBASELINES);
		for (k = 0; k < n; k++)
			o->compare[gb_opt_choice("compare", names[k], baseline_names)] = 1;
		free(names[0]);
	}
	{
		const gb_path_use paths[] = {{"json", o->json, 0}};
		gb_paths_check("speculate", paths, 1);
	}
	o->loop = sp_loop_find(loop);
	if (!o->loop) {
		char list[256] = "";
		int i;
		for (i = 0; sp_loops[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "|" : "",
				 sp_loops[i]->name);
		gb_die(GB_EXIT_USAGE, "option --loop: unknown loop '%s' (accepted: %s)", loop, list);
	}
	if (!given[ROW_ITERS])
		o->gen.iters = o->loop->default_iters;
	o->gen.density = o->loop->default_density;
	if (density) {
		o->gen.density = gb_opt_double("density", density, 0, o->loop->max_density);
		if (o->loop->id == SP_FIGURE3 && o->gen.density <= 0)
			gb_die(GB_EXIT_USAGE, "option --density: figure3 needs a density above 0");
	}
	o->gen.work = o->loop->default_work;
	if (work) {
		if (!o->loop->max_work)
			gb_die(GB_EXIT_USAGE, "option --work: loop %s has no work knob", o->loop->name);
		o->gen.work = gb_opt_u32("work", work, 1, o->loop->max_work);
	}
	if (o->clause && o->loop->kind != SP_CF)
		gb_die(GB_EXIT_USAGE, "option --clause applies only to control-flow loops (mdg, strcat, "
		       "gothic, alvinn, chain), not to %s", o->loop->name);
	if (o->compare[BL_GPU_NOSPEC] && (!o->loop->nospec_ok || o->gen.density > 0))
		gb_die(GB_EXIT_USAGE, "option --compare gpu-nospec: %s has runtime dependences at "
		       "density %g (only fftbench and alvinn at density 0 have none)", o->loop->name,
		       o->gen.density);
	if (!o->cfg.workers)
		o->cfg.workers = (unsigned)gb_cpu_count();
}

/* One way of running the loop, over every repetition. */
typedef struct mode_run {
	const char *name;
	gb_backend backend;
	double *total;
	double *phase[SP_NPHASES];
	gb_stats total_stats;
	sp_result last;
	int verified;
	uint32_t ran, checked; /* timed repetitions; those compared with the sequential loop */
	uint64_t first_diff, size; /* first element that differed; size when only scalars did */
} mode_run;

static const sp_backend *backend_ops(gb_backend b)
{
#ifdef GB_HAVE_CUDA
	if (b == GB_BACKEND_GPU)
		return &sp_backend_gpu;
#endif
	(void)b;
	return &sp_backend_cpu;
}

/* Compare a run's final state with the reference; a difference is recorded for the report. */
static int matches(mode_run *m, const sp_problem *p, const uint32_t *got, const float *s,
		   const uint32_t *ref, const float *ref_s)
{
	uint32_t i;
	for (i = 0; i < p->args.size; i++)
		if (got[i] != ref[i]) {
			m->first_diff = i;
			m->size = p->args.size;
			return 0;
		}
	if (memcmp(s, ref_s, SP_NSCALARS * sizeof(float)) == 0)
		return 1;
	m->first_diff = m->size = p->args.size;
	return 0;
}

/* How a mode runs the loop: sequentially, through the speculative runtime on backend b,
 * unchecked in parallel, or speculatively on the host's cores. */
enum { RUN_SEQ, RUN_SPEC, RUN_NOSPEC, RUN_CPU_SPEC };

static int run_mode(mode_run *m, int how, gb_backend b, const spec_opts *o, const sp_problem *p,
		    const uint32_t *ref, const float *ref_s, uint64_t t_start)
{
	size_t bytes = (size_t)p->args.size * sizeof(uint32_t);
	uint32_t *host = gb_xmalloc(bytes ? bytes : 1, "the host array");
	float s[SP_NSCALARS];
	uint32_t rep, k;
	int rc = 0;

	m->backend = b;
	m->verified = 1;
	m->total = gb_xcalloc(o->reps, sizeof(double), "timings");
	for (k = 0; k < SP_NPHASES; k++)
		m->phase[k] = gb_xcalloc(o->reps, sizeof(double), "timings");
	for (rep = 0; rep < o->run.warmup + o->reps && !rc; rep++) {
		sp_config c = o->cfg;
		memcpy(host, p->A0, bytes);
		memcpy(s, p->args.s, sizeof(s));
		c.timeout_s = o->cfg.timeout_s - gb_seconds_since(t_start);
		if (c.timeout_s <= 0) {
			m->last.incomplete = 1;
			break;
		}
		if (how == RUN_SEQ) {
			uint64_t t0 = gb_now_ns();
			memset(&m->last, 0, sizeof(m->last));
			sp_run_sequential(p, host, s, 0, p->args.n);
			m->last.total_s = m->last.phase_s[SP_PH_COMPUTE] = gb_seconds_since(t0);
			m->last.reexecuted = p->args.n;
		} else if (how == RUN_NOSPEC) {
			sp_run_nospec(backend_ops(b), p, &c, host, &m->last);
			memcpy(s, p->args.s, sizeof(s));
		} else if (how == RUN_CPU_SPEC) {
			if (sp_cpu_spec_run(p, &c, host, s, &m->last) != 0) {
				rc = -1;
				break;
			}
		} else if (sp_run(backend_ops(b), p, &c, host, s, &m->last) != 0) {
			rc = -1;
			break;
		}
		if (m->last.incomplete)
			break;
		if (rep < o->run.warmup)
			continue;
		m->total[m->ran] = m->last.total_s;
		for (k = 0; k < SP_NPHASES; k++)
			m->phase[k][m->ran] = m->last.phase_s[k];
		m->ran++;
		if (ref && (m->ran - 1) % o->run.verify_every == 0) {
			m->checked++;
			if (!matches(m, p, host, s, ref, ref_s))
				m->verified = 0;
		}
	}
	m->total_stats = gb_stats_of(m->total, m->ran);
	free(host);
	return rc;
}

static void free_mode(mode_run *m)
{
	unsigned k;
	free(m->total);
	for (k = 0; k < SP_NPHASES; k++)
		free(m->phase[k]);
}

static void fill_config(cJSON *cfg, const spec_opts *o, const sp_problem *p, gb_backend b)
{
	cJSON *cmp = cJSON_AddArrayToObject(cfg, "compare");
	unsigned k;
	char clause[96] = "";

	gb_json_str(cfg, "loop", o->loop->name);
	gb_json_str(cfg, "kind", o->loop->kind == SP_MEM ? "irregular-memory" : "irregular-control-flow");
	if (o->loop->kind == SP_CF) {
		snprintf(clause, sizeof(clause), "%s", o->clause ? o->clause : o->loop->clause);
		gb_json_str(cfg, "clause", clause);
	} else {
		cJSON_AddNullToObject(cfg, "clause");
	}
	gb_json_u64(cfg, "iters", p->args.n);
	gb_json_u64(cfg, "elements", p->args.size);
	gb_json_num(cfg, "density", o->gen.density);
	gb_json_u64(cfg, "work", o->gen.work);
	gb_json_str(cfg, "opt", sp_opt_names[o->cfg.opt]);
	for (k = 0; k < NBASELINES; k++)
		if (o->compare[k])
			cJSON_AddItemToArray(cmp, cJSON_CreateString(baseline_names[k]));
	gb_json_str(cfg, "backend", gb_backend_name(b));
	gb_json_u64(cfg, "cpu_workers", o->cfg.workers);
	gb_json_num(cfg, "threshold", o->cfg.threshold);
	gb_json_u64(cfg, "clean_run", o->cfg.clean_run);
	gb_json_u64(cfg, "max_assignment", o->cfg.max_assignment);
	gb_json_u64(cfg, "seed", o->gen.seed);
	gb_opts_config(cfg, &o->run);
}

/* The timings and counters of one mode (counters from its last repetition). */
static void fill_mode(cJSON *j, const mode_run *m, const sp_problem *p)
{
	const sp_result *r = &m->last;
	cJSON *ph = cJSON_AddObjectToObject(j, "phase_seconds");
	unsigned k;

	gb_json_str(j, "backend", gb_backend_name(m->backend));
	gb_json_stats(j, "loop_seconds", m->total_stats);
	for (k = 0; k < SP_NPHASES; k++)
		gb_json_stats(ph, sp_phase_names[k], gb_stats_of(m->phase[k], m->ran));
	gb_json_u64(j, "assignments", r->assignments);
	gb_json_u64(j, "assignments_misspeculated", r->assignments_misspeculated);
	gb_json_u64(j, "assignment_min", r->min_assignment);
	gb_json_u64(j, "assignment_max", r->max_assignment);
	gb_json_u64(j, "iterations_speculated", r->iterations_gpu);
	gb_json_u64(j, "iterations_misspeculated", r->misspeculated);
	gb_json_u64(j, "iterations_reexecuted", r->reexecuted);
	gb_json_u64(j, "iterations_deferred", r->deferred);
	gb_json_u64(j, "wrong_elements", r->wrong_elements);
	gb_json_u64(j, "detections", r->detections);
	gb_json_u64(j, "raw_war_assignments", r->raw_war);
	gb_json_u64(j, "waw_assignments", r->waw);
	gb_json_num(j, "misspeculation_rate", p->args.n ? (double)r->reexecuted / p->args.n : 0);
	gb_json_u64(j, "bytes_to_device", r->bytes_in);
	gb_json_u64(j, "bytes_from_device", r->bytes_out);
}

static double speedup(const mode_run *over, const mode_run *m)
{
	return m->total_stats.median > 0 ? over->total_stats.median / m->total_stats.median : 0;
}

static void fill_results(cJSON *res, const spec_opts *o, const sp_problem *p, const mode_run *m,
			 const mode_run *base)
{
	cJSON *bl = cJSON_AddArrayToObject(res, "baselines"), *sp;
	unsigned k;

	fill_mode(res, m, p);
	gb_json_u64(res, "reps_completed", m->ran);
	sp = cJSON_AddObjectToObject(res, "speedup_over");
	for (k = 0; k < NBASELINES; k++) {
		cJSON *j;
		if (!o->compare[k])
			continue;
		j = cJSON_CreateObject();
		gb_json_str(j, "name", baseline_names[k]);
		fill_mode(j, &base[k], p);
		if (o->verify)
			gb_json_bool(j, "verified", base[k].verified);
		else
			cJSON_AddNullToObject(j, "verified");
		cJSON_AddItemToArray(bl, j);
		gb_json_num(sp, baseline_names[k], speedup(&base[k], m));
	}
}

/* Where a run's final state first differed from the sequential loop's. */
static void describe_difference(char *msg, size_t len, const char *what, const mode_run *m)
{
	if (m->first_diff < m->size)
		snprintf(msg, len, "%s %s differs from the sequential loop, first at element %" PRIu64,
			 what, m->name, m->first_diff);
	else
		snprintf(msg, len, "%s %s differs from the sequential loop in its loop-carried scalars",
			 what, m->name);
}

/* Repetitions whose final state was compared with the sequential loop's. */
static uint32_t reps_checked(const spec_opts *o, const mode_run *m, const mode_run *base)
{
	uint32_t n = m->checked;
	unsigned k;

	for (k = 0; k < NBASELINES; k++)
		if (o->compare[k])
			n += base[k].checked;
	return o->verify ? n : 0;
}

static void fill_verification(cJSON *v, const spec_opts *o, const mode_run *m, const mode_run *base,
			      int bad)
{
	char msg[256] = "";
	unsigned k;

	gb_json_u64(v, "reps_checked", reps_checked(o, m, base));
	if (!o->verify || !reps_checked(o, m, base)) { /* null: nothing was checked */
		cJSON_AddNullToObject(v, "verified");
		gb_json_str(v, "method", o->verify ? "none: no repetition finished" : "none");
		gb_json_str(v, "message", o->verify ? "--timeout reached before a repetition finished"
						   : "--no-verify");
		return;
	}
	gb_json_bool(v, "verified", !bad);
	gb_json_str(v, "method", "final array and loop-carried scalars against the sequential loop, "
		    "bit for bit, after every repetition of every mode");
	if (!m->verified)
		describe_difference(msg, sizeof(msg), "opt", m);
	for (k = 0; k < NBASELINES && !msg[0]; k++)
		if (o->compare[k] && !base[k].verified)
			describe_difference(msg, sizeof(msg), "baseline", &base[k]);
	gb_json_str(v, "message", bad ? msg : "equal");
}

static void print_summary(const spec_opts *o, const sp_problem *p, const mode_run *m,
			  const mode_run *base, gb_backend b, const gb_device_info *dev, int bad)
{
	const sp_result *r = &m->last;
	unsigned k;

	printf("gpubench speculate: %s (%s), %s backend%s%s%s, %u iterations, opt %s\n",
	       o->loop->name, o->loop->kind == SP_MEM ? "irregular memory" : "irregular control flow",
	       gb_backend_name(b), b == GB_BACKEND_GPU ? " (" : "", b == GB_BACKEND_GPU ? dev->name : "",
	       b == GB_BACKEND_GPU ? ")" : "", p->args.n, sp_opt_names[o->cfg.opt]);
	printf("  loop time    %.4g s (median of %u; min %.4g, max %.4g)\n", m->total_stats.median,
	       m->ran, m->total_stats.min, m->total_stats.max);
	printf("  phases      ");
	for (k = 0; k < SP_NPHASES; k++)
		printf(" %s %.3g s%s", sp_phase_names[k], gb_stats_of(m->phase[k], m->ran).median,
		       k + 1 < SP_NPHASES ? "," : "\n");
	printf("  assignments  %" PRIu64 " (%" PRIu64 " misspeculated), sizes %" PRIu64 "..%" PRIu64 "\n",
	       r->assignments, r->assignments_misspeculated, r->min_assignment, r->max_assignment);
	printf("  misspec      %" PRIu64 " iterations re-executed in order (rate %.4f%%), %" PRIu64
	       " deferred, %" PRIu64 " wrong elements\n", r->reexecuted,
	       p->args.n ? 100.0 * r->reexecuted / p->args.n : 0, r->deferred, r->wrong_elements);
	printf("  copies       %.4g MB to the device, %.4g MB back\n", r->bytes_in / 1e6,
	       r->bytes_out / 1e6);
	for (k = 0; k < NBASELINES; k++)
		if (o->compare[k])
			printf("  %-12s %.4g s (%s backend): speedup %.3gx\n", base[k].name,
			       base[k].total_stats.median, gb_backend_name(base[k].backend),
			       speedup(&base[k], m));
	if (!o->verify)
		printf("  verified     not checked (--no-verify)\n");
	else if (!reps_checked(o, m, base))
		printf("  verified     not checked (no repetition finished)\n");
	else if (bad)
		printf("  verified     FAILED: the final state differs from the sequential loop's\n");
	else
		printf("  verified     yes: final array and scalars equal the sequential loop's, bit for bit\n");
	if (r->incomplete)
		printf("  incomplete   --timeout %g s reached\n", o->cfg.timeout_s);
}

static int run(int argc, char **argv)
{
	spec_opts o;
	sp_problem p;
	gb_device_info dev;
	gb_backend b;
	mode_run main_run, base[NBASELINES];
	uint32_t *ref = NULL;
	float ref_s[SP_NSCALARS];
	uint64_t t_start;
	char err[256];
	gb_report rpt;
	unsigned k;
	int rc = 0, bad = 0, incomplete;

	parse(&o, argc, argv);
	b = gb_backend_resolve(o.backend, GB_BACKEND_MASK(GB_BACKEND_CPU)
#ifdef GB_HAVE_CUDA
				   | GB_BACKEND_MASK(GB_BACKEND_GPU)
#endif
				   , "speculate", &dev);
	t_start = gb_now_ns();
	if (sp_problem_generate(o.loop, &o.gen, &p, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "speculate: %s", err);
	if (o.clause && sp_clause_parse(o.clause, &p.clause, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "option --clause: %s", err);

	if (o.verify) { /* the oracle: the sequential loop, run once untimed */
		ref = gb_xmalloc((size_t)p.args.size * sizeof(uint32_t) + 1, "the reference array");
		memcpy(ref, p.A0, (size_t)p.args.size * sizeof(uint32_t));
		memcpy(ref_s, p.args.s, sizeof(ref_s));
		sp_run_sequential(&p, ref, ref_s, 0, p.args.n);
	}
	memset(&main_run, 0, sizeof(main_run));
	memset(base, 0, sizeof(base));
	main_run.name = sp_opt_names[o.cfg.opt];
	if (run_mode(&main_run, RUN_SPEC, b, &o, &p, ref, ref_s, t_start) != 0)
		gb_die(GB_EXIT_RUNTIME, "speculate: %s", main_run.last.error);
	bad |= !main_run.verified;
	for (k = 0; k < NBASELINES; k++) {
		static const int how[NBASELINES] = {RUN_SEQ, RUN_CPU_SPEC, RUN_NOSPEC};
		sp_config saved = o.cfg;
		if (!o.compare[k])
			continue;
		base[k].name = baseline_names[k];
		o.cfg.opt = SP_OPT_ALL; /* baselines run at their best */
		if (run_mode(&base[k], how[k], k == BL_CPU_SPEC || k == BL_SEQ ? GB_BACKEND_CPU : b, &o,
			     &p, ref, ref_s, t_start) != 0)
			gb_die(GB_EXIT_RUNTIME, "speculate: %s", base[k].last.error);
		o.cfg = saved;
		bad |= !base[k].verified;
	}
	incomplete = main_run.last.incomplete;
	for (k = 0; k < NBASELINES; k++)
		incomplete |= base[k].last.incomplete;

	gb_report_init(&rpt, "speculate", argc, argv);
	gb_report_set_device(&rpt, b, b == GB_BACKEND_GPU ? &dev : NULL, (int)o.cfg.workers);
	fill_config(rpt.config, &o, &p, b);
	if (incomplete)
		gb_report_incomplete(&rpt);
	fill_results(rpt.results, &o, &p, &main_run, base);
	fill_verification(rpt.verification, &o, &main_run, base, bad);
	if (o.json && gb_report_write(&rpt, o.json) != 0)
		rc = GB_EXIT_RUNTIME;
	else if (!gb_quiet && !(o.json && strcmp(o.json, "-") == 0))
		print_summary(&o, &p, &main_run, base, b, &dev, bad);
	if (!rc && o.verify && bad) {
		gb_warn("speculate: verification failed: the final state differs from the sequential loop's");
		rc = GB_EXIT_VERIFY;
	} else if (!rc && incomplete) {
		gb_warn("speculate: --timeout %g s reached; the report is marked incomplete", o.cfg.timeout_s);
		rc = GB_EXIT_RUNTIME;
	}
	gb_report_free(&rpt);
	free_mode(&main_run);
	for (k = 0; k < NBASELINES; k++)
		free_mode(&base[k]);
	free(ref);
	sp_problem_free(&p);
	return rc;
}

const gb_command gb_cmd_speculate = {
	.name = "speculate",
	.summary = "speculative parallelization of irregular loops (five-phase runtime)",
	.run = run,
	.help = help,
};
