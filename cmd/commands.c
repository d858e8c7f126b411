/* The subcommand table (see cmd/cmd.h). */
#include <string.h>

#include "cmd/cmd.h"

const gb_command *const gb_commands[] = {&gb_cmd_stm, &gb_cmd_avoid, &gb_cmd_detect, &gb_cmd_speculate,
					 &gb_cmd_list, &gb_cmd_compare, &gb_cmd_export, &gb_cmd_info,
					 NULL};

const char gb_about[] = "A benchmark harness for synchronization on GPUs: each subcommand runs a workload through "
			"a CUDA engine (or its CPU counterpart), verifies the result and reports timings as JSON.";

/* broken where --help breaks it */
const char gb_exit_statuses[] = "Exit status: 0 ok, 1 runtime failure, 2 usage error, 3 verification failed,\n"
				"4 regression found by compare.";

const gb_command *gb_command_find(const char *name)
{
	int i;
	for (i = 0; gb_commands[i]; i++)
		if (strcmp(gb_commands[i]->name, name) == 0)
			return gb_commands[i];
	return NULL;
}
