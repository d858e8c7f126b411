#!/usr/bin/env bash
# Reliability of every subcommand on the CPU backend: --timeout bounds the
# whole process (generation, the oracle, the run), SIGINT and SIGTERM end a
# run as --timeout does, outputs never hang or vanish (FIFOs, /dev/stdout,
# standard output on a full disk), options never silently drop (given twice,
# or where they do not apply), a trace of no events is refused as --events 0
# is, and a runtime failure in the middle of a run shows what finished and
# leaves the report at --json untouched. GPUBENCH names the binary (default
# ./gpubench). Timing checks have wide margins: each only tells a bounded run
# from one that ran on to its end (tens of seconds, or forever).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init
G=${GPUBENCH:-./gpubench}
R=$T_TMP/out
mkdir -p "$R"
AVOID=(avoid --impl cpu-fast --procs 64 --res 8 --events 20 --reps 1)
# an avoid run of about 10 s on one core: long enough to be stopped
AVOID_LONG=(avoid --impl cpu --procs 4096 --res 512 --events 2000 --reps 5)

# within NAME MAX CMD...: run CMD (stdout, stderr and status as run gives them) and pass when it
# ends within MAX seconds.
within() {
	local name=$1 max=$2 t0 t1
	shift 2
	t0=$(date +%s.%N)
	run "$@"
	t1=$(date +%s.%N)
	if awk -v a="$t0" -v b="$t1" -v m="$max" 'BEGIN { exit !(b - a < m) }'; then
		pass "$name"
	else
		fail "$name" "took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s, not under $max s: $*" \
			"$(t_context)"
	fi
}

# stopped NAME FILE BY: FILE is a report marked incomplete, stopped by BY
stopped() {
	json_check "$1" "$2" '
m = d["meta"]
assert m["complete"] is False and m["stopped_by"] == "'"$3"'", m'
}

# ---- --timeout bounds generation, the oracle and the run, every subcommand
within "stm kmeans: --timeout 1 stops generation and its serial k-means (took 29 s)" 10 \
	"$G" stm --backend cpu --workload kmeans --points 1000000 --clusters 4096 --iterations 5 --threads 8 \
	--reps 1 --timeout 1 --json "$R/kmeans.json"
check "stm kmeans stopped in generation exits 1" test "$RC" = 1
expect_err "stm kmeans says where the stop came" "--timeout 1 s reached during generation: nothing ran"
stopped "stm kmeans stopped in generation: the report says so" "$R/kmeans.json" timeout
json_check "stm kmeans stopped in generation: nothing claimed, the reason given" "$R/kmeans.json" '
v = d["verification"]
assert v["verified"] is None and "during generation" in v["message"], v
assert d["config"]["timeout_s"] == 1 and any("during generation" in w for w in d["meta"]["warnings"])'
within "stm: --timeout 1 stops the generation of 65 million transactions" 10 \
	"$G" stm --backend cpu --threads 65536 --tx-per-thread 1000 --timeout 1 --quiet --json "$R/bank.json"
check "stm bank stopped in generation exits 1" test "$RC" = 1
within "list: --timeout 1 stops the generation of 300 million operations (took 57 s for 1073741824)" 10 \
	"$G" list --op mixed --nodes 1000 --ops 300000000 --timeout 1 --quiet --json "$R/list-gen.json"
check "list stopped in generation exits 1" test "$RC" = 1
within "speculate: --timeout 1 stops generation and the sequential reference" 10 \
	"$G" speculate --backend cpu --loop ocean --iters 100000000 --timeout 1 --quiet --json "$R/spec-gen.json"
check "speculate stopped exits 1" test "$RC" = 1
within "detect: --timeout 1 stops a release of lmdda cpu (O(N^2 M^2)) in the middle" 10 \
	"$G" detect --impl cpu --algo lmdda --procs 2048 --res 2048 --timeout 1 --quiet --json "$R/detect.json"
