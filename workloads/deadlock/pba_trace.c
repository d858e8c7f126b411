/*
 * PBA trace reader and decisions writer (Abell's thesis, section 5.2; the
 * format and the choices made where the thesis says nothing are in
 * pba_trace.h).
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
#include "workloads/deadlock/pba_oracle.h"
#include "workloads/deadlock/pba_trace.h"

#define MAX_COUNT (1u << 20)

/* Where lines come from: a file read in place, or a buffer of the whole input. */
typedef struct src {
	FILE *f;
	char *buf;
	size_t len, pos;
	char *line;
	size_t cap;
	uint64_t lineno;
} src;

typedef struct parser {
	const char *name;
	src in;
	char *err;
	size_t errlen;
	uint32_t n, m;
	uint64_t n_line, m_line, avail_line;
	uint32_t nmax;
	uint8_t *has_max;   /* n */
	uint64_t *given_on; /* m: the line that last gave resource j in sparse form */
	int32_t *row;       /* m: the values of the line being read */
	pba_system *init;
	int init_ready;
	pba_system scratch; /* the initial state with the events so far applied */
	int replaying;
	pba_events *ev;
	uint64_t nev, cap; /* events stored; events counted by the first pass */
	int events_ready;
} parser;

__attribute__((format(printf, 2, 3)))
static int fail(parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gb_line_error(p->err, p->errlen, p->name, p->in.lineno, fmt, ap);
	va_end(ap);
	return -1;
}

