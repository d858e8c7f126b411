/*
 * workloads/deadlock/pba_oracle.c and workloads/deadlock/pba_trace.c: the PBA reference decider
 * (Abell's thesis, section 5.2.3) against known states and against a
 * brute-force search of definition 1.2.18; the trace reader and the
 * decisions writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/rng.h"
#include "tests/unit/test.h"
#include "workloads/deadlock/pba_oracle.h"
#include "workloads/deadlock/pba_trace.h"

/* A state from max and allocation rows (need = max - allocation). */
static void build(pba_system *s, uint32_t n, uint32_t m, const int32_t *avail, const int32_t *max,
		  const int32_t *alloc)
{
	size_t k;

	pba_system_init(s, n, m);
	memcpy(s->available, avail, m * sizeof(int32_t));
	for (k = 0; k < (size_t)n * m; k++) {
		s->maximum[k] = max[k];
		s->allocation[k] = alloc[k];
		s->need[k] = max[k] - alloc[k];
	}
}

static void textbook(pba_system *s)
{
	static const int32_t avail[3] = {3, 3, 2};
	static const int32_t max[15] = {7, 5, 3, 3, 2, 2, 9, 0, 2, 2, 2, 2, 4, 3, 3};
	static const int32_t alloc[15] = {0, 1, 0, 2, 0, 0, 3, 0, 2, 2, 1, 1, 0, 0, 2};
	build(s, 5, 3, avail, max, alloc);
}

TEST(pba_oracle_textbook)
{
	pba_system s, before;
	const int32_t p1[3] = {1, 0, 2}, p4[3] = {3, 3, 0}, p0[3] = {0, 2, 0};
	const int32_t too_much[3] = {1, 0, 0}, negative[3] = {0, -1, 0};
	const int32_t over_held[3] = {0, 1, 0}, back[3] = {3, 0, 2};

	textbook(&s);
	pba_system_init(&before, 5, 3);
	CHECK(pba_oracle_safe(&s));

	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 1, p1), PBA_GRANTED);
	CHECK_EQ_I(s.available[0], 2);
	CHECK_EQ_I(s.available[1], 3);
	CHECK_EQ_I(s.available[2], 0);
	CHECK_EQ_I(s.allocation[1 * 3 + 0], 3);
	CHECK_EQ_I(s.allocation[1 * 3 + 2], 2);
	CHECK_EQ_I(s.need[1 * 3 + 0], 0);
	CHECK_EQ_I(s.need[1 * 3 + 1], 2);
	CHECK_EQ_I(s.need[1 * 3 + 2], 0);

	pba_system_copy(&before, &s);
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 4, p4), PBA_DENIED_UNAVAILABLE);
	CHECK(pba_system_equal(&s, &before));
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 0, p0), PBA_DENIED_UNSAFE);
	CHECK(pba_system_equal(&s, &before));
	/* P1 needs only 0 2 0 now; a negative amount is never valid. */
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 1, too_much), PBA_DENIED_INVALID);
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 0, negative), PBA_DENIED_INVALID);
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 5, p0), PBA_DENIED_INVALID);
	CHECK(pba_system_equal(&s, &before));

	/* P1 holds 3 0 2: one unit of resource 1 is more than it holds. */
	CHECK_EQ(pba_oracle_apply(&s, PBA_RELEASE, 1, over_held), PBA_RELEASE_INVALID);
	CHECK_EQ(pba_oracle_apply(&s, PBA_RELEASE, 1, negative), PBA_RELEASE_INVALID);
	CHECK_EQ(pba_oracle_apply(&s, 7, 1, back), PBA_NOUTCOMES);
	CHECK(pba_system_equal(&s, &before));

	CHECK_EQ(pba_oracle_apply(&s, PBA_RELEASE, 1, back), PBA_RELEASED);
	CHECK_EQ_I(s.available[0], 5);
	CHECK_EQ_I(s.available[1], 3);
	CHECK_EQ_I(s.available[2], 2);
	CHECK_EQ_I(s.allocation[1 * 3 + 0], 0);
	CHECK_EQ_I(s.allocation[1 * 3 + 2], 0);
	CHECK_EQ_I(s.need[1 * 3 + 0], 3);
	CHECK_EQ_I(s.need[1 * 3 + 2], 2);
	/* With 5 3 2 free, P0's 0 2 0 leaves P1 and P3 able to finish first: granted. */
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 0, p0), PBA_GRANTED);
	pba_system_free(&s);
	pba_system_free(&before);
}

