/*
 * gpubench list: the KMA-style device heap and the lock-free semi-linked list
 * (Mulder 2015). Runs a workload of adds, gets and deletes through one
 * implementation (--impl), optionally others beside it (--compare), checks
 * every outcome and the final list against the per-thread oracle after each
 * repetition, and reports times, heap use and failed allocations.
 *
 * --timeout: a lock-free list that livelocks (or a bug that makes an
 * operation spin) never returns from an implementation's run, so the run is
 * watched (gb_measure_watch): at the deadline the report of the repetitions
 * that finished is written, marked incomplete, and the process exits 1.
 */
#include <inttypes.h>
#include <stddef.h>
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
#include "structures/list_engine.h"
#include "structures/semilist.h"
#include "workloads/list/list_gen.h"
#include "workloads/list/list_oracle.h"

#define MAX_IMPLS GB_MAX_IMPLS
#define DEFAULT_SB_COUNT 64u     /* the paper's heap: 64 superblocks of 4096 bytes */
#define DEFAULT_SB_SIZE 4096u
#define DEFAULT_SB_MOST 1024u    /* superblocks a run's nodes fill at most with the default size */
/* The most --nodes whose heap fits 32-bit block offsets with the default superblocks (--op
 * insert; mixed holds twice the nodes): the range --help gives is one that runs. */
#define MAX_NODES 214119219u
/* The most --ops: with up to 2^26 --threads, the operation slots stay within 2^31. */
#define MAX_OPS ((1ull << 31) - (1ull << 26))
/* List nodes a second no implementation is known to walk faster than (an H100 walks about 1e10). */
#define FASTEST_WALK 1e11

static const char *const platform_names[] = {
	[LIST_ON_CPU] = "cpu", [LIST_ON_GPU] = "gpu", [LIST_ON_OPENCL] = "opencl",
};

static void engine_describe(const void *e, cJSON *o)
{
	gb_json_str(o, "platform", platform_names[((const list_engine *)e)->platform]);
}

static const gb_registry registry = {
	.what = "implementation",
	.picked_by = "--impl, --compare",
	.entries = (const void *const *)list_engines,
	.describe = engine_describe,
	.gpu_default = "gpu",
	.cpu_default = "cpu-lockfree",
};

typedef struct list_opts {
	gb_run_opts run; /* first: the shared rows write into it */
	int kind;
	const char *impl_name, *opencl_platform;
	uint64_t nodes, threads, ops, sb_count, sb_size, cpu_workers, opencl_device;
	gb_impl_choice impl;               /* list_engines: [0] is --impl, the rest --compare */
	list_config cfg;
	list_params params;
} list_opts;

#define AT(field) offsetof(list_opts, field)

enum { ROW_OP, ROW_NODES, ROW_THREADS, ROW_OPS, ROW_IMPL, ROW_SBS, ROW_SBSIZE, ROW_WORKERS, ROW_CLPLAT, ROW_CLDEV, NROWS };

