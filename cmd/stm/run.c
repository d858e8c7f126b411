/*
 * What one repetition of gpubench stm runs on the shared measurement loop
 * (common/measure.h): an engine's batches from the initial data, or one
 * timed run of rounds, or a staged workload's passes, each batch checked
 * against the workload's oracle as --verify-every says; and the opening and
 * closing of an engine around the loop's repetitions of it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd/stm/stm_cmd.h"
#include "common/error.h"
#include "common/timer.h"

/* Time left before --timeout, in ns; 0 when it has passed. */
static uint64_t left_ns(const gb_measure *ms)
{
	double left = gb_measure_left(ms);
	return left > 0 ? (uint64_t)(left * 1e9) : 0;
}

/*
 * A staged workload's pass starts: the first stage's table again (the last
 * pass left the engine with its last stage's), the data from the initial
 * words; the replay starts from the same.
 */
static void start_pass(stm_run *r, engine_run *er)
{
	const stm_workload *w = r->o.workload;

	memcpy(r->mirror, r->initial, (size_t)r->in.words * sizeof(uint32_t));
	w->stage(r->inst, 0, r->mirror, NULL);
	r->cur = w->input(r->inst);
	er->ops->retable(er->ctx, &r->cur);
	er->ops->load(er->ctx, r->mirror);
}

/*
 * A warm-up repetition: one untimed batch from the initial data. Warm-up only
 * has to bring the clocks up: the batch is cut (its threads stop between
 * transactions) after max(1 s, 2 x --warmup-time), so a slow table leaves the
 * rest of --timeout to the timed batches.
 */
static gb_rep_end warm_up(gb_measure *ms, stm_run *r, engine_run *er, gb_rep_out *out)
{
	uint64_t cap = (uint64_t)((r->o.warmup_time > 0.5 ? 2 * r->o.warmup_time : 1.0) * 1e9);
	uint64_t left = left_ns(ms);
	stm_batch_result b;

	if (r->o.workload->stage)
		start_pass(r, er); /* a staged workload warms up on its first stage */
	else
		er->ops->load(er->ctx, r->initial);
	er->ops->run(er->ctx, left < cap ? left : cap, 0, &b);
	er->block_size = b.block_size;
	out->seconds = b.seconds;
	return gb_measure_timed_out(ms) ? GB_REP_CUT : GB_REP_DONE;
}

/* What a timed repetition has run so far. */
typedef struct rep_tally {
	uint64_t batches, commits;
	int cut; /* the last batch's threads met the --timeout deadline */
	int checked; /* a batch was checked in the loop: r->after holds the last one's words */
} rep_tally;

/*
 * A batch that ran: a set overflow fails the run; else it counts in the
 * engine's totals and in the repetition's time and tally. Returns its commits.
 */
static uint64_t count_batch(const stm_run *r, engine_run *er, const stm_batch_result *b, gb_rep_out *out,
			    rep_tally *t)
{
	uint64_t done = b->c.commits_update + b->c.commits_readonly;

	if (b->c.threads_failed)
		gb_die(GB_EXIT_RUNTIME, "stm: a %s transaction touched more than %u distinct words, beyond %s's "
		       "read/write set capacity", r->o.workload->head.name,
		       stm_engine_run_of(er->e, r->o.workload)->max_set, er->e->head.name);
	stm_counters_add(&er->c, &b->c);
	er->seconds += b->seconds;
	er->cycles_per_ns = b->cycles_per_ns;
	er->block_size = b->block_size;
	er->batches++;
	out->seconds += b->seconds;
	t->batches++;
	t->commits += done;
	t->cut = b->c.threads_timed_out > 0;
	return done;
}

/* The repetition's end: its throughput (track 0), the commits over its device time. */
static gb_rep_end end_rep(gb_rep_out *out, const rep_tally *t)
{
	out->track[0] = out->seconds > 0 ? (double)t->commits / out->seconds : 0;
	return t->cut ? GB_REP_CUT : GB_REP_DONE;
}

