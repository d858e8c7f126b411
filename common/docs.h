/*
 * Where the documentation that help texts name (docs/report-schema.md, ...)
 * is: beside an installed gpubench, PREFIX/share/doc/gpubench (make install
 * puts it there), so that a help text names a file the reader has; in a
 * checkout or dist/, the repository's docs/ as the texts say.
 */
#ifndef GB_DOCS_H
#define GB_DOCS_H

#include <stddef.h>

/* The installed documentation folder, or NULL when there is none (a checkout, dist/). */
const char *gb_docs_dir(void);
/* Use dir instead (the manual page names the folder it will be installed beside). */
void gb_docs_dir_set(const char *dir);

/*
 * text with each "docs/" that starts a word (or follows '(') replaced by the
 * documentation folder, into buf (len bytes); text itself when there is
 * nothing to replace.
 */
const char *gb_docs_text(const char *text, char *buf, size_t len);

#endif
