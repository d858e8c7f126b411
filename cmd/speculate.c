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
#include "common/impl.h"
#include "common/measure.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "common/stop.h"
#include "speculation/baselines.h"
#include "speculation/runtime.h"
#include "workloads/speculation/spec_loops.h"

typedef struct spec_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	const char *loop_name, *density, *work, *clause;
	uint64_t iters, workers, clean_run, max_assignment;
	int opt, schedule;
	double threshold;
	const sp_loop *loop;
	sp_loop_gen gen;
	sp_config cfg;
	gb_impl_choice baselines;          /* what --compare named, in its order */
} spec_opts;

#define AT(field) offsetof(spec_opts, field)

enum { ROW_LOOP, ROW_ITERS, ROW_DENSITY, ROW_WORK, ROW_CLAUSE, ROW_OPT, ROW_WORKERS, ROW_THRESHOLD,
       ROW_CLEAN, ROW_MAXASSIGN, ROW_SCHEDULE, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_LOOP] = {.name = "loop", .kind = GB_OPT_TEXT, .metavar = "NAME", .def = "ocean",
		      .offset = AT(loop_name), .help = "the loop, one of those below"},
	[ROW_ITERS] = {.name = "iters", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 100000000,
		       .offset = AT(iters), .help = "iterations (default: the loop's, see docs/speculate.md)"},
	[ROW_DENSITY] = {.name = "density", .kind = GB_OPT_TEXT, .metavar = "F", .offset = AT(density),
			 .help = "dependence density: how often the loop's dependence or branch occurs "
				 "(0..the loop's maximum, figure3 above 0; meaning and default per loop)"},
	[ROW_WORK] = {.name = "work", .kind = GB_OPT_TEXT, .metavar = "N", .offset = AT(work),
		      .help = "per-iteration work of trfd, mdg, gothic, alvinn; sweeps over the cells for "
			      "ocean (1..the loop's maximum, docs/speculate.md)"},
	[ROW_CLAUSE] = {.name = "clause", .kind = GB_OPT_TEXT, .metavar = "TEXT", .offset = AT(clause),
			.help = "override the misspeculate(...) clause of a control-flow loop: (+1), "
				"(-1,+1), (+0:+4), (10), (+0:end); a wrong one is caught by verification"},
	[ROW_OPT] = {.name = "opt", .kind = GB_OPT_CHOICE, .metavar = "MODE", .choices = sp_opt_names,
		     .def = "all", .offset = AT(opt),
		     .help = "all, no-mo (no misspeculation localization), no-co (no copy optimization), "
			     "no-sched (all remaining iterations in every assignment): Figure 8; none "
			     "(all three left out): Figure 10's w/o opts"},
	[ROW_WORKERS] = {.name = "cpu-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 4096,
			 .offset = AT(workers),
			 .help = "host threads of the CPU backend and of cpu-spec, cpu-tm and cpu-inspect "
				 "(default: the CPUs this process may use: its affinity and cgroup quota)"},
	[ROW_THRESHOLD] = {.name = "threshold", .kind = GB_OPT_REAL, .metavar = "F", .flo = 0, .fhi = 1,
			   .def = "0.01", .offset = AT(threshold),
			   .help = "halve the assignment above this misspeculation rate (irregular memory)"},
	[ROW_CLEAN] = {.name = "clean-run", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1000000,
		       .def = "4", .offset = AT(clean_run), .help = "double it after N clean assignments"},
	[ROW_MAXASSIGN] = {.name = "max-assignment", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1,
			   .hi = 100000000, .offset = AT(max_assignment),
			   .help = "never assign more than N iterations (default: no limit)"},
	[ROW_SCHEDULE] = {.name = "schedule", .kind = GB_OPT_CHOICE, .metavar = "MODE", .choices = sp_schedule_names,
			  .def = "wide", .offset = AT(schedule),
			  .help = "the runtime's schedule after a branch of an (+0:end) loop (mdg, strcat, gothic): "
				  "paper (the mean interval between branches, section 4), wide (at least 512 "
				  "iterations, doubled after a full assignment without a branch) or lookahead "
				  "(wide, and a round of at most 512 also runs on the scalars predicted after its "
				  "first branch, keeping those iterations when the prediction holds; docs/speculate.md)"},
};

static const gb_registry registry = {
	.what = "loop",
	.picked_by = "--loop",
	.entries = (const void *const *)sp_loops,
	.name_key = "loop",
};

