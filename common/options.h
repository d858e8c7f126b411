/*
 * Options as data (after fio's options.c): one row gives an option's name,
 * type, range, default and help, and the parser, the range messages, the
 * defaults in --help and the report's config all come from it.
 *
 * Every subcommand built on it has the shared rows (gb_run_opts below) with
 * the same meaning; its own rows follow. A subcommand's option struct starts
 * with a gb_run_opts, so shared and own rows write into one struct by offset.
 */
#ifndef GB_OPTIONS_H
#define GB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "common/registry.h"

typedef enum gb_opt_kind {
	GB_OPT_FLAG,   /* no value: stores set_to in an int */
	GB_OPT_UINT,   /* integer in lo..hi: a uint64_t */
	GB_OPT_REAL,   /* number in flo..fhi: a double */
	GB_OPT_TEXT,   /* any text: a const char * into argv */
	GB_OPT_CHOICE, /* one of choices: its index, an int */
	GB_OPT_TEXTS,  /* repeatable text, none empty: each value appended to a gb_opt_texts */
} gb_opt_kind;

/* The values of a GB_OPT_TEXTS row, in command-line order; more than GB_OPT_TEXTS_MAX exit 2. */
#define GB_OPT_TEXTS_MAX 32
typedef struct gb_opt_texts {
	unsigned n;
	const char *v[GB_OPT_TEXTS_MAX];
} gb_opt_texts;

typedef struct gb_opt_row {
	const char *name;            /* the long option, without the dashes */
	gb_opt_kind kind;
	const char *metavar;         /* "N", "PATH" (NULL for a flag) */
	uint64_t lo, hi;             /* GB_OPT_UINT */
	double flo, fhi;             /* GB_OPT_REAL */
	const char *const *choices;  /* GB_OPT_CHOICE, NULL-terminated */
	const char *def;             /* the default, as text given on the command line; NULL: none */
	const char *help;            /* one sentence; the range and default are added to it */
	size_t offset;               /* where the value goes in the subcommand's option struct */
	int set_to;                  /* GB_OPT_FLAG */
} gb_opt_row;

/* The options every subcommand has, and what they mean everywhere. */
typedef struct gb_run_opts {
	const char *json;      /* --json PATH: the report ('-': stdout) */
	int quiet;             /* --quiet: no summary, notes or progress */
	uint64_t reps;         /* --reps N: timed repetitions */
	uint64_t warmup;       /* --warmup N: untimed repetitions before them */
	uint64_t seed;         /* --seed N: the generator's seed */
	double timeout;        /* --timeout S: give up after S seconds; the report is marked incomplete */
	int verify;            /* 0 with --no-verify */
	uint64_t verify_every; /* --verify-every K: check every K-th unit (0: none) */
	const char *compare;   /* --compare LIST: others run on the same input */
	int backend;           /* --backend: gb_backend */
	uint64_t device;       /* --device N: the CUDA device (GB_DEVICE_UNSET: not given, the first) */
} gb_run_opts;

#define GB_DEVICE_UNSET UINT64_MAX

/*
 * The shared rows, in the order the help lists them, for a subcommand that
 * has only some (gb_opt_spec.shared): compare and info have --json and
 * --quiet only.
 */
enum gb_shared_row {
	GB_SHARED_BACKEND, GB_SHARED_DEVICE, GB_SHARED_COMPARE, GB_SHARED_REPS, GB_SHARED_WARMUP, GB_SHARED_SEED,
	GB_SHARED_TIMEOUT, GB_SHARED_VERIFY_EVERY, GB_SHARED_NO_VERIFY, GB_SHARED_JSON, GB_SHARED_QUIET,
	GB_OPTS_SHARED /* how many there are: given[] holds the own rows, then these */
};
#define GB_SHARED(row) (1u << (row))

/*
 * A shared row that a subcommand gives another default, or (GB_OPT_UINT) a
 * narrower range: both lo and hi 0 keep the row's own.
 */
typedef struct gb_opt_default {
	const char *name, *def;
	uint64_t lo, hi;
} gb_opt_default;

/*
 * A shared row that a subcommand words otherwise, where what the option
 * writes or leaves out is its own (compare's --json is a comparison, not a
 * run report); the meaning stays the row's.
 */
typedef struct gb_opt_wording {
	const char *name, *help;
} gb_opt_wording;

typedef struct gb_opt_spec {
	const char *cmd;                  /* "avoid" */
	const char *operands;             /* what follows the options, for the usage line ("BASE NEW"); NULL: none */
	const char *intro;                /* the paragraph under the usage line */
	const gb_opt_row *rows;           /* the subcommand's own rows */
	size_t nrows;
	unsigned shared;                  /* GB_SHARED()s of the shared rows it has; 0: every one */
	const gb_opt_default *defaults;   /* shared rows' defaults and ranges set otherwise (NULL-name-terminated) */
	const gb_opt_wording *wording;    /* shared rows worded otherwise (NULL-name-terminated); may be NULL */
	const char *unit;                 /* what --reps and --warmup repeat: "stream" */
	const char *check_unit;           /* what --verify-every counts: "decision" */
	const char *compare_help;         /* what --compare runs; NULL: the subcommand has none yet */
	/* The registry --compare names entries of, when the help lists them after compare_help,
	 * each in words (gb_registry_words); NULL: compare_help says it all */
	const gb_registry *compare_from;
	void (*extra_help)(FILE *out);    /* printed after the rows (engine lists, notes); may be NULL */
	const char *example;
} gb_opt_spec;

/*
 * Parse argv into dst (whose first member is a gb_run_opts): defaults first,
 * then the options. given[] (nrows + GB_OPTS_SHARED entries, may be NULL) says
 * which rows were on the command line. --help prints the help and exits 0; every error
 * exits 2 naming the option and what it accepts. Returns the index in argv of
 * the first operand (argc when there is none); a spec without operands exits 2
 * on one.
 */
int gb_opts_parse(const gb_opt_spec *spec, void *dst, unsigned char *given, int argc, char **argv);

/* Every row's default (rows[0..n-1], offsets into dst), as gb_opts_parse applies them. */
void gb_opts_defaults(const gb_opt_row *rows, size_t n, void *dst);

/* Whether the row called name, own or shared, was on the command line. */
int gb_opts_given(const gb_opt_spec *spec, const unsigned char *given, const char *name);

/* The help of a subcommand: usage, intro, its rows, the shared rows, within 80 columns. */
void gb_opts_help(FILE *out, const gb_opt_spec *spec);

/*
 * The rows as the help shows them, for what else is written from them (the
 * manual page, shell completion: cmd/docgen.c): row i of gb_opts_count, its
 * own rows then the shared ones, and its help text with the range and
 * default added, into text (len bytes). gb_opts_row_help returns the text's
 * length, 0 for a row the subcommand does not have (or does not show).
 */
size_t gb_opts_count(const gb_opt_spec *spec);
const gb_opt_row *gb_opts_row(const gb_opt_spec *spec, size_t i);
size_t gb_opts_row_help(const gb_opt_spec *spec, size_t i, char *text, size_t len);

/*
 * While set, gb_opts_help hands the spec to this function (with
 * gb_opts_help_hook_arg) instead of printing it: every subcommand's help
 * function shows its spec, so the generators reach each spec through it.
 */
extern void (*gb_opts_help_hook)(const gb_opt_spec *spec, void *arg);
extern void *gb_opts_help_hook_arg;

/* The shared options' effective values into a report's config block. */
void gb_opts_config(cJSON *config, const gb_run_opts *run);

#endif
