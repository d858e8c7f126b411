/* The installed documentation folder, and help texts pointed at it (common/docs.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/docs.h"

static char dir[PATH_MAX];
static int resolved;

/* exe/../share/doc/gpubench, when the running binary has one beside it. */
static void resolve(void)
{
	char exe[PATH_MAX], *slash;
	struct stat st;
	ssize_t n;

	resolved = 1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	slash = strrchr(exe, '/'); /* the bin folder's parent: the prefix */
	if (!slash)
		return;
	*slash = '\0';
	if (snprintf(dir, sizeof(dir), "%s/share/doc/gpubench", exe) >= (int)sizeof(dir) || stat(dir, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		dir[0] = '\0';
}

const char *gb_docs_dir(void)
{
	if (!resolved)
		resolve();
	return dir[0] ? dir : NULL;
}

void gb_docs_dir_set(const char *d)
{
	snprintf(dir, sizeof(dir), "%s", d);
	resolved = 1;
}

const char *gb_docs_text(const char *text, char *buf, size_t len)
{
	const char *d = gb_docs_dir(), *p;
	size_t used = 0;

	if (!d || !strstr(text, "docs/"))
		return text;
	for (p = text; *p && used + 1 < len; p++) {
		if (strncmp(p, "docs/", 5) == 0 && (p == text || p[-1] == ' ' || p[-1] == '(')) {
			used += (size_t)snprintf(buf + used, len - used, "%s/", d);
			p += 4;
			continue;
		}
		buf[used++] = *p;
	}
	buf[used < len ? used : len - 1] = '\0';
	return buf;
}