/* The whole of f in a malloc'd buffer; -1 on a read error or when memory is short. */
static int slurp(FILE *f, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *b = malloc(cap), *nb;

	if (!b)
		return -1;
	for (;;) {
		if (n == cap) {
			nb = cap > SIZE_MAX / 2 ? NULL : realloc(b, cap * 2);
			if (!nb) {
				free(b);
				errno = ENOMEM;
				return -1;
			}
			b = nb;
			cap *= 2;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

/*
 * The next line, without its '\n', in s->line. Returns 1, 0 at the end of
 * the input, -1 on a read error, -2 when the line holds a NUL byte (which
 * would silently cut it short).
 */
static int next_line(src *s)
{
	size_t n;

	if (s->f) {
		ssize_t got;

		errno = 0;
		got = getline(&s->line, &s->cap, s->f);
		if (got < 0)
			return ferror(s->f) || errno == ENOMEM ? -1 : 0;
		n = (size_t)got;
	} else {
		const char *start = s->buf + s->pos, *nl;

		if (s->pos >= s->len)
			return 0;
		nl = memchr(start, '\n', s->len - s->pos);
		n = nl ? (size_t)(nl - start) + 1 : s->len - s->pos;
		if (n + 1 > s->cap) {
			char *nb = realloc(s->line, n + 1);
			if (!nb)
				return -1;
			s->line = nb;
			s->cap = n + 1;
		}
		memcpy(s->line, start, n);
		s->line[n] = '\0';
		s->pos += n;
	}
	s->lineno++;
	if (n && s->line[n - 1] == '\n')
		s->line[--n] = '\0';
	if (strlen(s->line) != n)
		return -2;
	return 1;
}

/* Cut the comment off, then hand out the tokens one at a time (NULL at the end). */
static void strip_comment(char *line)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
}

static char *next_token(char **cursor)
{
	char *t = *cursor + strspn(*cursor, " \t\r"), *end;

	if (!*t) {
		*cursor = t;
		return NULL;
	}
	end = t + strcspn(t, " \t\r");
	if (*end)
		*end++ = '\0';
	*cursor = end;
	return t;
}

/* A decimal integer 0..limit, digits only. 0 ok, -1 not a number, -2 above limit. */
static int parse_uint(const char *t, size_t len, uint64_t limit, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++)
		if (t[i] < '0' || t[i] > '9')
			return -1;
	for (i = 0; i < len; i++) {
		v = v * 10 + (uint64_t)(t[i] - '0');
		if (v > limit)
			return -2;
	}
	*out = v;
	return 0;
}

static int parse_value(parser *p, const char *t, size_t len, int32_t *out)
{
	uint64_t v;
	int rc = parse_uint(t, len, INT32_MAX, &v);

	if (rc == -1)
		return fail(p, "value '%.*s' is not a non-negative integer", (int)(len > 40 ? 40 : len),
			    t);
	if (rc == -2)
		return fail(p, "value '%.*s' overflows int32 (largest %d)", (int)(len > 40 ? 40 : len),
			    t, INT32_MAX);
	*out = (int32_t)v;
	return 0;
}

/*
 * The VALUES of a line (see pba_trace.h) into p->row: dense or sparse, never
 * both. `what` names the statement in messages.
 */
static int parse_values(parser *p, char *cursor, const char *what)
{
	uint32_t m = p->m, k = 0;
	int sparse = -1;
	char *t;

	memset(p->row, 0, (size_t)m * sizeof(int32_t));
	while ((t = next_token(&cursor))) {
		char *colon = strchr(t, ':');
		int is_sparse = colon != NULL;

		if (sparse == -1)
			sparse = is_sparse;
		else if (sparse != is_sparse)
			return fail(p, "'%s' mixes dense values and sparse J:V values", what);
		if (!is_sparse) {
			if (k == m)
				return fail(p, "wrong count of values: '%s' takes %" PRIu32
					    " dense values, got more", what, m);
			if (parse_value(p, t, strlen(t), &p->row[k]) < 0)
				return -1;
			k++;
		} else {
			uint64_t j;
			int rc = parse_uint(t, (size_t)(colon - t), UINT32_MAX, &j);

			if (rc == -1)
				return fail(p, "malformed sparse value '%.40s': expected J:V with J a "
					    "resource index", t);
			if (rc == -2 || j >= m)
				return fail(p, "resource index %.*s out of range (0..%" PRIu32 ")",
					    (int)(colon - t > 40 ? 40 : colon - t), t, m - 1);
			if (p->given_on[j] == p->in.lineno)
				return fail(p, "resource %" PRIu64 " given twice", j);
			p->given_on[j] = p->in.lineno;
			if (parse_value(p, colon + 1, strlen(colon + 1), &p->row[j]) < 0)
				return -1;
		}
	}
	if (sparse == 0 && k != m)
		return fail(p, "wrong count of values: '%s' takes %" PRIu32 " dense values, got %" PRIu32,
			    what, m, k);
	return 0;
}

/* The process id token of a max/request/release line. */
static int parse_proc(parser *p, char **cursor, const char *what, uint32_t *out)
{
	char *t = next_token(cursor);
	uint64_t v;

	if (!t)
		return fail(p, "malformed line: '%s' needs a process id", what);
	if (strchr(t, ':'))
		return fail(p, "malformed line: '%s' needs a process id before its values", what);
	if (parse_uint(t, strlen(t), UINT32_MAX, &v) != 0 || v >= p->n)
		return fail(p, "unknown process id '%.40s' (processes are 0..%" PRIu32 ")", t,
			    p->n - 1);
	*out = (uint32_t)v;
	return 0;
}

static int parse_size(parser *p, char *cursor, const char *what, uint32_t *out, uint64_t *line)
{
	char *t = next_token(&cursor);
	uint64_t v;
	int rc;

	if (*line)
		return fail(p, "duplicate declaration: '%s' already given on line %" PRIu64, what,
			    *line);
	if (!t || next_token(&cursor))
		return fail(p, "wrong count of values: '%s' takes one value", what);
	rc = parse_uint(t, strlen(t), UINT32_MAX, &v);
	if (rc == -1)
		return fail(p, "value '%.40s' is not a non-negative integer", t);
	if (rc == -2 || v < 1 || v > MAX_COUNT)
		return fail(p, "'%s' must be between 1 and %u, got %.40s", what, MAX_COUNT, t);
	*out = (uint32_t)v;
	*line = p->in.lineno;
	return 0;
}

/* Once both sizes are known: the state, the event list and the line buffers. */
static void allocate(parser *p)
{
	pba_system_init(p->init, p->n, p->m);
	p->init_ready = 1;
	pba_events_init(p->ev, p->cap, p->m);
	p->events_ready = 1;
	p->has_max = gb_xcalloc(p->n, 1, "trace max flags");
	p->given_on = gb_xcalloc(p->m, sizeof(uint64_t), "trace sparse marks");
	p->row = gb_xcalloc(p->m, sizeof(int32_t), "trace values");
}

static int first_without_max(const parser *p)
{
	uint32_t i;

	for (i = 0; i < p->n; i++)
		if (!p->has_max[i])
			return (int)i;
	return -1;
}

static int parse_event(parser *p, char *cursor, uint8_t type, const char *what)
{
	uint32_t proc, j, m = p->m;
	unsigned outcome;

	if (!p->avail_line)
		return fail(p, "missing declarations: '%s' before the 'available' line", what);
	if (p->nmax < p->n)
		return fail(p, "event before all max lines: '%s' before process %d's max line", what,
			    first_without_max(p));
	if (parse_proc(p, &cursor, what, &proc) < 0 || parse_values(p, cursor, what) < 0)
		return -1;
	if (p->nev == p->cap)
		return fail(p, "the file changed while it was read (more events than counted)");
	if (!p->replaying) {
		pba_system_init(&p->scratch, p->n, m);
		pba_system_copy(&p->scratch, p->init);
		p->replaying = 1;
	}
	outcome = pba_oracle_apply(&p->scratch, type, proc, p->row);
	if (outcome == PBA_RELEASE_INVALID) {
		const int32_t *held = p->scratch.allocation + (size_t)proc * m;

		/* Name the first resource it is short of (values are never negative here). */
		for (j = 0; j + 1 < m && p->row[j] <= held[j]; j++)
			;
		return fail(p, "process %" PRIu32 " releases %" PRId32 " units of resource %" PRIu32
			    " but holds %" PRId32, proc, p->row[j], j, held[j]);
	}
	p->ev->type[p->nev] = type;
	p->ev->proc[p->nev] = proc;
	memcpy(p->ev->amount + p->nev * m, p->row, (size_t)m * sizeof(int32_t));
	p->nev++;
	return 0;
}

static int parse_line(parser *p, char *line)
{
	char *cursor = line, *kw = next_token(&cursor);
	uint32_t proc;

	if (!kw)
		return 0;
	if (strcmp(kw, "processes") == 0 || strcmp(kw, "resources") == 0) {
		int is_n = kw[0] == 'p';

		if (parse_size(p, cursor, kw, is_n ? &p->n : &p->m, is_n ? &p->n_line : &p->m_line) < 0)
			return -1;
		if (p->n_line && p->m_line && (uint64_t)p->n * p->m > PBA_MAX_CELLS)
			return fail(p, "'processes' %" PRIu32 " x 'resources' %" PRIu32
				    " is above the %llu-cell matrix limit", p->n, p->m, PBA_MAX_CELLS);
		if (p->n_line && p->m_line)
			allocate(p);
		return 0;
	}
	if (strcmp(kw, "available") && strcmp(kw, "max") && strcmp(kw, "request") &&
	    strcmp(kw, "release"))
		return fail(p, "unknown keyword '%.40s'", kw);
	if (!p->n_line || !p->m_line)
		return fail(p, "missing declarations: '%s' before both 'processes' and 'resources'",
			    kw);
	if (strcmp(kw, "available") == 0) {
		if (p->avail_line)
			return fail(p, "duplicate declaration: 'available' already given on line %" PRIu64,
				    p->avail_line);
		if (parse_values(p, cursor, kw) < 0)
			return -1;
		memcpy(p->init->available, p->row, (size_t)p->m * sizeof(int32_t));
		p->avail_line = p->in.lineno;
		return 0;
	}
	if (strcmp(kw, "max") == 0) {
		size_t off;

		if (parse_proc(p, &cursor, kw, &proc) < 0)
			return -1;
		if (p->has_max[proc])
			return fail(p, "duplicate declaration: second max line for process %" PRIu32,
				    proc);
		if (parse_values(p, cursor, kw) < 0)
			return -1;
		/* Nothing is allocated yet, so the need is the whole claim. */
		off = (size_t)proc * p->m;
		memcpy(p->init->maximum + off, p->row, (size_t)p->m * sizeof(int32_t));
		memcpy(p->init->need + off, p->row, (size_t)p->m * sizeof(int32_t));
		p->has_max[proc] = 1;
		p->nmax++;
		return 0;
	}
	return parse_event(p, cursor, kw[2] == 'q' ? PBA_REQUEST : PBA_RELEASE, kw);
}

static int read_error(parser *p, int rc)
{
	if (rc == -2)
		return fail(p, "malformed line: it holds a NUL byte");
	return gb_errmsg(p->err, p->errlen, "%s: read error after line %" PRIu64 ": %s", p->name,
			  p->in.lineno, strerror(errno ? errno : EIO));
}

/* First pass: count the request and release lines, so the event list is allocated once. */
static int count_events(parser *p)
{
	int rc;

	while ((rc = next_line(&p->in)) > 0) {
		char *cursor = p->in.line, *kw;

		strip_comment(cursor);
		kw = next_token(&cursor);
		if (kw && (strcmp(kw, "request") == 0 || strcmp(kw, "release") == 0))
			p->cap++;
	}
	return rc < 0 ? read_error(p, rc) : 0;
}

static int parse_all(parser *p)
{
	int rc;
	int missing;

	while ((rc = next_line(&p->in)) > 0) {
		strip_comment(p->in.line);
		if (parse_line(p, p->in.line) < 0)
			return -1;
	}
	if (rc < 0)
		return read_error(p, rc);
	if (!p->n_line)
		return fail(p, "missing declarations: end of trace without a 'processes' line");
	if (!p->m_line)
		return fail(p, "missing declarations: end of trace without a 'resources' line");
	if (!p->avail_line)
		return fail(p, "missing declarations: end of trace without an 'available' line");
	missing = first_without_max(p);
	if (missing >= 0)
		return fail(p, "missing declarations: end of trace without a max line for process %d",
			    missing);
	if (p->nev != p->cap)
		return fail(p, "the file changed while it was read (fewer events than counted)");
	return 0;
}

int pba_trace_read(const char *path, pba_system *initial, pba_events *events, char *err,
		   size_t errlen)
{
	parser p;
	FILE *f;
	int rc = -1, is_stdin = strcmp(path, "-") == 0;

	memset(&p, 0, sizeof(p));
	p.name = is_stdin ? "<stdin>" : path;
	p.err = err;
	p.errlen = errlen;
	p.init = initial;
	p.ev = events;
	f = is_stdin ? stdin : fopen(path, "r");
	if (!f)
		return gb_errmsg(err, errlen, "cannot open %s: %s", path, strerror(errno));
	/* A pipe cannot be read twice: keep all of it in memory instead. */
	if (is_stdin || fseeko(f, 0, SEEK_CUR) != 0) {
		if (slurp(f, &p.in.buf, &p.in.len) < 0) {
			gb_errmsg(err, errlen, "cannot read %s: %s", p.name, strerror(errno));
			goto out;
		}
	} else {
		p.in.f = f;
	}
	if (count_events(&p) < 0)
		goto out;
	if (p.in.f && fseeko(p.in.f, 0, SEEK_SET) != 0) {
		gb_errmsg(err, errlen, "cannot rewind %s: %s", p.name, strerror(errno));
		goto out;
	}
	p.in.pos = 0;
	p.in.lineno = 0;
	rc = parse_all(&p);
	if (rc == 0 && p.nev == 0) /* as --events 0 is refused: a run of nothing would verify nothing */
		rc = gb_errmsg(err, errlen, "%s: no events: a trace needs at least one request or release", p.name);
out:
	if (rc == 0)
		events->count = p.nev;
	if (rc != 0 && p.init_ready)
		pba_system_free(initial);
	if (rc != 0 && p.events_ready)
		pba_events_free(events);
	if (p.replaying)
		pba_system_free(&p.scratch);
	free(p.has_max);
	free(p.given_on);
	free(p.row);
	free(p.in.line);
	free(p.in.buf);
	if (!is_stdin)
		fclose(f);
	return rc;
}

int pba_decisions_write(const char *path, const pba_events *e, const uint8_t *outcome, char *err,
			size_t errlen)
{
	gb_out out;
	uint64_t i;

	if (!gb_out_open(&out, path, err, errlen))
		return -1;
	for (i = 0; i < e->count; i++)
		fprintf(out.f, "%" PRIu64 " %s %" PRIu32 " %s\n", i,
			e->type[i] == PBA_REQUEST ? "request" : "release", e->proc[i],
			pba_outcome_name(outcome[i]));
	return gb_out_close(&out, err, errlen);
}
