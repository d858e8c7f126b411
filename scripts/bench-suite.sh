#!/usr/bin/env bash
# The benchmark suite for CI: a fixed, versioned list of short runs over every
# subcommand, one report per run in one folder, for `gpubench compare` against
# a baseline folder (results/baseline-gpu, or results/baseline-cpu for --cpu).
# With --ab BASE it runs the suite for two binaries on one machine, each run
# as alternated processes of both, into base/ and new/ folders that compare
# reads as it reads any two (docs/ci.md). Any failed or unverified run stops
# the suite with status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"

# Raise it whenever a run below changes: reports of two suite versions do not
# pair up in compare (their configurations differ), and the baseline must be
# refreshed.
suite_version=3

# name | options of every mode | GPU mode | --cpu mode. Five repetitions each:
# enough for compare's rank test to tell a change from noise (it needs four).
# The GPU runs use the engines a user would pick (detect's gpu-stream, list's
# gpu-tail) beside the papers' designs (detect-osdda-thesis, list-insert);
# the --cpu runs are their CPU counterparts, each repetition 10-200 ms on a
# 2-core VM, longer than a scheduler's time slice.
runs=(
	"stm-bank | stm --algo prstm --reps 5 | --backend gpu --threads 6720 | --backend cpu --threads 256 --tx-per-thread 50 --accounts 100000"
	"avoid-worst-case | avoid --workload worst-case --reps 5 | --impl gpu --procs 4096 --res 512 --events 200 | --impl cpu-fast --procs 512 --res 64 --events 200"
	"detect-osdda | detect --algo osdda --reps 5 | --impl gpu-stream --procs 8192 --res 8192 --events 20000 | --impl cpu-stream --procs 2048 --res 2048 --events 200000"
	"detect-lmdda | detect --algo lmdda --units 4 --reps 5 | --impl gpu-stream --procs 1024 --res 1024 --events 20000 | --impl cpu-stream --procs 512 --res 512 --events 50000"
	"detect-osdda-thesis | detect --algo osdda --reps 5 | --impl gpu --procs 2048 --res 2048 --events 2000 | --impl cpu --procs 512 --res 512 --events 2000"
	"speculate-ocean | speculate --loop ocean --reps 5 | --backend gpu | --backend cpu --iters 200000"
	"speculate-fftbench | speculate --loop fftbench --reps 5 | --backend gpu | --backend cpu --iters 50000"
	"list-insert | list --op insert --reps 5 | --impl gpu --nodes 4096 | --impl cpu-lockfree --nodes 2048"
	"list-mixed | list --op mixed --reps 5 | --impl gpu-tail --nodes 2000 --threads 4096 --ops 50000 | --impl cpu-lockfree-tail --nodes 4000 --threads 16"
)

usage() {
	cat <<'EOF'
usage: scripts/bench-suite.sh [options] [-- extra gpubench options]

Runs the CI benchmark suite (every subcommand, short runs, 5 repetitions
each) and writes one JSON report per run, plus SUITE (the suite version and
the command lines), into one folder.

  --cpu               the CPU variant, for CI machines without a GPU
  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench); with --ab, the new binary
  --out DIR           where the reports go (default results/local/suite-gpu,
                      or results/local/suite-cpu with --cpu; with --ab,
                      results/local/ab-gpu or ab-cpu); emptied first
  --only NAMES        only these runs (comma-separated names from --list)
  --update-baseline   write the reports to the baseline folder instead
                      (results/baseline-gpu, or results/baseline-cpu)
  --compare BASE      then run gpubench compare BASE DIR and exit with its
                      status (0 no regression, 3 unverified, 4 regression)
  --ab BASE           A/B mode, for pull requests: run every entry as
                      --rounds processes of the binary BASE and as many of
                      the new one (--gpubench), alternated (AB BA AB ...);
                      merge each side's processes into one report in
                      DIR/base and DIR/new (a sample per process: its
                      median); compare them (table on stdout, DIR/compare.md,
                      DIR/compare.json) and exit with compare's status
  --rounds K          with --ab: processes of each binary per run (default
                      8, 4 to 100)
  --gpus LIST         comma-separated GPU indices (e.g. 0,1): the runs side
                      by side, one process a GPU, each with --device N (the
                      --cpu runs time the CPU: one at a time); not with --ab,
                      whose pairs must share one device
  --list              print the runs and exit
  -h, --help          this text