/* Check a batch (or timed run) of entry k with the workload's oracle. */
static void verify_batch(gb_measure *ms, unsigned k, stm_run *r, const stm_batch_result *b, const gb_rep *rep,
			uint64_t batch, gb_rep_out *out)
{
	const stm_workload *w = r->o.workload;
	engine_run *er = &r->er[k];
	int results = !er->one_run && er->ops->fetch_results && w->verify_results;
	stm_check chk;
	uint64_t n = 0;

	er->ops->fetch(er->ctx, r->after, r->status);
	stm_test_bad_batch(er, r->status, r->in.ntx);
	if (er->one_run) {
		memset(&chk, 0, sizeof(chk));
		w->verify_counts(r->inst, r->initial, r->status, r->after, &chk);
	} else {
		if (results)
			er->ops->fetch_results(er->ctx, r->results);
		n = stm_oracle_batch(r, r->mirror, r->before, r->status, r->after, results ? r->results : NULL, &chk);
	}
	stm_batch_verdict(ms, k, r, b, rep, batch, out, &chk, n);
	/* a staged workload builds its next stage from r->after: its checksum now; a batch
	 * otherwise leaves r->after alone until the next check, which takes it at the end */
	if (w->stage)
		er->checksum = stm_words_checksum(r->after, r->in.words);
}

/*
 * A completed pass of a staged workload against the workload's oracle of a
 * whole pass, from the initial data to the outcome in r->after. A failure
 * marks the repetition wrong; its batches keep their own verdicts.
 */
static void verify_pass(gb_measure *ms, unsigned k, stm_run *r, const gb_rep *rep, uint64_t pass)
{
	engine_run *er = &r->er[k];
	stm_check pc;

	memset(&pc, 0, sizeof(pc));
	r->o.workload->verify_pass(r->inst, r->initial, r->after, &pc);
	if (!pc.ok) {
		gb_measure_wrong(ms, k, "%s%srep %u pass %" PRIu64 ": %s", k ? er->e->head.name : "", k ? ": " : "",
				 rep->timed_index, pass, pc.message);
		er->chk.ok = 0;
		snprintf(er->chk.message, sizeof(er->chk.message), "%s", pc.message);
		return;
	}
	memcpy(er->chk.facts, pc.facts, sizeof(pc.facts));
	er->chk.nfacts = pc.nfacts;
	er->checksum = stm_words_checksum(r->after, r->in.words);
	/* kept apart too: a later pass that --timeout cuts verifies its batches, whose facts are a
	 * batch's, not a pass's */
	er->pass_chk = pc;
	er->pass_checksum = er->checksum;
}

/* Progress of a --duration repetition, in ms of device time. */
static void progress(gb_measure *ms, const gb_rep *rep, const gb_rep_out *out, double duration)
{
	if (duration > 0)
		gb_measure_progress(ms, rep, (uint64_t)(fmin(out->seconds, duration) * 1e3),
				    (uint64_t)(duration * 1e3));
}

/*
 * One repetition of engine k on a staged workload: passes back to back until
 * --duration seconds of device time (one without it), each from the initial
 * data, stage after stage: a batch, the data and status words fetched (every
 * --verify-every-th batch checked by replay on the way), and the workload's
 * next stage built from them, until the workload says the pass is complete;
 * then the pass is checked whole. Its time is the device time of its
 * batches (the host's work between stages is not in it), its throughput
 * their commits over that time.
 */
static gb_rep_end stm_rep_staged(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, stm_run *r)
{
	const stm_opts *o = &r->o;
	const stm_workload *w = o->workload;
	engine_run *er = &r->er[k];
	uint64_t pass = 0, left_over = 0;
	rep_tally t = {0, 0, 0, 0};

	do {
		uint32_t s = 0;
		start_pass(r, er);
		for (;;) {
			stm_batch_result b;
			int check = rep->check && er->batches % o->run.verify_every == 0;
			uint64_t left = left_ns(ms);

			left_over = 0;
			if (left == 0) {
				t.cut = 1;
				break;
			}
			er->ops->run(er->ctx, left, 0, &b);
			left_over = r->cur.ntx - count_batch(r, er, &b, out, &t);
			if (check)
				verify_batch(ms, k, r, &b, rep, t.batches, out); /* fetches the data and status words */
			else
				er->ops->fetch(er->ctx, r->after, r->status);
			if (t.cut)
				break;
			if (!w->stage(r->inst, ++s, r->after, r->status))
				break; /* the pass is complete: r->after holds its outcome */
			r->cur = w->input(r->inst);
			er->ops->retable(er->ctx, &r->cur);
			er->ops->load(er->ctx, r->after);
			memcpy(r->mirror, r->after, (size_t)r->in.words * sizeof(uint32_t));
		}
		/* What the last stage left uncommitted is abandoned: the pass ended without it
		 * (--timeout, or a stage in which nothing committed); earlier stages' leftovers
		 * ran again. */
		er->abandoned += left_over;
		if (t.cut)
			break;
		pass++;
		er->passes++;
		er->stages += s;
		if (rep->check)
			verify_pass(ms, k, r, rep, pass);
		progress(ms, rep, out, o->duration);
	} while (out->seconds < o->duration);
	return end_rep(out, &t);
}

