#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/docs.h"
#include "common/error.h"
#include "common/opts.h"

uint64_t gb_opt_u64(const char *opt, const char *text, uint64_t lo, uint64_t hi)
{
	const char *s = text;
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0' || *s == '-' || *s == '+' || !isdigit((unsigned char)*s))
		gb_die(GB_EXIT_USAGE, "option --%s: '%s' is not a non-negative integer "
		       "(accepted: %" PRIu64 "..%" PRIu64 ")", opt, text, lo, hi);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		gb_die(GB_EXIT_USAGE, "option --%s: '%s' overflows (accepted: %" PRIu64 "..%" PRIu64 ")",
		       opt, text, lo, hi);
	if (*end != '\0')
		gb_die(GB_EXIT_USAGE, "option --%s: '%s' is not an integer (accepted: %" PRIu64 "..%" PRIu64 ")",
		       opt, text, lo, hi);
	if (v < lo || v > hi)
		gb_die(GB_EXIT_USAGE, "option --%s: %s is out of range (accepted: %" PRIu64 "..%" PRIu64 ")",
		       opt, text, lo, hi);
	return v;
}

uint32_t gb_opt_u32(const char *opt, const char *text, uint32_t lo, uint32_t hi)
{
	return (uint32_t)gb_opt_u64(opt, text, lo, hi);
}

double gb_opt_double(const char *opt, const char *text, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	/* decimal only, as the integer options: strtod would read "0x10" as 16 */
	if (end == text || *end != '\0' || !isfinite(v) || strpbrk(text, "xX"))
		gb_die(GB_EXIT_USAGE, "option --%s: '%s' is not a number (accepted: %g..%g)",
		       opt, text, lo, hi);
	/* ERANGE past isfinite is an underflow: a tiny value kept as a subnormal is a value (1e-310 lies in
	 * 0..1); one that became 0 is not what was asked for */
	if (errno == ERANGE && v == 0)
		gb_die(GB_EXIT_USAGE, "option --%s: %s is too close to 0 for a double (the smallest above 0 is "
		       "about 4.9e-324)", opt, text);
	if (v < lo || v > hi)
		gb_die(GB_EXIT_USAGE, "option --%s: %s is out of range (accepted: %g..%g)",
		       opt, text, lo, hi);
	return v;
}

int gb_opt_choice(const char *opt, const char *text, const char *const *choices)
{
	char list[256] = "";
	int i;

	for (i = 0; choices[i]; i++)
		if (strcmp(text, choices[i]) == 0)
			return i;
	for (i = 0; choices[i]; i++) {
		if (i)
			strncat(list, "|", sizeof(list) - strlen(list) - 1);
		strncat(list, choices[i], sizeof(list) - strlen(list) - 1);
	}
	gb_die(GB_EXIT_USAGE, "option --%s: unknown value '%s' (accepted: %s)", opt, text, list);
}

void gb_opt_no_operands(const char *cmd, int argc, char **argv)
{
	if (optind < argc)
		gb_die(GB_EXIT_USAGE, "%s: unexpected argument '%s' (see 'gpubench help %s')", cmd,
		       argv[optind], cmd);
}

void gb_opt_fail(const char *cmd, int c, char **argv, const struct option *longopts)
{
	const char *arg = argv[optind - 1];
	char name[64], matches[256] = "";
	size_t len;
	int i, n = 0;

	if (c == ':')
		gb_die(GB_EXIT_USAGE, "%s: option '%s' needs a value (see 'gpubench help %s')",
		       cmd, arg, cmd);
	if (strncmp(arg, "--", 2) != 0) {
		if (optopt > ' ' && optopt < 127)
			gb_die(GB_EXIT_USAGE, "%s: unknown option '-%c' (see 'gpubench help %s')", cmd,
			       optopt, cmd);
		gb_die(GB_EXIT_USAGE, "%s: unknown option '%s' (see 'gpubench help %s')", cmd, arg, cmd);
	}
	/* getopt_long says only '?': tell a value given to a flag and an ambiguous
	 * prefix from an option that does not exist. */
	len = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1), arg + 2);
	for (i = 0; longopts[i].name; i++) {
		if (strcmp(longopts[i].name, name) == 0) {
			if (arg[2 + len] == '=' && longopts[i].has_arg == no_argument)
				gb_die(GB_EXIT_USAGE, "%s: option '--%s' takes no value (given '%s')", cmd,
				       name, arg);
			n = 1;
			break;
		}
		if (len && strncmp(longopts[i].name, name, len) == 0) {
			snprintf(matches + strlen(matches), sizeof(matches) - strlen(matches), "%s--%s",
				 n ? ", " : "", longopts[i].name);
			n++;
		}
	}
	if (n > 1)
		gb_die(GB_EXIT_USAGE, "%s: option '--%s' is ambiguous: it could be %s", cmd, name, matches);
	gb_die(GB_EXIT_USAGE, "%s: unknown option '%s' (see 'gpubench help %s')", cmd, arg, cmd);
}

unsigned gb_opt_list(const char *opt, const char *text, char **names, unsigned max)
{
	char *copy = strdup(text), *p;
	unsigned n = 0;

	if (!copy)
		gb_die(GB_EXIT_RUNTIME, "out of host memory");
	for (p = copy;; p++) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (!*p)
			gb_die(GB_EXIT_USAGE, "option --%s: empty name in '%s'", opt, text);
		if (n == max)
			gb_die(GB_EXIT_USAGE, "option --%s: at most %u names in '%s'", opt, max, text);
		names[n++] = p;
		if (!comma)
			break;
		p = comma;
	}
	return n;
}

void gb_help_wrap(FILE *out, int col, int indent, const char *text)
{
	char docs[4096];
	const char *p = gb_docs_text(text, docs, sizeof(docs));
	int first = 1, wrap = indent;

	while (*p == ' ')
		p++;
	while (*p) {
		int word = (int)strcspn(p, " \n");
		if (!first && col + 1 + word > GB_HELP_COLUMNS) {
			fprintf(out, "\n%*s", wrap, "");
			col = wrap;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, (size_t)word, out);
		col += word;
		first = 0;
		p += word;
		if (*p == '\n') { /* a line of its own: its leading spaces kept, and kept by its wrapped part */
			int lead = (int)strspn(++p, " ");
			fputc('\n', out);
			fprintf(out, "%*s", lead, "");
			col = lead;
			wrap = lead ? lead : indent;
			first = 1;
			p += lead;
			continue;
		}
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}