/* 3 processes x 1 resource, each holding 1 of 3 and claiming 3. */
TEST(pba_oracle_3x1)
{
	pba_system s;
	const int32_t max[3] = {3, 3, 3}, alloc[3] = {1, 1, 1}, one[1] = {1};
	int32_t avail[1] = {1};

	build(&s, 3, 1, avail, max, alloc);
	CHECK(!pba_oracle_safe(&s));
	pba_system_free(&s);

	avail[0] = 2;
	build(&s, 3, 1, avail, max, alloc);
	CHECK(pba_oracle_safe(&s));
	/* P0 then holds 2 and needs 1 = available: it can still finish. */
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 0, one), PBA_GRANTED);
	/* Now nothing would be left for anyone. */
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 1, one), PBA_DENIED_UNSAFE);
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 0, one), PBA_GRANTED);
	CHECK_EQ_I(s.available[0], 0);
	pba_system_free(&s);
}

/*
 * 7 x 5: every process holds 1 of each resource; the k-th in `order` needs
 * k + 1 units of resource k % 5 and nothing else, so it can finish only after
 * the k before it. Safe with available 1 1 1 1 1; unsafe once resource 0 has
 * none free, since the first in line then cannot start.
 */
static void chain_7x5(pba_system *s, const uint32_t *order, int32_t free0)
{
	int32_t avail[5] = {free0, 1, 1, 1, 1}, max[35], alloc[35];
	uint32_t k, j;

	for (k = 0; k < 7; k++)
		for (j = 0; j < 5; j++) {
			alloc[order[k] * 5 + j] = 1;
			max[order[k] * 5 + j] = 1 + (j == k % 5 ? (int32_t)k + 1 : 0);
		}
	build(s, 7, 5, avail, max, alloc);
}

TEST(pba_oracle_7x5)
{
	static const uint32_t shuffled[7] = {3, 0, 6, 2, 5, 1, 4};
	static const uint32_t reversed[7] = {6, 5, 4, 3, 2, 1, 0};
	pba_system s;

	chain_7x5(&s, shuffled, 1);
	CHECK(pba_oracle_safe(&s));
	pba_system_free(&s);
	chain_7x5(&s, reversed, 1);
	CHECK(pba_oracle_safe(&s));
	pba_system_free(&s);
	chain_7x5(&s, shuffled, 0);
	CHECK(!pba_oracle_safe(&s));
	pba_system_free(&s);
	chain_7x5(&s, reversed, 0);
	CHECK(!pba_oracle_safe(&s));
	pba_system_free(&s);
}

/*
 * 13 x 3, nothing free: P12 holds 1 1 1 and needs nothing, everyone else
 * holds nothing and needs 1 1 1, so P12 first and then anyone is safe. It is
 * unsafe when P12 also needs a unit, and unsafe when P5 needs 2 units of
 * resource 2 (12 of 13 can finish, which is not enough).
 */
static void fan_13x3(pba_system *s, int32_t p12_need2, int32_t p5_need2)
{
	const int32_t avail[3] = {0, 0, 0};
	int32_t max[39], alloc[39];
	uint32_t i, j;

	for (i = 0; i < 13; i++)
		for (j = 0; j < 3; j++) {
			alloc[i * 3 + j] = i == 12;
			max[i * 3 + j] = 1;
		}
	max[12 * 3 + 2] += p12_need2;
	max[5 * 3 + 2] = p5_need2;
	build(s, 13, 3, avail, max, alloc);
}

