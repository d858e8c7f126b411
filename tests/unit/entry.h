/*
 * An entry of a subcommand's registry, looked up as the subcommand looks it
 * up (gb_registry_find through cmd/'s table), so the tests name engines and
 * loops the way --impl and --loop do.
 */
#ifndef GB_TESTS_ENTRY_H
#define GB_TESTS_ENTRY_H

/* The entry of group (NULL: any) called name in subcommand cmd's registry, or NULL. */
const void *tu_entry(const char *cmd, const char *group, const char *name);

#endif