check "detect stopped exits 1" test "$RC" = 1
stopped "detect stopped in a repetition: the report says so" "$R/detect.json" timeout
json_check "detect stopped: nothing claimed" "$R/detect.json" '
assert all(x["reps_completed"] == 0 for x in d["results"].get("impls", [])), d["results"]
assert d["verification"]["verified"] is None'

# list reports the repetitions that finished before --timeout (its watchdog wrote n = 0)
expect_rc "list --timeout cuts 100 repetitions short" 1 "$G" list --nodes 20000 --impl cpu --reps 100 --timeout 1.5 \
	--json "$R/list-cut.json"
json_check "list --timeout: the repetitions that finished are reported" "$R/list-cut.json" '
x = d["results"]["impls"][0]
n = x["reps_completed"]
assert 0 < n < 100 and x["run_seconds"]["n"] == n, x["run_seconds"]
assert x["run_seconds"]["median"] > 0 and x["ops_per_s"] > 0, x
assert d["verification"]["verified"] is True and d["verification"]["reps_checked"] == n, d["verification"]'
check "list --timeout: the summary gives their median, not 0 s" \
	bash -c '! grep -q " 0 s (median of" "$1" && grep -q "s (median of [1-9]" "$1"' sh "$T_OUT"

# sizes that cannot finish: said before the run
within "list: a run that cannot end in time is said before it starts, and stopped" 10 \
	"$G" list --impl cpu --op insert --nodes 20000000 --reps 1 --timeout 1 --json "$R/list-long.json"
expect_err "list warns that its repetitions cannot end before --timeout" \
	"list: warning: cpu needs at least" "each add walks the list to its end" "will cut the run short"
json_check "list's warning is in the report" "$R/list-long.json" '
assert any("will cut the run short" in w for w in d["meta"]["warnings"]), d["meta"]["warnings"]'
expect_rc "list: a tail list of the same size is not warned about" 0 "$G" list --impl cpu-tail --op insert \
	--nodes 20000000 --reps 1 --quiet
check "list: no warning for cpu-tail" test -z "$(grep warning "$T_ERR")"

# what cannot poll is bounded too: a --trace FIFO with no writer blocks the open
mkfifo "$R/no-writer"
within "avoid --trace from a FIFO with no writer ends within --timeout and its grace" 15 \
	timeout 60 "$G" avoid --trace "$R/no-writer" --timeout 1 --json "$R/grace.json"
check "the grace ends it with exit 1" test "$RC" = 1
expect_err "the grace says why" "--timeout 1 s reached and the run did not end within 5.1 s more"
stopped "the grace writes the report of a run that finished nothing" "$R/grace.json" timeout

# ---- SIGINT and SIGTERM end a run as --timeout does
# signal_run NAME SIGNAL DELAY REPORT ARGS...: run gpubench ARGS in the background, send SIGNAL
# after DELAY seconds, and check that it exits 1 within 10 s of it.
signal_run() {
	local name=$1 sig=$2 delay=$3 pid t0 rc
	shift 3
	"$G" "$@" >"$T_OUT" 2>"$T_ERR" &
	pid=$!
	sleep "$delay"
	t0=$(date +%s)
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" = 1 ] && [ $(($(date +%s) - t0)) -lt 10 ]; then
		pass "$name"
	else
		RC=$rc
		fail "$name" "exit status $rc, $(($(date +%s) - t0)) s after $sig: $*" "$(t_context)"
	fi
}
echo '{"an": "earlier report"}' >"$R/sigint.json"
signal_run "SIGINT during an avoid run ends it, exit 1" INT 1.5 "${AVOID_LONG[@]}" --json "$R/sigint.json"
stopped "SIGINT: the report is written, marked incomplete" "$R/sigint.json" SIGINT
expect_out "SIGINT: the summary says so" "incomplete   SIGINT received: the numbers cover what finished"
expect_err "SIGINT: stderr says so" "avoid: SIGINT received; the report is marked incomplete"
signal_run "SIGTERM during a --duration 60 stm run ends it, exit 1" TERM 1.5 stm --backend cpu --threads 8 \
	--accounts 200 --semantic-ratio 0 --tx-per-thread 6 --duration 60 --reps 1 --warmup 0 --quiet --json "$R/sigterm.json"
