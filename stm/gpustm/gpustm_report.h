/* GPU-STM's part of the report, which its engine entry names (stm/registry.c); stm/gpustm/gpustm_report.c. */
#ifndef GB_GPUSTM_REPORT_H
#define GB_GPUSTM_REPORT_H

#include "stm/stm.h"

void gpustm_report_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out);

#endif