TEST(pba_oracle_13x3)
{
	pba_system s;

	fan_13x3(&s, 0, 1);
	CHECK(pba_oracle_safe(&s));
	pba_system_free(&s);
	fan_13x3(&s, 1, 1);
	CHECK(!pba_oracle_safe(&s));
	pba_system_free(&s);
	fan_13x3(&s, 0, 2);
	CHECK(!pba_oracle_safe(&s));
	pba_system_free(&s);
}

/*
 * Definition 1.2.18 taken literally: try every enumeration of the processes
 * and accept one where each process's need fits in what is free plus what the
 * processes before it hold. perm[0..depth) is the prefix chosen so far.
 */
static int hsafe_from(const pba_system *s, uint32_t *perm, uint32_t depth, uint8_t *used)
{
	uint32_t n = s->procs, m = s->res, i, j, t;

	if (depth == n) {
		for (t = 0; t < n; t++) {
			const int32_t *need = s->need + (size_t)perm[t] * m;
			for (j = 0; j < m; j++) {
				int64_t have = s->available[j];
				uint32_t u;
				for (u = 0; u < t; u++)
					have += s->allocation[(size_t)perm[u] * m + j];
				if (need[j] > have)
					return 0;
			}
		}
		return 1;
	}
	for (i = 0; i < n; i++) {
		int found;

		if (used[i])
			continue;
		used[i] = 1;
		perm[depth] = i;
		found = hsafe_from(s, perm, depth + 1, used);
		used[i] = 0;
		if (found)
			return 1;
	}
	return 0;
}

static int brute_safe(const pba_system *s)
{
	uint32_t perm[8];
	uint8_t used[8] = {0};
	return hsafe_from(s, perm, 0, used);
}

static int32_t below(gb_rng *r, uint64_t n)
{
	return (int32_t)gb_rng_below(r, n);
}

TEST(pba_oracle_random_vs_brute_force)
{
	gb_rng r;
	uint32_t trial, agree_safe = 0, agree_unsafe = 0, outcomes[PBA_NOUTCOMES] = {0};

	gb_rng_init(&r, 20240611, 0);
	for (trial = 0; trial < 4000; trial++) {
		uint32_t n = 1 + (uint32_t)below(&r, 6), m = 1 + 2 * (uint32_t)below(&r, 4), i, j;
		int32_t amount[7];
		pba_system s, copy;
		unsigned got, want;
		uint32_t p;
		uint8_t type;
		int safe;

		pba_system_init(&s, n, m);
		for (j = 0; j < m; j++)
			s.available[j] = below(&r, 4);
		for (i = 0; i < n * m; i++) {
			s.allocation[i] = below(&r, 3);
			s.need[i] = below(&r, 5);
			s.maximum[i] = s.allocation[i] + s.need[i];
		}
		safe = brute_safe(&s);
		CHECK_EQ(pba_oracle_safe(&s), safe);
		if (pba_oracle_safe(&s) == safe)
			safe ? agree_safe++ : agree_unsafe++;

		/* One random event, decided by hand from the brute-force search. */
		type = (uint8_t)below(&r, 2);
		p = (uint32_t)below(&r, n);
		for (j = 0; j < m; j++)
			amount[j] = below(&r, 3);
		pba_system_init(&copy, n, m);
		pba_system_copy(&copy, &s);
		want = type == PBA_REQUEST ? PBA_GRANTED : PBA_RELEASED;
		for (j = 0; j < m; j++) {
			int32_t limit = type == PBA_REQUEST ? s.need[p * m + j] : s.allocation[p * m + j];
			if (amount[j] > limit)
				want = type == PBA_REQUEST ? PBA_DENIED_INVALID : PBA_RELEASE_INVALID;
		}
		if (want == PBA_GRANTED)
			for (j = 0; j < m; j++)
				if (amount[j] > s.available[j])
					want = PBA_DENIED_UNAVAILABLE;
		if (want == PBA_GRANTED || want == PBA_RELEASED) {
			int32_t sign = type == PBA_REQUEST ? 1 : -1;
			for (j = 0; j < m; j++) {
				copy.available[j] -= sign * amount[j];
				copy.allocation[p * m + j] += sign * amount[j];
				copy.need[p * m + j] -= sign * amount[j];
			}
			if (type == PBA_REQUEST && !brute_safe(&copy)) {
				want = PBA_DENIED_UNSAFE;
				pba_system_copy(&copy, &s);
			}
		}
		got = pba_oracle_apply(&s, type, p, amount);
		CHECK_EQ(got, want);
		CHECK(pba_system_equal(&s, &copy));
		if (got < PBA_NOUTCOMES)
			outcomes[got]++;
		pba_system_free(&s);
		pba_system_free(&copy);
	}
	CHECK_EQ(agree_safe + agree_unsafe, 4000);
	/* The mix must exercise every branch, not only the easy ones. */
	CHECK(agree_safe > 400);
	CHECK(agree_unsafe > 400);
	for (trial = 0; trial < PBA_NOUTCOMES; trial++)
		CHECK(outcomes[trial] > 20);
}

