/*
 * The graph body (workloads/stm/graph_body.h) on both engines' transactions with
 * the threads interleaved at every shared access (tests/unit/lanes.h): in
 * lockstep, as the lanes of a warp issue them, and in seeded random orders.
 * A round of graph transactions is replayed in stamp order against the final
 * values. Its transactions read words they do not write (the neighbours they
 * leave alone); PR-STM validates those before it locks and stamps after, so
 * the source vertex, whose value a transaction sends, must be written back
 * for the stamp order to replay: this is where a body without that write
 * fails.
 */
#include "tests/unit/lanes.h"

#include <stdlib.h>
#include <string.h>

#include "stm/gpustm/gpustm_step.h"
#include "stm/prstm/prstm_step.h"
#include "tests/unit/test.h"
#include "workloads/stm/graph.h"

#define MAX_STEPS 50000000ull

typedef struct graph_job {
	const graph_workload *w;
	tx_table t;
	uint32_t *locks, *data, *status;
	uint32_t hash, lanes, stamp;
	int gpustm;
	gpustm_log logs[16]; /* gpustm's pool of logs, a record per lane */
} graph_job;

/* Lane l runs entries l, l + lanes, ... of the round, each until it commits. */
static void graph_lane(uint32_t lane, void *arg)
{
	graph_job *j = arg;
	uint64_t i;

	for (i = lane; i < j->w->ntx; i += j->lanes) {
		tx_entry e;
		graph_load_entry(&j->t, (uint32_t)i, &e);
		if (j->gpustm) {
			gpustm_mem m = {j->locks, j->data, j->hash, j->logs};
			gpustm_tx tx;
			int r;
			do {
				gpustm_tx_start(&tx, &m.logs[lane]);
				r = gpustm_graph_body(&tx, &m, &j->t, (uint32_t)i, &e);
			} while (r != TX_BODY_OK || !gpustm_tx_validate(&tx, &m));
			if (tx.nw == 0) {
				gpustm_tx_commit(&tx, &m, NULL);
				j->status[i] = TX_STATUS_READONLY;
			} else {
				j->status[i] = gpustm_tx_commit(&tx, &m, &j->stamp) + 1;
			}
		} else {
			prstm_mem m = {.locks = j->locks, .data = j->data, .hash = j->hash};
			prstm_tx tx;
			int r;
			do {
				prstm_tx_start(&tx, lane);
				r = prstm_graph_body(&tx, &m, &j->t, (uint32_t)i, &e);
			} while (r != TX_BODY_OK || !prstm_tx_validate(&tx, &m));
			j->status[i] = tx.nw == 0 ? TX_STATUS_READONLY : prstm_tx_commit(&tx, &m, &j->stamp) + 1;
		}
	}
}

static void run_round(int gpustm, uint32_t lanes, uint32_t hash, unsigned order, uint64_t seed, const char *label)
{
	graph_config c;
	graph_workload w;
	graph_job j;
	graph_check chk;
	tx_input in;
	char err[256];
	uint32_t *state;

	memset(&c, 0, sizeof(c));
	c.vertices = 16;
	c.edges = 48;
	c.edges_per_tx = 3;
	c.max_label = 1000;
	c.threads = lanes;
	c.seed = seed;
	REQUIRE(graph_generate(&w, &c, err, sizeof(err)) == 0);
	memset(&j, 0, sizeof(j));
	in = graph_input_of(&w);
	j.w = &w;
	j.t.entries = in.entries;
	j.t.aux = in.aux;
	j.t.aux_stride = in.aux_stride;
	j.t.tx_per_thread = in.tx_per_thread;
	j.t.ntx = (uint32_t)in.ntx;
	j.hash = hash;
	j.lanes = lanes;
	j.gpustm = gpustm;
	j.locks = calloc(c.vertices, sizeof(uint32_t));
	j.data = calloc(c.vertices, sizeof(uint32_t));
	j.status = calloc(w.ntx, sizeof(uint32_t));
	j.t.status = j.status;
	state = calloc(c.vertices, sizeof(uint32_t));
	graph_initial(&w, j.data);
	graph_initial(&w, state);
	if (!lanes_run(lanes, graph_lane, &j, order, seed, MAX_STEPS)) {
		tu_fail(__FILE__, __LINE__, "%s: the lanes livelocked", label);
	} else {
		graph_verify_batch(&w, state, j.status, j.data, &chk);
		if (!chk.ok)
			tu_fail(__FILE__, __LINE__, "%s: %s", label, chk.message);
		CHECK_EQ(chk.abandoned, 0u);
		CHECK_EQ(chk.committed_update, j.stamp);
	}
	free(j.locks);
	free(j.data);
	free(j.status);
	free(state);
	graph_free(&w);
}

TEST(graph_lanes_rounds_replay_in_stamp_order)
{
	uint64_t seed;
	for (seed = 1; seed <= 12; seed++) {
		run_round(0, 16, 1, LANES_LOCKSTEP, seed, "prstm, lockstep");
		run_round(0, 16, 1, LANES_RANDOM, seed, "prstm, random order");
		run_round(0, 16, 2, LANES_RANDOM, seed, "prstm, random order, hash 2");
		run_round(1, 16, 1, LANES_LOCKSTEP, seed, "gpustm, lockstep");
		run_round(1, 16, 1, LANES_RANDOM, seed, "gpustm, random order");
	}
}
