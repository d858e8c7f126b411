/* The CPUs this process may run on (common/cpus.h). */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cpus.h"

/* The quota in dir's files, in CPUs, or 0: v2's cpu.max ("max 100000", "150000 100000"), else v1's. */
static double quota_in(const char *dir)
{
	char path[4200], text[128];
	double q = 0, p = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.max", dir);
	if ((f = fopen(path, "r"))) {
		if (fgets(text, sizeof(text), f) && strncmp(text, "max", 3) != 0 && sscanf(text, "%lf %lf", &q, &p) == 2 &&
		    q > 0 && p > 0)
			q /= p;
		else
			q = 0;
		fclose(f);
		return q;
	}
	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%lf", &q) != 1)
			q = 0;
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
	if (q > 0 && (f = fopen(path, "r"))) {
		if (fscanf(f, "%lf", &p) != 1)
			p = 0;
		fclose(f);
	}
	return q > 0 && p > 0 ? q / p : 0;
}

/* The smallest quota of base/path and its ancestors up to base (each may set one), or 0. */
static double quota_up(const char *base, const char *path)
{
	char dir[4096];
	double best = 0, q;
	char *slash;

	snprintf(dir, sizeof(dir), "%s%s", base, path);
	for (;;) {
		q = quota_in(dir);
		if (q > 0 && (best == 0 || q < best))
			best = q;
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < strlen(base))
			break;
		*slash = '\0';
	}
	return best;
}

/* Whether the comma-separated controller list names cpu. */
static int names_cpu(const char *list)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, "cpu") == 0)
			return 1;
	return 0;
}

double gb_cgroup_cpu_quota(const char *proc_cgroup, const char *sysfs)
{
	char line[4096], base[4096];
	double best = 0, q;
	FILE *f = fopen(proc_cgroup, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *path;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		path = c2 + 1;
		path[strcspn(path, "\n")] = '\0';
		if (strcmp(path, "/") == 0)
			path = "";
		if (!c1[1]) { /* v2: "0::/path" */
			q = quota_up(sysfs, path);
		} else if (names_cpu(c1 + 1)) { /* v1: "3:cpu,cpuacct:/path", mounted under the list's name or "cpu" */
			snprintf(base, sizeof(base), "%s/%s", sysfs, c1 + 1);
			if (access(base, F_OK) != 0)
				snprintf(base, sizeof(base), "%s/cpu", sysfs);
			q = quota_up(base, path);
		} else {
			continue;
		}
		if (q > 0 && (best == 0 || q < best))
			best = q;
	}
	fclose(f);
	return best;
}

/* The CPUs of set as "0-3,8", cut with "..." past len. */
static void cpu_list(const cpu_set_t *set, char *out, size_t len)
{
	size_t used = 0;
	int i, j;

	out[0] = '\0';
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, set))
			continue;
		for (j = i; j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, set); j++)
			;
		if (used + 24 >= len) {
			snprintf(out + used, len - used, "...");
			return;
		}
		used += (size_t)snprintf(out + used, len - used, used ? ",%d" : "%d", i);
		if (j > i)
			used += (size_t)snprintf(out + used, len - used, "-%d", j);
		i = j;
	}
}

void gb_cpu_limits_get(gb_cpu_limits *l)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int cap;

	memset(l, 0, sizeof(*l));
	l->online = online > 0 ? (int)online : 1;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
		l->affinity = CPU_COUNT(&set);
		cpu_list(&set, l->affinity_list, sizeof(l->affinity_list));
	} else {
		l->affinity = l->online;
		snprintf(l->affinity_list, sizeof(l->affinity_list), "0-%d", l->online - 1);
	}
	l->quota = gb_cgroup_cpu_quota("/proc/self/cgroup", "/sys/fs/cgroup");
	l->usable = l->affinity;
	/* rounded up, as the JVM and .NET size their pools: 1.5 CPUs keep two threads busy part of the time */
	cap = l->quota > 0 ? (int)ceil(l->quota - 1e-9) : 0;
	if (cap > 0 && cap < l->usable)
		l->usable = cap;
	if (l->usable < 1)
		l->usable = 1;
}

int gb_cpu_count(void)
{
	gb_cpu_limits l;

	gb_cpu_limits_get(&l);
	return l.usable;
}
