/*
 * JSON helpers over cJSON that every document gpubench writes or reads goes
 * through: integer counters kept integers, non-finite numbers as null, one
 * shape for a stats block, and the reading side's string lookup and diff.
 * They know nothing of reports, so the bottom of common/ can use them.
 */
#ifndef GB_JSON_H
#define GB_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "common/stats.h"

void gb_json_u64(cJSON *obj, const char *name, uint64_t v);
/* A number, or null when it is not finite (JSON has no NaN or infinity). */
void gb_json_num(cJSON *obj, const char *name, double v);
/* A string; NULL is written as "". */
void gb_json_str(cJSON *obj, const char *name, const char *v);
void gb_json_bool(cJSON *obj, const char *name, int v);
/* The stats block: n, min, median, mean, max, stdev and, when kept, the samples. */
cJSON *gb_json_stats(cJSON *obj, const char *name, gb_stats s);

/* The string at key of obj, "" when there is none. */
const char *gb_json_str_of(const cJSON *obj, const char *key);

/*
 * Append "PATH BASE vs NEW" for the first three leaves where a and b differ
 * to out (separated by "; "); *count counts every difference.
 */
void gb_json_diff(const cJSON *a, const cJSON *b, const char *path, char *out, size_t outlen, int *count);

#endif