/* The baselines --compare names, which the help lists after its sentence. */
static const gb_registry baselines = {
	.what = "baseline",
	.picked_by = "--compare",
	.entries = (const void *const *)sp_baselines,
};

static void list_loops(FILE *out)
{
	gb_registry_help(out, &registry);
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
	.compare_help = "baselines timed in the same process",
	.compare_from = &baselines,
	.extra_help = list_loops,
	.example = "Example: gpubench speculate --loop ocean --iters 4000000 --compare seq,cpu-spec",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

/*
 * The runtime's options that only some runs read: one given where it would
 * change nothing exits 2, naming what it applies to. Memory loops size their
 * assignments by the misspeculation rate (--threshold, --clean-run), loops of
 * an all-subsequent branch by the intervals between branches (--schedule);
 * --opt no-sched sizes none. (--cpu-workers is left alone: one command line
 * serves the CPU and the GPU backend, as --compare's default does.)
 */
/* Whether loop l's branch misspeculates every later iteration (clause (+0:end); text: --clause, or NULL). */
static int all_subsequent(const sp_loop *l, const char *text)
{
	sp_clause clause;
	char err[256];

	return l->kind == SP_CF && sp_clause_parse(text ? text : l->clause, &clause, err, sizeof(err)) == 0 &&
	       sp_clause_all_subsequent(&clause);
}

/* "WHAT (NAME, NAME)": the loops of the registry that pass test. */
static void loops_where(char *buf, size_t len, const char *what, int (*test)(const sp_loop *l))
{
	size_t n = (size_t)snprintf(buf, len, "%s (", what);
	unsigned k, first = 1;

	for (k = 0; sp_loops[k] && n < len; k++)
		if (test(sp_loops[k])) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ", ", sp_loops[k]->head.name);
			first = 0;
		}
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

static int is_memory_loop(const sp_loop *l)
{
	return l->kind == SP_MEM;
}

static int is_all_subsequent(const sp_loop *l)
{
	return all_subsequent(l, NULL);
}

static void check_scopes(const spec_opts *o, const unsigned char *given)
{
	static const int memory_rows[] = {ROW_THRESHOLD, ROW_CLEAN};
	char chosen[96], owner[256];
	unsigned k;

	snprintf(chosen, sizeof(chosen), "--loop %s", o->loop->head.name);
	for (k = 0; k < 2; k++) {
		const char *name = rows[memory_rows[k]].name;
		if (!given[memory_rows[k]])
			continue;
		loops_where(owner, sizeof(owner), "the irregular-memory loops", is_memory_loop);
		if (o->loop->kind != SP_MEM)
			gb_opt_does_not_apply(name, owner, chosen);
		if (o->cfg.opt == SP_OPT_NO_SCHED)
			gb_opt_does_not_apply(name, "a run that sizes its assignments", "--opt no-sched");
	}
	if (given[ROW_SCHEDULE]) {
		loops_where(owner, sizeof(owner), "the loops whose branch misspeculates every later iteration",
			    is_all_subsequent);
		snprintf(owner + strlen(owner), sizeof(owner) - strlen(owner),
			 ", or a control-flow loop given --clause '(+0:end)'");
		if (!all_subsequent(o->loop, o->clause))
			gb_opt_does_not_apply("schedule", owner, o->clause ? "--clause" : chosen);
		if (o->cfg.opt == SP_OPT_NO_SCHED)
			gb_opt_does_not_apply("schedule", "a run that sizes its assignments", "--opt no-sched");
	}
}

static void parse(spec_opts *o, int argc, char **argv)
{
	unsigned char given[NROWS + GB_OPTS_SHARED];
	const char *loop, *density, *work;
	char why[256];
	unsigned k;

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
	o->cfg.schedule = (unsigned)o->schedule;
	gb_impl_compare(&baselines, NULL, o->run.compare, &o->baselines);
	{
		const gb_path_use paths[] = {{.opt = "json", .path = o->run.json}};
		gb_paths_check("speculate", paths, 1);
	}
	o->loop = gb_registry_pick(&registry, NULL, "loop", loop);
	if (!given[ROW_ITERS])
		o->gen.iters = o->loop->default_iters;
	o->gen.density = o->loop->default_density;
	if (density) {
		o->gen.density = gb_opt_double("density", density, 0, o->loop->max_density);
		if (o->loop->id == SP_FIGURE3 && o->gen.density <= 0)
			gb_die(GB_EXIT_USAGE, "option --density: figure3 needs a density above 0 (accepted: above 0 "
			       "up to %g)", o->loop->max_density);
	}
	o->gen.work = o->loop->default_work;
	if (work) {
		if (!o->loop->max_work)
			gb_die(GB_EXIT_USAGE, "option --work: loop %s has no work knob", o->loop->head.name);
		o->gen.work = gb_opt_u32("work", work, 1, o->loop->max_work);
	}
	if (o->clause && o->loop->kind != SP_CF)
		gb_die(GB_EXIT_USAGE, "option --clause applies only to control-flow loops (mdg, strcat, "
		       "gothic, alvinn, chain), not to %s", o->loop->head.name);
	check_scopes(o, given);
	for (k = 0; k < o->baselines.n; k++) {
		const sp_baseline *bl = o->baselines.e[k];
		if (bl->refuses && bl->refuses(o->loop, o->gen.density, why, sizeof(why)))
			gb_die(GB_EXIT_USAGE, "option --compare %s: %s", bl->head.name, why);
	}
	if (!o->cfg.workers)
		o->cfg.workers = (unsigned)gb_cpu_count();
}

