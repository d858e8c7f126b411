/*
 * gpubench list: the KMA-style device heap and the lock-free semi-linked list
 * (Mulder 2015). Runs a workload of adds, gets and deletes through one
 * implementation (--impl), optionally others beside it (--compare), checks
 * every outcome and the final list against the per-thread oracle after each
 * repetition, and reports times, heap use and failed allocations.
 *
 * --timeout: a lock-free list that livelocks (or a bug that makes an
 * operation spin) never returns from an implementation's run, so a watchdog
 * thread waits for the deadline and, if the run is still going, writes the
 * report of the repetitions that finished (marked incomplete) and exits 1.
 * The repetitions run outside the watchdog's lock, and each one's results are
 * published under it, so what the watchdog reports is always whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/backend.h"
#include "common/device.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/options.h"
#include "common/opts.h"
#include "common/output.h"
#include "common/report.h"
#include "common/stats.h"
#include "structures/list_engine.h"
#include "structures/semilist.h"
#include "workloads/list_gen.h"
#include "workloads/list_oracle.h"

#define MAX_IMPLS GB_MAX_IMPLS
#define DEFAULT_SB_COUNT 64u     /* the paper's heap: 64 superblocks of 4096 bytes */
#define DEFAULT_SB_SIZE 4096u

static const char *const platform_names[] = {"cpu", "gpu", "opencl"};

static int engine_on_gpu(const void *e)
{
	return ((const list_engine *)e)->platform == LIST_ON_GPU;
}

static const char *engine_unusable(const void *e)
{
	const list_engine *l = e;
	return l->available ? NULL : l->summary;
}

static const gb_impl_table impl_table = {
	.what = "implementation",
	.entries = (const void *const *)list_engines,
	.name_at = offsetof(list_engine, name),
	.summary_at = offsetof(list_engine, summary),
	.on_gpu = engine_on_gpu,
	.unusable = engine_unusable,
	.gpu_default = "gpu",
	.cpu_default = "cpu-lockfree",
};

typedef struct list_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	int kind;
	const char *impl_name;
	uint64_t nodes, threads, ops, sb_count, sb_size, cpu_workers, opencl_device;
	const list_engine *impl[MAX_IMPLS]; /* [0] is --impl, the rest --compare */
	unsigned nimpl;
	list_config cfg;
	list_params params;
	int verify; /* run.verify: some repetition is checked */
	int gpu;
} list_opts;

#define AT(field) offsetof(list_opts, field)

enum { ROW_OP, ROW_NODES, ROW_THREADS, ROW_OPS, ROW_IMPL, ROW_SBS, ROW_SBSIZE, ROW_WORKERS, ROW_CLDEV, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_OP] = {.name = "op", .kind = GB_OPT_CHOICE, .metavar = "NAME", .choices = list_kind_names,
		    .def = "insert", .offset = AT(kind),
		    .help = "insert: add --nodes keys to an empty list; delete: delete all of a --nodes "
			    "list, neighbours by different threads; mixed: a third gets, the rest adds and "
			    "deletes, on a --nodes list of 2x--nodes keys"},
	[ROW_NODES] = {.name = "nodes", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = LIST_MAX_KEY / 2,
		       .def = "4096", .offset = AT(nodes), .help = "list size"},
	[ROW_THREADS] = {.name = "threads", .kind = GB_OPT_UINT, .metavar = "T", .lo = 1, .hi = 1u << 26,
			 .offset = AT(threads),
			 .help = "logical threads (GPU threads, work-items; default one per node up to 65536)"},
	[ROW_OPS] = {.name = "ops", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 1ull << 31,
		     .offset = AT(ops), .help = "mixed: operations in all (default --nodes)"},
	[ROW_IMPL] = {.name = "impl", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = AT(impl_name),
		      .help = "implementation, one of those below (default gpu, or cpu-lockfree when no GPU "
			      "is found)"},
	[ROW_SBS] = {.name = "superblocks", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = 1u << 24,
		     .offset = AT(sb_count),
		     .help = "heap superblocks, bookkeeping included (default 64, or as many as the run's "
			     "nodes need with room to spare)"},
	[ROW_SBSIZE] = {.name = "superblock-size", .kind = GB_OPT_UINT, .metavar = "B", .lo = KMA_MAX_BLOCK,
			.hi = 1u << 24, .def = "4096", .offset = AT(sb_size),
			.help = "bytes per superblock, a multiple of 256"},
	[ROW_WORKERS] = {.name = "cpu-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 4096,
			 .offset = AT(cpu_workers),
			 .help = "OS threads of cpu-lockfree* (default: logical CPUs)"},
	[ROW_CLDEV] = {.name = "opencl-device", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 1023,
		       .def = "0", .offset = AT(opencl_device),
		       .help = "opencl: device index over all platforms"},
};

