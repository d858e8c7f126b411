/* The registry's lookups, help list and info listing (common/registry.h), read through entry heads. */
#include <ctype.h>
#include <string.h>

#include "common/backend.h"
#include "common/error.h"
#include "common/json.h"
#include "common/opts.h"
#include "common/registry.h"

#define GPU GB_BACKEND_MASK(GB_BACKEND_GPU)
#define CPU GB_BACKEND_MASK(GB_BACKEND_CPU)

int gb_registry_on_gpu(const gb_registry *r, const void *e)
{
	unsigned b = gb_head(e)->backends; /* the entry's own head says it, whatever r */

	(void)r;
	return b && !(b & CPU);
}

int gb_registry_in(const gb_registry *r, const void *e, const char *group)
{
	return !group || !r->group || strcmp(r->group(e), group) == 0;
}

const void *gb_registry_find(const gb_registry *r, const char *group, const char *name)
{
	int i;

	for (i = 0; r->entries[i]; i++)
		if (gb_registry_in(r, r->entries[i], group) &&
		    strcmp(gb_head(r->entries[i])->name, name) == 0)
			return r->entries[i];
	return NULL;
}

const void *gb_registry_pick(const gb_registry *r, const char *group, const char *opt, const char *name)
{
	const void *e = gb_registry_find(r, group, name);
	char list[512] = "";
	int i;

	if (e)
		return e;
	for (i = 0; r->entries[i]; i++)
		if (gb_registry_in(r, r->entries[i], group))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? "|" : "",
				 gb_head(r->entries[i])->name);
	gb_die(GB_EXIT_USAGE, "option --%s: unknown %s%s%s '%s' (accepted: %s)", opt, group ? group : "",
	       group ? " " : "", r->what, name, list);
}

/* Whether entry i is the first of its group: the one that heads the group's list. */
static int heads_group(const gb_registry *r, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (!r->group || strcmp(r->group(r->entries[j]), r->group(r->entries[i])) == 0)
			return 0;
	return 1;
}

void gb_registry_help(FILE *out, const gb_registry *r)
{
	char text[768];
	int i, j, width = 0;

	for (i = 0; r->entries[i]; i++)
		if ((int)strlen(gb_head(r->entries[i])->name) > width)
			width = (int)strlen(gb_head(r->entries[i])->name);
	for (i = 0; r->entries[i]; i++) {
		const char *group = r->group ? r->group(r->entries[i]) : NULL;
		if (!heads_group(r, i))
			continue;
		if (group)
			fprintf(out, "\n%s %ss (%s):\n", group, r->what, r->picked_by);
		else
			fprintf(out, "\n%c%ss (%s):\n", toupper((unsigned char)r->what[0]), r->what + 1, r->picked_by);
		for (j = i; r->entries[j]; j++) {
			const gb_entry_head *h = gb_head(r->entries[j]);
			int col;
			if (!gb_registry_in(r, r->entries[j], group))
				continue;
			col = fprintf(out, "  %-*s ", width, h->name);
			snprintf(text, sizeof(text), "%s%s%s%s", h->summary, h->unavailable ? " [not built: " : "",
				 h->unavailable ? h->unavailable : "", h->unavailable ? "]" : "");
			gb_help_wrap(out, col, width + 3, text);
		}
	}
}

void gb_registry_words(const gb_registry *r, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; r->entries[i] && used < len; i++) {
		const gb_entry_head *h = gb_head(r->entries[i]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s%s%s)", i ? ", " : "", h->name, h->summary,
					 h->unavailable ? "; not built: " : "", h->unavailable ? h->unavailable : "");
	}
}

void gb_registry_info(const gb_registry *r, const char *cmd, cJSON *arr, FILE *out)
{
	int i;

	for (i = 0; r->entries[i]; i++) {
		const void *e = r->entries[i];
		const gb_entry_head *h = gb_head(e);
		const char *group = r->group ? r->group(e) : NULL;
		cJSON *o = cJSON_CreateObject();
		char where[32] = "", why[256] = "";

		if (group)
			gb_json_str(o, r->group_key, group);
		gb_json_str(o, r->name_key ? r->name_key : "name", h->name);
		gb_json_str(o, "summary", h->summary);
		if (h->backends) {
			cJSON *b = cJSON_AddArrayToObject(o, "backends");
			if (h->backends & GPU)
				cJSON_AddItemToArray(b, cJSON_CreateString("gpu"));
			if (h->backends & CPU)
				cJSON_AddItemToArray(b, cJSON_CreateString("cpu"));
			gb_json_bool(o, "gpu", gb_registry_on_gpu(r, e));
			gb_json_bool(o, "built", !h->unavailable);
		}
		if (h->unavailable)
			gb_json_str(o, "unavailable", h->unavailable);
		if (r->describe)
			r->describe(e, o);
		cJSON_AddItemToArray(arr, o);
		if (!out)
			continue;
		if (r->show_backends)
			snprintf(where, sizeof(where), " (%s%s%s)", h->backends & GPU ? "gpu" : "",
				 h->backends == (GPU | CPU) ? ", " : "", h->backends & CPU ? "cpu" : "");
		if (h->unavailable)
			snprintf(why, sizeof(why), " (not built: %s)", h->unavailable);
		fprintf(out, "%s %s%s%s %s%s%s: %s", cmd, group ? group : "", group ? " " : "", r->what, h->name, where,
			why, h->summary);
		if (r->runs_key) {
			const cJSON *name;
			const char *sep = "; runs ";
			cJSON_ArrayForEach(name, cJSON_GetObjectItem(o, r->runs_key)) {
				fprintf(out, "%s%s", sep, name->valuestring);
				sep = ", ";
			}
		}
		fputc('\n', out);
	}
}
