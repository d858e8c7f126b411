/*
 * The thesis's CPU detector for multi-unit resource systems: LMDDA as GPU-LMDDA lays it
 * out (Abell's thesis, chapter 4: the node hopping mechanism of section 4.2.2
 * and Algorithms 12-21 of section 4.3), in the system model of
 * api/rag_model.h.
 *
 * The decisions rest on two facts.
 *  - Requests that would deadlock are refused, so the graph never holds a
 *    knot. Hence from every resource that has granted a unit some active
 *    process is reachable (otherwise its reachable set, in which every node
 *    has an outgoing edge, would contain a terminal strongly connected
 *    component: a knot). A resource nobody holds reaches nothing.
 *  - A request by active p_i for q_j with no free unit adds p_i -> q_j; a new
 *    knot must contain p_i and with it everything reachable from q_j. So it
 *    deadlocks iff no active process other than p_i is reachable from q_j;
 *    all of q_j's units are held, so by the first fact: iff p_i is the only
 *    active process reachable from q_j. That is the thesis's test
 *    (SP & RP[j]) == bitmask(p_i) of Algorithm 15.
 * Reachability changes with the edges: a grant adds q_j -> p_i and nothing
 * reaches q_j (a resource with a free unit has no waiter); a blocked request
 * makes every resource that reaches p_i reach what q_j reaches (Algorithm
 * 16); a release that removes a grant edge or turns a request edge into one
 * (release types (ii) and (iii)) needs it computed again.
 *
 * cpu: the thesis's serial CPU-LMDDA. The kernels of Algorithm 12 as plain
 * loops over one byte per cell (AR m x n, RP n x m, SP m) and int counts (AG
 * n x m): Algorithm 13 on a grant; Find_Sink_Processes (an OR over every row
 * of AR), Deadlock_Check, the AR update and Update_RP_Blocked on a blocking
 * request; Release_Resource, Find_Waiting_Processes, Determine_Release_Type
 * on a release, and for types (ii)/(iii) InitRP_Reachability followed by
 * ceil(log2(min(m, n))) iterations of Reachability_Computation. Each
 * iteration transposes RP as lines 35-36 do and, as Algorithm 21 does for
 * every (k, h), connects every p_z to p_h through every q_g and then q_k to
 * one of those p_z: O(n * m * m * n) per iteration, the thesis's baseline.
 * Find_Waiting_Processes reads the column of AR directly: the transpose that
 * precedes it on the GPU only makes the reads coalesced. Memory: 8 bytes a
 * cell, 8 MiB at 1024 x 1024 and 512 MiB at 8192 x 8192.
 *
 * Where the thesis's pseudocode is wrong or silent (the cpu-bits detector of
 * deadlock/lmdda_fast.c makes the same decisions):
 * - Find_Sink_Processes only ever sets SP bits (Algorithm 14 line 26), so a
 *   process that blocked would stay a sink; SP is cleared before each scan.
 * - Update_RP_Blocked tests (RP[k] & (INTBITS - (bit + 1))) == 1 (Algorithm 16
 *   line 12), which is not the bit of p_i; it tests RP[k][i].
 * - InitRP_Reachability only sets bits (Algorithm 20), which would keep the
 *   reachability of removed edges; RP is rebuilt from AG alone.
 * - Reachability_Computation only ORs new connections into RP_temp, which is
 *   never seeded (Algorithm 21 lines 24-26): the paths of up to 2^s - 1 edges
 *   found so far, the direct grant edges among them, would be lost. RP_temp
 *   starts as RP, so iteration s finds the paths of up to 2^(s+1) - 1 edges.
 * - "If q_j is reassigned to p_t" (Algorithm 19) does not say which waiter
 *   gets the unit: the one with the lowest id (REGRANTED, decision.to).
 * - A deadlocking request is refused and changes nothing (the thesis hands
 *   it to the operating system); the resource's free units are tracked so
 *   the engine itself tells a granted request from one that must wait.
 * ceil(log2(min(m, n))) iterations are enough: a simple path from a resource
 * to a process passes r <= min(m, n) resources and as many processes, 2r - 1
 * edges, and 2^(s+1) - 1 >= 2 min(m, n) - 1 once 2^s >= min(m, n).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/stop.h"
#include "deadlock/rag.h"

/* ---- cpu: the thesis's serial CPU-LMDDA ---- */

