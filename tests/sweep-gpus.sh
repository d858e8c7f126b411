#!/usr/bin/env bash
# Tests of the sweeps' --gpus (scripts/lib/sweep.sh), without a GPU: the
# scripts run tests/stub/gpubench-gpus.sh, which records each run's --device
# and when it started and ended, and runs it on the CPU with the real binary.
# With --gpus 0,1 both devices are used, never two points at once on one,
# points overlap in time, and the reports are those of the serial run; a
# point that times the CPU runs alone; a failed point fails the script as
# serially; a resumed sweep keeps every report whatever GPU made it; a bad
# LIST, --gpus with --emit-slurm and bench-suite --ab with --gpus exit 2.
# GPUBENCH names the binary (default ./gpubench). Run from the repository
# root. Last line: "gpus: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "gpus: $G is not an executable (set GPUBENCH)"
	echo "gpus: 0 passed, 1 failed"
	exit 1
fi
FAKE=$here/stub/gpubench-gpus.sh
export FAKE_GPUBENCH
FAKE_GPUBENCH=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
export FAKE_GPUS_RECORD=$T_TMP/record FAKE_GPUS_SLEEP=1
export GPUBENCH_SWEEP_TALLY=$T_TMP/tally

# intervals WHAT [RECORD]: what the record of the runs says, one line (python below):
#   devices      the devices the runs were given, sorted, comma-separated ("-": none)
#   same-device  how many pairs of runs on one device overlapped in time
#   overlaps     how many pairs of runs overlapped in time
#   alone NAMES  how many runs whose name contains one of NAMES (comma-separated)
#                overlapped another run
#   unended      runs that started and did not end
intervals() {
	python3 - "${3:-$FAKE_GPUS_RECORD}" "$1" "${2:-}" <<'PY'
import sys
path, what, names = sys.argv[1], sys.argv[2], sys.argv[3]
start, runs = {}, []
for line in open(path):
    kind, dev, name, t = line.split()
    if kind == "start":
        start[name] = (dev, float(t))
    else:
        runs.append((name, dev, start.pop(name)[1], float(t)))
def meet(a, b):
    return a[2] < b[3] and b[2] < a[3]
pairs = [(a, b) for i, a in enumerate(runs) for b in runs[i + 1:] if meet(a, b)]
if what == "devices":
    print(",".join(sorted({r[1] for r in runs})))
elif what == "same-device":
    print(sum(1 for a, b in pairs if a[1] == b[1] and a[1] != "-"))
elif what == "overlaps":
    print(len(pairs))
elif what == "alone":
    wanted = names.split(",")
    print(sum(1 for a, b in pairs if any(w in a[0] or w in b[0] for w in wanted)))
elif what == "unended":
    print(" ".join(sorted(start)) or "none")
PY
}

# fig7 NAME... : scripts/fig7.sh on bank, prstm and gpustm, panels A and B, its --quick
# points (8 runs) on the "GPU" through the stand-in, then the options given.
fig7() {
	bash scripts/fig7.sh --quick --backend gpu --gpubench "$FAKE" --workloads bank --algos prstm,gpustm \
		--panels A,B "$@"
}

# ------------------------------------------------------------- two GPUs against one at a time
: >"$FAKE_GPUS_RECORD"
: >"$GPUBENCH_SWEEP_TALLY"
expect_rc "fig7.sh --gpus 0,1 exits 0" 0 fig7 --gpus 0,1 --out "$T_TMP/par"
cp "$T_ERR" "$T_TMP/par.err"
check "both GPUs were used" test "$(intervals devices)" = 0,1
check "never two points at once on one GPU" test "$(intervals same-device)" = 0
check "points ran side by side" test "$(intervals overlaps)" -ge 2
check "every run the script started had ended when it exited" test "$(intervals unended)" = none
check "each progress line names the GPU" test "$(grep -c '^\[[0-9]/8\] bank-[a-z]*-[AB]-x[0-9]* on GPU [01]: .*, [0-9]* s$' "$T_TMP/par.err")" = 8
check "no progress line is cut by another" test -z "$(grep -v -e '^\[[0-9]/8\] bank-' -e '^fig7.sh: ' -e '^8 reports -> ' "$T_TMP/par.err")"
check "the tally has a line per point run" test "$(grep -c '^ran [0-9]*$' "$GPUBENCH_SWEEP_TALLY")" = 8
json_check "a report's argv names its --device" "$T_TMP/par/bank-prstm-A-x96.json" \
	'assert "--device" in d["meta"]["argv"], d["meta"]["argv"]'
