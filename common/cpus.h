/*
 * The CPUs this process may run on: those of its affinity mask
 * (sched_getaffinity: taskset, Slurm's and numactl's CPU sets), bounded by
 * the CPU quota of its cgroup (v2 cpu.max, v1 cpu.cfs_quota_us: containers,
 * Slurm with cgroup limits), rather than the machine's. CPU baselines
 * default to this many workers, so a job given 4 CPUs of 64 runs 4 threads,
 * and reports record it.
 */
#ifndef GB_CPUS_H
#define GB_CPUS_H

#include <stddef.h>

typedef struct gb_cpu_limits {
	int online;          /* the machine's online logical CPUs */
	int affinity;        /* CPUs in the affinity mask */
	char affinity_list[256]; /* them, as "0-3,8" (cut with "..." when longer) */
	double quota;        /* the cgroup quota in CPUs (1.5: 150 ms per 100 ms); 0: none */
	int usable;          /* min(affinity, quota rounded up), at least 1 */
} gb_cpu_limits;

void gb_cpu_limits_get(gb_cpu_limits *l);

/* The CPUs this process may use: gb_cpu_limits' usable. */
int gb_cpu_count(void);

/*
 * The smallest CPU quota, in CPUs, of the cgroups named in the file
 * proc_cgroup (as /proc/self/cgroup) and their ancestors, read under sysfs
 * (as /sys/fs/cgroup): v2's cpu.max and v1's cpu controller's
 * cpu.cfs_quota_us over cpu.cfs_period_us. 0 when there is none.
 */
double gb_cgroup_cpu_quota(const char *proc_cgroup, const char *sysfs);

#endif