static const gb_opt_row rows[NROWS] = {
	[ROW_OP] = {.name = "op", .kind = GB_OPT_CHOICE, .metavar = "NAME", .choices = list_kind_names,
		    .def = "insert", .offset = AT(kind),
		    .help = "insert: add --nodes keys to an empty list; delete: delete all of a --nodes "
			    "list, neighbours by different threads; mixed: a third gets, the rest adds and "
			    "deletes, on a --nodes list of 2x--nodes keys"},
	[ROW_NODES] = {.name = "nodes", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = MAX_NODES,
		       .def = "4096", .offset = AT(nodes),
		       .help = "list size (--op mixed: at most half the maximum, its keys being twice the nodes)"},
	[ROW_THREADS] = {.name = "threads", .kind = GB_OPT_UINT, .metavar = "T", .lo = 1, .hi = 1u << 26,
			 .offset = AT(threads),
			 .help = "logical threads (GPU threads, work-items; default one per node up to 65536)"},
	[ROW_OPS] = {.name = "ops", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = MAX_OPS,
		     .offset = AT(ops), .help = "mixed: operations in all (default --nodes)"},
	[ROW_IMPL] = {.name = "impl", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = AT(impl_name),
		      .help = "implementation, one of those below (default gpu, or cpu-lockfree when no GPU "
			      "is found)"},
	/* at most 2^24 - 1: that many of the smallest superblocks, 256 bytes, fill the 4 GiB the heap's
	 * 32-bit block offsets address */
	[ROW_SBS] = {.name = "superblocks", .kind = GB_OPT_UINT, .metavar = "N", .lo = 2, .hi = (1u << 24) - 1,
		     .offset = AT(sb_count),
		     .help = "heap superblocks, bookkeeping included (default 64, or as many as the run's "
			     "nodes need with room to spare)"},
	[ROW_SBSIZE] = {.name = "superblock-size", .kind = GB_OPT_UINT, .metavar = "B", .lo = KMA_MAX_BLOCK,
			.hi = 1u << 24, .offset = AT(sb_size),
			.help = "bytes per superblock, a multiple of 256 (default 4096, the paper's, or for a "
				"run whose nodes would fill more than 1024 of those the smallest power of two "
				"that holds them in 1024)"},
	[ROW_WORKERS] = {.name = "cpu-workers", .kind = GB_OPT_UINT, .metavar = "N", .lo = 1, .hi = 4096,
			 .offset = AT(cpu_workers),
			 .help = "OS threads of cpu-lockfree* (default: the CPUs this process may use: its "
				 "affinity and cgroup quota)"},
	[ROW_CLPLAT] = {.name = "opencl-platform", .kind = GB_OPT_TEXT, .metavar = "NAME", .offset = AT(opencl_platform),
			.help = "opencl, opencl-cpu: only the OpenCL platforms whose name or vendor contains NAME "
				"(case ignored; e.g. NVIDIA, Portable), or the platform of that index (default: any)"},
	[ROW_CLDEV] = {.name = "opencl-device", .kind = GB_OPT_UINT, .metavar = "N", .lo = 0, .hi = 1023,
		       .def = "0", .offset = AT(opencl_device),
		       .help = "opencl, opencl-cpu: the N-th device of the implementation's type (GPU, CPU) over "
			       "the platforms picked"},
};

