/*
 * The subcommand table: main.c dispatches through it, `gpubench help` and
 * `gpubench info` list it. It lives in cmd/ rather than in main.c because
 * info, a subcommand, reads every other subcommand's registry through it,
 * and cmd/ may not reach up to main.c.
 */
#ifndef GB_CMD_H
#define GB_CMD_H

#include <stdio.h>

#include "common/registry.h"

typedef struct gb_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
	void (*help)(FILE *out);
	/* What it offers to choose from (engines, loops), for `gpubench info`; NULL: nothing */
	const gb_registry *registry;
	/* The workloads those engines run, where they are a second choice (stm's --workload); NULL: none */
	const gb_registry *workloads;
	/* The baselines it times beside its run, where they are a choice of their own (speculate's
	 * --compare); NULL: none */
	const gb_registry *baselines;
} gb_command;

extern const gb_command gb_cmd_stm;
extern const gb_command gb_cmd_avoid;
extern const gb_command gb_cmd_detect;
extern const gb_command gb_cmd_info;
extern const gb_command gb_cmd_speculate;
extern const gb_command gb_cmd_list;
extern const gb_command gb_cmd_compare;
extern const gb_command gb_cmd_export;

/* Every subcommand, in the order --help lists them; NULL-terminated. */
extern const gb_command *const gb_commands[];
const gb_command *gb_command_find(const char *name);

/* What gpubench is and its exit statuses, in words: for --help and the manual page. */
extern const char gb_about[];
extern const char gb_exit_statuses[];

/*
 * The manual page (roff), from the subcommand table and every subcommand's
 * option rows; docdir, when not NULL, is where the documentation the help
 * texts name is installed (cmd/docgen.c).
 */
void gb_write_man(FILE *out, const char *docdir);
/* A completion script for shell ("bash", "zsh") from the same; -1 for another shell. */
int gb_write_completion(FILE *out, const char *shell);

#endif