check "the table is made" test -s "$T_TMP/par/fig7.csv"

: >"$FAKE_GPUS_RECORD"
expect_rc "fig7.sh without --gpus exits 0" 0 fig7 --out "$T_TMP/ser"
check "without --gpus no --device is given" test "$(intervals devices)" = -
check "without --gpus the points run one after another" test "$(intervals overlaps)" = 0
check "the reports are the serial run's" \
	test "$(cd "$T_TMP/par" && ls -- *.json)" = "$(cd "$T_TMP/ser" && ls -- *.json)"
check "the table has the serial run's rows, every one verified" \
	test "$(cut -d, -f1-4 "$T_TMP/par/fig7.csv")" = "$(cut -d, -f1-4 "$T_TMP/ser/fig7.csv")"
check "the serial progress lines name no GPU" test -z "$(grep ' on GPU ' "$T_ERR")"

# ------------------------------------------------------------- resume
: >"$FAKE_GPUS_RECORD"
: >"$GPUBENCH_SWEEP_TALLY"
expect_rc "the sweep again, on the GPUs the other way round, exits 0" 0 fig7 --gpus 1,0 --out "$T_TMP/par"
check "every report is kept, whatever GPU made it" test "$(grep -c '^kept$' "$GPUBENCH_SWEEP_TALLY")" = 8
check "nothing ran again" test ! -s "$FAKE_GPUS_RECORD"
expect_rc "the serial sweep keeps the reports of --gpus" 0 fig7 --out "$T_TMP/par"
check "... all 8" test "$(grep -c '^kept$' "$GPUBENCH_SWEEP_TALLY")" = 16
rm "$T_TMP/par/bank-gpustm-B-x192.json"
expect_rc "a deleted report is made again" 0 fig7 --gpus 0,1 --out "$T_TMP/par"
check "... and only it" test "$(grep -c '^start ' "$FAKE_GPUS_RECORD")" = 1

# ------------------------------------------------------------- a time budget (reproduce-all --max-seconds)
# the points running when the deadline passes end; no other starts; the sweep exits 3
: >"$FAKE_GPUS_RECORD"
: >"$GPUBENCH_SWEEP_TALLY" # no earlier point's time: the first two start at once
# The deadline leaves the sweep 4 s to start its first two points (a loaded machine takes
# over 1 s); they last past it, so no third may start.
FAKE_GPUS_SLEEP=6 GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 4)) expect_rc "fig7.sh --gpus 0,1 past its deadline exits 3" 3 \
	fig7 --gpus 0,1 --out "$T_TMP/budget"
check "the two points under way ended, no third started" \
	test "$(grep -c '^start ' "$FAKE_GPUS_RECORD") $(grep -c '^end ' "$FAKE_GPUS_RECORD")" = "2 2"
check "both their reports are there, no table yet" \
	test "$(ls "$T_TMP/budget"/*.json | wc -l)" = 2 -a ! -e "$T_TMP/budget/fig7.csv"
expect_err "it says the budget is spent" "not started: the time budget is spent"
expect_rc "the same sweep without a budget goes on" 0 fig7 --gpus 0,1 --out "$T_TMP/budget"
check "... and makes the other 6" test "$(grep -c '^start ' "$FAKE_GPUS_RECORD")" = 8

