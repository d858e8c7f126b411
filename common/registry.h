/*
 * One shape for every registry a subcommand offers (after fio's ioengine
 * table and stress-ng's stressor list): the engines of avoid, detect and list,
 * speculate's loops, stm's engines. The engine folders keep their own entry
 * types; a gb_registry reads one through the offsets of its fields and a few
 * functions, and everything that lists or looks up entries goes through it:
 * --impl and --compare (common/impl.h), --loop, the help's lists and
 * `gpubench info`.
 */
#ifndef GB_REGISTRY_H
#define GB_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

typedef struct gb_registry {
	const char *what;           /* one entry, in listings: "implementation", "detector", "loop" */
	const char *picked_by;      /* the options that name an entry, for the help: "--impl, --compare" */
	const char *option;         /* the option that names the entry to run: "impl" when NULL (stm: "algo") */
	const void *const *entries; /* the registry, NULL-terminated */
	size_t name_at, summary_at; /* offsets of the entry's name and summary (const char *) */
	const char *name_key;       /* the name's key in info's JSON; NULL: "name" */
	/* Where entry e runs: GB_BACKEND_MASK()s of gb_backend. NULL for a
	 * registry of workloads, which run wherever their engine does. */
	unsigned (*backends)(const void *e);
	int show_backends;          /* info's listing names every entry's backends */
	/* NULL, or why e cannot run in this binary (not compiled in); may be NULL */
	const char *(*unusable)(const void *e);
	/* The group e belongs to (detect: its --algo), listed apart; NULL: one group */
	const char *(*group)(const void *e);
	const char *group_key;      /* the group's key in info's JSON ("algo") */
	/* info's JSON: fields of e's own beyond name, summary, backends, gpu, built; may be NULL */
	void (*describe)(const void *e, cJSON *o);
	/* The key of an array of sentences describe adds that info's listing shows too, a line
	 * each (stm: the workloads an engine does not run); NULL: none */
	const char *notes_key;
	const char *gpu_default, *cpu_default; /* --impl when a GPU is found, and when not */
} gb_registry;

const char *gb_registry_name(const gb_registry *r, const void *e);
/* Whether e runs only on the GPU. */
int gb_registry_on_gpu(const gb_registry *r, const void *e);
/* Whether e belongs to group (NULL: every entry does). */
int gb_registry_in(const gb_registry *r, const void *e, const char *group);

/* The entry of group (NULL: any) called name, or NULL. */
const void *gb_registry_find(const gb_registry *r, const char *group, const char *name);
/* The same, or exit 2: "option --OPT: unknown WHAT 'NAME' (accepted: a|b|c)". */
const void *gb_registry_pick(const gb_registry *r, const char *group, const char *opt, const char *name);

/*
 * The help's list: per group, a heading ("osdda detectors (--impl,
 * --compare):", or "Loops (--loop):" without groups), then one line per entry,
 * its name padded to the longest and its summary wrapped within 80 columns.
 */
void gb_registry_help(FILE *out, const gb_registry *r);

/*
 * `gpubench info` of one subcommand (cmd): into arr, one object per entry
 * (group, name, summary; for engines backends, gpu and built; then its own
 * fields); and when out is not NULL one line per entry: "CMD [GROUP ]WHAT
 * NAME[ (BACKENDS)][ (not built)]: SUMMARY", then one "CMD [GROUP ]WHAT NAME:
 * NOTE" per note.
 */
void gb_registry_info(const gb_registry *r, const char *cmd, cJSON *arr, FILE *out);

#endif
