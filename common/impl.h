/*
 * --impl and --compare, written once for every subcommand that offers
 * several implementations of one algorithm (avoid, detect, list): the
 * default by device, lookup in the engine table or exit 2 naming what is
 * accepted, the needs-a-GPU check, and the wording of a speedup.
 *
 * The engine tables differ per subcommand; a gb_impl_table reads one through
 * the offsets of its fields, so the engine folders keep their own types.
 */
#ifndef GB_IMPL_H
#define GB_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "common/backend.h"

#define GB_MAX_IMPLS 8

typedef struct gb_impl_table {
	const char *what;               /* "implementation", "osdda detector" */
	const char *option;             /* the option that names the one to run: "impl" when NULL */
	int any_backend;                /* entries run on either backend: --backend picks, none is GPU-only */
	const void *const *entries;     /* the registry, NULL-terminated */
	size_t name_at, summary_at;     /* offsets of the entry's name and summary (const char *) */
	size_t gpu_flag_at;             /* offset of an int that says the entry runs on the GPU ... */
	int (*on_gpu)(const void *e);   /* ... or, when set, what says it */
	/* NULL, or why e cannot run in this binary (not compiled in); may be NULL */
	const char *(*unusable)(const void *e);
	/* whether e belongs to this run (detect: to the --algo); NULL: all do */
	int (*belongs)(const void *e, const void *arg);
	const void *arg;
	const char *gpu_default, *cpu_default; /* --impl when a GPU is found, and when not */
} gb_impl_table;

/* What --impl and --compare chose: e[0] is --impl, the rest --compare in order. */
typedef struct gb_impl_choice {
	const void *e[GB_MAX_IMPLS];
	unsigned n;
	int gpu; /* some chosen implementation runs on the GPU */
} gb_impl_choice;

/*
 * Resolve --impl (NULL: the default of --backend, which for auto is the GPU
 * one when a GPU is found, else the CPU one with a note) and --compare (NULL or a comma-separated list). Exits 2 on an unknown
 * name, a name given twice or --compare naming the --impl given; the default
 * --impl is left out of --compare with a note. Exits 1 when a chosen
 * implementation needs a GPU that is not there or is not built in (never for
 * a table of any_backend entries). Messages name t->option where --impl is.
 */
void gb_impl_choose(const gb_impl_table *t, const char *impl, const char *compare, gb_backend backend,
		    gb_impl_choice *c);

/* The entries of the table, one per line: indent, the name padded to width, the summary. */
void gb_impl_help(FILE *out, const gb_impl_table *t, int indent, int width);

/*
 * "NAME is 2.5x faster" or "NAME is 1.04x slower": how the median time of
 * NAME (the --impl) compares with another's. Empty when either is not positive.
 */
const char *gb_speedup_text(char *buf, size_t len, const char *name, double impl_median,
			    double other_median);

#endif