stopped "SIGTERM: the report is written, marked incomplete" "$R/sigterm.json" SIGTERM
json_check "SIGTERM: the threads stopped at once, what committed is verified" "$R/sigterm.json" '
r = d["results"]
assert r["threads_timed_out"] > 0 and r["commits"] > 0 and r["device_seconds"] < 30, r
assert d["verification"]["verified"] is True, d["verification"]'
signal_run "SIGINT during generation ends the run, exit 1" INT 1 stm --backend cpu --workload kmeans \
	--points 1000000 --clusters 4096 --threads 8 --reps 1 --json "$R/sigint-gen.json"
stopped "SIGINT in generation: the report says so" "$R/sigint-gen.json" SIGINT
signal_run "SIGINT during a list run ends it through its watchdog, exit 1" INT 1.5 list --impl cpu \
	--nodes 20000 --reps 1000 --quiet --json "$R/sigint-list.json"
stopped "SIGINT in list: the report is written, marked incomplete" "$R/sigint-list.json" SIGINT
check "no signal left a temporary file" test -z "$(find "$R" -name '*.tmp.*')"

# ---- outputs
# a FIFO with no reader: refused before the run (the run would take minutes), for every output option
for out in json decisions; do
	mkfifo "$R/fifo-$out"
	within "--$out onto a FIFO with no reader fails before the run" 10 \
		timeout 60 "$G" "${AVOID_LONG[@]}" --"$out" "$R/fifo-$out"
	check "--$out onto a FIFO with no reader exits 1" test "$RC" = 1
	expect_err "--$out onto a FIFO with no reader says so" "option --$out: the FIFO $R/fifo-$out has no reader"
done
mkfifo "$R/fifo-trace"
within "--emit-trace onto a FIFO with no reader fails before the run" 10 \
	timeout 60 "$G" detect --impl cpu-bits --procs 32 --res 32 --events 200 --emit-trace "$R/fifo-trace"
expect_err "--emit-trace onto a FIFO with no reader says so" "option --emit-trace: the FIFO" "has no reader"
within "--json onto a FIFO with no reader fails before generation" 10 \
	timeout 60 "$G" stm --backend cpu --workload kmeans --points 1000000 --clusters 4096 --json "$R/fifo-json"
check "the FIFO is still a FIFO" test -p "$R/fifo-json"

# /dev/stdout is standard output: not a file to replace
"$G" "${AVOID[@]}" --json /dev/stdout >"$R/stdout.txt" 2>"$T_ERR"
check "--json /dev/stdout into a file exits 0" test $? = 0
json_check "--json /dev/stdout: the file stdout goes to holds the report" "$R/stdout.txt" '
assert d["meta"]["subcommand"] == "avoid"'
"$G" "${AVOID[@]}" --json /proc/self/fd/1 >"$R/stdout-fd.txt" 2>"$T_ERR"
json_check "--json /proc/self/fd/1 is standard output too" "$R/stdout-fd.txt" 'assert d["meta"]["complete"]'
expect_rc "--json /dev/stdout --decisions - exits 2" 2 "$G" "${AVOID[@]}" --json /dev/stdout --decisions -
expect_err "--json /dev/stdout --decisions - names both" "options --json and --decisions both write to standard output"
run bash -c 'out=$1; shift; "$@" --json "$out" >"$out"' sh "$R/same.json" "$G" "${AVOID[@]}"
json_check "--json naming the file stdout is redirected to writes the report there once" "$R/same.json" '
assert d["meta"]["subcommand"] == "avoid"'

