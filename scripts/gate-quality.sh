#!/usr/bin/env bash
# How far the CI timing gate can be trusted, measured (docs/ci.md, "How often
# the gate is wrong"): over N pairs of the benchmark suite of one binary, how
# often compare cries wolf (exits 4), and over N pairs whose new side is
# slowed by GPUBENCH_TEST_DELAY_US sized to --slowdown percent of each run,
# how often it catches the slowdown; for two suite runs back to back (a
# stored baseline's case) and for the A/B mode (bench-suite.sh --ab).
# Writes DIR/summary.md, pairs.tsv, metrics.tsv, delays.tsv and ENV.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"

usage() {
	cat <<'EOF'
usage: scripts/gate-quality.sh [options]

Measures the false-alarm and detection rates of the CI gate (the benchmark
suite and gpubench compare) on this machine.

  --cpu | --gpu      the suite's CPU or GPU variant (default --gpu)
  --pairs N          pairs of each kind and mode (default 20)
  --modes LIST       plain (two suite runs back to back), ab (the A/B
                     mode) or both: plain,ab (the default)
  --only NAMES       only these suite runs (bench-suite.sh --only)
  --rounds K         A/B rounds, 4..100 (bench-suite.sh --rounds; default 8);
                     each measure's test shares compare's alpha with the
                     others, so 4 a side may reach significance on none
  --slowdown PCT     the slowdown injected into each run (default 10)
  --gpubench PATH    binary to measure (default: as bench-suite.sh)
  --out DIR          results (default results/local/gate-gpu or gate-cpu);
                     emptied first unless --resume
  --resume           add N more pairs to DIR, keeping its delays
  -h, --help         this text

Each pair index runs, for plain: three suite runs (A, B, and B' slowed),
comparing A with B (same) and B with B' (slow); for ab: two A/B suites, the
binary against itself (same) and against itself slowed (slow). A same pair
that exits 4 is a false alarm; a slow pair is detected when compare exits 4
with a regression on a measure the delay was sized on. Progress on stderr
gives each pair's time; summary.md has the rates with 95% intervals, the
delays, and per measure its noise and flags. Exit status 0, or 1 when a run
failed.
EOF
}

gpubench=""
mode=gpu
pairs=20
modes=plain,ab
only=""
rounds=8
slowdown=10
out=""
resume=0

while [[ $# -gt 0 ]]; do
	case $1 in
	--cpu) mode=cpu; shift ;;
	--gpu) mode=gpu; shift ;;
	--pairs) need_value "$@"; pairs=$2; shift 2 ;;
	--modes) need_value "$@"; modes=$2; shift 2 ;;
	--only) need_value "$@"; only=$2; shift 2 ;;
	--rounds) need_value "$@"; rounds=$2; shift 2 ;;
	--slowdown) need_value "$@"; slowdown=$2; shift 2 ;;
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--resume) resume=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done
[[ $pairs =~ ^[1-9][0-9]*$ ]] || die_usage "option --pairs: '$pairs' is not a positive number"
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 4 && $rounds -le 100 ]] ||
	die_usage "option --rounds: '$rounds' is not a number of processes in 4..100 (the rank test needs 4 a side)"
[[ $slowdown =~ ^[0-9]+([.][0-9]+)?$ ]] || die_usage "option --slowdown: '$slowdown' is not a percentage"
case $modes in
plain | ab | plain,ab | ab,plain) ;;
*) die_usage "option --modes: '$modes' is not plain, ab or plain,ab" ;;
esac
out=${out:-results/local/gate-$mode}

sweep_gpubench
G=$(sweep_abspath "$gpubench")
suite=("$here/bench-suite.sh")
[[ $mode == cpu ]] && suite+=(--cpu)
[[ -n $only ]] && suite+=(--only "$only")
"${suite[@]}" --list >/dev/null # an unknown --only name stops here, with exit 2

if [[ $resume == 1 ]]; then
	[[ -s $out/delays.tsv ]] || die_usage "--resume: $out has no delays.tsv from an earlier measurement"
else
	rm -rf "$out"
fi
mkdir -p "$out/work"
out=$(cd "$out" && pwd)
work=$out/work

if [[ $resume == 1 ]]; then
	gpu=""
	if [[ $mode == gpu ]] && command -v nvidia-smi >/dev/null; then
		gpu=" ($(nvidia-smi -L 2>/dev/null | head -n 1 || true))"
	fi
	echo "resumed $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)$gpu with $("$G" --version):" \
		"scripts/gate-quality.sh --$mode --pairs $pairs --modes $modes${only:+ --only $only} --rounds $rounds --resume" \
		>>"$out/ENV"
