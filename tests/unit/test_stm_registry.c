/*
 * The STM engine and workload registries (stm/registry.c,
 * workloads/stm/stm_workloads.c), and what an engine's entry names of its
 * family: its options, the parameters they set, its part of the report.
 */
#include <stdio.h>
#include <string.h>

#include "stm/csmv/csmv_params.h"
#include "stm/gpustm/gpustm_params.h"
#include "stm/prstm/prstm_params.h"
#include "stm/stm.h"
#include "tests/unit/engine_params.h"
#include "tests/unit/entry.h"
#include "tests/unit/test.h"
#include "workloads/stm/stm_workload.h"

TEST(stm_engines_carry_their_limits_and_runs)
{
	int i, n = 0;

	for (i = 0; stm_engines[i]; i++) {
		const stm_engine *e = stm_engines[i];
		const stm_engine_run *r;
		int runs = 0;
		CHECK(e->head.name && e->head.name[0] && e->head.summary && e->head.summary[0]);
		CHECK(e->max_threads >= 1 && e->max_set >= 1);
		CHECK(e->timed_rounds || (e->no_rounds && e->no_rounds[0]));
		CHECK(tu_stm_engine(e->head.name) == e);
		for (r = e->runs; r->workload; r++, runs++) {
			const stm_ops *o = r->cpu;
			REQUIRE(o != NULL);
			CHECK(o->open && o->load && o->run && o->rounds_ok && o->fetch && o->close);
			CHECK(o->retable != NULL || r->workload->stage == NULL); /* staged workloads need it */
			CHECK(tu_stm_workload(r->workload->head.name) == r->workload);
			CHECK(stm_engine_run_of(e, r->workload) == r);
			CHECK(r->gpu == NULL); /* the unit tests are built without CUDA */
			CHECK(r->max_set >= 1 && r->max_set <= e->max_set);
		}
		CHECK(runs >= 1);
		n++;
	}
	CHECK(n >= 1);
	CHECK(tu_stm_engine("prstm") != NULL);
	CHECK(tu_stm_engine("nosuch") == NULL);
}

TEST(stm_workloads_have_options_generator_and_oracle)
{
	int i;

	for (i = 0; stm_workloads[i]; i++) {
		const stm_workload *w = stm_workloads[i];
		size_t r;
		CHECK(w->head.name && w->head.summary && w->rows && w->nrows > 0);
		CHECK(w->opts_size > 0 && w->opts_size <= STM_WORKLOAD_OPTS_MAX);
		for (r = 0; r < w->nrows; r++)
			CHECK(w->rows[r].offset < w->opts_size && w->rows[r].help);
		CHECK(w->words && w->words_option && w->max_set && w->max_set_option && w->memory);
		CHECK(w->generate && w->free && w->input && w->initial);
		CHECK(w->verify_batch && w->method_batch && w->checked_batch && w->checksum_key);
		CHECK(!w->verify_counts == !w->rounds_fit);
		CHECK(!w->stage == !w->verify_pass && !w->stage == !w->stage_name && !w->stage == !w->capacity);
		CHECK(!w->stage || !w->rounds_fit); /* a staged workload runs passes, not rounds */
		CHECK(w->config && w->describe);
		CHECK(tu_stm_workload(w->head.name) == w);
	}
	CHECK(tu_stm_workload("bank") == &stm_workload_bank);
	CHECK(tu_stm_workload("nosuch") == NULL);
}

/* An engine that has no body for a workload says so in one sentence that names both. */
TEST(stm_cannot_run_names_engine_and_workload)
{
	const stm_engine *e = tu_stm_engine("prstm");
	stm_workload other = {.head.name = "othertx"};
	char why[256];

	REQUIRE(e != NULL);
	CHECK(stm_cannot_run(e, &stm_workload_bank, why, sizeof(why)) == NULL);
	CHECK(stm_engine_run_of(e, &other) == NULL);
	REQUIRE(stm_cannot_run(e, &other, why, sizeof(why)) == why);
	CHECK_CONTAINS(why, "prstm does not run the othertx workload");
}

