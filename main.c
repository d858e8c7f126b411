/* gpubench: dispatch to the subcommands of cmd/commands.c's table. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/error.h"
#include "common/version.h"

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
	return cmd->run(argc - 1, argv + 1);
}
