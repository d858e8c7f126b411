/* An engine's own parameters from its family's options, as `gpubench stm` sets them (see engine_params.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/engine_params.h"

const stm_engine *tu_engine_of(const stm_ops *ops)
{
	const stm_engine_run *r;
	int i;

	for (i = 0; stm_engines[i]; i++)
		for (r = stm_engines[i]->runs; r->workload; r++)
			if (r->cpu == ops)
				return stm_engines[i];
	fprintf(stderr, "engine_params: no engine runs these CPU ops\n");
	abort();
}

/* The row of f called name, or NULL. */
static const gb_opt_row *row_of(const stm_engine_options *f, const char *name, size_t len)
{
	size_t r;
	for (r = 0; f && r < f->nrows; r++)
		if (strlen(f->rows[r].name) == len && strncmp(f->rows[r].name, name, len) == 0)
			return &f->rows[r];
	return NULL;
}

static void set_value(void *o, const gb_opt_row *row, const char *text)
{
	char *at = (char *)o + row->offset;

	if (row->kind == GB_OPT_UINT) {
		uint64_t v = strtoull(text, NULL, 10);
		memcpy(at, &v, sizeof(v));
	} else if (row->kind == GB_OPT_REAL) {
		double v = strtod(text, NULL);
		memcpy(at, &v, sizeof(v));
	} else if (row->kind == GB_OPT_FLAG) {
		int v = strcmp(text, "0") != 0 ? row->set_to : 0;
		memcpy(at, &v, sizeof(v));
	} else {
		fprintf(stderr, "engine_params: --%s is of a kind this helper does not set\n", row->name);
		abort();
	}
}

void tu_engine_params(stm_params *p, const stm_engine *e, const char *const *opts)
{
	const stm_engine_options *f = e->options;
	union {
		max_align_t align;
		unsigned char bytes[STM_ENGINE_OPTS_MAX];
	} o;
	size_t r;

	memset(&o, 0, sizeof(o));
	for (r = 0; f && r < f->nrows; r++)
		if (f->rows[r].def)
			set_value(o.bytes, &f->rows[r], f->rows[r].def);
	for (; opts && *opts; opts++) {
		const char *eq = strchr(*opts, '=');
		const gb_opt_row *row;
		int known = 0, i;
		if (!eq)
			abort();
		for (i = 0; stm_engines[i]; i++)
			known |= row_of(stm_engines[i]->options, *opts, (size_t)(eq - *opts)) != NULL;
		if (!known) {
			fprintf(stderr, "engine_params: no engine has the option %s\n", *opts);
			abort();
		}
		row = row_of(f, *opts, (size_t)(eq - *opts));
		if (row)
			set_value(o.bytes, row, eq + 1);
	}
	if (f)
		f->params(o.bytes, p);
}
