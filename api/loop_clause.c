/*
 * The misspeculate(iterations) clause of section 6.2: absolute iterations
 * "(10)", relative ones "(+1)", "(-1)", ranges "(+0:+4)" of either, several
 * separated by commas "(-1,+1)". One extension: "end" as the upper bound of a
 * range names the loop's last iteration, which is how a loop declares the
 * "all subsequent iterations" branch of Figure 6(c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "api/loop.h"

/* One bound at *s: "+k", "-k" (relative), "k" (absolute) or, when end_ok, "end". */
static int parse_bound(const char **s, int32_t *v, uint8_t *rel, uint8_t *end, int end_ok)
{
	const char *p = *s;
	char *stop;
	long x;
	int sign = 0;

	*rel = *end = 0;
	if (end_ok && strncmp(p, "end", 3) == 0) {
		*end = 1;
		*v = 0;
		*s = p + 3;
		return 0;
	}
	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	x = strtol(p, &stop, 10);
	if (errno || x > 0x7FFFFFFFL)
		return -1;
	*v = (int32_t)(sign < 0 ? -x : x);
	*rel = sign != 0;
	*s = stop;
	return 0;
}

int sp_clause_parse(const char *text, sp_clause *c, char *err, size_t errlen)
{
	const char *s = text;

	memset(c, 0, sizeof(*c));
	if (*s++ != '(')
		return gb_errmsg(err, errlen, "clause '%s' does not start with '('", text);
	for (;;) {
		sp_clause_item *it;
		uint8_t end;
		if (c->nitems == SP_MAX_CLAUSE)
			return gb_errmsg(err, errlen, "clause '%s' has more than %d items", text,
					 SP_MAX_CLAUSE);
		it = &c->item[c->nitems];
		if (parse_bound(&s, &it->lo, &it->lo_rel, &end, 0) != 0)
			return gb_errmsg(err, errlen, "clause '%s': bad iteration at '%s'", text, s);
		it->hi = it->lo;
		it->hi_rel = it->lo_rel;
		if (*s == ':') {
			s++;
			if (parse_bound(&s, &it->hi, &it->hi_rel, &it->hi_end, 1) != 0)
				return gb_errmsg(err, errlen, "clause '%s': bad range end at '%s'", text, s);
			if (!it->hi_end && it->hi_rel == it->lo_rel && it->hi < it->lo)
				return gb_errmsg(err, errlen, "clause '%s': empty range", text);
		}
		c->nitems++;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == ')' && s[1] == '\0')
			return 0;
		return gb_errmsg(err, errlen, "clause '%s': expected ',' or a final ')' at '%s'", text, s);
	}
}

int sp_clause_all_subsequent(const sp_clause *c)
{
	uint32_t k;
	for (k = 0; k < c->nitems; k++)
		if (c->item[k].hi_end)
			return 1;
	return 0;
}

int sp_clause_from_self(const sp_clause *c)
{
	uint32_t k;
	for (k = 0; k < c->nitems; k++)
		if (!c->item[k].hi_end || !c->item[k].lo_rel || c->item[k].lo != 0)
			return 0;
	return c->nitems > 0;
}

int sp_clause_only_to_end(const sp_clause *c)
{
	uint32_t k;
	for (k = 0; k < c->nitems; k++)
		if (!c->item[k].hi_end || !c->item[k].lo_rel || c->item[k].lo > 0)
			return 0;
	return c->nitems > 0;
}
