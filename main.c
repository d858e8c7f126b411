/* gpubench: dispatch to the subcommands of cmd/commands.c's table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/error.h"
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
	      "       gpubench --version\n"
	      "\n"
	      "A benchmark harness for synchronization on GPUs: each subcommand runs a\n"
	      "workload through a CUDA engine (or its CPU counterpart), verifies the result\n"
	      "and reports timings as JSON.\n"
	      "\n"
	      "subcommands:\n",
	      out);
	for (i = 0; gb_commands[i]; i++)
		fprintf(out, "  %-10s %s\n", gb_commands[i]->name, gb_commands[i]->summary);
	fputs("\n"
	      "Everyday command: gpubench stm --algo prstm --threads 6720\n"
	      "Exit status: 0 ok, 1 runtime failure, 2 usage error, 3 verification failed,\n"
	      "4 regression found by compare.\n",
	      out);
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
		puts(GB_VERSION_LINE);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		cmd = gb_command_find(argv[2]);
		if (!cmd)
			gb_die(GB_EXIT_USAGE, "help: unknown subcommand '%s' (see 'gpubench --help')",
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