static void list_impls(FILE *out)
{
	gb_registry_help(out, &registry);
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

/* The nodes a run can hold at once, with a quarter to spare. */
static uint64_t peak_node_bytes(const list_config *c)
{
	uint64_t peak = c->kind == LIST_MIXED ? 2ull * c->nodes : c->nodes;
	return (peak + peak / 4) * SL_NODE_BYTES;
}

/*
 * The paper's 4096 bytes, or for a big run the smallest power of two that
 * holds its nodes in DEFAULT_SB_MOST superblocks: each superblock a size
 * class starts is installed by one thread while every thread allocating from
 * the class waits, so a million-node insert spent its whole run installing
 * 4883 superblocks of 4096 bytes one after another (docs/list.md).
 */
static uint32_t default_superblock_size(const list_config *c)
{
	uint64_t size = DEFAULT_SB_SIZE, bytes = peak_node_bytes(c);
	while (bytes > DEFAULT_SB_MOST * size && size < (1u << 24))
		size *= 2;
	return (uint32_t)size;
}

/*
 * Superblocks for the nodes a run can hold at once, with a quarter to spare, at least the paper's 64.
 * A run whose nodes cannot fit the heap's 4 GiB (32-bit block offsets) exits 2 naming --nodes.
 */
static uint32_t default_superblocks(const list_config *c, uint32_t sb_size)
{
	uint64_t bytes = peak_node_bytes(c), data = (bytes + sb_size - 1) / sb_size + 1;
	uint32_t n = data > 0xFFFFFF00ull / sb_size ? 0 : kma_superblocks_for((uint32_t)data, sb_size);

	/* the bookkeeping superblocks kma_superblocks_for adds count against the 4 GiB too */
	if (!n || (uint64_t)n * sb_size > 0xFFFFFF00ull)
		gb_die(GB_EXIT_USAGE, "option --nodes: %u nodes need about %" PRIu64 " bytes of heap (%s, a quarter "
		       "to spare), above the 4 GiB its 32-bit block offsets address: at most %u with --op %s",
		       c->nodes, bytes, c->kind == LIST_MIXED ? "twice the nodes for mixed" : "the nodes",
		       c->kind == LIST_MIXED ? MAX_NODES / 2 : MAX_NODES, list_kind_names[c->kind]);
	return n > DEFAULT_SB_COUNT ? n : DEFAULT_SB_COUNT;
}

/*
 * Host memory, and device memory for a CUDA implementation, before any of it
 * is allocated: per operation slot its word, and per implementation an
 * outcome and a time for the run and for the last one kept, and the times
 * sorted for the report; the heap image and its copy; a serial list's
 * malloc'd nodes. A run that cannot fit exits 1 naming the option that sets
 * the largest part.
 */
static void check_memory(const list_opts *o)
{
	const list_config *c = &o->cfg;
	const char *cells_opt = c->kind == LIST_MIXED && o->ops ? "ops" : "nodes";
	/* the option's value, not the slots it rounds up to a whole step of --threads: the message names it */
	uint64_t cells = c->kind == LIST_MIXED && o->ops ? o->ops : c->nodes;
	uint64_t peak = c->kind == LIST_MIXED ? 2ull * c->nodes : c->nodes;
	gb_memory_term host[3], device[2];
	unsigned k, heap = 0, serial = 0;

	for (k = 0; k < o->impl.n; k++) {
		const char *const *opt = ((const list_engine *)o->impl.e[k])->head.options;
		while (opt && *opt && strcmp(*opt, "superblocks") != 0)
			opt++;
		if (opt && *opt)
			heap = 1; /* it reads the heap's options: it runs on the KMA-style heap */
		else
			serial = 1;
	}
	host[0] = (gb_memory_term){.opt = cells_opt, .value = cells, .bytes_each = 4 + 8 + 10ull * o->impl.n};
	host[1] = (gb_memory_term){.opt = "superblocks", .value = heap ? o->params.sb_count : 0,
				   .bytes_each = 2ull * o->params.sb_size};
	host[2] = (gb_memory_term){.opt = "nodes", .value = serial ? peak : 0, .bytes_each = 32};
	gb_memory_fit("list", "host", gb_host_memory_available(), 0, host, 3);
	if (o->impl.gpu) {
		gb_device_info dev;
		device[0] = (gb_memory_term){.opt = cells_opt, .value = cells, .bytes_each = 9};
		device[1] = (gb_memory_term){.opt = "superblocks", .value = o->params.sb_count,
					     .bytes_each = o->params.sb_size};
		if (gb_device_query(0, &dev) == 0)
			gb_memory_fit("list", "device", dev.global_mem_bytes, 0, device, 2);
	}
}

/*
 * What implementation e walks in one repetition, at least: an add walks to
 * the end of the list (but through a tail pointer), a delete or a get to its
 * key, about half the list. Said before the run when it cannot end in time.
 */
static void forecast(gb_measure *ms, unsigned k, const list_engine *e, const list_config *c)
{
	double n = c->nodes, walked, ops = c->ops ? (double)c->ops : n;
	const char *how;
	char why[160];

	if (c->kind == LIST_INSERT) {
		walked = e->tail ? n : n * n / 2;
		how = e->tail ? "each add appends through the tail pointer" : "each add walks the list to its end";
	} else if (c->kind == LIST_DELETE) {
		walked = n * n / 4;
		how = "each delete walks to its key";
	} else {
		walked = ops * n / 2;
		how = "each operation walks about half the list";
	}
	snprintf(why, sizeof(why), "about %.2g list nodes walked, %s, at %.0g a second", walked, how, FASTEST_WALK);
	gb_measure_forecast(ms, k, walked / FASTEST_WALK, why);
}

static void parse(list_opts *o, int argc, char **argv)
{
	unsigned char given[NROWS + GB_OPTS_SHARED];
	char err[256];

	memset(o, 0, sizeof(o[0]));
	gb_opts_parse(&spec, o, given, argc, argv);
	o->cfg.kind = (unsigned)o->kind;
	o->cfg.nodes = (uint32_t)o->nodes;
	o->cfg.threads = (uint32_t)o->threads;
	o->cfg.ops = o->ops;
	o->cfg.seed = o->run.seed;
	o->params.sb_size = given[ROW_SBSIZE] ? (uint32_t)o->sb_size : default_superblock_size(&o->cfg);
	o->params.sb_count = (uint32_t)o->sb_count;
	o->params.cpu_workers = given[ROW_WORKERS] ? (uint32_t)o->cpu_workers : (uint32_t)gb_cpu_count();
	o->params.opencl_device = (uint32_t)o->opencl_device;
	if (o->opencl_platform) {
		if (strlen(o->opencl_platform) >= sizeof(o->params.opencl_platform))
			gb_die(GB_EXIT_USAGE, "option --opencl-platform: '%s' is longer than %zu characters",
			       o->opencl_platform, sizeof(o->params.opencl_platform) - 1);
		snprintf(o->params.opencl_platform, sizeof(o->params.opencl_platform), "%s", o->opencl_platform);
	}
	{
		const gb_path_use paths[] = {{.opt = "json", .path = o->run.json}};
		gb_paths_check("list", paths, 1);
	}
	if (given[ROW_OPS] && o->cfg.kind != LIST_MIXED) {
		char chosen[32];
		snprintf(chosen, sizeof(chosen), "--op %s", list_kind_names[o->cfg.kind]);
		gb_opt_does_not_apply("ops", "--op mixed", chosen);
	}
	if (!given[ROW_THREADS])
		o->cfg.threads = o->cfg.nodes < 65536 ? o->cfg.nodes : 65536;
	if (!given[ROW_SBS])
		o->params.sb_count = default_superblocks(&o->cfg, o->params.sb_size);
	if (kma_layout_check(o->params.sb_count, o->params.sb_size, err, sizeof(err)) != 0)
		gb_die(GB_EXIT_USAGE, "list: %s", err);
	gb_impl_choose(&registry, NULL, o->impl_name, o->run.compare, (gb_backend)o->run.backend, &o->impl);
	gb_impl_check_options(&registry, &o->impl, &spec, given);
	check_memory(o);
}

/* What one implementation did in its last timed repetition, and its stats. */
typedef struct list_impl {
	const list_engine *e;
	list_run last;              /* outcomes, operation times, heap */
	uint64_t outcomes[LIST_NOPCODES][4];
	gb_stats op_s[LIST_NOPCODES];
	gb_stats op_steps[LIST_NOPCODES]; /* next words read by an operation's walks */
} list_impl;

/* What the repetitions share, and what the report needs when the watchdog writes it. */
typedef struct list_state {
	const list_opts *o;
	const list_workload *w;
	list_impl x[MAX_IMPLS];
	int argc;
	char **argv;
	char headline[256];
} list_state;

static void list_run_free(list_run *r)
{
	free(r->outcome);
	free(r->op_ns);
	free(r->op_steps);
	free(r->snap.keys);
}

/* The last repetition's outcomes and per-operation stats. */
static void impl_stats(list_impl *x, const list_workload *w)
{
	uint64_t cells = (uint64_t)w->steps * w->threads, c, n[LIST_NOPCODES] = {0}, ns[LIST_NOPCODES] = {0};
	double *v[LIST_NOPCODES], *st[LIST_NOPCODES];
	unsigned op;

	memset(x->outcomes, 0, sizeof(x->outcomes));
	memset(x->op_s, 0, sizeof(x->op_s));
	memset(x->op_steps, 0, sizeof(x->op_steps));
	if (!x->last.outcome)
		return;
	for (op = 1; op < LIST_NOPCODES; op++) {
		v[op] = gb_xmalloc((w->count[op] + 1) * sizeof(double), "operation times");
		st[op] = gb_xmalloc((w->count[op] + 1) * sizeof(double), "operation walk steps");
	}
	for (c = 0; c < cells; c++) {
		op = LIST_OP_OF(w->ops[c]);
		if (op == LIST_NOP)
			continue;
		if (!x->last.no_op_times)
			v[op][n[op]++] = x->last.op_ns[c] * 1e-9;
		if (!x->last.no_op_steps)
			st[op][ns[op]++] = x->last.op_steps[c];
		x->outcomes[op][x->last.outcome[c] & 3]++;
	}
	for (op = 1; op < LIST_NOPCODES; op++) {
		x->op_s[op] = gb_stats_of(v[op], n[op]);
		x->op_steps[op] = gb_stats_of(st[op], ns[op]);
		free(v[op]);
		free(st[op]);
	}
}

/*
 * One repetition on a fresh heap, run outside the watchdog's lock (a livelock
 * never returns); a checked one is compared with the per-thread oracle.
 */
static gb_rep_end list_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	list_state *s = arg;
	list_impl *x = &s->x[k];
	uint64_t cells = (uint64_t)s->w->steps * s->w->threads;
	char err[512];
	list_run r;
	int failed;

	memset(&r, 0, sizeof(r));
	r.outcome = gb_xcalloc(cells, 1, "outcomes");
	r.op_ns = gb_xcalloc(cells, sizeof(uint32_t), "operation times");
	r.op_steps = gb_xcalloc(cells, sizeof(uint32_t), "operation walk steps");
	gb_measure_unlock(ms);
	failed = x->e->run(s->w, &s->o->params, &r, err, sizeof(err)) != 0;
	gb_measure_lock(ms);
	if (failed)
		gb_die(GB_EXIT_RUNTIME, "list: %s: %s", x->e->head.name, err);
	if (!rep->timed) {
		list_run_free(&r);
		return GB_REP_DONE;
	}
	if (rep->check) {
		list_verdict v;
		if (r.broken[0]) {
			v.ok = 0;
			snprintf(v.message, sizeof(v.message), "%s", r.broken);
		} else {
			list_verify(s->w, r.outcome, &r.snap, &v);
		}
		if (!v.ok)
			gb_measure_wrong(ms, k, "%s, repetition %u: %s", x->e->head.name, rep->timed_index + 1, v.message);
	}
	list_run_free(&x->last);
	x->last = r;
	out->seconds = r.seconds;
	return GB_REP_DONE;
}

