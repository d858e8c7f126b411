#include <stdlib.h>
#include <string.h>

#include "common/device.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/opts.h"
#include "common/registry.h"

static const char *option_of(const gb_registry *r)
{
	return r->option ? r->option : "impl";
}

void gb_impl_choose(const gb_registry *r, const char *group, const char *impl, const char *compare,
		    gb_backend backend, gb_impl_choice *c)
{
	char why[256] = "";
	int have_gpu = -1; /* not asked yet: asking starts the CUDA runtime */
	unsigned k, j;
	int defaulted = !impl, gpu;

	memset(c, 0, sizeof(*c));
	if (!impl && backend == GB_BACKEND_CPU) {
		impl = r->cpu_default;
	} else if (!impl && backend == GB_BACKEND_GPU) {
		impl = r->gpu_default;
	} else if (!impl) {
		have_gpu = gb_device_count(why, sizeof(why)) > 0;
		impl = have_gpu ? r->gpu_default : r->cpu_default;
		if (!have_gpu)
			gb_note("note: %s; running --impl %s", why, impl);
	}
	c->e[c->n++] = gb_registry_pick(r, group, option_of(r), impl);
	gpu = gb_registry_on_gpu(r, c->e[0]);
	if (backend != GB_BACKEND_AUTO && !defaulted && gb_registry_head(r, c->e[0]).backends &&
	    !(gb_registry_head(r, c->e[0]).backends & GB_BACKEND_MASK(backend)))
		gb_die(GB_EXIT_USAGE, "--%s %s runs on the %s, not on --backend %s", option_of(r), impl,
		       gpu ? "GPU" : "CPU", gb_backend_name(backend));
	if (compare) {
		char *names[GB_MAX_IMPLS - 1];
		unsigned n = gb_opt_list("compare", compare, names, GB_MAX_IMPLS - 1);
		for (k = 0; k < n; k++) {
			const void *e = gb_registry_pick(r, group, "compare", names[k]);
			for (j = 0; j < c->n && c->e[j] != e; j++)
				;
			if (j == 0 && defaulted) {
				/* the same command line serves machines with and without a GPU */
				gb_note("note: --compare %s skipped: it is the default --%s here", names[k],
					option_of(r));
				continue;
			}
			if (j == 0)
				gb_die(GB_EXIT_USAGE, "option --compare: %s is the --%s itself: compare it with another",
				       names[k], option_of(r));
			if (j < c->n)
				gb_die(GB_EXIT_USAGE, "option --compare: %s is named twice", names[k]);
			c->e[c->n++] = e;
		}
		free(names[0]);
	}
	for (k = 0; k < c->n; k++) {
		gb_entry_head h = gb_registry_head(r, c->e[k]);
		const char *name = h.name, *no = h.unavailable;
		/* what this binary lacks is a usage error whatever the machine, as --backend gpu's is */
		if (no)
			gb_die(GB_EXIT_USAGE, "--%s/--compare %s is not built into this binary: %s", option_of(r),
			       name, no);
		if (!gb_registry_on_gpu(r, c->e[k]))
			continue;
		if (have_gpu < 0)
			have_gpu = gb_device_count(why, sizeof(why)) > 0;
		if (!have_gpu)
			gb_die(GB_EXIT_RUNTIME, "--%s/--compare %s needs a GPU: %s", option_of(r), name, why);
		c->gpu = 1;
	}
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
