/*
 * CSMV's part of the report (stm/csmv/csmv_report.c), which the engine
 * entries name (stm/registry.c): csmv_report_* for CSMV's engines, with their
 * commit phases and versions; jvstm_report_* for JVSTM's, which keep versions
 * on the same boxes but commit without a server, with their own phases;
 * csmv_versions_* the versions alone.
 */
#ifndef GB_CSMV_REPORT_H
#define GB_CSMV_REPORT_H

#include "stm/stm.h"

void csmv_report_json(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry);
void csmv_report_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out);
void csmv_versions_json(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry);
void csmv_versions_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out);
void jvstm_report_json(const stm_counters *c, double cycles_per_ns, const stm_params *p, cJSON *entry);
void jvstm_report_lines(const stm_counters *c, double cycles_per_ns, const stm_params *p, FILE *out);

#endif