/*
 * 2048 x 256 where the processes can finish only in reverse index order,
 * each row failing at its last resource until its turn: the worst case for a
 * search that re-compares whole rows on every pass.
 */
TEST(pba_oracle_large)
{
	uint32_t n = 2048, m = 256, i, j;
	int32_t *amount = calloc(m, sizeof(int32_t));
	pba_system s;

	pba_system_init(&s, n, m);
	for (j = 0; j < m; j++)
		s.available[j] = 1;
	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++) {
			size_t k = (size_t)i * m + j;
			s.allocation[k] = 1;
			s.need[k] = j + 1 == m ? (int32_t)(n - i) : 0;
			s.maximum[k] = s.allocation[k] + s.need[k];
		}
	CHECK(pba_oracle_safe(&s));
	/* Taking resource 255's only free unit leaves no one able to start. */
	amount[m - 1] = 1;
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, 0, amount), PBA_DENIED_UNSAFE);
	/* The same unit to the last process lets it finish at once and start the chain. */
	CHECK_EQ(pba_oracle_apply(&s, PBA_REQUEST, n - 1, amount), PBA_GRANTED);
	CHECK_EQ_I(s.available[m - 1], 0);
	free(amount);
	pba_system_free(&s);
}

/* ---- trace reading ---- */

