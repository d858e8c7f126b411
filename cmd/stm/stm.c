/*
 * gpubench stm: software transactional memory engines on STM workloads. The
 * subcommand: its registries of engines (stm/registry.c, where an engine's
 * entry names its backends per workload, its family's options and its part
 * of the report) and of workloads (workloads/stm/stm_workloads.c), and the
 * run that generates the table, runs each chosen engine on the shared
 * measurement loop and reports. Its options are in options.c, a repetition
 * in run.c, its part of the report in report.c.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "cmd/stm/stm_cmd.h"
#include "common/cpus.h"
#include "common/error.h"
#include "common/memory.h"
#include "common/opts.h"
#include "common/report.h"
#include "common/stop.h"
#include "common/timer.h"

/* info's fields of an engine: its limits, the workloads it runs (its listing names them) and, a
 * sentence each, those it does not. */
static void describe_engine(const void *entry, cJSON *o)
{
	const stm_engine *e = entry;
	const stm_engine_run *r;
	cJSON *runs = cJSON_AddArrayToObject(o, "workloads"), *cannot, *by;
	char why[256];
	int i;

	gb_json_u64(o, "max_threads", e->max_threads);
	gb_json_u64(o, "max_words_per_transaction", e->max_set);
	for (r = e->runs; r->workload; r++)
		cJSON_AddItemToArray(runs, cJSON_CreateString(r->workload->head.name));
	by = cJSON_AddObjectToObject(o, "max_words_by_workload");
	for (r = e->runs; r->workload; r++)
		gb_json_u64(by, r->workload->head.name, r->max_set);
	by = cJSON_AddObjectToObject(o, "max_read_only_words_by_workload");
	for (r = e->runs; r->workload; r++)
		if (r->long_reads)
			gb_json_u64(by, r->workload->head.name, (uint64_t)r->max_set + r->long_reads);
	cJSON_AddBoolToObject(o, "cpu_only", e->no_gpu != NULL);
	cannot = cJSON_AddArrayToObject(o, "cannot_run");
	for (i = 0; stm_workloads[i]; i++)
		if (stm_cannot_run(e, stm_workloads[i], why, sizeof(why)))
			cJSON_AddItemToArray(cannot, cJSON_CreateString(why));
}

const gb_registry stm_cmd_engines = {
	.what = "engine",
	.picked_by = "--algo, --compare",
	.option = "algo",
	.entries = (const void *const *)stm_engines,
	.show_backends = 1,
	.describe = describe_engine,
	.runs_key = "workloads",
};

const gb_registry stm_cmd_workloads = {
	.what = "workload",
	.picked_by = "--workload; their options are marked with their name above",
	.entries = (const void *const *)stm_workloads,
};

/* What generation, an engine and the checks will allocate, estimated before any of it is. */
static void check_memory(const stm_opts *o, gb_backend backend, const gb_device_info *dev)
{
	gb_memory_term host[STM_MEMORY_TERMS], device[STM_MEMORY_TERMS];
	unsigned n = o->workload->memory(o->wl_opts, &o->table, host, device);

	gb_memory_fit("stm", "host", gb_host_memory_available(), 0, host, n);
	if (backend == GB_BACKEND_GPU)
		gb_memory_fit("stm", "device", dev->global_mem_bytes, 0, device, n);
}

/* Backends every chosen engine has for the workload. */
static unsigned backends_of(const stm_opts *o)
{
	unsigned mask = GB_BACKEND_MASK(GB_BACKEND_CPU) | GB_BACKEND_MASK(GB_BACKEND_GPU), k;
	for (k = 0; k < o->nengines; k++)
		if (!stm_engine_run_of(o->engine[k], o->workload)->gpu)
			mask &= ~GB_BACKEND_MASK(GB_BACKEND_GPU);
	return mask;
}

static int run(int argc, char **argv)
{
	stm_run *r = gb_xcalloc(1, sizeof(*r), "run state");
	stm_opts *o = &r->o;
	const stm_workload *w;
	gb_measure ms;
	char err[512];
	unsigned k;
	int rc;

	stm_cmd_parse(o, argc, argv);
	w = o->workload;
	gb_measure_init(&ms, "stm", &o->run, GB_CHECK_UNITS, 1);
	ms.warmup_s = o->warmup_time;
	r->ms = &ms;
	r->backend = gb_backend_resolve((gb_backend)o->run.backend, backends_of(o), o->algo, &r->dev);
	if (!o->p.cpu_workers)
		o->p.cpu_workers = (uint32_t)gb_cpu_count();
	if (o->p.cpu_workers > o->p.threads)
		o->p.cpu_workers = o->p.threads;
	if (!o->verify_threads_given) {
		int cpus = gb_cpu_count();
		o->verify_threads = r->backend == GB_BACKEND_GPU && cpus > 1 ? (uint64_t)(cpus - 1 < 16 ? cpus - 1 : 16) : 0;
	}

	check_memory(o, r->backend, &r->dev);
	r->inst = w->generate(o->wl_opts, &o->table, err, sizeof(err));
	if (!r->inst) {
		gb_stop_exit_if_requested("generation");
		gb_die(GB_EXIT_USAGE, "stm: %s", err);
	}
	r->in = w->input(r->inst);
	if (w->stage) /* the engines are opened with room for the largest stage */
		r->in.ntx = w->capacity(r->inst);
	r->cur = r->in;
	gb_note("note: generated %" PRIu64 " %s transactions in %.2f s", r->in.ntx, w->head.name,
		gb_seconds_since(ms.t_start));
	r->initial = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words");
	r->mirror = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "replay data words");
	r->after = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "device data words");
	r->status = gb_xmalloc(r->in.ntx * sizeof(uint32_t), "transaction status");
	if (w->verify_results) {
		r->before = gb_xmalloc((size_t)r->in.words * sizeof(uint32_t), "data words before a batch");
		r->results = gb_xmalloc(r->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t), "read-only results");
	}
	w->initial(r->inst, r->initial);

	for (k = 0; k < o->nengines; k++) {
		r->er[k].e = o->engine[k];
		gb_measure_add(&ms, o->engine[k]->head.name);
	}
	gb_report_on_failure(&ms, stm_cmd_view, r, o->run.json);
	for (k = 0; k < o->nengines; k++)
		stm_cmd_run_engine(&ms, k, r);

	rc = stm_cmd_report(r, &ms, argc, argv);
	gb_measure_free(&ms);
	w->free(r->inst);
	free(r->initial);
	free(r->mirror);
	free(r->after);
	free(r->status);
	free(r->before);
	free(r->results);
	free(r);
	return rc;
}

const gb_command gb_cmd_stm = {
	.name = "stm",
	.summary = "transactional memory: PR-STM, GPU-STM, CSMV, JVSTM on 6 workloads",
	.run = run,
	.help = stm_cmd_help,
	.registry = &stm_cmd_engines,
	.workloads = &stm_cmd_workloads,
};
