/*
 * The five-phase speculative runtime (scheduling, computation, misspeculation
 * check, commit, recovery; section 2 of Feng, Gupta and Bhuyan) and the
 * device backends it drives. The runtime itself is host code shared by every
 * backend; a backend owns device memory and runs the steps of
 * speculation/check.h over an assignment.
 */
#ifndef GB_SPEC_RUNTIME_H
#define GB_SPEC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "api/loop.h"
#include "speculation/check.h"

/* Device buffers the runtime copies to and from. */
enum sp_buffer { SP_BUF_A = 0, SP_BUF_COUNTERS, SP_BUF_MLIST, SP_BUF_WLIST, SP_BUF_SIDX,
		 SP_BUF_SVAL, SP_BUF_ROUNDS, SP_BUF_INPUTS /* idx then in; not with host_memory */,
		 SP_BUF_ROWS, SP_BUF_PLAN /* with SP_OPEN_RESIDENT */, SP_NBUFFERS };

/* open's flags. RESIDENT: a memory loop kept on the device (the committed copy, the
 * misspeculated iterations' rows and the replay plan, speculation/check.h). */
enum { SP_OPEN_RESIDENT = 1, SP_OPEN_SHADOW = 2 /* the rounds' lookahead: a second A */ };
/* Words of the replay plan for assignments of up to n iterations. */
#define SP_PLAN_WORDS(n) (2 * (size_t)(n) + 2)

typedef struct sp_backend {
	const char *name;
	int host_memory; /* the device is the host: read-only inputs are used in place, not copied */
	/* Device state for p with room for assignments of up to max_count iterations,
	 * allocated but not filled (the array poisoned); host is the host array the run copies
	 * to and from (the GPU backend page-locks it and the inputs). workers: host threads
	 * (CPU backend). flags: SP_OPEN_*. */
	void *(*open)(const sp_problem *p, uint32_t *host, uint32_t max_count, unsigned workers,
		      unsigned flags);
	/* Run step kernel for threads 0..count-1 over the assignment at start, with scalars s. */
	void (*launch)(void *ctx, unsigned kernel, uint32_t start, uint32_t count,
		       const float s[SP_NSCALARS]);
	/* Wait for the launched steps (what names them in errors); copies wait by themselves,
	 * except the background ones below. */
	void (*sync)(void *ctx, const char *what);
	void (*upload)(void *ctx, unsigned buf, size_t off_words, const uint32_t *src, size_t words);
	void (*download)(void *ctx, unsigned buf, size_t off_words, uint32_t *dst, size_t words);
	/* Background copies, which may overlap the steps launched after them and are complete
	 * at the next drain; neither the device range nor the host one may be used until then.
	 * A download starts once the steps launched before it are done. */
	void (*upload_async)(void *ctx, unsigned buf, size_t off_words, const uint32_t *src,
			     size_t words);
	void (*download_async)(void *ctx, unsigned buf, size_t off_words, uint32_t *dst, size_t words);
	void (*drain)(void *ctx, const char *what);
	/* Page-lock another host buffer the run copies into (the no-co staging buffer), as
	 * open does the host array, so that its copies run at the link's speed; unlocked at
	 * close. NULL where copies need no locking (the CPU backend). */
	void (*pin)(void *ctx, const void *p, size_t bytes);
	void (*close)(void *ctx);
} sp_backend;

extern const sp_backend sp_backend_cpu;
#ifdef GB_HAVE_CUDA
extern const sp_backend sp_backend_gpu;
#endif

/* The ablations of Figure 8, one optimization left out each, and none: all three left out,
 * Figure 10's "w/o opts". */
enum sp_opt { SP_OPT_ALL = 0, SP_OPT_NO_MO, SP_OPT_NO_CO, SP_OPT_NO_SCHED, SP_OPT_NONE, SP_NOPTS };
extern const char *const sp_opt_names[]; /* "all", "no-mo", "no-co", "no-sched", "none" */

/* Whether --opt keeps misspeculation localization, the copy optimization, the schedule. */
static inline int sp_opt_localizes(unsigned opt)
{
	return opt != SP_OPT_NO_MO && opt != SP_OPT_NONE;
}
static inline int sp_opt_copies_less(unsigned opt)
{
	return opt != SP_OPT_NO_CO && opt != SP_OPT_NONE;
}
static inline int sp_opt_schedules(unsigned opt)
{
	return opt != SP_OPT_NO_SCHED && opt != SP_OPT_NONE;
}

/* The runtime's interval schedule for Figure 6(c) loops: the paper's, or wide (speculation/check.h). */
enum sp_schedule { SP_SCHED_PAPER = 0, SP_SCHED_WIDE, SP_SCHED_LOOKAHEAD, SP_NSCHEDULES };
extern const char *const sp_schedule_names[]; /* "paper", "wide", "lookahead" */

