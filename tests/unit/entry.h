/*
 * An entry of a subcommand's registry, looked up as the subcommand looks it
 * up (gb_registry_find through cmd/'s table), so the tests name engines and
 * loops the way --impl and --loop do.
 */
#ifndef GB_TESTS_ENTRY_H
#define GB_TESTS_ENTRY_H

/* The entry of group (NULL: any) called name in subcommand cmd's registry, or NULL. */
const void *tu_entry(const char *cmd, const char *group, const char *name);
/* The workload called name among subcommand cmd's second choice (stm's --workload), or NULL. */
const void *tu_workload(const char *cmd, const char *name);

/* stm's engine and workload called name, typed (NULL when there is none). */
#define tu_stm_engine(name) ((const stm_engine *)tu_entry("stm", NULL, (name)))
#define tu_stm_workload(name) ((const stm_workload *)tu_workload("stm", (name)))

#endif