static void list_impls(FILE *out)
{
	fputs("\nImplementations (--impl, --compare):\n", out);
	gb_impl_help(out, &impl_table, 2, 18);
}

static const gb_opt_spec spec = {
	.cmd = "list",
	.intro = "A lock-free semi-linked list on a KMA-style device heap (Mulder 2015): add at the end "
		 "by CAS (Listing 1), get, delete with a marked next pointer (Listing 3). Every logical "
		 "thread adds, gets and deletes its own keys in a shared list; each repetition runs on a "
		 "fresh heap and is checked against a per-thread serial replay: every outcome, every key "
		 "that should remain reachable exactly once, no deleted key reachable, the count method, "
		 "and the allocator's live blocks equal to the list's nodes.",
	.rows = rows,
	.nrows = NROWS,
	.unit = "workload",
	.check_unit = "timed repetition",
	.compare_help = "other implementations run on the same operations, e.g. cpu,cpu-tail; the "
			"report gives the speedup of --impl over each",
	.extra_help = list_impls,
	.example = "Example: gpubench list --op insert --nodes 4096 --compare cpu",
};

static void help(FILE *out)
{
	gb_opts_help(out, &spec);
}

/* Superblocks for the nodes a run can hold at once, with a quarter to spare, at least the paper's 64. */
static uint32_t default_superblocks(const list_config *c, uint32_t sb_size)
{
	uint64_t peak = c->kind == LIST_MIXED ? 2ull * c->nodes : c->nodes;
	uint64_t per_sb = sb_size / SL_NODE_BYTES, data = (peak + peak / 4 + per_sb - 1) / per_sb + 1;
	uint32_t n;
	if (data > 0xFFFFFFFFull / sb_size)
		return UINT32_MAX;
	n = kma_superblocks_for((uint32_t)data, sb_size);
	return n > DEFAULT_SB_COUNT ? n : DEFAULT_SB_COUNT;
}