_Static_assert(SP_NPHASES <= GB_MEASURE_MAX_TRACKS, "a track per phase");

/* One way of running the loop, the --opt run (entry 0: bl NULL) or a baseline, and its last
 * repetition's counters. */
typedef struct spec_mode {
	const sp_baseline *bl;
	gb_backend backend;
	sp_result last;
} spec_mode;

/* What the repetitions share. */
typedef struct spec_run {
	const spec_opts *o;
	const gb_measure *ms;
	const sp_problem *p;
	const uint32_t *ref;          /* the sequential loop's array and scalars; NULL without verification */
	const float *ref_s;
	uint32_t *host;               /* the array a repetition works on */
	spec_mode x[1 + GB_MAX_IMPLS];
	gb_backend backend;           /* the --opt run's */
	gb_device_info dev;
	char headline[640];
} spec_run;

/* Whether c holds e. */
static int named(const gb_impl_choice *c, const void *e)
{
	unsigned k;
	for (k = 0; k < c->n && c->e[k] != e; k++)
		;
	return k < c->n;
}

static const sp_backend *backend_ops(gb_backend b)
{
#ifdef GB_HAVE_CUDA
	if (b == GB_BACKEND_GPU)
		return &sp_backend_gpu;
#endif
	(void)b;
	return &sp_backend_cpu;
}

/* Compare a repetition's final state with the sequential loop's; a difference fails the check. */
static void check(gb_measure *ms, unsigned k, const spec_run *s, const float *scalars)
{
	const char *what = k ? "baseline" : "opt", *name = k ? ms->m[k].name : sp_opt_names[s->o->cfg.opt];
	uint32_t i;

	for (i = 0; i < s->p->args.size; i++)
		if (s->host[i] != s->ref[i]) {
			gb_measure_wrong(ms, k, "%s %s differs from the sequential loop, first at element %" PRIu32,
					 what, name, i);
			return;
		}
	if (memcmp(scalars, s->ref_s, SP_NSCALARS * sizeof(float)) != 0)
		gb_measure_wrong(ms, k, "%s %s differs from the sequential loop in its loop-carried scalars", what,
				 name);
}

/* One repetition of the whole loop from its initial state. */
static gb_rep_end spec_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	spec_run *s = arg;
	spec_mode *x = &s->x[k];
	const sp_problem *p = s->p;
	sp_config c = s->o->cfg;
	float scalars[SP_NSCALARS];
	unsigned ph;
	int failed = 0;

	if (k > 0)
		c.opt = SP_OPT_ALL; /* baselines run at their best */
	c.timeout_s = gb_measure_left(ms);
	if (c.timeout_s <= 0)
		return GB_REP_CUT;
	memcpy(s->host, p->A0, (size_t)p->args.size * sizeof(uint32_t));
	memcpy(scalars, p->args.s, sizeof(scalars));
	if (x->bl)
		failed = x->bl->run(backend_ops(x->backend), p, &c, s->host, scalars, &x->last) != 0;
	else
		failed = sp_run(backend_ops(x->backend), p, &c, s->host, scalars, &x->last) != 0;
	if (failed)
		gb_die(GB_EXIT_RUNTIME, "speculate: %s", x->last.error);
	if (x->last.incomplete)
		return GB_REP_CUT;
	out->seconds = x->last.total_s;
	for (ph = 0; ph < SP_NPHASES; ph++)
		out->track[ph] = x->last.phase_s[ph];
	if (rep->check)
		check(ms, k, s, scalars);
	return GB_REP_DONE;
}

