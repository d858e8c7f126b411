/*
 * --impl and --compare, written once for every subcommand that offers
 * several implementations of one algorithm (avoid, detect, list, stm) or
 * runs baselines beside its own run (speculate): the default by device,
 * lookup in the registry (common/registry.h) or exit 2 naming what is
 * accepted, the not-built and needs-a-GPU checks, and the wording of a
 * speedup.
 */
#ifndef GB_IMPL_H
#define GB_IMPL_H

#include <stddef.h>

#include "common/backend.h"
#include "common/options.h"
#include "common/registry.h"

#define GB_MAX_IMPLS 8

/*
 * What --impl and --compare chose: e[0] is --impl, the rest --compare in
 * order (from gb_impl_compare, --compare's only).
 */
typedef struct gb_impl_choice {
	const void *e[GB_MAX_IMPLS];
	unsigned n;
	int gpu; /* some chosen implementation runs on the GPU */
} gb_impl_choice;

/*
 * Resolve --impl (NULL: the default of --backend, which for auto is the GPU
 * one when a GPU is found, else the CPU one with a note) and --compare (NULL
 * or a comma-separated list) among the entries of group (NULL: all). Exits 2
 * on an unknown name, a name given twice or --compare naming the --impl given,
 * or an --impl given that does not run on the --backend given; the default
 * --impl is left out of --compare with a note. Exits 1 when a chosen
 * implementation needs a GPU that is not there or is not built in. An entry
 * that runs on both backends (stm's engines) is never refused for either.
 * Messages name the registry's option (r->option, default --impl).
 */
void gb_impl_choose(const gb_registry *r, const char *group, const char *impl, const char *compare,
		    gb_backend backend, gb_impl_choice *c);

/*
 * Resolve --compare alone (NULL or a comma-separated list), for a subcommand
 * whose own run is no entry of r (speculate's --opt run beside its
 * baselines): c->e holds the entries named, in the order given. Exits as
 * gb_impl_choose does on an unknown name, a name given twice, an entry not
 * built in or one that needs a GPU that is not there.
 */
void gb_impl_compare(const gb_registry *r, const char *group, const char *compare, gb_impl_choice *c);

/*
 * The options that only some entries of r read (their heads' options): one
 * on the command line (given, as gb_opts_parse fills it for spec) that no
 * entry of c reads exits 2, "option --X applies to A, B only, not to --impl
 * C" (and the --compare entries).
 */
void gb_impl_check_options(const gb_registry *r, const gb_impl_choice *c, const gb_opt_spec *spec,
			   const unsigned char *given);

/*
 * Exit 2 for an option given that does not apply to what the others chose:
 * "option --OPT applies only to OWNER, not to CHOSEN".
 */
__attribute__((noreturn))
void gb_opt_does_not_apply(const char *opt, const char *owner, const char *chosen);

/*
 * "NAME is 2.5x faster" or "NAME is 1.04x slower": how the median time of
 * NAME (the --impl) compares with another's. Empty when either is not positive.
 */
const char *gb_speedup_text(char *buf, size_t len, const char *name, double impl_median,
			    double other_median);

#endif