/* An engine family's options: rows within its struct, hooks, and one meaning per option name. */
TEST(stm_engines_own_their_options)
{
	int i, j;

	for (i = 0; stm_engines[i]; i++) {
		const stm_engine_options *f = stm_engines[i]->options;
		size_t r;
		if (!f)
			continue; /* an engine may have no options of its own */
		CHECK(f->rows && f->nrows > 0 && f->size > 0 && f->size <= STM_ENGINE_OPTS_MAX);
		CHECK(f->params && f->config && f->abandons && f->abandons[0]);
		for (r = 0; r < f->nrows; r++) {
			CHECK(f->rows[r].offset < f->size && f->rows[r].help);
			for (j = 0; stm_engines[j]; j++) {
				const stm_engine_options *g = stm_engines[j]->options;
				size_t q;
				for (q = 0; g && q < g->nrows; q++)
					if (strcmp(g->rows[q].name, f->rows[r].name) == 0) {
						CHECK_EQ_I(g->rows[q].kind, f->rows[r].kind);
						CHECK(strcmp(g->rows[q].def ? g->rows[q].def : "",
							     f->rows[r].def ? f->rows[r].def : "") == 0);
						CHECK(strcmp(g->rows[q].help, f->rows[r].help) == 0);
					}
			}
		}
	}
}

/* The parameters each family's options set: its defaults, given values, and nothing of the common part. */
TEST(stm_engine_options_set_their_family_parameters)
{
	static const char *const given[] = {"max-passes=7", "no-tags=1", "stall-timeout=0.5", "retry-limit=3", NULL};
	stm_params p;

	memset(&p, 0, sizeof(p));
	p.threads = 12;
	tu_engine_params(&p, tu_stm_engine("prstm"), NULL);
	CHECK_EQ(prstm_params_of(&p)->max_passes, 1000000u);
	CHECK_EQ(prstm_params_of(&p)->use_tags, 1u);
	CHECK_EQ(prstm_params_of(&p)->stall_ns, 1000000000u);
	CHECK_EQ(prstm_params_of(&p)->window_cycles, 0u);
	tu_engine_params(&p, tu_stm_engine("prstm"), given);
	CHECK_EQ(prstm_params_of(&p)->max_passes, 7u);
	CHECK_EQ(prstm_params_of(&p)->use_tags, 0u);
	CHECK_EQ(prstm_params_of(&p)->stall_ns, 500000000u);
	CHECK_EQ(prstm_params_of(&p)->semantic_retry, 0u);
	CHECK_EQ(p.threads, 12u);

	/* prstm-nocm: the manager off whatever prstm's options say; --stall-timeout is its own too */
	memset(&p, 0, sizeof(p));
	tu_engine_params(&p, tu_stm_engine("prstm-nocm"), NULL);
	CHECK_EQ(prstm_params_of(&p)->semantic_retry, 1u);
	CHECK_EQ(prstm_params_of(&p)->use_tags, 0u);
	CHECK_EQ(prstm_params_of(&p)->stall_ns, 1000000000u);
	tu_engine_params(&p, tu_stm_engine("prstm-nocm"), given);
	CHECK_EQ(prstm_params_of(&p)->semantic_retry, 1u);
	CHECK_EQ(prstm_params_of(&p)->use_tags, 0u);
	CHECK_EQ(prstm_params_of(&p)->stall_ns, 500000000u);
	CHECK(tu_stm_engine("prstm-nocm")->runs == tu_stm_engine("prstm")->runs); /* the same kernels */

	memset(&p, 0, sizeof(p));
	tu_engine_params(&p, tu_stm_engine("gpustm"), NULL);
	CHECK_EQ(gpustm_params_of(&p)->retry_limit, 100u);
	tu_engine_params(&p, tu_stm_engine("gpustm"), given);
	CHECK_EQ(gpustm_params_of(&p)->retry_limit, 3u);

	memset(&p, 0, sizeof(p));
	tu_engine_params(&p, tu_stm_engine("jvstm"), NULL);
	CHECK_EQ(csmv_params_of(&p)->stall_ns, 1000000000u);
	tu_engine_params(&p, tu_stm_engine("csmv-nocv"), given);
	CHECK_EQ(csmv_params_of(&p)->stall_ns, 500000000u);
}