typedef struct thesis_lmdda {
	uint32_t m, n;     /* processes, resources */
	uint32_t hops;     /* iterations of the reachability computation */
	uint32_t *avail;   /* n: free units */
	uint32_t *ag;      /* n x m: units of q_j granted to p_i */
	uint8_t *ar;       /* m x n: p_i waits for q_j */
	uint8_t *rp;       /* n x m: p_i reachable from q_j */
	uint8_t *rp_temp;  /* n x m: the next iteration's RP */
	uint8_t *rp_trans; /* m x n: RP transposed */
	uint8_t *sp;       /* m: p_i is a sink (active) */
	uint8_t *innertemp; /* m: p_z connects to p_h (Algorithm 21) */
} thesis_lmdda;

static void *thesis_open(uint32_t procs, uint32_t res, const uint32_t *units)
{
	thesis_lmdda *t = gb_xcalloc(1, sizeof(*t), "LMDDA state");
	size_t cells = (size_t)procs * res;
	uint32_t j, least = procs < res ? procs : res;

	t->m = procs;
	t->n = res;
	while ((1ull << t->hops) < least)
		t->hops++;
	t->avail = gb_xmalloc((size_t)res * sizeof(uint32_t), "LMDDA free units");
	for (j = 0; j < res; j++)
		t->avail[j] = units ? units[j] : 1;
	t->ag = gb_xcalloc(cells, sizeof(uint32_t), "LMDDA AG matrix");
	t->ar = gb_xcalloc(cells, 1, "LMDDA AR matrix");
	t->rp = gb_xcalloc(cells, 1, "LMDDA RP matrix");
	t->rp_temp = gb_xcalloc(cells, 1, "LMDDA RP_temp matrix");
	t->rp_trans = gb_xcalloc(cells, 1, "LMDDA RP_trans matrix");
	t->sp = gb_xcalloc(procs, 1, "LMDDA SP vector");
	t->innertemp = gb_xcalloc(procs, 1, "LMDDA innertemp vector");
	return t;
}

/* AG one count a cell, AR, RP, RP_temp and RP_trans a byte a cell; SP, innertemp, free units */
static uint64_t thesis_host_bytes(uint32_t procs, uint32_t res)
{
	uint64_t cells = (uint64_t)procs * res;
	return cells * (sizeof(uint32_t) + 4) + 2ull * procs + (uint64_t)res * sizeof(uint32_t);
}

static uint64_t thesis_bytes(void *ctx)
{
	const thesis_lmdda *t = ctx;
	return thesis_host_bytes(t->m, t->n);
}

static void thesis_close(void *ctx)
{
	thesis_lmdda *t = ctx;
	free(t->avail);
	free(t->ag);
	free(t->ar);
	free(t->rp);
	free(t->rp_temp);
	free(t->rp_trans);
	free(t->sp);
	free(t->innertemp);
	free(t);
}

/* Algorithm 14: a process is a sink when its row of AR is empty. */
static void find_sink_processes(thesis_lmdda *t)
{
	uint32_t z, g;
	for (z = 0; z < t->m; z++) {
		const uint8_t *req = t->ar + (size_t)z * t->n;
		uint8_t any = 0;
		for (g = 0; g < t->n; g++)
			any |= req[g];
		t->sp[z] = !any;
	}
}

/* Algorithm 15: deadlock when p_i is the only sink reachable from q_j. */
static int deadlock_check(const thesis_lmdda *t, uint32_t i, uint32_t j)
{
	const uint8_t *from_j = t->rp + (size_t)j * t->m;
	uint32_t z, likecols = 0;
	for (z = 0; z < t->m; z++)
		likecols += (t->sp[z] & from_j[z]) == (z == i);
	return likecols == t->m;
}

/* Algorithm 16: every resource reaching p_i now reaches what q_j reaches. */
static void update_rp_blocked(thesis_lmdda *t, uint32_t i, uint32_t j)
{
	const uint8_t *from_j = t->rp + (size_t)j * t->m;
	uint32_t k, h;
	for (k = 0; k < t->n; k++) {
		uint8_t *from_k = t->rp + (size_t)k * t->m;
		if (from_k[i])
			for (h = 0; h < t->m; h++)
				from_k[h] |= from_j[h];
	}
}