static void fill_config(cJSON *cfg, const spec_opts *o, const sp_problem *p, gb_backend b)
{
	gb_json_str(cfg, "loop", o->loop->head.name);
	gb_json_str(cfg, "kind", o->loop->kind == SP_MEM ? "irregular-memory" : "irregular-control-flow");
	if (o->loop->kind == SP_CF)
		gb_json_str(cfg, "clause", o->clause ? o->clause : o->loop->clause);
	else
		cJSON_AddNullToObject(cfg, "clause");
	gb_json_u64(cfg, "iters", p->args.n);
	gb_json_u64(cfg, "elements", p->args.size);
	gb_json_num(cfg, "density", o->gen.density);
	gb_json_u64(cfg, "work", o->gen.work);
	gb_json_str(cfg, "opt", sp_opt_names[o->cfg.opt]);
	gb_json_str(cfg, "backend", gb_backend_name(b));
	gb_json_u64(cfg, "cpu_workers", o->cfg.workers);
	gb_json_num(cfg, "threshold", o->cfg.threshold);
	gb_json_u64(cfg, "clean_run", o->cfg.clean_run);
	gb_json_str(cfg, "schedule", sp_schedule_names[o->cfg.schedule]);
	gb_json_u64(cfg, "max_assignment", o->cfg.max_assignment);
	gb_json_u64(cfg, "seed", o->gen.seed);
	gb_opts_config(cfg, &o->run);
}

/* The phases and counters of a run (counters from its last repetition). */
static void mode_json(cJSON *j, unsigned k, const void *arg)
{
	const spec_run *s = arg;
	const sp_result *r = &s->x[k].last;
	const gb_measure *ms = s->ms;
	cJSON *ph;
	unsigned p;

	gb_json_str(j, "backend", gb_backend_name(s->x[k].backend));
	ph = cJSON_AddObjectToObject(j, "phase_seconds");
	for (p = 0; p < SP_NPHASES; p++)
		gb_json_stats(ph, sp_phase_names[p], gb_measure_track(ms, k, p));
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
	gb_json_num(j, "misspeculation_rate", s->p->args.n ? (double)r->reexecuted / s->p->args.n : 0);
	gb_json_u64(j, "bytes_to_device", r->bytes_in);
	gb_json_u64(j, "bytes_from_device", r->bytes_out);
}

static void mode_text(char *buf, size_t len, unsigned k, const void *arg)
{
	snprintf(buf, len, "%s backend", gb_backend_name(((const spec_run *)arg)->x[k].backend));
}

/* The --opt run's phases, assignments, misspeculation and copies. */
static void lines(FILE *out, const void *arg)
{
	const spec_run *s = arg;
	const sp_result *r = &s->x[0].last;
	unsigned k;

	fprintf(out, "  %-12s", "phases");
	for (k = 0; k < SP_NPHASES; k++)
		fprintf(out, " %s %.3g s%s", sp_phase_names[k], gb_measure_track(s->ms, 0, k).median,
			k + 1 < SP_NPHASES ? "," : " (medians)\n");
	fprintf(out, "  %-12s %" PRIu64 " (%" PRIu64 " misspeculated), sizes %" PRIu64 "..%" PRIu64 "\n",
		"assignments", r->assignments, r->assignments_misspeculated, r->min_assignment, r->max_assignment);
	fprintf(out, "  %-12s %" PRIu64 " iterations re-executed in order (rate %.4f%%), %" PRIu64
		" deferred, %" PRIu64 " wrong elements\n", "misspec", r->reexecuted,
		s->p->args.n ? 100.0 * r->reexecuted / s->p->args.n : 0, r->deferred, r->wrong_elements);
	fprintf(out, "  %-12s %.4g MB to the device, %.4g MB back\n", "copies", r->bytes_in / 1e6,
		r->bytes_out / 1e6);
}

