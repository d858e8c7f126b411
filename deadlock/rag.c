/* What the detectors share beyond the model (see rag.h). */
#include "common/error.h"
#include "deadlock/rag.h"

void rag_require_single_unit(uint32_t res, const uint32_t *units)
{
	uint32_t j;
	for (j = 0; units && j < res; j++)
		if (units[j] != 1)
			gb_die(GB_EXIT_USAGE,
			       "osdda detects deadlock in single-unit systems, but resource %u has %u units "
			       "(lmdda handles multi-unit resources)",
			       j, units[j]);
}