/* Algorithm 21, one iteration: q_k -> ... -> p_z -> q_g -> ... -> p_h. */
static void reachability_computation(thesis_lmdda *t)
{
	uint32_t m = t->m, n = t->n, k, h, z, g;

	for (g = 0; g < n; g++)
		for (h = 0; h < m; h++)
			t->rp_trans[(size_t)h * n + g] = t->rp[(size_t)g * m + h];
	/* O(N^2 M^2) a release: a stopped run (common/stop.h) abandons it, and the repetition with it */
	for (k = 0; k < n && !gb_stop_requested(); k++)
		for (h = 0; h < m; h++) {
			const uint8_t *from_k = t->rp + (size_t)k * m;
			const uint8_t *to_h = t->rp_trans + (size_t)h * n;
			uint8_t reach = from_k[h];
			for (z = 0; z < m; z++) {
				const uint8_t *req = t->ar + (size_t)z * n;
				t->innertemp[z] = 0;
				for (g = 0; g < n; g++)
					if (req[g] & to_h[g]) {
						t->innertemp[z] = 1;
						break;
					}
			}
			for (z = 0; z < m && !reach; z++)
				reach = from_k[z] & t->innertemp[z];
			t->rp_temp[(size_t)k * m + h] = reach;
		}
	memcpy(t->rp, t->rp_temp, (size_t)m * n);
}

/* Algorithm 20 and the iterations of lines 34-38 of Algorithm 12. */
static void recompute_reachability(thesis_lmdda *t)
{
	size_t c, cells = (size_t)t->m * t->n;
	uint32_t s;
	for (c = 0; c < cells; c++)
		t->rp[c] = t->ag[c] >= 1;
	for (s = 0; s < t->hops && !gb_stop_requested(); s++)
		reachability_computation(t);
}

/* Algorithms 18 and 19: the lowest-id process waiting for q_j, or RAG_NONE. */
static uint32_t find_waiting_process(const thesis_lmdda *t, uint32_t j)
{
	uint32_t z;
	for (z = 0; z < t->m; z++)
		if (t->ar[(size_t)z * t->n + j])
			return z;
	return RAG_NONE;
}

static rag_decision thesis_apply(void *ctx, uint8_t type, uint32_t i, uint32_t j)
{
	thesis_lmdda *t = ctx;
	rag_decision d = {RAG_GRANTED, RAG_NONE};
	size_t held = (size_t)j * t->m + i;
	uint32_t waiter;

	if (type == RAG_REQUEST) {
		if (t->avail[j] > 0) { /* Algorithm 13 */
			t->avail[j]--;
			t->ag[held]++;
			t->rp[held] = 1;
			return d;
		}
		find_sink_processes(t);
		if (deadlock_check(t, i, j)) {
			d.outcome = RAG_DEADLOCK;
			return d;
		}
		t->ar[(size_t)i * t->n + j] = 1;
		update_rp_blocked(t, i, j);
		d.outcome = RAG_BLOCKED;
		return d;
	}
	t->ag[held]--; /* Algorithm 17 */
	waiter = find_waiting_process(t, j);
	if (waiter == RAG_NONE) {
		t->avail[j]++;
		d.outcome = RAG_RELEASED;
	} else {
		t->ar[(size_t)waiter * t->n + j] = 0;
		t->ag[(size_t)j * t->m + waiter]++;
		d.outcome = RAG_REGRANTED;
		d.to = waiter;
	}
	if (waiter != RAG_NONE || t->ag[held] == 0) /* release types (ii) and (iii) */
		recompute_reachability(t);
	return d;
}

const rag_engine rag_engine_lmdda_cpu = {
	.head = {.name = "cpu",
		 .summary = "the thesis's serial CPU-LMDDA: Algorithms 12-21 in byte matrices, node hopping "
			    "after releases",
		 .backends = GB_BACKEND_MASK(GB_BACKEND_CPU)},
	.algo = "lmdda",
	.open = thesis_open,
	.host_bytes = thesis_host_bytes,
	.apply = thesis_apply,
	.bytes = thesis_bytes,
	.close = thesis_close,
};
