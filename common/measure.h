/*
 * One measurement loop and one result model for every subcommand (after
 * nvbench's measurement loop): --warmup untimed and --reps timed repetitions
 * (warm-up by time too), --timeout with incomplete marking, --verify-every,
 * the statistics of each implementation's times, and what its checks found.
 *
 * A subcommand opens a gb_measure, adds an entry per implementation (the
 * --impl first, then --compare's in order) and hands the loop one function
 * that runs one repetition of one entry. The loop decides which repetitions
 * are timed and which are checked, stops at --timeout, draws the progress
 * line and records the samples; the report and the summary are both rendered
 * from what it recorded (gb_report_results, gb_report_summary in
 * common/report.h), so a number in one is the number in the other.
 */
#ifndef GB_MEASURE_H
#define GB_MEASURE_H

#include <pthread.h>
#include <stdint.h>

#include "common/impl.h"
#include "common/options.h"
#include "common/progress.h"
#include "common/stats.h"

/* Per-repetition values an entry keeps besides its time (speculate: one per phase). */
#define GB_MEASURE_MAX_TRACKS 8

/* Which repetitions are checked against the oracle. */
typedef enum gb_check_policy {
	/* The last repetition, unit by unit: every --verify-every-th unit (event,
	 * decision). The report counts the units checked. */
	GB_CHECK_LAST,
	/* Every --verify-every-th timed repetition, whole. The report counts the
	 * repetitions checked. */
	GB_CHECK_REPS,
	/* Every timed repetition is offered; the function checks the units inside
	 * it that it picks (stm: every --verify-every-th batch of the entry) and
	 * counts them. A repetition that checked no unit does not count as
	 * checked. The report counts the units checked. */
	GB_CHECK_UNITS,
} gb_check_policy;

/* One repetition, as the loop hands it to the subcommand. */
typedef struct gb_rep {
	uint64_t index;        /* 0.. over warm-up and timed repetitions */
	uint64_t count;        /* all of them: --warmup + --reps, and one more while warm-up by time goes on */
	int timed;             /* a timed repetition, not warm-up */
	uint32_t timed_index;  /* its place among the timed ones */
	int last;              /* the final repetition: the one whose details are reported */
	int check;             /* check it against the oracle (the policy and --verify-every say so) */
} gb_rep;

/* What a repetition gives back. */
typedef struct gb_rep_out {
	double seconds;                        /* its measured time */
	double track[GB_MEASURE_MAX_TRACKS];   /* its other per-repetition values */
	uint64_t checked;                      /* units compared with the oracle (GB_CHECK_LAST, GB_CHECK_UNITS) */
	uint64_t wrong;                        /* of them, those that differed */
} gb_rep_out;

typedef enum gb_rep_end {
	GB_REP_DONE, /* it finished: its time is a sample */
	/* --timeout came first: no sample, and the run is incomplete. What it
	 * checked before it stopped still counts (stm checks the committed part of
	 * a batch whose threads stopped at the deadline). */
	GB_REP_CUT,
} gb_rep_end;

/* What one implementation measured: the result model's entry. */
typedef struct gb_measured {
	const char *name;        /* "cpu-fast", "seq" */
	double *samples;         /* (1 + tracks) rows of --reps: the times, then each track */
	uint32_t reps_done;      /* timed repetitions that finished: the samples of each row */
	int finished;            /* the last repetition finished */
	uint32_t reps_checked;   /* repetitions checked against the oracle */
	uint32_t bad_reps;       /* of them, those that failed */
	uint64_t units_checked;  /* units checked, over those repetitions */
	uint64_t units_wrong;    /* of them, those that differed */
	char message[512];       /* the first thing found wrong; "" */
} gb_measured;

typedef struct gb_measure gb_measure;

/* Run one repetition of entry k; arg is what gb_measure_run was given. */
typedef gb_rep_end (*gb_rep_fn)(gb_measure *ms, unsigned k, const gb_rep *rep, gb_rep_out *out, void *arg);

/* A run: its options, the loop's state and the result model. */
struct gb_measure {
	const char *cmd;             /* "avoid": for messages */
	const gb_run_opts *run;      /* --reps, --warmup, --timeout, --verify-every */
	gb_check_policy policy;
	unsigned tracks;             /* per-repetition values besides the time */
	/* Warm-up by time: while --warmup is above 0, warm-up repetitions go on
	 * until both --warmup of them and this many seconds of their own times are
	 * done (stm's --warmup-time: a GPU's clock ramps up only under load).
	 * 0 after gb_measure_init; set it before gb_measure_run. */
	double warmup_s;
	uint64_t t_start;            /* --timeout counts from here */
	int incomplete;              /* --timeout, a signal or a runtime failure cut the run short */
	int failed;                  /* a runtime failure (a CUDA error) ended it */
	char forecast[512];          /* gb_measure_forecast's warning, for the report; "" */
	gb_measured m[GB_MAX_IMPLS]; /* m[0] is the --impl (or the run itself), the rest --compare's */
	unsigned n;
	/* the repetition under way */
	int rep_bad;
	gb_progress progress;
	uint64_t progress_units;     /* units of a repetition, as the progress line counts them */
	/* the watchdog (gb_measure_watch) */
	int watched, done;
	pthread_t dog;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int (*on_timeout)(gb_measure *ms, void *arg);
	void *on_timeout_arg;
};

