/*
 * One shape for every registry a subcommand offers (after fio's ioengine
 * table and stress-ng's stressor list): the engines of avoid, detect and list,
 * speculate's loops and baselines, stm's engines and workloads. The engine
 * folders keep their own entry types, each starting with a gb_entry_head, and
 * everything that lists or looks up entries reads that head through a
 * gb_registry: --impl and --compare (common/impl.h), --loop, the help's lists
 * and `gpubench info`.
 */
#ifndef GB_REGISTRY_H
#define GB_REGISTRY_H

/*
 * C linkage for what it declares and includes, when a .cu file reads it
 * outside an extern "C" block (through workloads/stm/stm_workload.h, say):
 * common/device.h's functions, declared there first, would take C++ linkage.
 */
#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "common/backend.h"

/*
 * The first member of every registry's entry type: what the shared code
 * reads of an entry.
 */
typedef struct gb_entry_head {
	const char *name;
	const char *summary;
	/* Where it runs: GB_BACKEND_MASK()s of gb_backend. 0 for a workload,
	 * which runs wherever its engine does. */
	unsigned backends;
	/* Why it cannot run in this build, NULL when it can. An entry this build
	 * cannot run is listed all the same, under the same name, and refused
	 * with this reason: every build lists the same entries. */
	const char *unavailable;
	/* The subcommand's options that only some of its entries read, those this one
	 * reads (NULL-terminated; NULL: none): one given where no entry chosen reads it
	 * is refused (gb_impl_check_options). */
	const char *const *options;
} gb_entry_head;

/*
 * The unavailable reason of an entry whose code is CUDA: NULL where it is
 * compiled (a CUDA build, the .cu file itself), the reason in a build without
 * CUDA, whose registry lists a stand-in with the same head.
 */
#if defined(GB_HAVE_CUDA) || defined(__CUDACC__)
#define GB_NEEDS_CUDA NULL
#else
#define GB_NEEDS_CUDA "needs a CUDA build"
#endif

/* The head of an entry that runs on the GPU only and is CUDA code. */
#define GB_CUDA_HEAD(name_, summary_) \
	{ .name = (name_), .summary = (summary_), .backends = GB_BACKEND_MASK(GB_BACKEND_GPU), \
	  .unavailable = GB_NEEDS_CUDA, .options = NULL }

typedef struct gb_registry {
	const char *what;           /* one entry, in listings: "implementation", "detector", "loop" */
	const char *picked_by;      /* the options that name an entry, for the help: "--impl, --compare" */
	const char *option;         /* the option that names the entry to run: "impl" when NULL (stm: "algo") */
	const void *const *entries; /* the registry, NULL-terminated; each entry starts with a gb_entry_head */
	const char *name_key;       /* the name's key in info's JSON; NULL: "name" */
	int show_backends;          /* info's listing names every entry's backends */
	/* The group e belongs to (detect: its --algo), listed apart; NULL: one group */
	const char *(*group)(const void *e);
	const char *group_key;      /* the group's key in info's JSON ("algo") */
	/* info's JSON: fields of e's own beyond its head's; may be NULL */
	void (*describe)(const void *e, cJSON *o);
	/* The key of an array of names describe adds that info's listing shows after the
	 * summary, "; runs A, B" (stm: the workloads an engine runs); NULL: none */
	const char *runs_key;
	const char *gpu_default, *cpu_default; /* --impl when a GPU is found, and when not */
} gb_registry;

/* Entry e's head: every registry's entry type starts with one. */
static inline const gb_entry_head *gb_head(const void *e)
{
	return (const gb_entry_head *)e;
}
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
 * its name padded to the longest and its summary wrapped within 80 columns,
 * "[not built: REASON]" after the summary of an entry this build cannot run.
 */
void gb_registry_help(FILE *out, const gb_registry *r);

/*
 * The entries in words, for a sentence of the help (speculate's --compare):
 * "NAME (SUMMARY), NAME (SUMMARY)", "; not built: REASON" inside the
 * parentheses where it applies, cut at len.
 */
void gb_registry_words(const gb_registry *r, char *buf, size_t len);

/*
 * `gpubench info` of one subcommand (cmd): into arr, one object per entry
 * (group, name, summary; for engines backends, gpu and built; unavailable,
 * the reason, for an entry this build cannot run; then its own fields); and
 * when out is not NULL one line per entry: "CMD [GROUP ]WHAT NAME[
 * (BACKENDS)][ (not built: REASON)]: SUMMARY[; runs A, B]".
 */
void gb_registry_info(const gb_registry *r, const char *cmd, cJSON *arr, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
