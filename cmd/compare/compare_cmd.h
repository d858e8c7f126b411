/*
 * gpubench compare's own parts, shared by its files: its options, the pairs
 * of reports and their rows, and what is counted (compare.c: the options, the
 * checks of the operands, the run and its exit status); pairing reports and
 * judging their metrics (pairs.c); the text, markdown and JSON outputs
 * (output.c).
 */
#ifndef GB_CMD_COMPARE_CMD_H
#define GB_CMD_COMPARE_CMD_H

#include <stddef.h>

#include "common/metric_diff.h"
#include "common/options.h"
#include "common/report_read.h"

typedef struct compare_opts {
	gb_run_opts run;     /* first: the shared rows (--json, --quiet) write into it */
	double threshold;    /* percent; < 0: from the noise */
	gb_opt_texts metric;
	int all;             /* --metric all */
	int allow_device, markdown;
	int sort;            /* enum compare_sort */
	gb_opt_texts verdict; /* --verdict: the verdicts the tables show */
	unsigned show;       /* their mask, 1u << gb_verdict; 0: every row */
} compare_opts;

enum compare_sort { SORT_INPUT, SORT_VERDICT };

enum pair_status { P_COMPARED, P_NOT_COMPARABLE, P_ONLY_BASE, P_ONLY_NEW };
extern const char *const compare_pair_status_names[];

typedef struct pair {
	gb_run_report *base, *new_;
	enum pair_status status;
	int interleaved;    /* the two sides of one A/B session (meta.interleaved) */
	char reason[768];   /* why not comparable */
	char warning[832];  /* compared anyway */
	gb_metric_list mb, mn;
	gb_metric_row *rows;
	size_t nrows;
} pair;

typedef struct pair_list {
	pair *p;
	size_t n, cap;
} pair_list;

typedef struct tally {
	size_t compared, not_comparable, only_base, only_new, unverified;
	size_t verdicts[GB_V_ONLY_NEW + 1];
} tally;

/* pairs.c */
pair *compare_add_pair(pair_list *l, gb_run_report *b, gb_run_report *n, enum pair_status st);
int compare_same_config(const gb_run_report *a, const gb_run_report *b);
/* Check the devices of a pair whose configurations match and fill its rows. */
void compare_fill_pair(const compare_opts *o, pair *p);
/* Pair two folders: same relative path and configuration first, then any same configuration. */
void compare_match_sets(const compare_opts *o, pair_list *l, gb_report_set *b, gb_report_set *n);
size_t compare_share_alpha(const compare_opts *o, pair_list *l);
int compare_unmatched_metrics(const compare_opts *o, const pair_list *l);
size_t compare_not_compared(const pair_list *l, size_t *ntested);

/* output.c */
const char *compare_pair_label(const pair *p);
const char *compare_rule_words(const compare_opts *o, const pair_list *l, size_t ab);
/* The tables show the rows of the verdicts --verdict names (all without it), in the order --sort
 * says; the JSON has every row in the input's order. */
void compare_print_text(const compare_opts *o, const pair_list *l);
/* The markdown: a header (what was compared, devices, revisions, units), the table, the rule, and
 * summary (the line the note on stderr gives) as its last line. */
void compare_print_markdown(const compare_opts *o, const pair_list *l, size_t ab, const char *base,
			    const char *new_, const char *summary);
int compare_write_json(const compare_opts *o, const pair_list *l, const tally *t, int argc, char **argv,
		       const char *base, const char *new_);
void compare_warn_noisy(const pair_list *l);

#endif