/* Each family writes its options' fields of the report's config. */
TEST(stm_engine_options_in_the_config)
{
	static const unsigned char zero[STM_ENGINE_OPTS_MAX];
	const stm_engine_options *f = tu_stm_engine("prstm")->options;
	cJSON *cfg = cJSON_CreateObject();
	const cJSON *v;

	f->config(zero, cfg);
	REQUIRE((v = cJSON_GetObjectItemCaseSensitive(cfg, "priority_tags")) != NULL);
	CHECK(cJSON_IsTrue(v)); /* no --no-tags */
	CHECK(cJSON_GetObjectItemCaseSensitive(cfg, "max_passes") != NULL);
	CHECK(cJSON_GetObjectItemCaseSensitive(cfg, "stall_timeout_s") != NULL);
	tu_stm_engine("gpustm")->options->config(zero, cfg);
	CHECK(cJSON_GetObjectItemCaseSensitive(cfg, "retry_limit") != NULL);
	cJSON_Delete(cfg);
}

/* The engines' own counters in the report: CSMV's commit phases and versions, JVSTM's versions, GPU-STM's line. */
TEST(stm_engines_report_their_own_counters)
{
	stm_counters c;
	stm_params p;
	cJSON *csmv = cJSON_CreateObject(), *jvstm = cJSON_CreateObject();
	const cJSON *phases, *versions;
	char line[256] = "";
	FILE *out;

	memset(&c, 0, sizeof(c));
	memset(&p, 0, sizeof(p));
	c.commits_update = 4;
	c.cycles_diverge = 8000;
	c.versions_kept_peak = 3;
	c.reclaim_waits = 2;
	tu_stm_engine("csmv")->report_json(&c, 2.0, &p, csmv);
	REQUIRE((phases = cJSON_GetObjectItemCaseSensitive(csmv, "commit_phases_ns")) != NULL);
	CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(phases, "divergence")->valuedouble, 1000.0, 1e-9);
	REQUIRE((versions = cJSON_GetObjectItemCaseSensitive(csmv, "versions")) != NULL);
	CHECK_STR_EQ(cJSON_GetObjectItemCaseSensitive(versions, "kept_peak")->valuestring, "3"); /* raw integers */
	CHECK_STR_EQ(cJSON_GetObjectItemCaseSensitive(versions, "reclaim_waits")->valuestring, "2");
	/* jvstm: validation, the record and the write-back of its own commit; no divergence measured */
	c.cycles_validate = 8000;
	c.cycles_commit = 4000;
	c.cycles_record = 1600;
	tu_stm_engine("jvstm")->report_json(&c, 2.0, &p, jvstm);
	REQUIRE((phases = cJSON_GetObjectItemCaseSensitive(jvstm, "commit_phases_ns")) != NULL);
	CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(phases, "divergence")));
	CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(phases, "validation")->valuedouble, 1000.0, 1e-9);
	CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(phases, "record_insert")->valuedouble, 200.0, 1e-9);
	CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(phases, "write_back")->valuedouble, 300.0, 1e-9);
	CHECK(cJSON_GetObjectItemCaseSensitive(phases, "wait_server") == NULL); /* no server */
	CHECK(cJSON_GetObjectItemCaseSensitive(jvstm, "versions") != NULL);
	CHECK(tu_stm_engine("jvstm-gpu")->report_json == tu_stm_engine("jvstm")->report_json);
	CHECK(tu_stm_engine("prstm")->report_json == NULL && tu_stm_engine("prstm")->report_lines == NULL);
	cJSON_Delete(csmv);
	cJSON_Delete(jvstm);

	gpustm_params_rw(&p)->retry_limit = 5;
	c.retry_limit_reached = 3;
	REQUIRE((out = tmpfile()) != NULL);
	tu_stm_engine("gpustm")->report_lines(&c, 2.0, &p, out);
	c.retry_limit_reached = 0;
	tu_stm_engine("gpustm")->report_lines(&c, 2.0, &p, out); /* nothing given up: no line */
	rewind(out);
	CHECK(fgets(line, sizeof(line), out) != NULL);
	CHECK_CONTAINS(line, "3 transactions given up after --retry-limit 5 attempts");
	CHECK(fgets(line, sizeof(line), out) == NULL);
	fclose(out);
}
