#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "common/error.h"
#include "common/memory.h"

/* The number after key on the first line of path that starts with key; 0 when there is none. */
static int read_number(const char *path, const char *key, uint64_t *out)
{
	char line[256];
	FILE *f = fopen(path, "r");
	int found = 0;
	size_t klen = strlen(key);

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long v;
		if (strncmp(line, key, klen) == 0 && sscanf(line + klen, " %llu", &v) == 1) {
			*out = v;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

uint64_t gb_host_memory_available(void)
{
	uint64_t avail = UINT64_MAX, v, used;
	struct rlimit rl;

	if (read_number("/proc/meminfo", "MemAvailable:", &v))
		avail = v * 1024; /* kB */
	if (read_number("/sys/fs/cgroup/memory.max", "", &v) &&
	    read_number("/sys/fs/cgroup/memory.current", "", &used)) {
		uint64_t left = v > used ? v - used : 0;
		if (left < avail)
			avail = left;
	}
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (uint64_t)rl.rlim_cur < avail)
		avail = (uint64_t)rl.rlim_cur;
	return avail;
}

static uint64_t product(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t sum(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void gb_memory_fit(const char *cmd, const char *where, uint64_t avail, uint64_t fixed,
		   const gb_memory_term *terms, unsigned n)
{
	uint64_t need = fixed, share, rest, fits;
	unsigned k, big = 0;

	for (k = 0; k < n; k++) {
		need = sum(need, product(terms[k].value, terms[k].bytes_each));
		if (product(terms[k].value, terms[k].bytes_each) >
		    product(terms[big].value, terms[big].bytes_each))
			big = k;
	}
	if (need <= avail)
		return;
	share = product(terms[big].value, terms[big].bytes_each);
	rest = need - share;
	fits = rest < avail && terms[big].bytes_each ? (avail - rest) / terms[big].bytes_each : 0;
	if (fits)
		gb_die(GB_EXIT_RUNTIME, "%s: --%s %" PRIu64 " needs about %.1f GiB of %s memory and %.1f GiB "
		       "is available: the largest --%s that fits is %" PRIu64, cmd, terms[big].opt,
		       terms[big].value, need / 1073741824.0, where, avail / 1073741824.0, terms[big].opt,
		       fits);
	gb_die(GB_EXIT_RUNTIME, "%s: this run needs about %.1f GiB of %s memory and %.1f GiB is "
	       "available, even with --%s at its smallest", cmd, need / 1073741824.0, where,
	       avail / 1073741824.0, terms[big].opt);
}
