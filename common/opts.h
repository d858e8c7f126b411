/*
 * Option value parsing, for the option rows (common/options.h) and for the
 * values a subcommand checks itself once it knows more (speculate's
 * --density against its loop). Every parser names the option and the
 * accepted range in its message and exits 2 on bad input: non-numbers,
 * trailing junk, out-of-range and overflowing values.
 */
#ifndef GB_OPTS_H
#define GB_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include <stdint.h>

uint64_t gb_opt_u64(const char *opt, const char *text, uint64_t lo, uint64_t hi);
uint32_t gb_opt_u32(const char *opt, const char *text, uint32_t lo, uint32_t hi);
double gb_opt_double(const char *opt, const char *text, double lo, double hi);
/* Returns the index of text in choices (NULL-terminated) or exits 2 listing them. */
int gb_opt_choice(const char *opt, const char *text, const char *const *choices);

/*
 * Split a comma-separated list into at most max names; returns how many.
 * The names point into one allocation the caller frees with free(names[0])
 * (nothing to free when 0 are returned). Empty names and more than max exit 2.
 */
unsigned gb_opt_list(const char *opt, const char *text, char **names, unsigned max);

/* Help text fits this many columns. */
#define GB_HELP_COLUMNS 80

/*
 * Print text from column col (what the line already holds), breaking it
 * between words before GB_HELP_COLUMNS; continuation lines start at column
 * indent. Ends with a newline. A "docs/" path in it names the installed
 * documentation where there is one (common/docs.h).
 */
void gb_help_wrap(FILE *out, int col, int indent, const char *text);

/* Exit 2 when arguments remain after the options (no subcommand takes operands). */
void gb_opt_no_operands(const char *cmd, int argc, char **argv);

/*
 * Report a getopt_long failure (unknown option or missing value) for the
 * subcommand and exit 2. Call with the option character getopt returned
 * ('?' or ':') and the argv it parsed; optstring must start with ':'.
 */
__attribute__((noreturn))
void gb_opt_fail(const char *cmd, int c, char **argv, const struct option *longopts);

#endif