typedef struct sp_config {
	unsigned opt;           /* enum sp_opt */
	double threshold;       /* SP_MEM: halve above this misspeculation rate */
	uint32_t clean_run;     /* SP_MEM: double after this many clean assignments */
	uint32_t max_assignment; /* 0: no limit beyond the policy */
	unsigned workers;       /* CPU backend threads */
	double timeout_s;       /* give up after this long (0: never) */
	unsigned schedule;      /* enum sp_schedule, of the runtime (cpu-spec keeps the paper's) */
} sp_config;

/* inputs: the read-only inputs copied in; setup: the array and counters copied in. */
enum sp_phase { SP_PH_INPUTS = 0, SP_PH_SETUP, SP_PH_SCHEDULE, SP_PH_COMPUTE, SP_PH_CHECK,
		SP_PH_COMMIT, SP_PH_RECOVERY, SP_NPHASES };
extern const char *const sp_phase_names[];

/* What one execution of the loop did. */
typedef struct sp_result {
	double phase_s[SP_NPHASES];
	double total_s;
	uint64_t assignments, assignments_misspeculated;
	uint64_t iterations_gpu;        /* iterations executed speculatively (all attempts) */
	uint64_t misspeculated;         /* iterations found misspeculated */
	uint64_t reexecuted;            /* iterations re-executed on the CPU */
	uint64_t deferred;              /* iterations handed to the next assignment (Figure 6(c)) */
	uint64_t wrong_elements;        /* elements not committed */
	uint64_t detections;            /* assignments where detection fired */
	uint64_t raw_war, waw;          /* assignments with each kind of dependence */
	uint64_t bytes_in, bytes_out;   /* host to device, device to host */
	uint64_t min_assignment, max_assignment;
	int incomplete;                 /* the timeout cut it short */
	char error[160];                /* a runtime failure (trace overflow) */
} sp_result;

/*
 * Section 4's scheduling policy, which the runtime and CPU speculation
 * (speculation/cpu_spec.c) share: the first assignment gets n/m iterations
 * for irregular memory (m elements written per iteration), all of them for
 * irregular control flow, never more than --max-assignment.
 */
typedef struct sp_sched {
	uint32_t size, cap, clean;
	uint32_t floor, grow;    /* Figure 6(c) loops: the wide schedule's (0, 0: the paper's) */
	float delta[SP_NSCALARS]; /* the lookahead's prediction: what the last branch added */
	int64_t last_branch;     /* Figure 6(c) loops: the last iteration seen to branch */
	uint64_t interval_sum, intervals;
} sp_sched;

uint32_t sp_first_assignment(const sp_problem *p, const sp_config *c);
void sp_sched_init(sp_sched *sc, uint32_t cap);
/* The next size after an assignment of count iterations with miss misspeculated: halve above
 * the threshold, double after clean_run clean ones (irregular memory); the mean interval
 * between branches when all_from (SP_NONE: none) names one (an all-subsequent clause), at
 * least floor, and with grow twice the size after a full assignment that named none. */
void sp_sched_after(sp_sched *sc, const sp_problem *p, const sp_config *c, uint32_t count,
		    uint64_t miss, uint32_t all_from);

/*
 * Run the whole loop speculatively on backend b. host holds the array (the
 * initial state on entry, the result on return) and scalars are the
 * loop-carried scalars, updated likewise. Returns 0, or -1 with r->error set.
 */
int sp_run(const sp_backend *b, const sp_problem *p, const sp_config *c, uint32_t *host,
	   float scalars[SP_NSCALARS], sp_result *r);

/* Add the time from *t to now (or to at, when not 0) to phase ph of r; *t moves there. For
 * the host's own runs (speculation/cpu_spec.c, cpu_inspect.c), timed phase by phase. */
void sp_phase_to(sp_result *r, unsigned ph, uint64_t *t, uint64_t at);

/*
 * Whether a run that started at t0 (gb_now_ns) must stop: c->timeout_s has
 * passed, or --timeout or a signal stopped the process's run (common/stop.h).
 */
int sp_out_of_time(const sp_config *c, uint64_t t0);

/* The sequential loop (the baseline and the oracle): iterations lo..hi-1 on host. */
void sp_run_sequential(const sp_problem *p, uint32_t *host, float scalars[SP_NSCALARS],
		       uint32_t lo, uint32_t hi);

/*
 * The loop run in parallel with no tracking and no check (--compare
 * gpu-nospec): correct only for a loop without runtime dependences, which
 * the caller verifies. Fills r's setup, compute and commit times and bytes.
 */
void sp_run_nospec(const sp_backend *b, const sp_problem *p, const sp_config *c, uint32_t *host,
		   sp_result *r);

#endif
