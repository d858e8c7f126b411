/* gpubench: dispatch to the subcommands of cmd/commands.c's table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/error.h"
#include "common/opts.h"
#include "common/stop.h"
#include "common/version.h"

/*
 * At exit, whatever the subcommand and however it ends: what went to standard
 * output must have got there (a full disk, a closed descriptor), else the
 * exit status is 1 (or the failure's own, when the run had failed already).
 */
static void check_stdout(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	e = errno ? errno : EIO;
	fprintf(stderr, "gpubench: cannot write to standard output: %s\n", strerror(e));
	_exit(gb_exit_status ? gb_exit_status : GB_EXIT_RUNTIME);
}

static void usage(FILE *out)
{
	int i;
	fputs("usage: gpubench <subcommand> [options]\n"
	      "       gpubench help <subcommand>\n"
	      "       gpubench <subcommand> --help\n"
	      "       gpubench help --man [DOCDIR]     (the manual page, gpubench.1)\n"
	      "       gpubench help --completion bash|zsh\n"
	      "       gpubench --version\n"
	      "\n",
	      out);
	gb_help_wrap(out, 0, 0, gb_about);
	fputs("\nsubcommands:\n", out);
	for (i = 0; gb_commands[i]; i++)
		fprintf(out, "  %-10s %s\n", gb_commands[i]->name, gb_commands[i]->summary);
	fputs("\nEveryday command: gpubench stm --algo prstm --threads 6720\n", out);
	fprintf(out, "%s\n", gb_exit_statuses);
}

int main(int argc, char **argv)
{
	const gb_command *cmd;

	atexit(check_stdout);
	gb_stop_install();
	if (argc < 2) {
		usage(stderr);
		return GB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "-v") == 0) {
		if (argc > 2)
			gb_die(GB_EXIT_USAGE, "%s takes nothing after it, got '%s'", argv[1], argv[2]);
		puts(GB_VERSION_LINE);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		if (strcmp(argv[2], "--man") == 0) {
			if (argc > 4)
				gb_die(GB_EXIT_USAGE, "help --man takes at most one folder, the installed documentation's");
			gb_write_man(stdout, argc == 4 ? argv[3] : NULL);
			return fflush(stdout) == 0 ? 0 : GB_EXIT_RUNTIME;
		}
		if (strcmp(argv[2], "--completion") == 0) {
			if (argc != 4 || gb_write_completion(stdout, argv[3]) != 0)
				gb_die(GB_EXIT_USAGE, "help --completion: name the shell, bash or zsh");
			return fflush(stdout) == 0 ? 0 : GB_EXIT_RUNTIME;
		}
		cmd = gb_command_find(argv[2]);
		if (!cmd)
			gb_die(GB_EXIT_USAGE, "help: unknown subcommand '%s' (see 'gpubench --help')",
			       argv[2]);
		if (argc > 3)
			gb_die(GB_EXIT_USAGE, "help: one subcommand at a time, got '%s' after '%s'", argv[3],
			       argv[2]);
		cmd->help(stdout);
		return 0;
	}
	cmd = gb_command_find(argv[1]);
	if (!cmd)
		gb_die(GB_EXIT_USAGE, "unknown subcommand '%s' (see 'gpubench --help')", argv[1]);
	gb_exit_status = cmd->run(argc - 1, argv + 1);
	return gb_exit_status;
}