# a write to standard output that fails exits 1, whatever printed it
for cmd in "--help" "--version" "help stm" "info" "list --help" "avoid --impl cpu-fast --procs 64 --res 8 --events 20 --reps 1"; do
	# shellcheck disable=SC2086
	run bash -c '"$@" >/dev/full' sh "$G" $cmd
	if [ "$RC" = 1 ] && grep -q "cannot write to standard output: No space left on device" "$T_ERR"; then
		pass "gpubench $cmd > /dev/full exits 1"
	else
		fail "gpubench $cmd > /dev/full exits 1" "$(t_context)"
	fi
done
expect_rc "a run whose JSON goes to a full stdout exits 1" 1 bash -c '"$@" >/dev/full' sh "$G" "${AVOID[@]}" \
	--quiet --json -

# ---- options: given twice, or where they do not apply
expect_rc "--json a --json b exits 2" 2 "$G" "${AVOID[@]}" --json "$R/a.json" --json "$R/b.json"
expect_err "--json given twice is named" "avoid: option --json is given more than once"
check "--json given twice writes neither" test ! -e "$R/a.json" -a ! -e "$R/b.json"
expect_rc "--compare cpu-fast --compare gpu exits 2" 2 "$G" avoid --impl cpu --compare cpu-fast --compare gpu
expect_err "--compare given twice is named" "option --compare is given more than once"
expect_rc "a flag given twice exits 2" 2 "$G" list --quiet --quiet
"$G" "${AVOID[@]}" --quiet --json "$R/avoid-base.json"
expect_rc "a repeatable option may be given twice" 0 "$G" compare --metric stream_seconds --metric request_seconds \
	--quiet "$R/avoid-base.json" "$R/avoid-base.json"
expect_rc "list --impl cpu --opencl-device 7 exits 2" 2 "$G" list --impl cpu --opencl-device 7
expect_err "list --opencl-device names what it belongs to" \
	"option --opencl-device applies only to opencl, opencl-cpu, not to --impl cpu"
expect_rc "list --cpu-workers with serial lists exits 2" 2 "$G" list --impl cpu --compare cpu-tail --cpu-workers 2
expect_err "list --cpu-workers names what it belongs to" \
	"option --cpu-workers applies only to cpu-lockfree, cpu-lockfree-tail, not to --impl cpu or --compare cpu-tail"
expect_rc "list --superblocks with a malloc'd list exits 2" 2 "$G" list --impl cpu-tail --superblocks 100
expect_rc "list --cpu-workers applies when one chosen list reads it" 0 "$G" list --impl cpu --compare cpu-lockfree \
	--cpu-workers 2 --nodes 100 --reps 1 --quiet
expect_rc "speculate --loop ocean --schedule paper exits 2" 2 "$G" speculate --loop ocean --schedule paper
expect_err "speculate --schedule names what it belongs to" "option --schedule applies only to the loops whose" \
	"(mdg, strcat, gothic)" "not to --loop ocean"
expect_rc "speculate --loop mdg --threshold 0.1 exits 2" 2 "$G" speculate --loop mdg --threshold 0.1
expect_err "speculate --threshold names what it belongs to" \
	"option --threshold applies only to the irregular-memory loops (ocean, trfd, fftbench, figure3), not to --loop mdg"
expect_rc "speculate --opt no-sched --clean-run 2 exits 2" 2 "$G" speculate --loop ocean --opt no-sched --clean-run 2
expect_rc "speculate --schedule applies to a loop given --clause (+0:end)" 0 "$G" speculate --backend cpu \
	--loop alvinn --clause '(+0:end)' --schedule paper --iters 2000 --reps 1 --quiet
