/* A bank batch on an engine's CPU backend and its snapshot checks (see bank_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/bank_run.h"

#include "stm/csmv/csmv.h"
#include "stm/csmv/csmv_params.h"
#include "tests/unit/test.h"

int32_t *bank_run_initial(const bank_workload *w)
{
	int32_t *b = malloc(w->cfg.accounts * sizeof(int32_t));
	uint32_t a;
	for (a = 0; a < w->cfg.accounts; a++)
		b[a] = (int32_t)w->cfg.initial_balance;
	return b;
}

void bank_run_cpu(const stm_ops *ops, const bank_workload *w, uint32_t workers, bank_run *o)
{
	tx_input in = bank_input_of(w);
	stm_params p;
	int32_t *initial = bank_run_initial(w);
	void *ctx;

	memset(&p, 0, sizeof(p));
	p.threads = w->cfg.threads;
	p.hash = 1;
	p.cpu_workers = workers;
	csmv_params_rw(&p)->stall_ns = 1000000000ull;
	o->status = malloc(w->ntx * sizeof(uint32_t));
	o->results = malloc(w->ntx * TX_RESULT_WORDS * sizeof(uint32_t));
	o->after = malloc(w->cfg.accounts * sizeof(int32_t));
	ctx = ops->open(&in, &p);
	ops->load(ctx, (const uint32_t *)initial);
	ops->run(ctx, 60ull * 1000000000ull, 0, &o->r);
	ops->fetch(ctx, (uint32_t *)o->after, o->status);
	ops->fetch_results(ctx, o->results);
	ops->close(ctx);
	free(initial);
}

void bank_run_free(bank_run *o)
{
	free(o->status);
	free(o->results);
	free(o->after);
}

uint64_t bank_run_verify(const bank_workload *w, const bank_run *o, const char *engine)
{
	int32_t *mirror = bank_run_initial(w), *before = bank_run_initial(w);
	bank_check chk, snap;
	uint64_t checked = 0;

	bank_verify_batch(w, mirror, o->status, o->after, &chk);
	CHECK_EQ_I(chk.ok, 1);
	if (!chk.ok)
		printf("  %s: %s\n", engine, chk.message);
	CHECK_EQ(chk.abandoned, 0u);
	CHECK_EQ(chk.committed_update + chk.committed_readonly, w->ntx);
	CHECK_EQ(o->r.c.commits_update, chk.committed_update);
	CHECK_EQ(o->r.c.commits_readonly, chk.committed_readonly);
	CHECK_EQ(o->r.c.threads_failed, 0u);
	CHECK(o->r.c.versions_kept_peak >= 1 && o->r.c.versions_kept_peak <= CSMV_VERSIONS);
	bank_verify_snapshots(w, before, o->status, o->results, 0, &snap, &checked);
	CHECK_EQ_I(snap.ok, 1);
	if (!snap.ok)
		printf("  %s: %s\n", engine, snap.message);
	free(mirror);
	free(before);
	return checked;
}

void bank_run_check_tampering(const bank_workload *w, bank_run *o)
{
	int32_t *before = bank_run_initial(w);
	bank_check snap;
	uint64_t checked = 0, i;
	uint32_t *r, seen;

	for (i = 0; i < w->ntx && BANK_TYPE(w->tx[i].meta) != BANK_BALANCE; i++)
		;
	CHECK(i < w->ntx);
	if (i < w->ntx) {
		r = o->results + i * TX_RESULT_WORDS;
		seen = r[0];
		r[1] += 1;
		bank_verify_snapshots(w, before, o->status, o->results, 0, &snap, &checked);
		CHECK_EQ_I(snap.ok, 0);
		r[1] -= 1;
		r[0] = (uint32_t)o->r.c.commits_update + 1;
		bank_verify_snapshots(w, before, o->status, o->results, 0, &snap, &checked);
		CHECK_EQ_I(snap.ok, 0);
		r[0] = seen;
	}
	free(before);
}
