/* common/gpu_monitor.c: the clocks of a fake GPU summed up over timed repetitions. */
#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "common/gpu_monitor.h"
#include "common/nvml.h"
#include "tests/unit/test.h"

/* What the fake GPU reports, whenever it is sampled. */
static gb_gpu_sample fake_now;

static int fake_sample(void *dev, gb_gpu_sample *s)
{
	(void)dev;
	*s = fake_now;
	return 0;
}

/* One timed repetition while the fake GPU reports s. */
static void timed_while(unsigned sm, unsigned mem, uint64_t reasons)
{
	fake_now.sm_mhz = sm;
	fake_now.mem_mhz = mem;
	fake_now.reasons = reasons;
	gb_gpu_monitor_timing(1);
	gb_gpu_monitor_timing(0);
}

/* The device block as a reader parses it: gb_json_u64 writes counters as raw text. */
static cJSON *block(void)
{
	cJSON *d = cJSON_CreateObject(), *p;
	char *text;

	gb_gpu_monitor_json(d);
	text = cJSON_PrintUnformatted(d);
	p = cJSON_Parse(text);
	free(text);
	cJSON_Delete(d);
	return p;
}

static double num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItem(o, a);
	return cJSON_GetObjectItem(b ? x : o, b ? b : a)->valuedouble;
}

TEST(gpu_monitor_sums_clocks_over_busy_samples_and_flags_power_caps)
{
	cJSON *d, *t, *r;
	int dummy;

	gb_gpu_monitor_use(fake_sample, &dummy);
	timed_while(1410, 2619, 0);
	timed_while(345, 1593, GB_NVML_IDLE); /* idle between kernels: not a clock of the run */
	timed_while(1200, 2619, GB_NVML_SW_POWER_CAP);
	d = block();
	t = cJSON_GetObjectItem(d, "during_timing");
	REQUIRE(cJSON_IsObject(t));
	/* two samples a repetition, more if the 100 ms sampler woke within one */
	CHECK(num(t, "samples", NULL) >= 6);
	CHECK(num(t, "busy_samples", NULL) >= 4 && num(t, "busy_samples", NULL) < num(t, "samples", NULL));
	CHECK_EQ(num(t, "sm_clock_mhz", "min"), 1200);
	CHECK_EQ(num(t, "sm_clock_mhz", "max"), 1410);
	CHECK(num(t, "sm_clock_mhz", "mean") >= 1200 && num(t, "sm_clock_mhz", "mean") <= 1410);
	CHECK_EQ(num(t, "memory_clock_mhz", "min"), 2619);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(t, "throttled")));
	r = cJSON_GetObjectItem(t, "clock_reasons");
	REQUIRE(cJSON_GetArraySize(r) == 2);
	CHECK_STR_EQ(cJSON_GetArrayItem(r, 0)->valuestring, "gpu_idle");
	CHECK_STR_EQ(cJSON_GetArrayItem(r, 1)->valuestring, "sw_power_cap");
	cJSON_Delete(d);
}

TEST(gpu_monitor_an_idle_or_unthrottled_gpu_is_not_throttled)
{
	cJSON *d, *t;
	int dummy;

	gb_gpu_monitor_use(fake_sample, &dummy);
	timed_while(1980, 2619, GB_NVML_IDLE | GB_NVML_APP_CLOCKS);
	d = block();
	t = cJSON_GetObjectItem(d, "during_timing");
	REQUIRE(cJSON_IsObject(t));
	CHECK_EQ(num(t, "busy_samples", NULL), 0);
	/* no busy sample: the clocks are those of every sample */
	CHECK_EQ(num(t, "sm_clock_mhz", "min"), 1980);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(t, "throttled")));
	cJSON_Delete(d);
}

TEST(gpu_monitor_without_a_timed_repetition_has_no_clocks)
{
	cJSON *d, *t;
	int dummy;

	gb_gpu_monitor_use(fake_sample, &dummy);
	d = block();
	t = cJSON_GetObjectItem(d, "during_timing");
	REQUIRE(cJSON_IsObject(t));
	CHECK_EQ(num(t, "samples", NULL), 0);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(t, "sm_clock_mhz")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(t, "throttled")));
	cJSON_Delete(d);
}

TEST(nvml_reason_names_in_bit_order)
{
	const char *names[16];
	unsigned n = gb_nvml_reason_names(GB_NVML_HW_THERMAL | GB_NVML_SW_POWER_CAP | GB_NVML_HW_POWER_BRAKE, names, 16);

	REQUIRE(n == 3);
	CHECK_STR_EQ(names[0], "sw_power_cap");
	CHECK_STR_EQ(names[1], "hw_thermal_slowdown");
	CHECK_STR_EQ(names[2], "hw_power_brake_slowdown");
	CHECK_EQ(gb_nvml_reason_names(GB_NVML_THROTTLING, names, 2), 2);
}