/* Start a run now: --timeout counts from here, generation and the oracle included. */
void gb_measure_init(gb_measure *ms, const char *cmd, const gb_run_opts *run, gb_check_policy policy,
		     unsigned tracks);
/* Add an entry (in the order the report lists them); returns its index. */
unsigned gb_measure_add(gb_measure *ms, const char *name);
void gb_measure_free(gb_measure *ms);

/*
 * Whether the run must stop: --timeout has passed, or SIGINT or SIGTERM came
 * (common/stop.h); sets ms->incomplete when it must. For the oracle and long
 * repetitions.
 */
int gb_measure_timed_out(gb_measure *ms);
/* Seconds left before --timeout (0 or less when it has passed, or a signal stopped the run). */
double gb_measure_left(const gb_measure *ms);
/* Why the run is incomplete, for messages: "--timeout 2 s reached", "SIGINT received", "a runtime failure". */
const char *gb_measure_stop_reason(const gb_measure *ms);

/*
 * The loop, for entry k: --warmup (and warmup_s) then --reps repetitions of
 * fn, stopping at --timeout or a signal (checked before every repetition; fn
 * checks within one and returns GB_REP_CUT).
 */
void gb_measure_run(gb_measure *ms, unsigned k, gb_rep_fn fn, void *arg);

/* Statistics of entry k's times over its finished repetitions (at any point of the run). */
gb_stats gb_measure_time(const gb_measure *ms, unsigned k);

/*
 * Before the run: entry k's repetitions take at least rep_s seconds each (an
 * estimate from the sizes at a rate no machine is known to beat; why says
 * what it counts). When its --warmup and --reps cannot end before --timeout,
 * say now, on stderr and in the report's meta.warnings, that the run will be
 * cut short, rather than let it run silently until then.
 */
void gb_measure_forecast(gb_measure *ms, unsigned k, double rep_s, const char *why);

/* Within a repetition: done of its total units, for the progress line. */
void gb_measure_progress(gb_measure *ms, const gb_rep *rep, uint64_t done, uint64_t total);

/* Within a checked repetition: it failed its check; the first message of the entry is kept. */
__attribute__((format(printf, 3, 4)))
void gb_measure_wrong(gb_measure *ms, unsigned k, const char *fmt, ...);

/* Statistics of a track of entry k over its finished repetitions. */
gb_stats gb_measure_track(const gb_measure *ms, unsigned k, unsigned track);

/* The run's verdict: 1 verified, 0 a check failed, -1 nothing was checked. */
int gb_measure_verdict(const gb_measure *ms);

/*
 * For implementations that cannot poll a deadline (a lock-free list that
 * livelocks never returns): a thread that waits for --timeout and, if the run
 * is still going, calls on_timeout with the loop's lock held (it writes the
 * report of what finished) and exits the process with its status. The loop
 * holds the lock except where a repetition releases it around the work that
 * may not return (gb_measure_unlock, gb_measure_lock), so what on_timeout
 * sees is whole. Both are no-ops without a watchdog.
 */
void gb_measure_watch(gb_measure *ms, int (*on_timeout)(gb_measure *ms, void *arg), void *arg);
void gb_measure_unlock(gb_measure *ms);
void gb_measure_lock(gb_measure *ms);
/* The run ended in time: stop the watchdog. */
void gb_measure_unwatch(gb_measure *ms);

/* A unit-by-unit check (GB_CHECK_LAST): how unit i compares with the oracle, and their names. */
typedef struct gb_unit_check {
	const char *unit;                                  /* "event": what is counted */
	int (*differs)(uint64_t i, const void *arg);       /* unit i is not the oracle's */
	const char *(*got)(uint64_t i, const void *arg);   /* for the message: unit i's outcome ... */
	const char *(*oracle)(uint64_t i, const void *arg);/* ... and the oracle's */
	const void *arg;
} gb_unit_check;

/*
 * Within a checked repetition of entry k: every --verify-every-th of count
 * units against the oracle, counted into out; when some differ, the check
 * fails with "NAME disagrees with the oracle on W of C checked UNITs, first
 * UNIT I (GOT, oracle ORACLE)".
 */
void gb_measure_check_units(gb_measure *ms, unsigned k, uint64_t count, const gb_unit_check *c, gb_rep_out *out);

#endif
