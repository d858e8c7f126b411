/* The clock samples of the GPU a run uses, while it is timed (common/gpu_monitor.h). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "common/gpu_monitor.h"
#include "common/json.h"
#include "common/nvml.h"

#define PERIOD_NS 100000000L

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	gb_gpu_sampler fn;
	void *dev;
	int timing, thread_started;
	/* over every sample, and over those the GPU was busy */
	uint64_t n, busy, reasons;
	unsigned sm_min[2], sm_max[2], mem_min[2], mem_max[2];
	double sm_sum[2], mem_sum[2];
} mon = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static int nvml_sample(void *dev, gb_gpu_sample *s)
{
	if (gb_nvml_clocks(dev, &s->sm_mhz, &s->mem_mhz) != 0)
		return -1;
	if (gb_nvml_reasons(dev, &s->reasons) != 0)
		s->reasons = 0;
	return 0;
}

static void add(unsigned i, const gb_gpu_sample *s)
{
	uint64_t count = i ? mon.busy : mon.n;
	if (!count || s->sm_mhz < mon.sm_min[i])
		mon.sm_min[i] = s->sm_mhz;
	if (!count || s->mem_mhz < mon.mem_min[i])
		mon.mem_min[i] = s->mem_mhz;
	if (s->sm_mhz > mon.sm_max[i])
		mon.sm_max[i] = s->sm_mhz;
	if (s->mem_mhz > mon.mem_max[i])
		mon.mem_max[i] = s->mem_mhz;
	mon.sm_sum[i] += s->sm_mhz;
	mon.mem_sum[i] += s->mem_mhz;
}

/* One sample into the totals; called with mon.mu held. */
static void sample_locked(void)
{
	gb_gpu_sample s = {0, 0, 0};

	if (!mon.fn || mon.fn(mon.dev, &s) != 0)
		return;
	add(0, &s);
	mon.n++;
	if (!(s.reasons & GB_NVML_IDLE)) {
		add(1, &s);
		mon.busy++;
	}
	mon.reasons |= s.reasons;
}

/* Every PERIOD_NS while a repetition is timed, for repetitions longer than that. */
static void *sampler(void *arg)
{
	struct timespec t;

	(void)arg;
	pthread_mutex_lock(&mon.mu);
	for (;;) {
		while (!mon.timing)
			pthread_cond_wait(&mon.cv, &mon.mu);
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += PERIOD_NS;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&mon.cv, &mon.mu, &t);
		if (mon.timing)
			sample_locked();
	}
	return NULL;
}

static void reset_locked(gb_gpu_sampler fn, void *dev)
{
	mon.fn = fn;
	mon.dev = dev;
	mon.n = mon.busy = mon.reasons = 0;
	for (int i = 0; i < 2; i++) {
		mon.sm_min[i] = mon.sm_max[i] = mon.mem_min[i] = mon.mem_max[i] = 0;
		mon.sm_sum[i] = mon.mem_sum[i] = 0;
	}
}

void gb_gpu_monitor_attach(const char *uuid)
{
	void *dev = gb_nvml_device(uuid);

	pthread_mutex_lock(&mon.mu);
	if (dev && dev != mon.dev)
		reset_locked(nvml_sample, dev);
	pthread_mutex_unlock(&mon.mu);
}

void gb_gpu_monitor_use(gb_gpu_sampler fn, void *dev)
{
	pthread_mutex_lock(&mon.mu);
	reset_locked(fn, dev);
	pthread_mutex_unlock(&mon.mu);
}

void gb_gpu_monitor_timing(int on)
{
	pthread_t t;

	pthread_mutex_lock(&mon.mu);
	if (!mon.fn) {
		pthread_mutex_unlock(&mon.mu);
		return;
	}
	if (on && !mon.thread_started && pthread_create(&t, NULL, sampler, NULL) == 0) {
		pthread_detach(t);
		mon.thread_started = 1;
	}
	sample_locked();
	mon.timing = on;
	pthread_cond_broadcast(&mon.cv);
	pthread_mutex_unlock(&mon.mu);
}

static void clock_stats(cJSON *o, const char *key, unsigned lo, unsigned hi, double sum, uint64_t n)
{
	cJSON *c = cJSON_AddObjectToObject(o, key);
	gb_json_u64(c, "min", lo);
	gb_json_u64(c, "max", hi);
	gb_json_num(c, "mean", sum / (double)n);
}

void gb_gpu_monitor_json(cJSON *device)
{
	char why[256] = "", version[96];
	const char *names[16];
	unsigned i, k;
	cJSON *t, *r;

	if (!gb_nvml_open(why, sizeof(why)) && !mon.fn) {
		cJSON_AddNullToObject(device, "driver_version");
		cJSON_AddNullToObject(device, "during_timing");
		gb_json_str(device, "nvml_error", why);
		return;
	}
	if (gb_nvml_driver_version(version, sizeof(version)) == 0)
		gb_json_str(device, "driver_version", version);
	else
		cJSON_AddNullToObject(device, "driver_version");
	pthread_mutex_lock(&mon.mu);
	if (!mon.fn) {
		cJSON_AddNullToObject(device, "during_timing");
		gb_json_str(device, "nvml_error", "NVML does not know the device by its UUID");
		pthread_mutex_unlock(&mon.mu);
		return;
	}
	t = cJSON_AddObjectToObject(device, "during_timing");
	gb_json_u64(t, "samples", mon.n);
	gb_json_u64(t, "busy_samples", mon.busy);
	i = mon.busy ? 1 : 0;
	if (mon.n) {
		clock_stats(t, "sm_clock_mhz", mon.sm_min[i], mon.sm_max[i], mon.sm_sum[i], i ? mon.busy : mon.n);
		clock_stats(t, "memory_clock_mhz", mon.mem_min[i], mon.mem_max[i], mon.mem_sum[i],
			    i ? mon.busy : mon.n);
	} else {
		cJSON_AddNullToObject(t, "sm_clock_mhz");
		cJSON_AddNullToObject(t, "memory_clock_mhz");
	}
	r = cJSON_AddArrayToObject(t, "clock_reasons");
	k = gb_nvml_reason_names(mon.reasons, names, 16);
	for (i = 0; i < k; i++)
		cJSON_AddItemToArray(r, cJSON_CreateString(names[i]));
	if (mon.n)
		gb_json_bool(t, "throttled", (mon.reasons & GB_NVML_THROTTLING) != 0);
	else
		cJSON_AddNullToObject(t, "throttled");
	pthread_mutex_unlock(&mon.mu);
}
