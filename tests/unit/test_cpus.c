/* common/cpus.c: the CPUs a process may use, its cgroup CPU quota read from a fake tree. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cpus.h"
#include "tests/unit/test.h"

/* Write text to root/rel, making its folders. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[4096], *slash;
	FILE *f;

	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(cgroup_v2_quota_is_the_smallest_on_the_way_up)
{
	char root[4096], proc[4200];

	snprintf(root, sizeof(root), "%s/v2", tu_tmpdir());
	snprintf(proc, sizeof(proc), "%s/cgroup", root);
	put(root, "cgroup", "0::/slurm/job7/step0\n");
	put(root, "sys/cpu.max", "max 100000\n");
	put(root, "sys/slurm/cpu.max", "800000 100000\n");
	put(root, "sys/slurm/job7/cpu.max", "250000 100000\n");
	put(root, "sys/slurm/job7/step0/cpu.max", "max 100000\n");
	snprintf(root + strlen(root), sizeof(root) - strlen(root), "/sys");
	CHECK_NEAR(gb_cgroup_cpu_quota(proc, root), 2.5, 1e-12);
}

TEST(cgroup_v2_without_a_quota_is_none)
{
	char root[4096], proc[4200];

	snprintf(root, sizeof(root), "%s/v2max", tu_tmpdir());
	snprintf(proc, sizeof(proc), "%s/cgroup", root);
	put(root, "cgroup", "0::/\n");
	put(root, "sys/cpu.max", "max 100000\n");
	snprintf(root + strlen(root), sizeof(root) - strlen(root), "/sys");
	CHECK_NEAR(gb_cgroup_cpu_quota(proc, root), 0, 0);
	CHECK_NEAR(gb_cgroup_cpu_quota("/nonexistent/cgroup", root), 0, 0);
}

TEST(cgroup_v1_quota_of_the_cpu_controller)
{
	char root[4096], proc[4200];

	snprintf(root, sizeof(root), "%s/v1", tu_tmpdir());
	snprintf(proc, sizeof(proc), "%s/cgroup", root);
	/* the cpu controller shares a hierarchy with cpuacct; memory's path must not be read */
	put(root, "cgroup", "4:memory:/elsewhere\n3:cpu,cpuacct:/docker/abc\n0::/\n");
	put(root, "sys/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	put(root, "sys/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	put(root, "sys/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "150000\n");
	put(root, "sys/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
	put(root, "sys/memory/elsewhere/cpu.cfs_quota_us", "10000\n");
	put(root, "sys/memory/elsewhere/cpu.cfs_period_us", "100000\n");
	snprintf(root + strlen(root), sizeof(root) - strlen(root), "/sys");
	CHECK_NEAR(gb_cgroup_cpu_quota(proc, root), 1.5, 1e-12);
}

static void one_cpu(void *arg)
{
	gb_cpu_limits l;
	cpu_set_t set;
	int *cpu = arg;

	CPU_ZERO(&set);
	CPU_SET(*cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		exit(10);
	gb_cpu_limits_get(&l);
	if (l.affinity != 1 || l.usable != 1 || gb_cpu_count() != 1)
		exit(11);
	if (atoi(l.affinity_list) != *cpu || strchr(l.affinity_list, ',') || strchr(l.affinity_list, '-'))
		exit(12);
	if (l.online < 1)
		exit(13);
}

TEST(cpu_limits_follow_the_affinity_mask)
{
	gb_cpu_limits l;
	cpu_set_t set;
	char err[256];
	int cpu = 0;

	CPU_ZERO(&set);
	REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
	gb_cpu_limits_get(&l);
	CHECK_EQ(l.affinity, CPU_COUNT(&set));
	CHECK(l.usable >= 1 && l.usable <= l.affinity);
	CHECK(l.affinity_list[0] != '\0');
	while (!CPU_ISSET(cpu, &set))
		cpu++;
	/* a child pinned to one CPU of ours sees one, and names it */
	CHECK_EQ_I(tu_run_child(one_cpu, &cpu, err, sizeof(err)), 0);
}