/*
 * One repetition of engine k: batches back to back until --duration seconds
 * of device time (one without it), each from the initial data, or one timed
 * run of rounds. Its time is the device time of its batches, its throughput
 * (track 0) their commits over that time. Every --verify-every-th batch of the
 * engine is checked; a batch whose threads met the --timeout deadline cuts the
 * repetition short, after its committed part is checked.
 *
 * Each batch starts from the initial data, not from where the batch before
 * left it: a table nets to zero only when all of it commits, and one that
 * gives transactions up (gpustm's --retry-limit) leaves money where a chain
 * stopped, so the next batch would run an easier table (on the bank, 100%
 * semantic: a fifth of the aborts and 5x the throughput after a few hundred
 * batches, docs/stm.md "GPU-STM under --duration"). The load is outside the
 * device time. A batch's check replays it from the initial data. With a
 * checker (er->bc, batch_check.c) the check is queued with the words fetched
 * after the batch and the device goes on; every check is settled before the
 * repetition ends.
 */
static gb_rep_end stm_rep(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg)
{
	stm_run *r = arg;
	const stm_opts *o = &r->o;
	engine_run *er = &r->er[k];
	rep_tally t = {0, 0, 0, 0};

	if (!rep->timed)
		return warm_up(ms, r, er, out);
	if (o->workload->stage)
		return stm_rep_staged(ms, k, rep, out, r);
	do {
		stm_batch_result b;
		int check = rep->check && er->batches % o->run.verify_every == 0;
		uint64_t left = left_ns(ms), done;

		if (left == 0) {
			t.cut = 1;
			break;
		}
		er->ops->load(er->ctx, r->initial);
		if (check && er->bc) /* room for its check */
			stm_batch_checker_next(er->bc, ms, rep, out);
		else if (check && !er->one_run) /* the replay's start */
			memcpy(r->mirror, r->initial, (size_t)r->in.words * sizeof(uint32_t));
		/* rounded up: a --duration under 1 ns is still a timed run (0 would be one pass) */
		er->ops->run(er->ctx, left, er->one_run ? (uint64_t)ceil(o->duration * 1e9) : 0, &b);
		done = count_batch(r, er, &b, out, &t);
		if (check && er->bc) {
			stm_batch_checker_submit(er->bc, &b, t.batches);
		} else if (check) {
			verify_batch(ms, k, r, &b, rep, t.batches, out);
			t.checked = 1;
		} else if (!er->one_run) {
			er->abandoned += r->in.ntx - done;
		}
		progress(ms, rep, out, o->duration);
	} while (!t.cut && !er->one_run && out->seconds < o->duration);
	if (er->bc)
		stm_batch_checker_settle(er->bc, ms, rep, out);
	else if (t.checked)
		er->checksum = stm_words_checksum(r->after, r->in.words);
	return end_rep(out, &t);
}

void stm_cmd_run_engine(gb_measure *ms, unsigned k, stm_run *r)
{
	const stm_opts *o = &r->o;
	engine_run *er = &r->er[k];
	const stm_workload *w = o->workload;
	const stm_engine_run *run = stm_engine_run_of(er->e, w);
	uint64_t t0 = gb_now_ns();

	stm_cmd_params(o, er->e, &er->p);
	if (!gb_measure_timed_out(ms)) {
		er->ops = r->backend == GB_BACKEND_GPU ? run->gpu : run->cpu;
		er->p.timeout_ns = left_ns(ms);
		er->ctx = er->ops->open(&r->in, &er->p);
	}
	if (er->ctx && o->duration > 0) {
		int fit = w->rounds_fit && w->rounds_fit(r->inst);
		int resident = er->ops->rounds_ok(er->ctx);
		er->one_run = er->e->timed_rounds && resident && fit;
		if (!er->one_run)
			gb_note("note: %s: --duration runs as repeated batches: %s", er->e->head.name,
				!er->e->timed_rounds ? er->e->no_rounds :
				!resident ? "not every GPU block fits on the device at once" :
				w->rounds_unfit);
	}
	/* --duration's batches checked on other host threads (none for one batch a repetition, a timed
	 * run, or a staged workload, whose next stage is built from the one checked) */
	if (er->ctx && o->duration > 0 && !er->one_run && !w->stage && o->run.verify)
		er->bc = stm_batch_checker_open(r, k, (unsigned)o->verify_threads);
	gb_measure_run(ms, k, stm_rep, r); /* nothing when --timeout has passed */
	stm_batch_checker_close(er->bc);
	er->bc = NULL;
	if (er->ctx)
		er->ops->close(er->ctx);
	er->wall_seconds = gb_seconds_since(t0);
}
