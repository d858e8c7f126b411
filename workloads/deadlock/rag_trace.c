/*
 * Deadlock-detection trace reader and writers (the format and the choices
 * made in it are in rag_trace.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/output.h"
#include "workloads/deadlock/rag_oracle.h"
#include "workloads/deadlock/rag_trace.h"

#define MAX_ARGS 2 /* the most values a statement takes */

typedef struct reader {
	const char *name;
	uint64_t line;
	char *err;
	size_t errlen;
	uint32_t procs, res;
	uint64_t procs_line, res_line, all_units_line, some_units_line;
	uint32_t *units;     /* res entries, once both sizes are known */
	uint8_t *unit_given; /* res: a `units J U` line named resource J */
	rag_oracle o;        /* the replay, from the first event on */
	int replaying;
	rag_events ev;       /* grows; ev.count is the capacity */
	uint64_t n;
} reader;

/* "<file>:<line>: <reason>" */
__attribute__((format(printf, 2, 3)))
static int fail(reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gb_line_error(rd->err, rd->errlen, rd->name, rd->line, fmt, ap);
	va_end(ap);
	return -1;
}

/* A decimal number in lo..hi, digits only; `what` names it in messages. */
static int parse_number(reader *rd, const char *t, const char *what, uint64_t lo, uint64_t hi,
			uint32_t *out)
{
	uint64_t v = 0;
	size_t i, len = strlen(t);

	for (i = 0; i < len; i++) {
		if (t[i] < '0' || t[i] > '9')
			return fail(rd, "%s '%.40s' is not a non-negative integer", what, t);
		if (v <= hi)
			v = v * 10 + (uint64_t)(t[i] - '0');
	}
	if (v < lo || v > hi)
		return fail(rd, "%s must be between %" PRIu64 " and %" PRIu64 ", got %.40s", what,
			    lo, hi, t);
	*out = (uint32_t)v;
	return 0;
}

/* An id below `count`: a process or a resource. */
static int parse_id(reader *rd, const char *t, const char *what, uint32_t count, uint32_t *out)
{
	uint64_t v = 0;
	size_t i, len = strlen(t);

	for (i = 0; i < len; i++) {
		if (t[i] < '0' || t[i] > '9')
			return fail(rd, "%s id '%.40s' is not a non-negative integer", what, t);
		if (v < count)
			v = v * 10 + (uint64_t)(t[i] - '0');
	}
	if (v >= count)
		return fail(rd, "%s %.40s out of range (0..%" PRIu32 ")", what, t, count - 1);
	*out = (uint32_t)v;
	return 0;
}

static int parse_size(reader *rd, const char *kw, char **arg, int nargs, uint32_t *out,
		      uint64_t *line)
{
	if (*line)
		return fail(rd, "duplicate '%s' line (first on line %" PRIu64 ")", kw, *line);
	if (nargs != 1)
		return fail(rd, "wrong count of values: '%s' takes one number", kw);
	if (parse_number(rd, arg[0], kw, 1, RAG_TRACE_MAX_COUNT, out) < 0)
		return -1;
	*line = rd->line;
	if (rd->procs_line && rd->res_line) {
		uint32_t j;
		rd->units = gb_xmalloc((size_t)rd->res * sizeof(uint32_t), "trace unit counts");
		rd->unit_given = gb_xcalloc(rd->res, 1, "trace unit marks");
		for (j = 0; j < rd->res; j++)
			rd->units[j] = 1;
	}
	return 0;
}

