#!/usr/bin/env bash
# The benchmark suite for CI: a fixed, versioned list of short runs over every
# subcommand, one report per run in one folder, for `gpubench compare` against
# a baseline folder (results/baseline-gpu, or results/baseline-cpu for --cpu).
# Sized to take about a minute on a GPU (not yet timed on one); a few seconds
# with --cpu. Any failed or unverified run stops the suite with status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"

# Raise it whenever a run below changes: reports of two suite versions do not
# pair up in compare (their configurations differ), and the baseline must be
# refreshed.
suite_version=2

# name | options of every mode | GPU mode | --cpu mode. Five repetitions each:
# enough for compare's rank test to tell a change from noise (it needs four).
runs=(
	"stm-bank | stm --algo prstm --reps 5 | --backend gpu --threads 6720 | --backend cpu --threads 256 --tx-per-thread 50 --accounts 100000"
	"avoid-worst-case | avoid --workload worst-case --reps 5 | --impl gpu --procs 4096 --res 512 --events 200 | --impl cpu-fast --procs 512 --res 64 --events 200"
	"detect-osdda | detect --algo osdda --reps 5 | --impl gpu --procs 2048 --res 2048 --events 2000 | --impl cpu-bits --procs 512 --res 512 --events 2000"
	"detect-lmdda | detect --algo lmdda --units 4 --reps 5 | --impl gpu --procs 512 --res 512 --events 1000 | --impl cpu-bits --procs 128 --res 128 --events 1000"
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
                      else ./gpubench)
  --out DIR           where the reports go (default results/local/suite-gpu,
                      or results/local/suite-cpu with --cpu); emptied first
  --update-baseline   write the reports to the baseline folder instead
                      (results/baseline-gpu, or results/baseline-cpu)
  --compare BASE      then run gpubench compare BASE DIR and exit with its
                      status (0 no regression, 3 unverified, 4 regression)
  --list              print the runs and exit
  -h, --help          this text

Options after -- go to every gpubench run (e.g. -- --cpu-workers 2; they
change the configuration, so the baseline must be made with them too).
Exit status: 0 when every run succeeded and verified, 1 otherwise, 2 on a
usage error; with --compare, compare's status.
EOF
}

gpubench=""
mode=gpu
out=""
update=0
base=""
list=0
extra=()

while [[ $# -gt 0 ]]; do
	case $1 in
	--cpu) mode=cpu; shift ;;
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--update-baseline) update=1; shift ;;
	--compare) need_value "$@"; base=$2; shift 2 ;;
	--list) list=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done

if [[ $update == 1 ]]; then
	[[ -z $out ]] || die_usage "--update-baseline and --out both name the folder"
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

if [[ $list == 1 ]]; then
	echo "suite version $suite_version, $mode runs:"
	for spec in "${runs[@]}"; do
		printf '  %-20s gpubench %s\n' "$(suite_name "$spec")" "$(suite_args "$spec")"
	done
	exit 0
fi

# gpubench exits 0 only for a complete, verified run; this says which.
suite_check() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["complete"] and d["verification"]["verified"] is True, "not verified"
print("%s, verified, %s backend" % (d["meta"]["subcommand"], d["device"]["backend"]))
PY
}

command -v python3 >/dev/null || { echo "bench-suite.sh: python3 is required" >&2; exit 1; }
sweep_gpubench
rm -rf "$out"
mkdir -p "$out"
{
	echo "gpubench benchmark suite version $suite_version ($mode)"
	echo "binary: $("$gpubench" --version)"
	for spec in "${runs[@]}"; do
		echo "$(suite_name "$spec"): gpubench $(suite_args "$spec")${extra[*]:+ ${extra[*]}}"
	done
} >"$out/SUITE"

echo "bench-suite.sh: suite $suite_version, ${#runs[@]} $mode runs of $("$gpubench" --version), reports in $out" >&2
n=0
for spec in "${runs[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2046 # the entry's options are words
	sweep_run "[$n/${#runs[@]}]" "$out" "$(suite_name "$spec")" suite_check -- \
		$(suite_args "$spec") "${extra[@]}"
done

if [[ -n $base ]]; then
	rc=0
	"$gpubench" compare "$base" "$out" || rc=$?
	exit "$rc"
fi