static void parse(list_opts *o, int argc, char **argv)
{
	unsigned char given[NROWS + GB_OPTS_SHARED];
	gb_impl_choice chosen;
	char err[256];
	unsigned k;

	memset(o, 0, sizeof(o[0]));
	gb_opts_parse(&spec, o, given, argc, argv);
	o->cfg.kind = (unsigned)o->kind;
	o->cfg.nodes = (uint32_t)o->nodes;
	o->cfg.threads = (uint32_t)o->threads;
	o->cfg.ops = o->ops;
	o->cfg.seed = o->run.seed;
	o->params.sb_size = (uint32_t)o->sb_size;
	o->params.sb_count = (uint32_t)o->sb_count;
	o->params.cpu_workers = given[ROW_WORKERS] ? (uint32_t)o->cpu_workers : (uint32_t)gb_cpu_count();
	o->params.opencl_device = (uint32_t)o->opencl_device;
	o->verify = o->run.verify;
	{
		const gb_path_use paths[] = {{"json", o->run.json, 0}};
		gb_paths_check("list", paths, 1);
	}
	if (given[ROW_OPS] && o->cfg.kind != LIST_MIXED)
		gb_die(GB_EXIT_USAGE, "option --ops applies only to --op mixed");
	if (!given[ROW_THREADS])
		o->cfg.threads = o->cfg.nodes < 65536 ? o->cfg.nodes : 65536;
	if (!given[ROW_SBS])
		o->params.sb_count = default_superblocks(&o->cfg, o->params.sb_size);
	if (kma_layout_check(o->params.sb_count, o->params.sb_size, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "list: %s", err);
	gb_impl_choose(&impl_table, o->impl_name, o->run.compare, (gb_backend)o->run.backend, &chosen);
	for (k = 0; k < chosen.n; k++)
		o->impl[k] = chosen.e[k];
	o->nimpl = chosen.n;
	o->gpu = chosen.gpu;
}

/* What one implementation did over all repetitions. */
typedef struct impl_result {
	const list_engine *e;
	double *seconds;
	gb_stats run;
	uint32_t reps_done;
	uint32_t reps_checked;      /* timed repetitions checked: every --verify-every-th */
	list_run last;             /* the last finished repetition (outcomes, durations, heap) */
	uint64_t outcomes[LIST_NOPCODES][4];
	gb_stats op_s[LIST_NOPCODES];
	uint32_t bad_reps;
	char message[400];         /* the first verification failure */
} impl_result;

/* The stats of the finished repetitions: run times, and the last one's operations. */
static void impl_stats(impl_result *ir, const list_workload *w)
{
	uint64_t cells = (uint64_t)w->steps * w->threads, c, n[LIST_NOPCODES] = {0};
	double *v[LIST_NOPCODES];
	unsigned op;

	ir->run = gb_stats_of(ir->seconds, ir->reps_done);
	memset(ir->outcomes, 0, sizeof(ir->outcomes));
	if (!ir->reps_done)
		return;

	for (op = 1; op < LIST_NOPCODES; op++)
		v[op] = gb_xmalloc((w->count[op] + 1) * sizeof(double), "operation times");
	for (c = 0; c < cells; c++) {
		op = LIST_OP_OF(w->ops[c]);
		if (op == LIST_NOP)
			continue;
		if (!ir->last.no_op_times)
			v[op][n[op]++] = ir->last.op_ns[c] * 1e-9;
		ir->outcomes[op][ir->last.outcome[c] & 3]++;
	}
	for (op = 1; op < LIST_NOPCODES; op++) {
		ir->op_s[op] = gb_stats_of(v[op], n[op]);
		free(v[op]);
	}
}

/*
 * What the watchdog shares with the main thread. The main thread holds mu
 * except while an implementation runs a repetition; done tells the watchdog
 * the run ended in time.
 */
typedef struct list_watch {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;
	const list_opts *o;
	const list_workload *w;
	impl_result *ir;
	int argc;
	char **argv;
	struct timespec start; /* --timeout counts from here: generation included */
} list_watch;

static void list_run_free(list_run *r)
{
	free(r->outcome);
	free(r->op_ns);
	free(r->snap.keys);
}

/*
 * --warmup untimed and --reps timed repetitions of one implementation, each
 * on a fresh heap; every --verify-every-th timed one is checked. 1 when each
 * checked one verified. Called with watch->mu held.
 */
static int run_impl(list_watch *watch, impl_result *ir)
{
	const list_opts *o = watch->o;
	const list_workload *w = watch->w;
	uint64_t cells = (uint64_t)w->steps * w->threads, nrep = o->run.warmup + o->run.reps, rep;
	char err[512];

	ir->seconds = gb_xcalloc(o->run.reps, sizeof(double), "timings");
	for (rep = 0; rep < nrep; rep++) {
		int timed = rep >= o->run.warmup;
		uint64_t t = rep - (timed ? o->run.warmup : 0); /* index among the timed ones */
		list_run r;
		int failed;
		memset(&r, 0, sizeof(r));
		r.outcome = gb_xcalloc(cells, 1, "outcomes");
		r.op_ns = gb_xcalloc(cells, sizeof(uint32_t), "operation times");
		pthread_mutex_unlock(&watch->mu);
		failed = ir->e->run(w, &o->params, &r, err, sizeof(err)) != 0;
		pthread_mutex_lock(&watch->mu);
		if (failed)
			gb_die(GB_EXIT_RUNTIME, "list: %s: %s", ir->e->name, err);
		if (!timed) {
			list_run_free(&r);
			continue;
		}
		if (o->verify && t % o->run.verify_every == 0) {
			list_verdict v;
			if (r.broken[0]) {
				v.ok = 0;
				snprintf(v.message, sizeof(v.message), "%s", r.broken);
			} else {
				list_verify(w, r.outcome, &r.snap, &v);
			}
			if (!v.ok && ir->bad_reps++ == 0)
				snprintf(ir->message, sizeof(ir->message), "%s, repetition %u: %s", ir->e->name,
					 (unsigned)t + 1, v.message);
			ir->reps_checked++;
		}
		list_run_free(&ir->last);
		ir->last = r;
		ir->seconds[t] = r.seconds;
		ir->reps_done = (uint32_t)t + 1;
	}
	return ir->bad_reps == 0;
}

static void report_impl(cJSON *j, const impl_result *ir, const impl_result *first, const list_opts *o,
			const list_workload *w)
{
	static const char *const outcome_names[4] = {"not_run", "done", "missing", "out_of_heap"};
	const list_run *r = &ir->last;
	cJSON *ops, *out;
	unsigned op, k;

	gb_json_str(j, "impl", ir->e->name);
	gb_json_str(j, "platform", platform_names[ir->e->platform]);
	gb_json_str(j, "where", r->where);
	gb_json_u64(j, "reps_completed", ir->reps_done);
	gb_json_stats(j, "run_seconds", ir->run);
	gb_json_num(j, "ops_per_s", ir->run.median > 0 ? (double)list_real_ops(w) / ir->run.median : 0);
	ops = cJSON_AddObjectToObject(j, "op_seconds");
	out = cJSON_AddObjectToObject(j, "outcomes");
	for (op = 1; op < LIST_NOPCODES; op++) {
		cJSON *oc = cJSON_AddObjectToObject(out, list_opcode_names[op]);
		gb_json_stats(ops, list_opcode_names[op], ir->op_s[op]);
		for (k = 1; k < 4; k++)
			gb_json_u64(oc, outcome_names[k], ir->outcomes[op][k]);
	}
	gb_json_u64(j, "failed_allocs", r->has_heap ? r->heap.failed_allocs : ir->outcomes[LIST_ADD][LIST_NOMEM]);
	gb_json_u64(j, "list_nodes", r->snap.nkeys);
	gb_json_u64(j, "nodes_in_deletion", r->snap.in_deletion);
	if (r->has_heap) {
		cJSON *h = cJSON_AddObjectToObject(j, "heap");
		uint64_t committed = (uint64_t)r->heap.superblocks_used * o->params.sb_size;
		uint64_t overhead = r->heap.bookkeeping_bytes + committed - r->heap.live_bytes;
		gb_json_u64(h, "heap_bytes", r->heap.heap_bytes);
		gb_json_u64(h, "bookkeeping_bytes", r->heap.bookkeeping_bytes);
		gb_json_u64(h, "superblocks_used", r->heap.superblocks_used);
		gb_json_u64(h, "superblocks_free", r->heap.superblocks_free);
		gb_json_u64(h, "live_blocks", r->heap.live_blocks);
		gb_json_u64(h, "free_blocks", r->heap.free_blocks);
		gb_json_u64(h, "bytes_in_use", r->heap.live_bytes);
		gb_json_u64(h, "overhead_bytes", overhead);
		gb_json_num(h, "overhead_ratio", r->heap.live_bytes ? (double)overhead / r->heap.live_bytes : 0);
	} else {
		cJSON_AddNullToObject(j, "heap");
	}
	if (ir != first)
		gb_json_num(j, "speedup_of_impl", first->run.median > 0 ? ir->run.median / first->run.median : 0);
	if (o->verify) {
		if (ir->reps_checked)
			gb_json_bool(j, "verified", ir->bad_reps == 0);
		else
			cJSON_AddNullToObject(j, "verified");
		gb_json_str(j, "message", ir->message);
	}
}

static void summary(const list_opts *o, const list_workload *w, const impl_result *ir, int incomplete)
{
	const list_run *r0 = &ir[0].last;
	unsigned k, op;

	printf("gpubench list: %s, %u nodes, %u threads, %" PRIu64 " operations (%s)\n",
	       list_kind_names[o->cfg.kind], o->cfg.nodes, w->threads, list_real_ops(w), ir[0].e->name);
	for (k = 0; k < o->nimpl; k++) {
		const gb_stats *s = &ir[k].run;
		char speed[128];
		printf("  %-18s %.4g s (median of %u), %.4g ops/s", ir[k].e->name, s->median, ir[k].reps_done,
		       s->median > 0 ? (double)list_real_ops(w) / s->median : 0);
		if (ir[k].last.where[0])
			printf(" [%s]", ir[k].last.where);
		if (o->verify)
			printf(", %s", !ir[k].reps_checked ? "not run" : ir[k].bad_reps ? "WRONG" : "verified");
		if (k > 0 && ir[0].run.median > 0 && s->median > 0)
			printf(", %s", gb_speedup_text(speed, sizeof(speed), ir[0].e->name, ir[0].run.median,
						      s->median));
		printf("\n");
	}
	printf("  per op      ");
	for (op = 1; op < LIST_NOPCODES; op++) {
		if (ir[0].op_s[op].n)
			printf(" %s %.3g us", list_opcode_names[op], ir[0].op_s[op].median * 1e6);
		else
			printf(" %s -", list_opcode_names[op]);
		printf(op + 1 < LIST_NOPCODES ? "," : " (medians, %s)\n", ir[0].e->name);
	}
	printf("  outcomes     add %" PRIu64 " done, %" PRIu64 " out of heap; get %" PRIu64 " found, %" PRIu64
	       " missing; delete %" PRIu64 " done, %" PRIu64 " missing; %" PRIu64 " nodes left\n",
	       ir[0].outcomes[LIST_ADD][LIST_DONE], ir[0].outcomes[LIST_ADD][LIST_NOMEM],
	       ir[0].outcomes[LIST_GET][LIST_DONE], ir[0].outcomes[LIST_GET][LIST_MISS],
	       ir[0].outcomes[LIST_DEL][LIST_DONE], ir[0].outcomes[LIST_DEL][LIST_MISS], r0->snap.nkeys);
	if (r0->has_heap)
		printf("  heap         %u x %u bytes, %" PRIu64 " blocks in use (%" PRIu64 " bytes), bookkeeping %"
		       PRIu64 " bytes, %u superblocks used, %u failed allocations\n",
		       o->params.sb_count, o->params.sb_size, r0->heap.live_blocks, r0->heap.live_bytes,
		       r0->heap.bookkeeping_bytes, r0->heap.superblocks_used, r0->heap.failed_allocs);
	if (incomplete)
		printf("  incomplete   --timeout %g s reached: only finished repetitions are reported\n",
		       o->run.timeout);
}

/*
 * The report and the summary of what finished; incomplete: --timeout cut the
 * run short. Returns the exit status. Called with watch->mu held.
 */
static int finish(list_watch *watch, int incomplete)
{
	const list_opts *o = watch->o;
	const list_workload *w = watch->w;
	impl_result *ir = watch->ir;
	int argc = watch->argc;
	char **argv = watch->argv;
	gb_report rpt;
	cJSON *impls, *cmp;
	uint64_t checked;
	unsigned k;
	int bad = 0, rc = 0;

	for (k = 0; k < o->nimpl; k++) {
		impl_stats(&ir[k], w);
		bad |= ir[k].bad_reps != 0;
	}
	gb_report_init(&rpt, "list", argc, argv);
	gb_report_set_machine(&rpt, o->gpu, (int)o->params.cpu_workers);
	gb_json_str(rpt.config, "op", list_kind_names[o->cfg.kind]);
	gb_json_u64(rpt.config, "nodes", o->cfg.nodes);
	gb_json_u64(rpt.config, "threads", w->threads);
	gb_json_u64(rpt.config, "steps", w->steps);
	gb_json_u64(rpt.config, "ops", list_real_ops(w));
	gb_json_u64(rpt.config, "keyspace", w->keyspace);
	gb_json_u64(rpt.config, "starting_nodes", w->nprefill);
	gb_json_str(rpt.config, "impl", o->impl[0]->name);
	cmp = cJSON_AddArrayToObject(rpt.config, "compare");
	for (k = 1; k < o->nimpl; k++)
		cJSON_AddItemToArray(cmp, cJSON_CreateString(o->impl[k]->name));
	gb_json_u64(rpt.config, "superblocks", o->params.sb_count);
	gb_json_u64(rpt.config, "superblock_size", o->params.sb_size);
	gb_json_u64(rpt.config, "heap_bytes", (uint64_t)o->params.sb_count * o->params.sb_size);
	gb_json_u64(rpt.config, "cpu_workers", o->params.cpu_workers);
	gb_json_u64(rpt.config, "opencl_device", o->params.opencl_device);
	gb_json_u64(rpt.config, "group", LIST_GROUP);
	gb_opts_config(rpt.config, &o->run);
	gb_json_u64(rpt.config, "seed", o->cfg.seed);
	{
		cJSON *mix = cJSON_AddObjectToObject(rpt.config, "op_counts");
		unsigned op;
		for (op = 1; op < LIST_NOPCODES; op++)
			gb_json_u64(mix, list_opcode_names[op], w->count[op]);
	}

	impls = cJSON_AddArrayToObject(rpt.results, "impls");
	for (k = 0; k < o->nimpl; k++) {
		cJSON *j = cJSON_CreateObject();
		report_impl(j, &ir[k], &ir[0], o, w);
		cJSON_AddItemToArray(impls, j);
	}
	if (incomplete)
		gb_report_incomplete(&rpt);
	checked = 0;
	for (k = 0; k < o->nimpl; k++)
		checked += ir[k].reps_checked;
	if (o->verify && checked) /* null: nothing was checked */
		gb_json_bool(rpt.verification, "verified", !bad);
	else
		cJSON_AddNullToObject(rpt.verification, "verified");
	gb_json_str(rpt.verification, "method",
		    o->verify ? "every outcome against a per-thread serial replay; the final list: each remaining "
			       "key reachable once, no deleted key, count method, allocator live blocks"
			     : "none");
	gb_json_u64(rpt.verification, "reps_checked", o->verify ? checked : 0);
	{
		const char *msg = "";
		for (k = 0; k < o->nimpl && !msg[0]; k++)
			msg = ir[k].message;
		gb_json_str(rpt.verification, "message", msg);
	}

	if (o->run.json && gb_report_write(&rpt, o->run.json) != 0)
		rc = GB_EXIT_RUNTIME;
	if (!rc && !gb_quiet && !(o->run.json && strcmp(o->run.json, "-") == 0))
		summary(o, w, ir, incomplete);
	if (!rc && bad) {
		for (k = 0; k < o->nimpl; k++)
			if (ir[k].bad_reps)
				gb_warn("list: verification failed in %u of %u repetitions: %s", ir[k].bad_reps,
					ir[k].reps_checked, ir[k].message);
		rc = GB_EXIT_VERIFY;
	}
	if (!rc && incomplete) {
		gb_warn("list: --timeout %g s reached; the report covers the repetitions that finished",
			o->run.timeout);
		rc = GB_EXIT_RUNTIME;
	}
	gb_report_free(&rpt);
	return rc;
}

/* Sleep until --timeout; if the run is still going, report what finished and exit 1. */
static void *watchdog(void *arg)
{
	list_watch *watch = arg;
	struct timespec until;
	double whole;
	int rc;

	until = watch->start;
	whole = (double)until.tv_sec + until.tv_nsec * 1e-9 + watch->o->run.timeout;
	until.tv_sec = (time_t)whole;
	until.tv_nsec = (long)((whole - (double)until.tv_sec) * 1e9);
	pthread_mutex_lock(&watch->mu);
	while (!watch->done)
		if (pthread_cond_timedwait(&watch->cv, &watch->mu, &until) == ETIMEDOUT)
			break;
	if (watch->done) {
		pthread_mutex_unlock(&watch->mu);
		return NULL;
	}
	rc = finish(watch, 1);
	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}

static int run(int argc, char **argv)
{
	list_opts o;
	list_workload w;
	impl_result ir[MAX_IMPLS];
	list_watch watch;
	pthread_t dog;
	char err[512];
	unsigned k;
	int rc;

	parse(&o, argc, argv);
	memset(&watch, 0, sizeof(watch));
	clock_gettime(CLOCK_REALTIME, &watch.start);
	if (list_generate(&o.cfg, &w, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "list: %s", err);
	memset(ir, 0, sizeof(ir));
	pthread_mutex_init(&watch.mu, NULL);
	pthread_cond_init(&watch.cv, NULL);
	watch.o = &o;
	watch.w = &w;
	watch.ir = ir;
	watch.argc = argc;
	watch.argv = argv;
	for (k = 0; k < o.nimpl; k++) /* named before any runs: the watchdog reports them all */
		ir[k].e = o.impl[k];
	pthread_mutex_lock(&watch.mu);
	if (pthread_create(&dog, NULL, watchdog, &watch) != 0)
		gb_die(GB_EXIT_RUNTIME, "list: cannot start the --timeout watchdog thread");
	for (k = 0; k < o.nimpl; k++)
		run_impl(&watch, &ir[k]);
	watch.done = 1;
	pthread_cond_signal(&watch.cv);
	rc = finish(&watch, 0);
	pthread_mutex_unlock(&watch.mu);
	pthread_join(dog, NULL);
	for (k = 0; k < o.nimpl; k++) {
		free(ir[k].seconds);
		list_run_free(&ir[k].last);
	}
	list_workload_free(&w);
	return rc;
}

const gb_command gb_cmd_list = {
	.name = "list",
	.summary = "device heap allocator and lock-free semi-linked list (Mulder 2015)",
	.run = run,
	.help = help,
};