# ------------------------------------------------------------- a point timeout (reproduce-all --point-timeout)
# a point still running after GPUBENCH_SWEEP_POINT_TIMEOUT is stopped (here, ignoring SIGINT as a
# background job, by SIGKILL 5 s later; the others take about a second); the others go on, on both
# GPUs; the script then fails
: >"$FAKE_GPUS_RECORD"
FAKE_GPUS_SLEEP=0 FAKE_GPUS_HANG=prstm-B-x96 GPUBENCH_SWEEP_POINT_TIMEOUT=8 expect_rc "a point past the point timeout fails fig7.sh --gpus 0,1" 1 \
	fig7 --gpus 0,1 --out "$T_TMP/hang"
expect_err "it says which point, on which GPU, and that the others went on" "bank-prstm-B-x96 TIMED OUT on GPU " \
	"fig7.sh: 1 point(s) stopped by the point timeout: no table or plot"
check "the other 7 points were made, it left no report, no table" \
	test "$(ls "$T_TMP/hang"/*.json | wc -l)" = 7 -a ! -e "$T_TMP/hang/bank-prstm-B-x96.json" -a ! -e "$T_TMP/hang/fig7.csv"
expect_rc "the same sweep, the point no longer hanging, makes it and the table" 0 fig7 --gpus 0,1 --out "$T_TMP/hang"
check "... and only it" test "$(grep -c '^start ' "$FAKE_GPUS_RECORD") $(ls "$T_TMP/hang"/fig7.csv | wc -l)" = "9 1"

# ------------------------------------------------------------- a failed point
: >"$FAKE_GPUS_RECORD"
FAKE_GPUS_FAIL=prstm-B-x96 expect_rc "a failed point fails fig7.sh --gpus 0,1" 1 fig7 --gpus 0,1 --out "$T_TMP/fail"
expect_err "it says which, as serially" "bank-prstm-B-x96 FAILED: gpubench exited 1 on GPU " \
	"illegal memory access" "fig7.sh: stopped; no table or plot is made from a failed sweep"
check "the points running were waited for" test "$(intervals unended)" = none
check "no table is made from a failed sweep" test ! -e "$T_TMP/fail/fig7.csv"
check "the failure's message is the script's last line" \
	test "$(tail -n 1 "$T_ERR")" = "fig7.sh: stopped; no table or plot is made from a failed sweep"
expect_rc "a rejected report fails fig7.sh --gpus 0,1" 1 fig7 --gpus 0,1 --out "$T_TMP/noverify" -- --no-verify
expect_err "it says which" "REJECTED (see above)"
check "no table is made from it" test ! -e "$T_TMP/noverify/fig7.csv"
FAKE_GPUS_SLEEP=0 FAKE_GPUS_FAIL=prstm-B-x96 expect_rc "serially, a failed point exits 1 too" 1 fig7 --out "$T_TMP/fail-ser"
expect_err "with the same message, less the GPU" "bank-prstm-B-x96 FAILED: gpubench exited 1; its output" \
	"fig7.sh: stopped; no table or plot is made from a failed sweep"

# ------------------------------------------------------------- CPU points run alone
export FAKE_GPUS_SLEEP=0.5
# jvstm has no GPU backend: under --backend gpu its runs get --backend cpu, under auto they keep it
for backend in gpu auto; do
	: >"$FAKE_GPUS_RECORD"
	expect_rc "fig7.sh --backend $backend --gpus 0,1 with jvstm (a CPU engine) exits 0" 0 \
		bash scripts/fig7.sh --quick --backend "$backend" --gpubench "$FAKE" --workloads bank \
		--algos prstm,jvstm,gpustm --panels A --gpus 0,1 --out "$T_TMP/cpu-$backend"
	check "... the jvstm points are given no --device" \
		test -z "$(grep ' jvstm' "$FAKE_GPUS_RECORD" | grep -v '^[a-z]* - ')"
	check "... the jvstm points ran alone" test "$(intervals alone jvstm)" = 0
	check "... the GPU points still ran side by side" test "$(intervals overlaps)" -ge 2
done
: >"$FAKE_GPUS_RECORD"
expect_rc "pba-tables.sh --quick --gpus 0,1 (CPU implementations) exits 0" 0 \
	bash scripts/pba-tables.sh --quick --gpubench "$FAKE" --gpus 0,1 --out "$T_TMP/pba"
