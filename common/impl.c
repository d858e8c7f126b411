/* --impl and --compare resolved once for every subcommand (common/impl.h). */
#include <stdlib.h>
#include <string.h>

#include "common/backend.h"
#include "common/device.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/opts.h"
#include "common/registry.h"

static const char *option_of(const gb_registry *r)
{
	return r->option ? r->option : "impl";
}

/*
 * Add the entries --compare names to c, after the --impl in c->e[0] if any
 * (defaulted: that --impl was not given, and --compare naming it is skipped).
 */
static void add_compared(const gb_registry *r, const char *group, const char *compare, int defaulted,
			 gb_impl_choice *c)
{
	char *names[GB_MAX_IMPLS - 1];
	unsigned n, k, j, has_impl = c->n;

	if (!compare)
		return;
	n = gb_opt_list("compare", compare, names, GB_MAX_IMPLS - 1);
	for (k = 0; k < n; k++) {
		const void *e = gb_registry_pick(r, group, "compare", names[k]);
		for (j = 0; j < c->n && c->e[j] != e; j++)
			;
		if (j == 0 && has_impl && defaulted) {
			/* the same command line serves machines with and without a GPU */
			gb_note("note: --compare %s skipped: it is the default --%s here", names[k], option_of(r));
			continue;
		}
		if (j == 0 && has_impl)
			gb_die(GB_EXIT_USAGE, "option --compare: %s is the --%s itself: compare it with another",
			       names[k], option_of(r));
		if (j < c->n)
			gb_die(GB_EXIT_USAGE, "option --compare: %s is named twice", names[k]);
		c->e[c->n++] = e;
	}
	free(names[0]);
}

/*
 * Refuse what cannot run here: an entry this build lacks (exit 2, whatever
 * the machine, as --backend gpu is there), one that needs a GPU the machine
 * lacks (exit 1). how names the options that chose them, for the messages.
 * have_gpu: whether a GPU was found, or -1 when not asked yet (asking starts
 * the CUDA runtime).
 */
static void check_runnable(const gb_registry *r, const char *how, int have_gpu, gb_impl_choice *c)
{
	char why[256] = "";
	unsigned k;

	for (k = 0; k < c->n; k++) {
		const gb_entry_head *h = gb_head(c->e[k]);
		if (h->unavailable)
			gb_die(GB_EXIT_USAGE, "%s %s is not built into this binary: %s", how, h->name, h->unavailable);
		if (!gb_registry_on_gpu(r, c->e[k]))
			continue;
		if (have_gpu < 0)
			have_gpu = gb_device_count(why, sizeof(why)) > 0;
		if (!have_gpu)
			gb_die(GB_EXIT_RUNTIME, "%s %s needs a GPU: %s", how, h->name, why);
		c->gpu = 1;
	}
}

void gb_impl_choose(const gb_registry *r, const char *group, const char *impl, const char *compare,
		    gb_backend backend, gb_impl_choice *c)
{
	char why[256] = "", how[64];
	int have_gpu = -1;
	int defaulted = !impl;
	unsigned mask;

	memset(c, 0, sizeof(*c));
	if (!impl && backend == GB_BACKEND_CPU) {
		impl = r->cpu_default;
	} else if (!impl && backend == GB_BACKEND_GPU) {
		impl = r->gpu_default;
	} else if (!impl) {
		have_gpu = gb_device_count(why, sizeof(why)) > 0;
		impl = have_gpu ? r->gpu_default : r->cpu_default;
		if (!have_gpu) {
			gb_note("note: %s; running --impl %s", why, impl);
			gb_backend_set_fell_back();
		}
	}
	c->e[c->n++] = gb_registry_pick(r, group, option_of(r), impl);
	mask = gb_head(c->e[0])->backends;
	if (backend != GB_BACKEND_AUTO && !defaulted && mask && !(mask & GB_BACKEND_MASK(backend)))
		gb_die(GB_EXIT_USAGE, "--%s %s runs on the %s, not on --backend %s", option_of(r), impl,
		       gb_registry_on_gpu(r, c->e[0]) ? "GPU" : "CPU", gb_backend_name(backend));
	add_compared(r, group, compare, defaulted, c);
	snprintf(how, sizeof(how), "--%s/--compare", option_of(r));
	check_runnable(r, how, have_gpu, c);
}

void gb_impl_compare(const gb_registry *r, const char *group, const char *compare, gb_impl_choice *c)
{
	memset(c, 0, sizeof(*c));
	add_compared(r, group, compare, 0, c);
	check_runnable(r, "--compare", -1, c);
}

const char *gb_speedup_text(char *buf, size_t len, const char *name, double impl_median,
			    double other_median)
{
	double r = impl_median > 0 ? other_median / impl_median : 0;

	if (!(r > 0))
		snprintf(buf, len, "%s", "");
	else if (r >= 1)
		snprintf(buf, len, "%s is %.3gx faster", name, r);
	else
		snprintf(buf, len, "%s is %.3gx slower", name, 1 / r);
	return buf;
}

void gb_opt_does_not_apply(const char *opt, const char *owner, const char *chosen)
{
	gb_die(GB_EXIT_USAGE, "option --%s applies only to %s, not to %s", opt, owner, chosen);
}

/* Whether entry e reads option opt. */
static int reads(const void *e, const char *opt)
{
	const char *const *o;
	for (o = gb_head(e)->options; o && *o; o++)
		if (strcmp(*o, opt) == 0)
			return 1;
	return 0;
}

void gb_impl_check_options(const gb_registry *r, const gb_impl_choice *c, const gb_opt_spec *spec,
			   const unsigned char *given)
{
	size_t i;
	unsigned k;

	for (i = 0; i < spec->nrows; i++) {
		const char *opt = spec->rows[i].name;
		char owners[256] = "", chosen[256];
		int used = 0;
		if (!given[i])
			continue;
		for (k = 0; r->entries[k]; k++)
			if (reads(r->entries[k], opt))
				snprintf(owners + strlen(owners), sizeof(owners) - strlen(owners), "%s%s",
					 owners[0] ? ", " : "", gb_head(r->entries[k])->name);
		for (k = 0; k < c->n; k++)
			used |= reads(c->e[k], opt);
		if (!owners[0] || used)
			continue; /* every entry reads it, or one chosen does */
		snprintf(chosen, sizeof(chosen), "--%s %s", option_of(r), gb_head(c->e[0])->name);
		for (k = 1; k < c->n; k++)
			snprintf(chosen + strlen(chosen), sizeof(chosen) - strlen(chosen), "%s%s",
				 k == 1 ? " or --compare " : ",", gb_head(c->e[k])->name);
		gb_opt_does_not_apply(opt, owners, chosen);
	}
}