static int parse_units(reader *rd, char **arg, int nargs)
{
	uint32_t j, u;

	if (rd->replaying)
		return fail(rd, "'units' after the first event: units are fixed before the stream");
	if (nargs == 1) {
		if (rd->all_units_line)
			return fail(rd, "duplicate 'units U' line (first on line %" PRIu64 ")",
				    rd->all_units_line);
		if (rd->some_units_line)
			return fail(rd, "'units U' after 'units J U' (line %" PRIu64
				    ") would override it", rd->some_units_line);
		if (parse_number(rd, arg[0], "units", 1, RAG_TRACE_MAX_UNITS, &u) < 0)
			return -1;
		for (j = 0; j < rd->res; j++)
			rd->units[j] = u;
		rd->all_units_line = rd->line;
		return 0;
	}
	if (nargs != 2)
		return fail(rd, "wrong count of values: 'units' takes U, or a resource J and U");
	if (parse_id(rd, arg[0], "resource", rd->res, &j) < 0 ||
	    parse_number(rd, arg[1], "units", 1, RAG_TRACE_MAX_UNITS, &u) < 0)
		return -1;
	if (rd->unit_given[j])
		return fail(rd, "units of resource %" PRIu32 " given twice", j);
	rd->unit_given[j] = 1;
	rd->units[j] = u;
	rd->some_units_line = rd->line;
	return 0;
}

static void *grow(void *p, size_t bytes)
{
	void *q = realloc(p, bytes);
	if (!q)
		gb_die(GB_EXIT_RUNTIME, "out of host memory allocating %zu bytes for trace events",
		       bytes);
	return q;
}

static int parse_event(reader *rd, const char *kw, uint8_t type, char **arg, int nargs)
{
	uint32_t p, q;
	char why[160];

	if (nargs != 2)
		return fail(rd, "wrong count of values: '%s' takes a process and a resource", kw);
	if (parse_id(rd, arg[0], "process", rd->procs, &p) < 0 ||
	    parse_id(rd, arg[1], "resource", rd->res, &q) < 0)
		return -1;
	if (!rd->replaying) {
		rag_oracle_init(&rd->o, rd->procs, rd->res, rd->units);
		rd->replaying = 1;
	}
	if (rag_oracle_check(&rd->o, type, p, q, why, sizeof(why)) != 0)
		return fail(rd, "%s", why);
	rag_oracle_apply(&rd->o, type, p, q);
	if (rd->n == rd->ev.count) {
		rd->ev.count = rd->ev.count ? 2 * rd->ev.count : 4096;
		rd->ev.type = grow(rd->ev.type, rd->ev.count * sizeof(uint8_t));
		rd->ev.proc = grow(rd->ev.proc, rd->ev.count * sizeof(uint32_t));
		rd->ev.res = grow(rd->ev.res, rd->ev.count * sizeof(uint32_t));
	}
	rd->ev.type[rd->n] = type;
	rd->ev.proc[rd->n] = p;
	rd->ev.res[rd->n] = q;
	rd->n++;
	return 0;
}

static int parse_line(reader *rd, char *line)
{
	char *tok[MAX_ARGS + 2], *cursor = line, *hash = strchr(line, '#');
	int n = 0, nargs;

	if (hash)
		*hash = '\0';
	while (n < MAX_ARGS + 2 && (tok[n] = strtok_r(n ? NULL : line, " \t\r", &cursor)))
		n++;
	if (n == 0)
		return 0;
	nargs = n - 1; /* MAX_ARGS + 1 stands for "too many" */
	if (strcmp(tok[0], "processes") == 0)
		return parse_size(rd, tok[0], tok + 1, nargs, &rd->procs, &rd->procs_line);
	if (strcmp(tok[0], "resources") == 0)
		return parse_size(rd, tok[0], tok + 1, nargs, &rd->res, &rd->res_line);
	if (strcmp(tok[0], "units") && strcmp(tok[0], "request") && strcmp(tok[0], "release"))
		return fail(rd, "unknown keyword '%.40s'", tok[0]);
	if (!rd->procs_line || !rd->res_line)
		return fail(rd, "missing header: '%s' before the '%s' line", tok[0],
			    rd->procs_line ? "resources" : "processes");
	if (strcmp(tok[0], "units") == 0)
		return parse_units(rd, tok + 1, nargs);
	return parse_event(rd, tok[0], tok[0][2] == 'q' ? RAG_REQUEST : RAG_RELEASE, tok + 1,
			   nargs);
}