check "runs of --impl cpu --compare cpu-fast are given no --device" test "$(intervals devices)" = -
check "... and run one at a time" test "$(intervals overlaps)" = 0
export FAKE_GPUS_SLEEP=0

# ------------------------------------------------------------- bench-suite, reproduce-all
: >"$FAKE_GPUS_RECORD"
expect_rc "bench-suite.sh --gpus 0,1 exits 0" 0 bash scripts/bench-suite.sh --gpubench "$FAKE" --gpus 0,1 \
	--only stm-bank --out "$T_TMP/suite" -- --threads 64 --tx-per-thread 5 --accounts 1000
check "its run was given a GPU" test "$(intervals devices)" = 0
: >"$FAKE_GPUS_RECORD"
expect_rc "bench-suite.sh --cpu --gpus 0,1 exits 0" 0 bash scripts/bench-suite.sh --cpu --gpubench "$FAKE" \
	--gpus 0,1 --only stm-bank,list-insert --out "$T_TMP/suite-cpu"
check "its CPU runs are given no GPU and run one at a time" \
	test "$(intervals devices) $(intervals overlaps)" = "- 0"
expect_rc "bench-suite.sh --ab with --gpus exits 2" 2 bash scripts/bench-suite.sh --cpu --gpubench "$G" --ab "$G" \
	--gpus 0,1
expect_err "it says why" "--ab" "--gpus"
expect_rc "reproduce-all.sh --quick --gpus 0,1 exits 0" 0 bash scripts/reproduce-all.sh --quick --gpubench "$FAKE" \
	--gpus 0,1 --only pba-tables --out "$T_TMP/all"
check "it gave its scripts --gpus" grep -q 'scripts/pba-tables.sh .*--gpus 0,1' "$T_TMP/all/index.md"

# ------------------------------------------------------------- usage errors
for bad in "" a 0,,1 ,0 "0," 0,0 1,01 -1 "0 1" 0x1 12345; do
	expect_rc "fig7.sh --gpus '$bad' exits 2" 2 bash scripts/fig7.sh --gpus "$bad" --plot-only --out "$T_TMP/par"
	expect_err "... naming the option" "--gpus"
done
expect_rc "fig7.sh --gpus 0,1 --emit-slurm exits 2" 2 fig7 --gpus 0,1 --emit-slurm "$T_TMP/slurm" --out "$T_TMP/x"
expect_err "it says why" "--gpus and --emit-slurm do not go together"
check "... and emits nothing" test ! -e "$T_TMP/slurm"
expect_rc "reproduce-all.sh --gpus 0,1 --emit-slurm exits 2" 2 bash scripts/reproduce-all.sh --quick --gpus 0,1 \
	--emit-slurm "$T_TMP/slurm" --out "$T_TMP/x"
expect_rc "reproduce-all.sh --gpus 0,0 exits 2" 2 bash scripts/reproduce-all.sh --gpus 0,0 --out "$T_TMP/x"
expect_rc "bench-suite.sh --gpus a exits 2" 2 bash scripts/bench-suite.sh --gpus a --list
expect_rc "csmv-tables.sh --gpus 1,1 exits 2" 2 bash scripts/csmv-tables.sh --gpus 1,1 --out "$T_TMP/x"
for f in scripts/*.sh; do
	grep -q -- '--emit-slurm) need_value\|sweep_run\|csmv-fig1.sh\|stmfig_main' "$f" || continue
	grep -q stmfig_main "$f" || check "$(basename "$f") takes --gpus" grep -q -- '--gpus) sweep_set_gpus "$@"' "$f"
	run bash "$f" --help
	expect_out "$(basename "$f") --help documents --gpus" "--gpus LIST"
done
check "every STM figure takes --gpus (scripts/lib/stmfig.sh)" grep -q -- '--gpus) sweep_set_gpus "$@"' \
	scripts/lib/stmfig.sh

summary gpus
