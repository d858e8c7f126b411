#include <stdlib.h>
#include <string.h>

#include "tests/unit/entry.h"
#include "tests/unit/spec_check.h"
#include "workloads/speculation/spec_loops.h"

const sp_loop *spec_loop(const char *name)
{
	return tu_entry("speculate", NULL, name);
}

int spec_matches_seq(spec_runner run, const sp_problem *p, const sp_config *c, sp_result *r)
{
	size_t bytes = (size_t)p->args.size * sizeof(uint32_t);
	uint32_t *a = malloc(bytes), *b = malloc(bytes);
	float sa[SP_NSCALARS], sb[SP_NSCALARS];
	int same, rc;
	memcpy(a, p->A0, bytes);
	memcpy(b, p->A0, bytes);
	memcpy(sa, p->args.s, sizeof(sa));
	memcpy(sb, p->args.s, sizeof(sb));
	rc = run(p, c, a, sa, r);
	sp_run_sequential(p, b, sb, 0, p->args.n);
	same = rc == 0 && memcmp(a, b, bytes) == 0 && memcmp(sa, sb, sizeof(sa)) == 0;
	free(a);
	free(b);
	return same;
}

void spec_figure3_256(sp_problem *p, const uint32_t set[][3], unsigned nset)
{
	uint32_t idx[512], A0[512], i;
	for (i = 0; i < 256; i++) {
		idx[i] = i;
		idx[256 + i] = 256 + i;
	}
	for (i = 0; i < nset; i++)
		idx[set[i][0] * 256 + set[i][1]] = set[i][2];
	for (i = 0; i < 512; i++)
		A0[i] = 7 * i + 1;
	sp_problem_make(p, spec_loop("figure3"), 256, 512, idx, 512, NULL, 0, A0);
}
