/* Registry entries as the subcommands find them (tests/unit/entry.h). */
#include <stddef.h>

#include "cmd/cmd.h"
#include "common/registry.h"
#include "tests/unit/entry.h"

const void *tu_entry(const char *cmd, const char *group, const char *name)
{
	const gb_command *c = gb_command_find(cmd);
	return c && c->registry ? gb_registry_find(c->registry, group, name) : NULL;
}

const void *tu_workload(const char *cmd, const char *name)
{
	const gb_command *c = gb_command_find(cmd);
	return c && c->workloads ? gb_registry_find(c->workloads, NULL, name) : NULL;
}