static int parse_all(reader *rd, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	while (rc == 0) {
		errno = 0;
		got = getline(&line, &cap, f);
		if (got < 0)
			break;
		rd->line++;
		if (got > 0 && line[got - 1] == '\n')
			line[--got] = '\0';
		if (strlen(line) != (size_t)got)
			rc = fail(rd, "malformed line: it holds a NUL byte");
		else
			rc = parse_line(rd, line);
	}
	free(line);
	if (rc == 0 && (ferror(f) || errno == ENOMEM))
		rc = gb_errmsg(rd->err, rd->errlen, "%s: read error after line %" PRIu64 ": %s",
				rd->name, rd->line, strerror(errno ? errno : EIO));
	if (rc == 0 && (!rd->procs_line || !rd->res_line))
		rc = fail(rd, "missing header: end of trace without a '%s' line",
			  rd->procs_line ? "resources" : "processes");
	return rc;
}

int rag_trace_read(const char *path, uint32_t *procs, uint32_t *res, uint32_t **units,
		   rag_events *ev, char *err, size_t errlen)
{
	reader rd;
	FILE *f;
	int rc, is_stdin = strcmp(path, "-") == 0;

	memset(&rd, 0, sizeof(rd));
	rd.name = is_stdin ? "<stdin>" : path;
	rd.err = err;
	rd.errlen = errlen;
	f = is_stdin ? stdin : fopen(path, "r");
	if (!f)
		return gb_errmsg(err, errlen, "cannot open %s: %s", path, strerror(errno));
	rc = parse_all(&rd, f);
	if (rc == 0 && rd.n == 0) /* as --events 0 is refused: a run of nothing would verify nothing */
		rc = gb_errmsg(err, errlen, "%s: no events: a trace needs at least one request or release", rd.name);
	if (!is_stdin)
		fclose(f);
	if (rd.replaying)
		rag_oracle_free(&rd.o);
	free(rd.unit_given);
	if (rc != 0) {
		free(rd.units);
		rag_events_free(&rd.ev);
		return -1;
	}
	rd.ev.count = rd.n;
	*procs = rd.procs;
	*res = rd.res;
	*units = rd.units;
	*ev = rd.ev;
	return 0;
}

static const char *type_name(uint8_t type)
{
	return type == RAG_REQUEST ? "request" : "release";
}

int rag_trace_write(const char *path, uint32_t procs, uint32_t res, const uint32_t *units,
		    const rag_events *ev, char *err, size_t errlen)
{
	gb_out out;
	FILE *f = gb_out_open(&out, path, err, errlen);
	uint32_t j, same = 1;
	uint64_t e;

	if (!f)
		return -1;
	fprintf(f, "# gpubench detect trace: %" PRIu32 " processes, %" PRIu32 " resources, %" PRIu64
		   " events\nprocesses %" PRIu32 "\nresources %" PRIu32 "\n",
		procs, res, ev->count, procs, res);
	for (j = 1; units && j < res; j++)
		same &= units[j] == units[0];
	if (same)
		fprintf(f, "units %" PRIu32 "\n", units ? units[0] : 1);
	else
		for (j = 0; j < res; j++)
			fprintf(f, "units %" PRIu32 " %" PRIu32 "\n", j, units[j]);
	for (e = 0; e < ev->count; e++)
		fprintf(f, "%s %" PRIu32 " %" PRIu32 "\n", type_name(ev->type[e]), ev->proc[e],
			ev->res[e]);
	return gb_out_close(&out, err, errlen);
}

int rag_decisions_write(const char *path, const rag_events *ev, const rag_decision *d, char *err,
			size_t errlen)
{
	gb_out out;
	FILE *f = gb_out_open(&out, path, err, errlen);
	uint64_t e;

	if (!f)
		return -1;
	for (e = 0; e < ev->count; e++) {
		fprintf(f, "%" PRIu64 " %s %" PRIu32 " %" PRIu32 " %s", e, type_name(ev->type[e]),
			ev->proc[e], ev->res[e], rag_outcome_name(d[e].outcome));
		if (d[e].outcome == RAG_REGRANTED)
			fprintf(f, " %" PRIu32, d[e].to);
		fputc('\n', f);
	}
	return gb_out_close(&out, err, errlen);
}