static void impl_json(cJSON *j, unsigned k, const void *arg)
{
	static const char *const outcome_names[4] = {
		[LIST_NOT_RUN] = "not_run", [LIST_DONE] = "done", [LIST_MISS] = "missing", [LIST_NOMEM] = "out_of_heap",
	};
	const list_state *s = arg;
	const list_impl *x = &s->x[k];
	const list_run *r = &x->last;
	cJSON *ops, *out, *steps = NULL;
	unsigned op, c;

	gb_json_str(j, "platform", platform_names[x->e->platform]);
	gb_json_str(j, "where", r->where);
	if (r->has_cl) {
		cJSON *cl = cJSON_AddObjectToObject(j, "opencl");
		gb_json_str(cl, "platform", r->cl.platform);
		gb_json_str(cl, "platform_version", r->cl.platform_version);
		gb_json_str(cl, "vendor", r->cl.vendor);
		gb_json_str(cl, "device", r->cl.device);
		gb_json_str(cl, "device_type", r->cl.device_type);
		gb_json_str(cl, "device_version", r->cl.device_version);
		gb_json_str(cl, "driver_version", r->cl.driver_version);
	} else {
		cJSON_AddNullToObject(j, "opencl");
	}
	ops = cJSON_AddObjectToObject(j, "op_seconds");
	if (r->no_op_steps)
		cJSON_AddNullToObject(j, "op_steps");
	else
		steps = cJSON_AddObjectToObject(j, "op_steps");
	out = cJSON_AddObjectToObject(j, "outcomes");
	for (op = 1; op < LIST_NOPCODES; op++) {
		cJSON *oc = cJSON_AddObjectToObject(out, list_opcode_names[op]);
		gb_json_stats(ops, list_opcode_names[op], x->op_s[op]);
		if (steps)
			gb_json_stats(steps, list_opcode_names[op], x->op_steps[op]);
		for (c = LIST_DONE; c < 4; c++)
			gb_json_u64(oc, outcome_names[c], x->outcomes[op][c]);
	}
	gb_json_u64(j, "failed_allocs", r->has_heap ? r->heap.failed_allocs : x->outcomes[LIST_ADD][LIST_NOMEM]);
	gb_json_u64(j, "list_nodes", r->snap.nkeys);
	gb_json_u64(j, "nodes_in_deletion", r->snap.in_deletion);
	if (r->has_heap) {
		cJSON *h = cJSON_AddObjectToObject(j, "heap");
		uint64_t committed = (uint64_t)r->heap.superblocks_used * s->o->params.sb_size;
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
}

static void impl_text(char *buf, size_t len, unsigned k, const void *arg)
{
	const list_run *r = &((const list_state *)arg)->x[k].last;

	snprintf(buf, len, "%s%s", r->where[0] ? "on " : "", r->where);
}

static void lines(FILE *out, const void *arg)
{
	const list_state *s = arg;
	const list_impl *x = &s->x[0];
	const list_run *r0 = &x->last;
	unsigned op;

	fprintf(out, "  %-12s", "per op");
	for (op = 1; op < LIST_NOPCODES; op++) {
		if (x->op_s[op].n)
			fprintf(out, " %s %.3g us", list_opcode_names[op], x->op_s[op].median * 1e6);
		else
			fprintf(out, " %s -", list_opcode_names[op]);
		fprintf(out, op + 1 < LIST_NOPCODES ? "," : " (medians, %s)\n", x->e->head.name);
	}
	if (!r0->no_op_steps) {
		fprintf(out, "  %-12s", "walk steps");
		for (op = 1; op < LIST_NOPCODES; op++) {
			if (x->op_steps[op].n)
				fprintf(out, " %s %.4g (mean %.4g)", list_opcode_names[op], x->op_steps[op].median,
					x->op_steps[op].mean);
			else
				fprintf(out, " %s -", list_opcode_names[op]);
			fprintf(out, op + 1 < LIST_NOPCODES ? "," : " (medians: next words read, %s)\n",
				x->e->head.name);
		}
	}
	fprintf(out, "  %-12s add %" PRIu64 " done, %" PRIu64 " out of heap; get %" PRIu64 " found, %" PRIu64
		" missing; delete %" PRIu64 " done, %" PRIu64 " missing; %" PRIu64 " nodes left\n", "outcomes",
		x->outcomes[LIST_ADD][LIST_DONE], x->outcomes[LIST_ADD][LIST_NOMEM], x->outcomes[LIST_GET][LIST_DONE],
		x->outcomes[LIST_GET][LIST_MISS], x->outcomes[LIST_DEL][LIST_DONE], x->outcomes[LIST_DEL][LIST_MISS],
		r0->snap.nkeys);
	if (r0->has_heap)
		fprintf(out, "  %-12s %u x %u bytes, %" PRIu64 " blocks in use (%" PRIu64 " bytes), bookkeeping %"
			PRIu64 " bytes, %u superblocks used, %u failed allocations\n", "heap", s->o->params.sb_count,
			s->o->params.sb_size, r0->heap.live_blocks, r0->heap.live_bytes, r0->heap.bookkeeping_bytes,
			r0->heap.superblocks_used, r0->heap.failed_allocs);
}

static void fill_config(cJSON *cfg, const list_opts *o, const list_workload *w)
{
	cJSON *mix;
	unsigned op;

	gb_json_str(cfg, "op", list_kind_names[o->cfg.kind]);
	gb_json_u64(cfg, "nodes", o->cfg.nodes);
	gb_json_u64(cfg, "threads", w->threads);
	gb_json_u64(cfg, "steps", w->steps);
	gb_json_u64(cfg, "ops", list_real_ops(w));
	gb_json_u64(cfg, "keyspace", w->keyspace);
	gb_json_u64(cfg, "starting_nodes", w->nprefill);
	gb_json_u64(cfg, "superblocks", o->params.sb_count);
	gb_json_u64(cfg, "superblock_size", o->params.sb_size);
	gb_json_u64(cfg, "heap_bytes", (uint64_t)o->params.sb_count * o->params.sb_size);
	gb_json_u64(cfg, "cpu_workers", o->params.cpu_workers);
	gb_json_str(cfg, "opencl_platform", o->params.opencl_platform);
	gb_json_u64(cfg, "opencl_device", o->params.opencl_device);
	gb_json_u64(cfg, "group", LIST_GROUP);
	gb_opts_config(cfg, &o->run);
	gb_json_u64(cfg, "seed", o->cfg.seed);
	mix = cJSON_AddObjectToObject(cfg, "op_counts");
	for (op = 1; op < LIST_NOPCODES; op++)
		gb_json_u64(mix, list_opcode_names[op], w->count[op]);
}

/* The summary's and the report's view of what finished; what a runtime failure shows too. */
static void view_of(gb_measure *ms, void *arg, gb_result_view *v)
{
	list_state *s = arg;
	const list_opts *o = s->o;
	const list_workload *w = s->w;
	unsigned k;

	for (k = 0; k < ms->n; k++)
		impl_stats(&s->x[k], w);
	snprintf(s->headline, sizeof(s->headline), "%s, %u nodes, %u threads, %" PRIu64 " operations (%s)",
		 list_kind_names[o->cfg.kind], o->cfg.nodes, w->threads, list_real_ops(w), ms->m[0].name);
	*v = (gb_result_view){
		.headline = s->headline,
		.time_key = "run_seconds",
		.time_label = "",
		.rate_key = "ops_per_s",
		.rate_unit = "ops/s",
		.rate_units = (double)list_real_ops(w),
		.checked_key = "reps_checked",
		.checked_what = "repetitions checked: every outcome against a per-thread serial replay, the "
				"final list and the allocator's live blocks",
		.method = "every outcome against a per-thread serial replay; the final list: each remaining "
			  "key reachable once, no deleted key, count method, allocator live blocks",
		.entry_json = impl_json,
		.entry_text = impl_text,
		.lines = lines,
		.arg = s,
	};
}

/*
 * The report and the summary of what finished: at the end of the run, or
 * from the watchdog when --timeout or a signal came first (the loop's lock
 * held). Returns the exit status.
 */
static int finish(gb_measure *ms, void *arg)
{
	list_state *s = arg;
	const list_opts *o = s->o;
	gb_result_view view;
	gb_report rpt;
	int rc;

	view_of(ms, s, &view);
	gb_report_init(&rpt, "list", s->argc, s->argv);
	gb_report_set_machine(&rpt, o->impl.gpu, (int)o->params.cpu_workers);
	fill_config(rpt.config, o, s->w);
	rc = gb_report_finish_to(&rpt, o->run.json, ms, &view);
	gb_report_free(&rpt);
	return rc;
}

static int run(int argc, char **argv)
{
	list_opts o;
	list_workload w;
	list_state *s = gb_xcalloc(1, sizeof(*s), "run state");
	gb_measure ms;
	char err[512];
	unsigned k;
	int rc;

	parse(&o, argc, argv);
	gb_measure_init(&ms, "list", &o.run, GB_CHECK_REPS, 0);
	if (list_generate(&o.cfg, &w, err, sizeof(err)) != 0) {
		gb_stop_exit_if_requested("generation");
		gb_die(GB_EXIT_USAGE, "list: %s", err);
	}
	s->o = &o;
	s->w = &w;
	s->argc = argc;
	s->argv = argv;
	for (k = 0; k < o.impl.n; k++) { /* named before any runs: the watchdog reports them all */
		s->x[k].e = o.impl.e[k];
		gb_measure_add(&ms, s->x[k].e->head.name);
		forecast(&ms, k, s->x[k].e, &o.cfg);
	}
	gb_report_on_failure(&ms, view_of, s, o.run.json);
	gb_measure_watch(&ms, finish, s);
	for (k = 0; k < ms.n; k++)
		gb_measure_run(&ms, k, list_rep, s);
	gb_measure_unwatch(&ms);
	rc = finish(&ms, s);
	for (k = 0; k < ms.n; k++)
		list_run_free(&s->x[k].last);
	free(s);
	gb_measure_free(&ms);
	list_workload_free(&w);
	return rc;
}

const gb_command gb_cmd_list = {
	.name = "list",
	.summary = "device heap allocator and lock-free semi-linked list (Mulder 2015)",
	.run = run,
	.help = help,
	.registry = &registry,
};
