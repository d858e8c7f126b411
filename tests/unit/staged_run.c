/* One pass of a staged STM workload on an engine's backend (see staged_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/staged_run.h"

static void set_row(const stm_workload *w, void *o, const char *name, const char *value)
{
	size_t r;
	for (r = 0; r < w->nrows; r++)
		if (strcmp(w->rows[r].name, name) == 0) {
			uint64_t v = strtoull(value, NULL, 10);
			memcpy((char *)o + w->rows[r].offset, &v, sizeof(v));
			return;
		}
	fprintf(stderr, "staged_run: %s has no option %s\n", w->head.name, name);
	abort();
}

void *staged_opts(const stm_workload *w, const char *const *opts)
{
	void *o = calloc(1, w->opts_size);
	size_t r;

	for (r = 0; r < w->nrows; r++)
		if (w->rows[r].def)
			set_row(w, o, w->rows[r].name, w->rows[r].def);
	for (; opts && *opts; opts++) {
		char name[64];
		const char *eq = strchr(*opts, '=');
		size_t n = eq ? (size_t)(eq - *opts) : 0;
		if (!eq || n >= sizeof(name))
			abort();
		memcpy(name, *opts, n);
		name[n] = 0;
		set_row(w, o, name, eq + 1);
	}
	return o;
}

static void failed(staged_result *out, const char *what, uint32_t stage, const char *msg)
{
	if (out->ok)
		snprintf(out->message, sizeof(out->message), "%s %u: %s", what, stage, msg);
	out->ok = 0;
}

int staged_run(const stm_workload *w, const char *const *opts, const stm_table_cfg *tc, const stm_ops *ops,
	       const stm_params *p, staged_result *out)
{
	void *o = staged_opts(w, opts), *inst, *ctx;
	char err[512];
	tx_input in;
	uint32_t *initial, *state, *after, *status, s = 0;
	stm_batch_result r;
	stm_check chk;

	memset(out, 0, sizeof(*out));
	out->ok = 1;
	inst = w->generate(o, tc, err, sizeof(err));
	free(o);
	if (!inst) {
		snprintf(out->message, sizeof(out->message), "%s", err);
		out->ok = 0;
		return -1;
	}
	in = w->input(inst);
	in.ntx = w->capacity(inst); /* the engine is opened with room for the largest stage */
	initial = calloc(in.words, sizeof(uint32_t));
	state = calloc(in.words, sizeof(uint32_t));
	after = calloc(in.words, sizeof(uint32_t));
	status = calloc(in.ntx ? in.ntx : 1, sizeof(uint32_t));
	w->initial(inst, initial);
	memcpy(state, initial, in.words * sizeof(uint32_t));
	ctx = ops->open(&in, p);
	w->stage(inst, 0, state, NULL);
	in = w->input(inst);
	ops->retable(ctx, &in);
	ops->load(ctx, state);
	for (;;) {
		ops->run(ctx, 60ull * 1000000000ull, 0, &r);
		ops->fetch(ctx, after, status);
		out->stages++;
		out->commits_update += r.c.commits_update;
		out->commits_readonly += r.c.commits_readonly;
		out->retry_limit_reached += r.c.retry_limit_reached;
		if (r.c.threads_failed || r.c.threads_timed_out || r.c.threads_stalled || r.c.threads_gave_up)
			failed(out, "stage", s, "threads failed, timed out, stalled or gave up");
		w->verify_batch(inst, state, status, after, &chk);
		out->abandoned += chk.abandoned;
		if (!chk.ok)
			failed(out, "stage", s, chk.message);
		if (chk.committed_update != r.c.commits_update || chk.committed_readonly != r.c.commits_readonly)
			failed(out, "stage", s, "the engine's commit counts differ from the status words'");
		if (!w->stage(inst, ++s, after, status))
			break;
		in = w->input(inst);
		ops->retable(ctx, &in);
		ops->load(ctx, after);
		memcpy(state, after, in.words * sizeof(uint32_t));
	}
	ops->close(ctx);
	w->verify_pass(inst, initial, after, &out->pass);
	if (!out->pass.ok)
		failed(out, "pass after stage", s - 1, out->pass.message);
	free(initial);
	free(state);
	free(after);
	free(status);
	w->free(inst);
	return 0;
}
