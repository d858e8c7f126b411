#include <stdlib.h>
#include <string.h>

#include "common/device.h"
#include "common/error.h"
#include "common/impl.h"
#include "common/opts.h"

static const char *field(const void *e, size_t at)
{
	return *(const char *const *)((const char *)e + at);
}

static const char *name_of(const gb_impl_table *t, const void *e)
{
	return field(e, t->name_at);
}

static int on_gpu(const gb_impl_table *t, const void *e)
{
	return t->on_gpu ? t->on_gpu(e) : *(const int *)((const char *)e + t->gpu_flag_at);
}

static int included(const gb_impl_table *t, const void *e)
{
	return !t->belongs || t->belongs(e, t->arg);
}

static const char *option_of(const gb_impl_table *t)
{
	return t->option ? t->option : "impl";
}

static const void *find_or_die(const gb_impl_table *t, const char *opt, const char *name)
{
	char list[512] = "";
	int i;

	for (i = 0; t->entries[i]; i++)
		if (included(t, t->entries[i]) && strcmp(name_of(t, t->entries[i]), name) == 0)
			return t->entries[i];
	for (i = 0; t->entries[i]; i++)
		if (included(t, t->entries[i]))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? "|" : "",
				 name_of(t, t->entries[i]));
	gb_die(GB_EXIT_USAGE, "option --%s: unknown %s '%s' (accepted: %s)", opt, t->what, name, list);
}

void gb_impl_choose(const gb_impl_table *t, const char *impl, const char *compare, gb_backend backend,
		    gb_impl_choice *c)
{
	char why[256] = "";
	int have_gpu = -1; /* not asked yet: asking starts the CUDA runtime */
	unsigned k, j;
	int defaulted = !impl;

	memset(c, 0, sizeof(*c));
	if (!impl && backend == GB_BACKEND_CPU) {
		impl = t->cpu_default;
	} else if (!impl && backend == GB_BACKEND_GPU) {
		impl = t->gpu_default;
	} else if (!impl) {
		have_gpu = gb_device_count(why, sizeof(why)) > 0;
		impl = have_gpu ? t->gpu_default : t->cpu_default;
		if (!have_gpu)
			gb_note("note: %s; running --impl %s", why, impl);
	}
	c->e[c->n++] = find_or_die(t, option_of(t), impl);
	if (backend != GB_BACKEND_AUTO && !defaulted && !t->any_backend &&
	    on_gpu(t, c->e[0]) != (backend == GB_BACKEND_GPU))
		gb_die(GB_EXIT_USAGE, "--%s %s runs on the %s, not on --backend %s", option_of(t), impl,
		       on_gpu(t, c->e[0]) ? "GPU" : "CPU", gb_backend_name(backend));
	if (compare) {
		char *names[GB_MAX_IMPLS - 1];
		unsigned n = gb_opt_list("compare", compare, names, GB_MAX_IMPLS - 1);
		for (k = 0; k < n; k++) {
			const void *e = find_or_die(t, "compare", names[k]);
			for (j = 0; j < c->n && c->e[j] != e; j++)
				;
			if (j == 0 && defaulted) {
				/* the same command line serves machines with and without a GPU */
				gb_note("note: --compare %s skipped: it is the default --%s here", names[k],
					option_of(t));
				continue;
			}
			if (j == 0)
				gb_die(GB_EXIT_USAGE, "option --compare: %s is the --%s itself: compare it with another",
				       names[k], option_of(t));
			if (j < c->n)
				gb_die(GB_EXIT_USAGE, "option --compare: %s is named twice", names[k]);
			c->e[c->n++] = e;
		}
		free(names[0]);
	}
	for (k = 0; k < c->n; k++) {
		const char *name = name_of(t, c->e[k]), *no = t->unusable ? t->unusable(c->e[k]) : NULL;
		if (no)
			gb_die(GB_EXIT_RUNTIME, "--%s/--compare %s is not built into this binary: %s", option_of(t),
			       name, no);
		if (t->any_backend || !on_gpu(t, c->e[k]))
			continue;
		if (have_gpu < 0)
			have_gpu = gb_device_count(why, sizeof(why)) > 0;
		if (!have_gpu)
			gb_die(GB_EXIT_RUNTIME, "--%s/--compare %s needs a GPU: %s", option_of(t), name, why);
		c->gpu = 1;
	}
}

void gb_impl_help(FILE *out, const gb_impl_table *t, int indent, int width)
{
	char text[512];
	int i, col;

	for (i = 0; t->entries[i]; i++) {
		if (!included(t, t->entries[i]))
			continue;
		col = fprintf(out, "%*s%-*s ", indent, "", width, name_of(t, t->entries[i]));
		snprintf(text, sizeof(text), "%s%s", field(t->entries[i], t->summary_at),
			 t->unusable && t->unusable(t->entries[i]) ? " [not built]" : "");
		gb_help_wrap(out, col, indent + width + 1, text);
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
