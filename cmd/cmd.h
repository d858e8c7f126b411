/* The subcommand table: main.c dispatches, `gpubench help` lists it. */
#ifndef GB_CMD_H
#define GB_CMD_H

#include <stdio.h>

typedef struct gb_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
	void (*help)(FILE *out);
} gb_command;

extern const gb_command gb_cmd_stm;
extern const gb_command gb_cmd_avoid;
extern const gb_command gb_cmd_detect;
extern const gb_command gb_cmd_info;
extern const gb_command gb_cmd_speculate;
extern const gb_command gb_cmd_list;
extern const gb_command gb_cmd_compare;

#endif