/* The summary's and the report's view of what finished; what a runtime failure shows too. */
static void view_of(gb_measure *ms, void *arg, gb_result_view *v)
{
	spec_run *s = arg;
	const spec_opts *o = s->o;
	gb_backend b = s->backend;

	(void)ms;
	snprintf(s->headline, sizeof(s->headline), "%s (%s), %s backend%s%s%s, %u iterations, opt %s",
		 o->loop->head.name, o->loop->kind == SP_MEM ? "irregular memory" : "irregular control flow",
		 gb_backend_name(b), b == GB_BACKEND_GPU ? " (" : "", b == GB_BACKEND_GPU ? s->dev.name : "",
		 b == GB_BACKEND_GPU ? ")" : "", s->p->args.n, sp_opt_names[o->cfg.opt]);
	*v = (gb_result_view){
		.headline = s->headline,
		.entries_key = "baselines",
		.first_in_results = 1,
		.name_key = "name",
		.time_key = "loop_seconds",
		.time_label = "loop ",
		.checked_key = "reps_checked",
		.checked_what = "repetitions checked: final array and scalars equal the sequential loop's, "
				"bit for bit",
		.method = "final array and loop-carried scalars against the sequential loop, bit for bit, "
			  "after every --verify-every-th repetition of every run",
		.entry_json = mode_json,
		.entry_text = mode_text,
		.lines = lines,
		.arg = s,
	};
}

static int run(int argc, char **argv)
{
	spec_opts o;
	spec_run *s = gb_xcalloc(1, sizeof(*s), "run state");
	gb_measure ms;
	sp_problem p;
	gb_device_info dev;
	gb_backend b;
	uint32_t *ref = NULL;
	float ref_s[SP_NSCALARS];
	char err[256];
	gb_report rpt;
	unsigned k;
	int rc;

	parse(&o, argc, argv);
	b = gb_backend_resolve((gb_backend)o.run.backend, GB_BACKEND_MASK(GB_BACKEND_CPU)
#ifdef GB_HAVE_CUDA
				   | GB_BACKEND_MASK(GB_BACKEND_GPU)
#endif
				   , "speculate", &dev);
	gb_measure_init(&ms, "speculate", &o.run, GB_CHECK_REPS, SP_NPHASES);
	if (sp_problem_generate(o.loop, &o.gen, &p, err, sizeof(err)) != 0) {
		gb_stop_exit_if_requested("generation");
		gb_die(GB_EXIT_USAGE, "speculate: %s", err);
	}
	if (o.clause && sp_clause_parse(o.clause, &p.clause, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "option --clause: %s", err);

	if (o.run.verify) { /* the oracle: the sequential loop, run once untimed, a stop looked for between pieces */
		uint32_t from, piece = 1u << 16;
		ref = gb_xmalloc((size_t)p.args.size * sizeof(uint32_t) + 1, "the reference array");
		memcpy(ref, p.A0, (size_t)p.args.size * sizeof(uint32_t));
		memcpy(ref_s, p.args.s, sizeof(ref_s));
		for (from = 0; from < p.args.n && !gb_measure_timed_out(&ms); from += piece)
			sp_run_sequential(&p, ref, ref_s, from, p.args.n - from < piece ? p.args.n : from + piece);
	}
	s->o = &o;
	s->ms = &ms;
	s->p = &p;
	s->ref = ref;
	s->ref_s = ref_s;
	s->host = gb_xmalloc((size_t)p.args.size * sizeof(uint32_t) + 1, "the host array");
	s->x[gb_measure_add(&ms, "speculative")] = (spec_mode){.bl = NULL, .backend = b};
	/* the registry's order, whatever the order --compare names them in: one set of
	 * baselines makes one config.compare, which `gpubench compare` matches reports by */
	for (k = 0; sp_baselines[k]; k++)
		if (named(&o.baselines, sp_baselines[k]))
			s->x[gb_measure_add(&ms, sp_baselines[k]->head.name)] = (spec_mode){
				.bl = sp_baselines[k],
				.backend = sp_baselines[k]->head.backends & GB_BACKEND_MASK(b) ? b : GB_BACKEND_CPU};
	s->backend = b;
	s->dev = dev;
	gb_report_on_failure(&ms, view_of, s, o.run.json);
	for (k = 0; k < ms.n; k++)
		gb_measure_run(&ms, k, spec_rep, s);

	gb_report_init(&rpt, "speculate", argc, argv);
	gb_report_set_device(&rpt, b, b == GB_BACKEND_GPU ? &dev : NULL, (int)o.cfg.workers);
	fill_config(rpt.config, &o, &p, b);
	{
		gb_result_view view;
		view_of(&ms, s, &view);
		rc = gb_report_finish_to(&rpt, o.run.json, &ms, &view);
	}
	gb_report_free(&rpt);
	gb_measure_free(&ms);
	free(s->host);
	free(s);
	free(ref);
	sp_problem_free(&p);
	return rc;
}

const gb_command gb_cmd_speculate = {
	.name = "speculate",
	.summary = "speculative parallelization of irregular loops (five-phase runtime)",
	.run = run,
	.help = help,
	.registry = &registry,
	.baselines = &baselines,
};
