/*
 * GPU-STM's part of the report: the summary's line of the transactions it
 * gave up at --retry-limit. Their count, retry_limit_reached, is a field of
 * every engine's results entry (stm/stm.h, stm_counters).
 */
#include <inttypes.h>

#include "stm/gpustm/gpustm_params.h"
#include "stm/gpustm/gpustm_report.h"

void gpustm_report_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out)
{
	(void)cycles_per_ns;
	if (c->retry_limit_reached)
		fprintf(out, "  %-12s %" PRIu64 " transactions given up after --retry-limit %u attempts\n",
			"retry limit", c->retry_limit_reached, gpustm_params_of(p)->retry_limit);
}
