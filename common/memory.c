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

/* Bytes of term t. */
static uint64_t share_of(const gb_memory_term *t)
{
	return product(product(t->value, t->bytes_each), t->opt2 ? t->value2 : 1);
}

void gb_memory_fit(const char *cmd, const char *where, uint64_t avail, uint64_t fixed,
		   const gb_memory_term *terms, unsigned n)
{
	const gb_memory_term *t;
	uint64_t need = fixed, share, rest, fits;
	unsigned k, big = 0;

	for (k = 0; k < n; k++) {
		need = sum(need, share_of(&terms[k]));
		if (share_of(&terms[k]) > share_of(&terms[big]))
			big = k;
	}
	if (need <= avail)
		return;
	t = &terms[big];
	share = share_of(t);
	rest = need - share;
	if (t->opt2) {
		/* a product: the most of each factor that fits with the other as given */
		uint64_t each1 = product(t->bytes_each, t->value2), each2 = product(t->bytes_each, t->value);
		uint64_t fits1 = rest < avail && each1 ? (avail - rest) / each1 : 0;
		uint64_t fits2 = rest < avail && each2 ? (avail - rest) / each2 : 0;
		char fit[2][128] = {"", ""};
		if (fits1)
			snprintf(fit[0], sizeof(fit[0]), "--%s %" PRIu64 " with --%s %" PRIu64, t->opt, fits1, t->opt2,
				 t->value2);
		if (fits2)
			snprintf(fit[1], sizeof(fit[1]), "--%s %" PRIu64 " with --%s %" PRIu64, t->opt2, fits2, t->opt,
				 t->value);
		if (fits1 || fits2)
			gb_die(GB_EXIT_RUNTIME, "%s: --%s %" PRIu64 " x --%s %" PRIu64 " need about %.1f GiB of %s "
			       "memory and %.1f GiB is available: at most %s%s%s", cmd, t->opt, t->value, t->opt2,
			       t->value2, need / 1073741824.0, where, avail / 1073741824.0, fit[0],
			       fits1 && fits2 ? ", or " : "", fit[1]);
		gb_die(GB_EXIT_RUNTIME, "%s: this run needs about %.1f GiB of %s memory and %.1f GiB is available, "
		       "even with --%s and --%s at their smallest", cmd, need / 1073741824.0, where,
		       avail / 1073741824.0, t->opt, t->opt2);
	}
	fits = rest < avail && t->bytes_each ? (avail - rest) / t->bytes_each : 0;
	if (fits)
		gb_die(GB_EXIT_RUNTIME, "%s: --%s %" PRIu64 " needs about %.1f GiB of %s memory and %.1f GiB "
		       "is available: the largest --%s that fits is %" PRIu64, cmd, terms[big].opt,
		       terms[big].value, need / 1073741824.0, where, avail / 1073741824.0, terms[big].opt,
		       fits);
	gb_die(GB_EXIT_RUNTIME, "%s: this run needs about %.1f GiB of %s memory and %.1f GiB is "
	       "available, even with --%s at its smallest", cmd, need / 1073741824.0, where,
	       avail / 1073741824.0, terms[big].opt);
}
