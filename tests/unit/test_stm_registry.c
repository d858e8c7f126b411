/* The STM engine and workload registries (stm/registry.c, workloads/stm/stm_workloads.c). */
#include <string.h>

#include "stm/stm.h"
#include "tests/unit/test.h"
#include "workloads/stm/stm_workload.h"

TEST(stm_engines_carry_their_limits_and_runs)
{
	int i, n = 0;

	for (i = 0; stm_engines[i]; i++) {
		const stm_engine *e = stm_engines[i];
		const stm_engine_run *r;
		int runs = 0;
		CHECK(e->name && e->name[0] && e->summary && e->summary[0]);
		CHECK(e->max_threads >= 1 && e->max_set >= 1);
		CHECK(e->timed_rounds || (e->no_rounds && e->no_rounds[0]));
		CHECK(stm_engine_find(e->name) == e);
		for (r = e->runs; r->workload; r++, runs++) {
			const stm_ops *o = r->cpu;
			REQUIRE(o != NULL);
			CHECK(o->open && o->load && o->run && o->rounds_ok && o->fetch && o->close);
			CHECK(o->retable != NULL || r->workload->stage == NULL); /* staged workloads need it */
			CHECK(stm_workload_find(r->workload->name) == r->workload);
			CHECK(stm_engine_run_of(e, r->workload) == r);
			CHECK(r->gpu == NULL); /* the unit tests are built without CUDA */
			CHECK(r->max_set >= 1 && r->max_set <= e->max_set);
		}
		CHECK(runs >= 1);
		n++;
	}
	CHECK(n >= 1);
	CHECK(stm_engine_find("prstm") != NULL);
	CHECK(stm_engine_find("nosuch") == NULL);
}

TEST(stm_workloads_have_options_generator_and_oracle)
{
	int i;

	for (i = 0; stm_workloads[i]; i++) {
		const stm_workload *w = stm_workloads[i];
		size_t r;
		CHECK(w->name && w->summary && w->rows && w->nrows > 0);
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
		CHECK(stm_workload_find(w->name) == w);
	}
	CHECK(stm_workload_find("bank") == &stm_workload_bank);
	CHECK(stm_workload_find("nosuch") == NULL);
}

/* An engine that has no body for a workload says so in one sentence that names both. */
TEST(stm_cannot_run_names_engine_and_workload)
{
	const stm_engine *e = stm_engine_find("prstm");
	stm_workload other = {.name = "othertx"};
	char why[256];

	REQUIRE(e != NULL);
	CHECK(stm_cannot_run(e, &stm_workload_bank, why, sizeof(why)) == NULL);
	CHECK(stm_engine_run_of(e, &other) == NULL);
	REQUIRE(stm_cannot_run(e, &other, why, sizeof(why)) == why);
	CHECK_CONTAINS(why, "prstm does not run the othertx workload");
}