else
	{
		echo "measured $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n): $(uname -sr), $(nproc) logical cores," \
			"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
		if command -v nvidia-smi >/dev/null; then nvidia-smi -L 2>/dev/null | head -n 8 || true; fi
		echo "binary: $("$G" --version)"
		echo "scripts/gate-quality.sh --$mode --pairs $pairs --modes $modes${only:+ --only $only}" \
			"--rounds $rounds --slowdown $slowdown"
		"${suite[@]}" --list
	} >"$out/ENV"
	echo "gate-quality.sh: sizing each run's delay to $slowdown% of it" >&2
	"${suite[@]}" --list | sed -n 's/^  //p' | while read -r name _ args; do
		# shellcheck disable=SC2086 # the run's options are words
		python3 "$here/lib/gate_quality.py" calibrate --dir "$out" --gpubench "$G" --slowdown "$slowdown" \
			--run "$name" -- $args >&2
	done
fi

# The binary slowed: each suite run sees the delay sized for it, found by the
# name of the report it writes (bench-suite.sh names it NAME.json).
cat >"$out/slow-gpubench" <<EOF
#!/bin/sh
json= prev=
for a in "\$@"; do [ "\$prev" = --json ] && json=\$a; prev=\$a; done
delay=\$(awk -v n="\$(basename "\$json" .json)" '\$1 == n {print \$3}' "$out/delays.tsv")
[ -n "\$delay" ] && export GPUBENCH_TEST_DELAY_US="\$delay"
exec "$G" "\$@"
EOF
chmod +x "$out/slow-gpubench"

# suite LOG ARGS...: one suite run (plain or A/B); its status, 1 stopping the measurement.
suite_status() {
	local log=$1 rc=0
	shift
	"${suite[@]}" "$@" >"$log" 2>&1 || rc=$?
	if [[ $rc != 0 && $rc != 4 ]]; then
		echo "gate-quality.sh: the suite failed (status $rc); its output ($log):" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	return "$rc"
}

record() { python3 "$here/lib/gate_quality.py" record --dir "$out" "$@"; }

first=1
if [[ -s $out/pairs.tsv ]]; then
	first=$(($(awk -F'\t' 'NR > 1 && $3 > m {m = $3} END {print m + 0}' "$out/pairs.tsv") + 1))
fi
last=$((first + pairs - 1))
for ((i = first; i <= last; i++)); do
	line="pair $i/$last:"
	for m in ${modes//,/ }; do
		rm -rf "${work:?}"/*
		if [[ $m == plain ]]; then
			t0=$SECONDS
			suite_status "$work/a.log" --gpubench "$G" --out "$work/a"
			suite_status "$work/b.log" --gpubench "$G" --out "$work/b"
			rc=0
			"$G" compare --quiet --json "$work/same.json" "$work/a" "$work/b" 2>/dev/null || rc=$?
			record --mode plain --kind same --pair "$i" --status "$rc" --seconds $((SECONDS - t0)) "$work/same.json"
			t1=$SECONDS
			suite_status "$work/d.log" --gpubench "$out/slow-gpubench" --out "$work/d"
			rs=0
			"$G" compare --quiet --json "$work/slow.json" "$work/b" "$work/d" 2>/dev/null || rs=$?
			record --mode plain --kind slow --pair "$i" --status "$rs" --seconds $((SECONDS - t1)) "$work/slow.json"
		else
			t0=$SECONDS
			rc=0
			suite_status "$work/ab-same.log" --ab "$G" --gpubench "$G" --rounds "$rounds" --out "$work/same" || rc=$?
			record --mode ab --kind same --pair "$i" --status "$rc" --seconds $((SECONDS - t0)) "$work/same/compare.json"
			t1=$SECONDS
			rs=0
			suite_status "$work/ab-slow.log" --ab "$G" --gpubench "$out/slow-gpubench" --rounds "$rounds" \
				--out "$work/slow" || rs=$?
			record --mode ab --kind slow --pair "$i" --status "$rs" --seconds $((SECONDS - t1)) "$work/slow/compare.json"
		fi
		line+=" $m same $rc slow $rs ($((SECONDS - t0)) s)"
	done
	echo "gate-quality.sh: $line" >&2
done
rm -rf "$work"
python3 "$here/lib/gate_quality.py" summary --dir "$out"
