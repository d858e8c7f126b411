#include <ctype.h>
#include <string.h>

#include "common/backend.h"
#include "common/error.h"
#include "common/json.h"
#include "common/opts.h"
#include "common/registry.h"

static const char *field(const void *e, size_t at)
{
	return *(const char *const *)((const char *)e + at);
}

const char *gb_registry_name(const gb_registry *r, const void *e)
{
	return field(e, r->name_at);
}

int gb_registry_on_gpu(const gb_registry *r, const void *e)
{
	return r->backends && !(r->backends(e) & GB_BACKEND_MASK(GB_BACKEND_CPU));
}

int gb_registry_in(const gb_registry *r, const void *e, const char *group)
{
	return !group || !r->group || strcmp(r->group(e), group) == 0;
}

const void *gb_registry_find(const gb_registry *r, const char *group, const char *name)
{
	int i;

	for (i = 0; r->entries[i]; i++)
		if (gb_registry_in(r, r->entries[i], group) && strcmp(gb_registry_name(r, r->entries[i]), name) == 0)
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
				 gb_registry_name(r, r->entries[i]));
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
	char text[512];
	int i, j, width = 0;

	for (i = 0; r->entries[i]; i++)
		if ((int)strlen(gb_registry_name(r, r->entries[i])) > width)
			width = (int)strlen(gb_registry_name(r, r->entries[i]));
	for (i = 0; r->entries[i]; i++) {
		const char *group = r->group ? r->group(r->entries[i]) : NULL;
		if (!heads_group(r, i))
			continue;
		if (group)
			fprintf(out, "\n%s %ss (%s):\n", group, r->what, r->picked_by);
		else
			fprintf(out, "\n%c%ss (%s):\n", toupper((unsigned char)r->what[0]), r->what + 1, r->picked_by);
		for (j = i; r->entries[j]; j++) {
			const void *e = r->entries[j];
			int col;
			if (!gb_registry_in(r, e, group))
				continue;
			col = fprintf(out, "  %-*s ", width, gb_registry_name(r, e));
			snprintf(text, sizeof(text), "%s%s", field(e, r->summary_at),
				 r->unusable && r->unusable(e) ? " [not built]" : "");
			gb_help_wrap(out, col, width + 3, text);
		}
	}
}

void gb_registry_info(const gb_registry *r, const char *cmd, cJSON *arr, FILE *out)
{
	int i;

	for (i = 0; r->entries[i]; i++) {
		const void *e = r->entries[i];
		const char *group = r->group ? r->group(e) : NULL, *name = gb_registry_name(r, e);
		int built = !r->unusable || !r->unusable(e);
		unsigned mask = r->backends ? r->backends(e) : 0;
		cJSON *o = cJSON_CreateObject();
		char where[32] = "";

		if (group)
			gb_json_str(o, r->group_key, group);
		gb_json_str(o, r->name_key ? r->name_key : "name", name);
		gb_json_str(o, "summary", field(e, r->summary_at));
		if (r->backends) {
			cJSON *b = cJSON_AddArrayToObject(o, "backends");
			if (mask & GB_BACKEND_MASK(GB_BACKEND_GPU))
				cJSON_AddItemToArray(b, cJSON_CreateString("gpu"));
			if (mask & GB_BACKEND_MASK(GB_BACKEND_CPU))
				cJSON_AddItemToArray(b, cJSON_CreateString("cpu"));
			gb_json_bool(o, "gpu", gb_registry_on_gpu(r, e));
			gb_json_bool(o, "built", built);
		}
		if (r->describe)
			r->describe(e, o);
		cJSON_AddItemToArray(arr, o);
		if (!out)
			continue;
		if (r->show_backends)
			snprintf(where, sizeof(where), " (%s%s%s)", mask & GB_BACKEND_MASK(GB_BACKEND_GPU) ? "gpu" : "",
				 mask == (GB_BACKEND_MASK(GB_BACKEND_GPU) | GB_BACKEND_MASK(GB_BACKEND_CPU)) ? ", " : "",
				 mask & GB_BACKEND_MASK(GB_BACKEND_CPU) ? "cpu" : "");
		fprintf(out, "%s %s%s%s %s%s%s: %s\n", cmd, group ? group : "", group ? " " : "", r->what, name, where,
			built ? "" : " (not built)", field(e, r->summary_at));
		if (r->notes_key) {
			const cJSON *note;
			cJSON_ArrayForEach(note, cJSON_GetObjectItem(o, r->notes_key))
				fprintf(out, "%s %s%s%s %s: %s\n", cmd, group ? group : "", group ? " " : "", r->what,
					name, note->valuestring);
		}
	}
}
