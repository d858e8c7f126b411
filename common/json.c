/* The JSON helpers of common/json.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"

void gb_json_u64(cJSON *obj, const char *name, uint64_t v)
{
	/* Written as integer text: cJSON's own numbers are doubles printed with
	 * 15 significant digits, which would round large counters and seeds. */
	char text[24];
	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	cJSON_AddRawToObject(obj, name, text);
}

void gb_json_num(cJSON *obj, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(obj, name, v);
	else
		cJSON_AddNullToObject(obj, name);
}

void gb_json_str(cJSON *obj, const char *name, const char *v)
{
	cJSON_AddStringToObject(obj, name, v ? v : "");
}

void gb_json_bool(cJSON *obj, const char *name, int v)
{
	cJSON_AddBoolToObject(obj, name, v ? 1 : 0);
}

cJSON *gb_json_stats(cJSON *obj, const char *name, gb_stats s)
{
	cJSON *o = cJSON_AddObjectToObject(obj, name);
	gb_json_u64(o, "n", s.n);
	if (s.n == 0) { /* no samples: every statistic is undefined */
		const char *const keys[] = {"min", "median", "mean", "max", "stdev"};
		size_t i;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			cJSON_AddNullToObject(o, keys[i]);
		return o;
	}
	gb_json_num(o, "min", s.min);
	gb_json_num(o, "median", s.median);
	gb_json_num(o, "mean", s.mean);
	gb_json_num(o, "max", s.max);
	gb_json_num(o, "stdev", s.stdev);
	if (gb_stats_has_samples(&s)) {
		cJSON *a = cJSON_AddArrayToObject(o, "samples");
		size_t i;
		for (i = 0; i < s.n; i++)
			cJSON_AddItemToArray(a, isfinite(s.sample[i]) ? cJSON_CreateNumber(s.sample[i])
								       : cJSON_CreateNull());
	}
	return o;
}

const char *gb_json_str_of(const cJSON *obj, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));
	return s ? s : "";
}

void gb_json_diff(const cJSON *a, const cJSON *b, const char *path, char *out, size_t outlen,
		      int *count)
{
	char sub[256];
	const cJSON *x;

	if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
		cJSON_ArrayForEach(x, a) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", x->string);
			gb_json_diff(x, cJSON_GetObjectItemCaseSensitive(b, x->string), sub, out, outlen, count);
		}
		cJSON_ArrayForEach(x, b) {
			if (cJSON_GetObjectItemCaseSensitive(a, x->string))
				continue;
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", x->string);
			gb_json_diff(NULL, x, sub, out, outlen, count);
		}
		return;
	}
	if (a && b && cJSON_Compare(a, b, 1))
		return;
	if (++*count <= 3) {
		char *ta = a ? cJSON_PrintUnformatted(a) : NULL, *tb = b ? cJSON_PrintUnformatted(b) : NULL;
		size_t used = strlen(out);
		snprintf(out + used, outlen - used, "%s%s %s vs %s", used ? "; " : "", path,
			 ta ? ta : "(none)", tb ? tb : "(none)");
		free(ta);
		free(tb);
	}
}