static const char *write_trace(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tu_tmpdir(), name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

TEST(pba_trace_valid)
{
	const char *text =
		"# two processes, three resources\n"
		"resources 3\n"
		"processes 2\n"
		"\n"
		"available\t4 2 3   # dense\n"
		"max 1 2:3 0:1\n"
		"max 0 4 2 0\n"
		"request 0 1 1 0\n"
		"request 1 2:2\r\n"
		"request 0 9 0 0     # above need: denied, not an error\n"
		"release 0 0:1\n"
		"release 1 2:2 1:0\n"
		"request 1\n";
	const char *path = write_trace("valid.trace", text);
	pba_system s;
	pba_events e;
	char err[512] = "";
	const int32_t want_amount[6][3] = {{1, 1, 0}, {0, 0, 2}, {9, 0, 0},
					   {1, 0, 0}, {0, 0, 2}, {0, 0, 0}};
	const uint8_t want_type[6] = {PBA_REQUEST, PBA_REQUEST, PBA_REQUEST,
				      PBA_RELEASE, PBA_RELEASE, PBA_REQUEST};
	const uint32_t want_proc[6] = {0, 1, 0, 0, 1, 1};
	uint32_t k, j;

	REQUIRE(pba_trace_read(path, &s, &e, err, sizeof(err)) == 0);
	CHECK_EQ(s.procs, 2);
	CHECK_EQ(s.res, 3);
	CHECK_EQ_I(s.available[0], 4);
	CHECK_EQ_I(s.available[1], 2);
	CHECK_EQ_I(s.available[2], 3);
	CHECK_EQ_I(s.maximum[0], 4);
	CHECK_EQ_I(s.maximum[1], 2);
	CHECK_EQ_I(s.maximum[2], 0);
	CHECK_EQ_I(s.maximum[3], 1);
	CHECK_EQ_I(s.maximum[4], 0);
	CHECK_EQ_I(s.maximum[5], 3);
	for (k = 0; k < 6; k++) {
		CHECK_EQ_I(s.allocation[k], 0);
		CHECK_EQ_I(s.need[k], s.maximum[k]);
	}
	REQUIRE(e.count == 6);
	for (k = 0; k < 6; k++) {
		CHECK_EQ(e.type[k], want_type[k]);
		CHECK_EQ(e.proc[k], want_proc[k]);
		for (j = 0; j < 3; j++)
			CHECK_EQ_I(e.amount[k * 3 + j], want_amount[k][j]);
	}
	pba_system_free(&s);
	pba_events_free(&e);
}

struct bad_case {
	const char *text, *line, *reason;
};

TEST(pba_trace_errors)
{
	static const char head[] = "processes 2\nresources 3\navailable 5 5 5\nmax 0 3 3 3\nmax 1 3 3 3\n";
	static const struct bad_case cases[] = {
		{"processes 2\nresources 3\nprocesses 2\n", ":3:", "duplicate"},
		{"processes 2\nresources\n", ":2:", "wrong count"},
		{"processes 2 3\n", ":1:", "wrong count"},
		{"processes 0\n", ":1:", "between 1 and"},
		{"processes 1048577\n", ":1:", "between 1 and"},
		{"processes x\n", ":1:", "not a non-negative integer"},
		{"# c\nresources 3\navailable 1 1 1\n", ":3:", "missing declarations"},
		{"processes 2\nresources 3\nfrobnicate 1\n", ":3:", "unknown keyword"},
		{"processes 2\nresources 3\navailable 1 1\n", ":3:", "wrong count"},
		{"processes 2\nresources 3\navailable 1 1 1 1\n", ":3:", "wrong count"},
		{"processes 2\nresources 3\navailable 1 -1 1\n", ":3:", "not a non-negative integer"},
		{"processes 2\nresources 3\navailable 1 2147483648 1\n", ":3:", "overflows int32"},
		{"processes 2\nresources 3\navailable 1 1x 1\n", ":3:", "not a non-negative integer"},
		{"processes 2\nresources 3\navailable 1 1 1\navailable 1 1 1\n", ":4:", "duplicate"},
		{"processes 2\nresources 3\navailable 0:1 3:1\n", ":3:", "out of range"},
		{"processes 2\nresources 3\navailable 0:1 0:2\n", ":3:", "given twice"},
		{"processes 2\nresources 3\navailable 0:1 1 1\n", ":3:", "mixes"},
		{"processes 2\nresources 3\navailable 1 1 2:1\n", ":3:", "mixes"},
		{"processes 2\nresources 3\navailable x:1\n", ":3:", "malformed"},
		{"processes 2\nresources 3\navailable 1:\n", ":3:", "not a non-negative integer"},
		{"processes 2\nresources 3\nmax 2 1 1 1\n", ":3:", "unknown process id"},
		{"processes 2\nresources 3\nmax -1 1 1 1\n", ":3:", "unknown process id"},
		{"processes 2\nresources 3\nmax\n", ":3:", "malformed"},
		{"processes 2\nresources 3\nmax 0 1 1 1\nmax 0 1 1 1\n", ":4:", "duplicate"},
		{"processes 2\nresources 3\navailable 1 1 1\nmax 0 1 1 1\nrequest 0 1 1 1\n",
		 ":5:", "before all max lines"},
		{"processes 2\nresources 3\nmax 0 1 1 1\nmax 1 1 1 1\nrequest 0 1 1 1\n", ":5:",
		 "missing declarations"},
		{"processes 2\nresources 3\navailable 1 1 1\nmax 0 1 1 1\n\n", ":5:",
		 "missing declarations"},
		{"processes 2\n", ":1:", "missing declarations"},
		{"", "empty file:", "missing declarations"},
	};
	static const struct bad_case events[] = {
		{"request 2 1 1 1\n", ":6:", "unknown process id"},
		{"request 0 1 1\n", ":6:", "wrong count"},
		{"request 0 0:1 5:1\n", ":6:", "out of range"},
		{"# fine\nrelease 0 1:1 1:1\n", ":7:", "given twice"},
		{"request 0 1 1 1\nrelease 1 0 0 0\nrelease 0 0 2 0\n", ":8:",
		 "process 0 releases 2 units of resource 1 but holds 1"},
		/* P0's request finds only 2 2 2 free and is denied, so P0 holds nothing. */
		{"request 1 3 3 3\nrequest 0 3 3 3\nrelease 0 0 0 1\n", ":8:",
		 "process 0 releases 1 units of resource 2 but holds 0"},
		{"max 0 1 1 1\n", ":6:", "duplicate"},
		{"available 1 1 1\n", ":6:", "duplicate"},
	};
	char text[512], err[512];
	pba_system s;
	pba_events e;
	const size_t ncases = sizeof(cases) / sizeof(cases[0]);
	size_t k;

	/* cases[] are whole traces; events[] follow the valid declarations in head[]. */
	for (k = 0; k < ncases + sizeof(events) / sizeof(events[0]); k++) {
		const struct bad_case *c = k < ncases ? &cases[k] : &events[k - ncases];
		const char *path;
		int rc;

		snprintf(text, sizeof(text), "%s%s", k < ncases ? "" : head, c->text);
		path = write_trace("bad.trace", text);
		err[0] = '\0';
		rc = pba_trace_read(path, &s, &e, err, sizeof(err));
		CHECK_EQ_I(rc, -1);
		if (rc == 0) {
			fprintf(stderr, "  case %zu was accepted\n", k);
			pba_system_free(&s);
			pba_events_free(&e);
			continue;
		}
		CHECK_CONTAINS(err, path);
		CHECK_CONTAINS(err, c->line);
		CHECK_CONTAINS(err, c->reason);
	}
	CHECK_EQ_I(pba_trace_read("/nonexistent/trace", &s, &e, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "/nonexistent/trace");
}

/* The example of docs/avoid-trace.md, through the oracle, to the decisions file. */
static const char doc_example[] =
	"# the textbook banker's system\n"
	"processes 5\n"
	"resources 3\n"
	"available 10 5 7          # total units; nothing is held yet\n"
	"\n"
	"max 0 7 5 3\n"
	"max 1 3 2 2\n"
	"max 2 9 0 2\n"
	"max 3 2 2 2\n"
	"max 4 0:4 1:3 2:3         # sparse: the same as \"max 4 4 3 3\"\n"
	"\n"
	"# reach the textbook state: available 3 3 2 afterwards\n"
	"request 0 1:1\n"
	"request 1 0:2\n"
	"request 2 0:3 2:2\n"
	"request 3 2 1 1\n"
	"request 4 2:2\n"
	"\n"
	"request 1 1 0 2           # granted: P1 P3 P4 P2 P0 is H-safe\n"
	"request 4 3 3 0           # denied-unavailable: only 2 3 0 are free\n"
	"request 0 1:2             # denied-unsafe: no process could finish\n"
	"request 1 1:3             # denied-invalid: P1 needs only 0 2 0\n"
	"release 1 3 0 2           # P1 gives back everything it holds\n";

static const char doc_decisions[] = "0 request 0 granted\n"
				    "1 request 1 granted\n"
				    "2 request 2 granted\n"
				    "3 request 3 granted\n"
				    "4 request 4 granted\n"
				    "5 request 1 granted\n"
				    "6 request 4 denied-unavailable\n"
				    "7 request 0 denied-unsafe\n"
				    "8 request 1 denied-invalid\n"
				    "9 release 1 released\n";

TEST(pba_trace_doc_example_and_decisions)
{
	const char *path = write_trace("doc.trace", doc_example);
	char out[512], err[512] = "", text[1024];
	pba_system s;
	pba_events e;
	uint8_t outcome[16];
	uint64_t k;
	size_t got;
	FILE *f;

	REQUIRE(pba_trace_read(path, &s, &e, err, sizeof(err)) == 0);
	REQUIRE(e.count == 10);
	for (k = 0; k < e.count; k++)
		outcome[k] = (uint8_t)pba_oracle_apply(&s, e.type[k], e.proc[k], e.amount + k * 3);
	snprintf(out, sizeof(out), "%s/decisions.txt", tu_tmpdir());
	REQUIRE(pba_decisions_write(out, &e, outcome, err, sizeof(err)) == 0);
	f = fopen(out, "r");
	REQUIRE(f);
	got = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[got] = '\0';
	CHECK_STR_EQ(text, doc_decisions);
	CHECK_EQ_I(pba_decisions_write("/nonexistent/dir/decisions", &e, outcome, err,
				       sizeof(err)),
		   -1);
	CHECK_CONTAINS(err, "/nonexistent/dir/decisions");
	pba_system_free(&s);
	pba_events_free(&e);
}

TEST(pba_trace_textbook_state)
{
	/* The first five requests of the example reach the textbook state exactly. */
	const char *path = write_trace("doc5.trace", doc_example);
	char err[512] = "";
	pba_system s, tb;
	pba_events e;
	uint64_t k;

	REQUIRE(pba_trace_read(path, &s, &e, err, sizeof(err)) == 0);
	for (k = 0; k < 5; k++)
		CHECK_EQ(pba_oracle_apply(&s, e.type[k], e.proc[k], e.amount + k * 3), PBA_GRANTED);
	textbook(&tb);
	CHECK(pba_system_equal(&s, &tb));
	pba_system_free(&tb);
	pba_system_free(&s);
	pba_events_free(&e);
}

/* In a child: the trace on standard input, which is read once and buffered. */
static void stdin_child(void *arg)
{
	pba_system s;
	pba_events e;
	char err[512];

	if (!freopen((const char *)arg, "r", stdin))
		exit(10);
	if (pba_trace_read("-", &s, &e, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(11);
	}
	if (s.procs != 5 || s.res != 3 || e.count != 10 || e.proc[2] != 2 ||
	    e.amount[2 * 3 + 2] != 2 || s.maximum[4 * 3 + 0] != 4)
		exit(12);
	exit(0);
}

static void stdin_bad_child(void *arg)
{
	pba_system s;
	pba_events e;
	char err[512];

	if (!freopen((const char *)arg, "r", stdin))
		exit(10);
	if (pba_trace_read("-", &s, &e, err, sizeof(err)) == 0)
		exit(11);
	fprintf(stderr, "%s\n", err);
	exit(0);
}

TEST(pba_trace_stdin)
{
	static char good[512], bad[512];
	char err[1024];

	snprintf(good, sizeof(good), "%s", write_trace("stdin.trace", doc_example));
	CHECK_EQ_I(tu_run_child(stdin_child, good, err, sizeof(err)), 0);
	snprintf(bad, sizeof(bad), "%s",
		 write_trace("stdin_bad.trace", "processes 1\nresources 1\navailable 1\nmax 0 1\n"
						"request 0 1\nrelease 0 2\n"));
	CHECK_EQ_I(tu_run_child(stdin_bad_child, bad, err, sizeof(err)), 0);
	CHECK_CONTAINS(err, "<stdin>:6: process 0 releases 2 units of resource 0 but holds 1");
}
