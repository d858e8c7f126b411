/* The misspeculate(iterations) clause of section 6.2, parsed (speculation/clause.c). */
#ifndef GB_SPEC_CLAUSE_H
#define GB_SPEC_CLAUSE_H

#include <stddef.h>

#include "speculation/spec.h"

/*
 * Parse a misspeculate clause, "(+1)", "(-1,+1)", "(+0:+4)", "(10)",
 * "(+0:end)"; 0, or -1 with a message naming the bad item.
 */
int sp_clause_parse(const char *text, sp_clause *c, char *err, size_t errlen);
/* 1 when some item is a range to the end (Figure 6(c): the interval schedule). */
int sp_clause_all_subsequent(const sp_clause *c);
/* 1 when every item is a range from the current iteration or before it to the end, such as
 * (+0:end): a branch then only ever names one first iteration (no Misspec list), so the
 * device can take the whole check, commit and recovery decision (speculation/check.h). */
int sp_clause_only_to_end(const sp_clause *c);

#endif