Options after -- go to every gpubench run (e.g. -- --cpu-workers 2; they
change the configuration, so the baseline must be made with them too).
Exit status: 0 when every run succeeded and verified, 1 otherwise, 2 on a
usage error; with --compare or --ab, compare's status.
EOF
}

gpubench=""
mode=gpu
out=""
update=0
base=""
only=""
ab_base=""
rounds=""
list=0
extra=()

while [[ $# -gt 0 ]]; do
	case $1 in
	--cpu) mode=cpu; shift ;;
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--only) need_value "$@"; only=$2; shift 2 ;;
	--update-baseline) update=1; shift ;;
	--compare) need_value "$@"; base=$2; shift 2 ;;
	--ab) need_value "$@"; ab_base=$2; shift 2 ;;
	--rounds) need_value "$@"; rounds=$2; shift 2 ;;
	--list) list=1; shift ;;
	--gpus) sweep_set_gpus "$@"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done

if [[ -n $ab_base ]]; then
	[[ $update == 0 && -z $base ]] ||
		die_usage "--ab compares its own two sides; it takes neither --update-baseline nor --compare"
	[[ ${#sweep_gpus[@]} == 0 ]] ||
		die_usage "--ab times both binaries' processes of a run on one device; it does not take --gpus"
	rounds=${rounds:-8}
	[[ $rounds =~ ^[0-9]+$ && $rounds -ge 4 && $rounds -le 100 ]] ||
		die_usage "option --rounds: '$rounds' is not a number of processes in 4..100 (the rank test needs 4 a side)"
	out=${out:-results/local/ab-$mode}
else
	[[ -z $rounds ]] || die_usage "--rounds goes with --ab"
fi
if [[ $update == 1 ]]; then
	[[ -z $out ]] || die_usage "--update-baseline and --out both name the folder"
	[[ -z $only ]] || die_usage "--update-baseline makes a whole baseline; it does not take --only"
	out=results/baseline-$mode
fi
out=${out:-results/local/suite-$mode}

# The gpubench command line of one entry, for the chosen mode.
suite_args() {
	local name common gpu cpu
	local -a words
	IFS='|' read -r name common gpu cpu <<<"$1"
	if [[ $mode == gpu ]]; then
		read -r -a words <<<"$common $gpu"
	else
		read -r -a words <<<"$common $cpu"
	fi
	echo "${words[*]}"
}
suite_name() { local name=${1%%|*}; echo "${name// /}"; }

# --only: the named entries, in the suite's order; a name not in the suite exits 2.
if [[ -n $only ]]; then
	IFS=',' read -r -a wanted <<<"$only"
	names=" "
	for spec in "${runs[@]}"; do names+="$(suite_name "$spec") "; done
	for want in "${wanted[@]}"; do
		[[ $names == *" $want "* ]] || die_usage "option --only: no run named '$want' (--list names them)"
	done
	kept=()
	for spec in "${runs[@]}"; do
		[[ ",$only," == *",$(suite_name "$spec"),"* ]] && kept+=("$spec")
	done
	runs=("${kept[@]}")
fi

if [[ $list == 1 ]]; then
	echo "suite version $suite_version, $mode runs:"
	for spec in "${runs[@]}"; do
		printf '  %-20s gpubench %s\n' "$(suite_name "$spec")" "$(suite_args "$spec")"
	done
	exit 0
fi

# gpubench exits 0 only for a complete, verified run; this says which, with
# the cv (stdev over mean) of the run's first measure over its repetitions.
suite_check() {
	python3 - "$1" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["complete"] and d["verification"]["verified"] is True, "not verified"
def first_samples(o):
    if isinstance(o, dict) and "samples" in o and "median" in o:
        return o["samples"]
    for x in (o.values() if isinstance(o, dict) else o if isinstance(o, list) else []):
        s = first_samples(x)
        if s:
            return s
s = first_samples(d["results"])
cv = ""
if s and len(s) > 1 and statistics.mean(s):
    cv = ", cv %.1f%%" % (100 * statistics.stdev(s) / abs(statistics.mean(s)))
print("%s, verified, %s backend%s" % (d["meta"]["subcommand"], d["device"]["backend"], cv))
PY
}

# One line per run: NAME: gpubench ARGS.
suite_lines() {
	local spec
	for spec in "${runs[@]}"; do
		echo "$(suite_name "$spec"): gpubench $(suite_args "$spec")${extra[*]:+ ${extra[*]}}"
	done
}

command -v python3 >/dev/null || { echo "bench-suite.sh: python3 is required" >&2; exit 1; }
sweep_gpubench
[[ -z $ab_base || -x $ab_base ]] || die_usage "option --ab: no executable at '$ab_base'"
rm -rf "$out"
mkdir -p "$out"

if [[ -z $ab_base ]]; then
	{
		echo "gpubench benchmark suite version $suite_version ($mode)"
		echo "binary: $sweep_version"
		suite_lines
	} >"$out/SUITE"
	echo "bench-suite.sh: suite $suite_version, ${#runs[@]} $mode runs of $sweep_version," \
		"reports in $out" >&2
	sweep_plan ${#runs[@]}
	n=0
	for spec in "${runs[@]}"; do
		n=$((n + 1))
		# shellcheck disable=SC2046 # the entry's options are words
		sweep_run "[$n/${#runs[@]}]" "$out" "$(suite_name "$spec")" suite_check -- \
			$(suite_args "$spec") "${extra[@]}"
	done
	sweep_wait
	if [[ -n $base ]]; then
		rc=0
		"$gpubench" compare "$base" "$out" || rc=$?
		exit "$rc"
	fi
	exit 0
fi

# A/B mode. Each run is `rounds` rounds of one base and one new process, the
# order alternating (AB, BA, AB, ...), so that a machine that slows down or
# speeds up during the session weighs on both sides alike; a round's
# processes run back to back. The raw reports stay in DIR/runs/SIDE/rN/.
new_gpubench=$gpubench
session="$(date -u +%Y%m%dT%H%M%SZ)-$$"
order=""
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then order+=AB; else order+=BA; fi
done
{
	echo "gpubench benchmark suite version $suite_version ($mode), A/B mode"
	echo "base: $ab_base: $("$ab_base" --version)"
	echo "new: $new_gpubench: $("$new_gpubench" --version)"
	echo "session $session: $rounds processes of each binary a run, in the order $order"
	suite_lines
} >"$out/SUITE"
echo "bench-suite.sh: suite $suite_version A/B, ${#runs[@]} $mode runs x $rounds rounds of base" \
	"$ab_base and new $new_gpubench, reports in $out" >&2
mkdir -p "$out/base" "$out/new"
sweep_plan $((${#runs[@]} * 2 * rounds))
n=0
for spec in "${runs[@]}"; do
	n=$((n + 1))
	name=$(suite_name "$spec")
	for ((r = 1; r <= rounds; r++)); do
		for letter in ${order:2*(r-1):1} ${order:2*(r-1)+1:1}; do
			if [[ $letter == A ]]; then side=base gpubench=$ab_base; else side=new gpubench=$new_gpubench; fi
			mkdir -p "$out/runs/$side/r$r"
			# shellcheck disable=SC2046 # the entry's options are words
			sweep_run "[$n/${#runs[@]} $side $r/$rounds]" "$out/runs/$side/r$r" "$name" suite_check -- \
				$(suite_args "$spec") "${extra[@]}"
		done
	done
	for side in base new; do
		reports=()
		for ((r = 1; r <= rounds; r++)); do reports+=("$out/runs/$side/r$r/$name.json"); done
		python3 "$here/lib/suite_merge.py" --session "$session" --side "$side" --order "$order" \
			--out "$out/$side/$name.json" "${reports[@]}" || exit 1
	done
done

rc=0
"$new_gpubench" compare --json "$out/compare.json" "$out/base" "$out/new" || rc=$?
"$new_gpubench" compare --markdown "$out/base" "$out/new" >"$out/compare.md" 2>/dev/null || true
exit "$rc"
