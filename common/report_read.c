#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/json.h"
#include "common/report_read.h"
#include "common/version.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = gb_xmalloc((size_t)len + 1, "report text");
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[len] = 0;
	fclose(f);
	return buf;
}

/* A field's value for a message: "missing", or its JSON text, cut short. */
static const char *shown(const cJSON *x, char *out, size_t len)
{
	char *text;

	if (!x)
		return "missing";
	text = cJSON_PrintUnformatted(x);
	if (!text)
		return "not printable";
	if (strlen(text) < len)
		snprintf(out, len, "%s", text);
	else
		snprintf(out, len, "%.*s...", (int)len - 4, text);
	free(text);
	return out;
}

int gb_run_report_load(gb_run_report *r, const char *path, size_t rel_off)
{
	char *text = slurp(path);
	const cJSON *v, *sv, *c;
	char what[64];

	memset(r, 0, sizeof(*r));
	if (!text)
		gb_die(GB_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
	r->root = cJSON_Parse(text);
	free(text);
	if (!r->root)
		gb_die(GB_EXIT_USAGE, "%s is not JSON", path);
	r->path = strdup(path);
	if (!r->path)
		gb_die(GB_EXIT_RUNTIME, "out of host memory");
	r->rel = r->path + rel_off;
	r->meta = cJSON_GetObjectItemCaseSensitive(r->root, "meta");
	r->device = cJSON_GetObjectItemCaseSensitive(r->root, "device");
	r->config = cJSON_GetObjectItemCaseSensitive(r->root, "config");
	r->results = cJSON_GetObjectItemCaseSensitive(r->root, "results");
	r->subcommand = gb_json_str_of(r->meta, "subcommand");
	if (!cJSON_IsObject(r->meta) || !cJSON_IsObject(r->config) || !cJSON_IsObject(r->results) ||
	    !*r->subcommand || strcmp(r->subcommand, "compare") == 0)
		return 0;
	sv = cJSON_GetObjectItemCaseSensitive(r->meta, "schema_version");
	if (!cJSON_IsNumber(sv) || sv->valuedouble != GB_SCHEMA_VERSION)
		gb_die(GB_EXIT_USAGE,
		       "%s has report schema version %s; this gpubench reads version %d "
		       "(make both reports with one gpubench version, e.g. refresh the baseline)",
		       path, cJSON_IsNumber(sv) ? cJSON_PrintUnformatted(sv) : "(none)", GB_SCHEMA_VERSION);
	/* Whether its numbers can be trusted: a report without these two says nothing about it. */
	c = cJSON_GetObjectItemCaseSensitive(r->meta, "complete");
	if (!cJSON_IsBool(c))
		gb_die(GB_EXIT_USAGE, "%s: meta.complete is %s; a run report has true or false there", path,
		       shown(c, what, sizeof(what)));
	v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->root, "verification"),
					     "verified");
	if (!cJSON_IsBool(v) && !cJSON_IsNull(v))
		gb_die(GB_EXIT_USAGE,
		       "%s: verification.verified is %s; a run report has true, false or null (not checked) there",
		       path, shown(v, what, sizeof(what)));
	r->verified = cJSON_IsTrue(v) ? 1 : cJSON_IsFalse(v) ? 0 : -1;
	r->complete = cJSON_IsTrue(c);
	return 1;
}

void gb_report_set_add(gb_report_set *s, const char *path, size_t rel_off)
{
	gb_run_report r;
	if (!gb_run_report_load(&r, path, rel_off)) {
		cJSON_Delete(r.root);
		free(r.path);
		s->skipped++;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->r = realloc(s->r, s->cap * sizeof(*s->r));
		if (!s->r)
			gb_die(GB_EXIT_RUNTIME, "out of host memory");
	}
	s->r[s->n++] = r;
}

int gb_report_file_name(const char *name)
{
	size_t len = strlen(name);
	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".json") == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folders a scan has entered, by device and inode: a link back up (or across) is entered once. */
typedef struct scan_seen {
	struct stat *st;
	size_t n, cap;
} scan_seen;

static int scan_enter(scan_seen *seen, const struct stat *st)
{
	size_t i;
	for (i = 0; i < seen->n; i++)
		if (seen->st[i].st_dev == st->st_dev && seen->st[i].st_ino == st->st_ino)
			return 0;
	if (seen->n == seen->cap) {
		seen->cap = seen->cap ? 2 * seen->cap : 16;
		seen->st = realloc(seen->st, seen->cap * sizeof(*seen->st));
		if (!seen->st)
			gb_die(GB_EXIT_RUNTIME, "out of host memory");
	}
	seen->st[seen->n++] = *st;
	return 1;
}

static void scan(gb_report_set *s, const char *dir, size_t root_len, scan_seen *seen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	if (!d)
		gb_die(GB_EXIT_USAGE, "cannot read folder %s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				gb_die(GB_EXIT_RUNTIME, "out of host memory");
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n) /* qsort wants an array, even of nothing */
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		char *path = gb_xmalloc(strlen(dir) + len + 2, "path");
		struct stat st;
		sprintf(path, "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (scan_enter(seen, &st))
				scan(s, path, root_len, seen);
		} else if (gb_report_file_name(names[i])) {
			gb_report_set_add(s, path, root_len);
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

void gb_report_set_scan(gb_report_set *s, const char *dir, size_t root_len)
{
	scan_seen seen = {NULL, 0, 0};
	struct stat st;

	if (stat(dir, &st) == 0)
		scan_enter(&seen, &st);
	scan(s, dir, root_len, &seen);
	free(seen.st);
}

void gb_run_report_device(const gb_run_report *r, char *out, size_t outlen)
{
	const cJSON *d = r->device;
	const char *backend = gb_json_str_of(d, "backend");
	const cJSON *cores = cJSON_GetObjectItemCaseSensitive(d, "cpu_logical_cores");

	if (strcmp(backend, "gpu") == 0) {
		const cJSON *sms = cJSON_GetObjectItemCaseSensitive(d, "sm_count");
		snprintf(out, outlen, "gpu %s (cc %s, %d SMs)", gb_json_str_of(d, "name"),
			 gb_json_str_of(d, "compute_capability"), cJSON_IsNumber(sms) ? (int)sms->valuedouble : 0);
	} else {
		snprintf(out, outlen, "%s %s (%d logical cores)", *backend ? backend : "cpu",
			 gb_json_str_of(d, "cpu_model"), cJSON_IsNumber(cores) ? (int)cores->valuedouble : 0);
	}
}