expect_rc "--no-verify --verify-every 2 exits 2" 2 "$G" "${AVOID[@]}" --no-verify --verify-every 2
expect_err "--verify-every with --no-verify says why" "option --verify-every does not apply with --no-verify"
expect_rc "stm --warmup 0 --warmup-time 1 exits 2" 2 "$G" stm --backend cpu --warmup 0 --warmup-time 1
expect_err "stm --warmup-time names what it belongs to" "option --warmup-time applies only to a run with warm-up"
expect_rc "stm --no-verify --verify-threads 3 exits 2" 2 "$G" stm --backend cpu --no-verify --verify-threads 3
expect_err "--verify-threads with --no-verify says why" "option --verify-threads does not apply with --no-verify"
expect_rc "--version with a word after it exits 2" 2 "$G" --version extra
expect_err "--version says what it got" "takes nothing after it, got 'extra'"
expect_rc "help of two subcommands exits 2" 2 "$G" help stm avoid
expect_err "help says one at a time" "one subcommand at a time"
expect_rc "help avoid exits 0" 0 "$G" help avoid
expect_out "help says what --timeout, signals and repeated options do" "SIGINT and SIGTERM" "a grace" \
	"of 5 s + S/10 (60 s at most)" "An option given twice is a usage error (exit 2), but for one marked repeatable;"

# a heap the 32-bit block offsets cannot address is refused naming both options and what fits
expect_rc "list --superblocks 16777215 of 4096 bytes exits 2" 2 "$G" list --superblocks 16777215 --impl cpu-lockfree
expect_err "list --superblocks past the heap names both options and the most that fit" \
	"--superblocks 16777215 x --superblock-size 4096 is a heap above the 4 GiB" "at most 1048575 superblocks"

# a trace of no events is refused, as --events 0 is
printf 'processes 2\nresources 1\navailable 1\nmax 0 1\nmax 1 1\n' >"$R/avoid-empty.trace"
expect_rc "avoid: a trace of no events exits 2" 2 "$G" avoid --trace "$R/avoid-empty.trace"
expect_err "avoid: a trace of no events says so" "avoid-empty.trace: no events: a trace needs at least one"
printf 'processes 2\nresources 2\n' >"$R/detect-empty.trace"
expect_rc "detect: a trace of no events exits 2" 2 "$G" detect --trace "$R/detect-empty.trace"
expect_err "detect: a trace of no events says so" "detect-empty.trace: no events: a trace needs at least one"
expect_rc "avoid --events 0 exits 2 too" 2 "$G" avoid --events 0

# ---- a runtime failure in the middle of a run (GPUBENCH_TEST_FAULT=1: the second timed
# repetition fails): exit 1, what finished shown as incomplete, the report at --json untouched
for fault in "avoid --impl cpu-fast --procs 64 --res 8 --events 20 --reps 3" \
	"detect --impl cpu-bits --procs 32 --res 32 --events 200 --reps 3" \
	"stm --backend cpu --threads 8 --accounts 64 --tx-per-thread 6 --reps 3 --warmup 0" \
	"speculate --backend cpu --loop alvinn --iters 2000 --reps 3" \
	"list --impl cpu --nodes 300 --reps 3"; do
	# shellcheck disable=SC2086
	set -- $fault
	echo '{"an": "earlier report"}' >"$R/fault-$1.json"
	cp "$R/fault-$1.json" "$R/fault-$1.before"
	expect_rc "$1: a runtime failure after the first repetition exits 1" 1 \
		env GPUBENCH_TEST_FAULT=1 "$G" "$@" --json "$R/fault-$1.json"
	expect_err "$1: the failure is named, and that no report was written" \
		"a runtime failure injected by GPUBENCH_TEST_FAULT" "no report was written"
	expect_out "$1: the finished repetition is shown, marked incomplete" "(median of 1)" \
		"incomplete   a runtime failure: the numbers cover what finished"
	check "$1: the report already at --json is untouched" cmp -s "$R/fault-$1.json" "$R/fault-$1.before"
done
expect_rc "GPUBENCH_TEST_FAULT=x exits 2" 2 env GPUBENCH_TEST_FAULT=x "$G" "${AVOID[@]}"
expect_err "GPUBENCH_TEST_FAULT=x is named" "GPUBENCH_TEST_FAULT: 'x'"

summary cli-reliability
