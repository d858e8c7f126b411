#include <stdlib.h>
#include <string.h>

#include "tests/unit/spec_check.h"

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
