/* speculate's baselines (speculation/baselines.h): the loop in order, unchecked, or on the host's cores. */
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "speculation/baselines.h"
#include "speculation/cpu_inspect.h"
#include "speculation/cpu_spec.h"
#include "speculation/cpu_tm.h"

#define CPU GB_BACKEND_MASK(GB_BACKEND_CPU)
#define GPU GB_BACKEND_MASK(GB_BACKEND_GPU)

/* The sequential host loop, timed as one computation phase in which every iteration runs in order. */
static int run_seq(const sp_backend *be, const sp_problem *p, const sp_config *c, uint32_t *host,
		   float scalars[SP_NSCALARS], sp_result *r)
{
	uint64_t t0 = gb_now_ns();

	(void)be;
	(void)c;
	memset(r, 0, sizeof(*r));
	sp_run_sequential(p, host, scalars, 0, p->args.n);
	r->total_s = r->phase_s[SP_PH_COMPUTE] = gb_seconds_since(t0);
	r->reexecuted = p->args.n;
	return 0;
}

static int run_cpu_spec(const sp_backend *be, const sp_problem *p, const sp_config *c, uint32_t *host,
			float scalars[SP_NSCALARS], sp_result *r)
{
	(void)be;
	return sp_cpu_spec_run(p, c, host, scalars, r);
}

static int run_cpu_tm(const sp_backend *be, const sp_problem *p, const sp_config *c, uint32_t *host,
		      float scalars[SP_NSCALARS], sp_result *r)
{
	(void)be;
	return sp_cpu_tm_run(p, c, host, scalars, r);
}

static int refuses_cpu_inspect(const sp_loop *loop, double density, char *why, size_t len)
{
	(void)density;
	if (sp_cpu_inspect_ok(loop))
		return 0;
	return gb_errmsg(why, len, "%s is a control-flow loop; cpu-inspect runs the irregular-memory loops "
			 "(ocean, trfd, fftbench, figure3)", loop->head.name);
}

static int run_cpu_inspect(const sp_backend *be, const sp_problem *p, const sp_config *c, uint32_t *host,
			   float scalars[SP_NSCALARS], sp_result *r)
{
	(void)be;
	(void)scalars;
	return sp_cpu_inspect_run(p, c, host, r);
}

/* Running unchecked is right only where the loop has no runtime dependence. */
static int refuses_nospec(const sp_loop *loop, double density, char *why, size_t len)
{
	if (loop->nospec_ok && density <= 0)
		return 0;
	return gb_errmsg(why, len, "%s has runtime dependences at density %g (only fftbench and alvinn at "
			 "density 0 have none)", loop->head.name, density);
}

static int run_nospec(const sp_backend *be, const sp_problem *p, const sp_config *c, uint32_t *host,
		      float scalars[SP_NSCALARS], sp_result *r)
{
	(void)scalars;
	sp_run_nospec(be, p, c, host, r);
	return 0;
}

static const sp_baseline seq = {
	.head = {.name = "seq", .summary = "sequential host loop", .backends = CPU},
	.run = run_seq,
};

static const sp_baseline cpu_spec = {
	.head = {.name = "cpu-spec",
		 .summary = "speculation designed for the host's cores: chunks with private logs, checked and "
			    "committed in parallel",
		 .backends = CPU},
	.run = run_cpu_spec,
};

static const sp_baseline cpu_tm = {
	.head = {.name = "cpu-tm",
		 .summary = "the paper's CPU speculation: each iteration a transaction of a word-based STM "
			    "(TL2's clock and versioned locks) on the host's cores, committed in loop order",
		 .backends = CPU},
	.run = run_cpu_tm,
};

static const sp_baseline cpu_inspect = {
	.head = {.name = "cpu-inspect",
		 .summary = "irregular-memory loops only: each iteration's elements named ahead from the inputs, "
			    "the iterations no other worker touches in conflict run in place in parallel, the "
			    "others in order",
		 .backends = CPU},
	.refuses = refuses_cpu_inspect,
	.run = run_cpu_inspect,
};

static const sp_baseline gpu_nospec = {
	.head = {.name = "gpu-nospec",
		 .summary = "no tracking or check; fftbench and alvinn at density 0 only",
		 .backends = GPU | CPU},
	.refuses = refuses_nospec,
	.run = run_nospec,
};

const sp_baseline *const sp_baselines[] = {&seq, &cpu_tm, &cpu_spec, &cpu_inspect, &gpu_nospec, NULL};
