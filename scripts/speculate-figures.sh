#!/usr/bin/env bash
# Figures 8-11 and Table 1 of Feng, Gupta and Bhuyan, "Optimistic Parallelism
# on GPUs", with gpubench speculate: every loop under every --opt (Figure 8's
# bars; Figure 10's rates with and without the optimizations, --opt none), the
# --opt all run with the seq, cpu-tm (the paper's CPU
# speculation), cpu-spec, (ocean, trfd, fftbench) cpu-inspect and (fftbench,
# alvinn) gpu-nospec baselines (Figure 9) and its phase times (Figure 11).
# One JSON report per run, then table1.csv, fig8..fig11.csv, figures.md and
# (with gnuplot) speculate-figures.png. Any failed or unverified run stops the
# script with status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"
# shellcheck source=scripts/lib/plot.sh
. "$here/lib/plot.sh"
# shellcheck source=scripts/lib/slurm.sh
. "$here/lib/slurm.sh"
helper="$here/lib/speculate_figures.py"
plot_script="$here/speculate-figures.gp"

usage() {
	cat <<'EOF'
usage: scripts/speculate-figures.sh [options] [-- extra gpubench speculate options]

Runs gpubench speculate for every loop and every --opt (all, no-mo, no-co,
no-sched, and none: the three left out at once, Figure 10's "w/o opts") at
the loop's default size, the --opt all run with
--compare seq,cpu-tm,cpu-spec (and cpu-inspect for ocean, trfd and fftbench,
and gpu-nospec for fftbench and alvinn), writes
DIR/reports/spec-<loop>-<opt>.json, then DIR/table1.csv (Table 1: each
loop's irregularity, clause and size beside the paper's row), DIR/fig8.csv,
fig9.csv, fig10.csv, fig11.csv, DIR/figures.md and, when gnuplot is
installed, DIR/speculate-figures.png.

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out DIR           where reports and outputs go (default
                      results/local/speculate-figures)
  --loops LIST        comma-separated loops (default: the paper's seven,
                      ocean,trfd,fftbench,mdg,strcat,gothic,alvinn)
  --iters N           iterations of every loop (default: each loop's own)
  --reps N            repetitions of every run (default 3)
  --quick             tiny loops on the CPU backend for CI: 2000 iterations,
                      1 repetition
  --format LIST       the plot's formats, comma-separated: png, svg, pdf
                      (default png)
  --plot-only         run nothing: rebuild the CSVs, markdown and PNG from the
                      reports already in DIR/reports
  --emit-slurm DIR    run nothing: write the runs to DIR/jobs.txt and a Slurm
                      job array in DIR (sbatch it, then --plot-only)
EOF
	sweep_gpus_help
	cat <<'EOF'
  -h, --help          this text

Options after -- go to every gpubench speculate run unchanged (for example
--backend gpu). Every run must verify. Exit status: 0 when every run
succeeded and verified, 1 otherwise, 2 on a usage error.
EOF
}

gpubench=""
out="results/local/speculate-figures"
loops="ocean,trfd,fftbench,mdg,strcat,gothic,alvinn"
iters=""
reps=3
quick=0
plot_only=0
formats=png
extra=()

while [[ $# -gt 0 ]]; do
	case $1 in
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--loops) need_value "$@"; loops=$2; shift 2 ;;
	--iters) need_value "$@"; iters=$2; shift 2 ;;
	--reps) need_value "$@"; reps=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--plot-only) plot_only=1; shift ;;
	--format) need_value "$@"; plot_formats "$2"; formats=$2; shift 2 ;;
	--emit-slurm) need_value "$@"; sweep_emit_dir=$2; shift 2 ;;
	--gpus) sweep_set_gpus "$@"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done

[[ $loops =~ ^[a-z0-9]+(,[a-z0-9]+)*$ ]] || die_usage "--loops: '$loops' is not a comma-separated list"
[[ -z $iters || $iters =~ ^[1-9][0-9]*$ ]] || die_usage "--iters: '$iters' is not a positive number"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die_usage "--reps: '$reps' is not a positive number"

size=()
if [[ $quick == 1 ]]; then
	size=(--backend cpu --iters "${iters:-2000}")
	reps=1
elif [[ -n $iters ]]; then
	size=(--iters "$iters")
fi

command -v python3 >/dev/null || { echo "speculate-figures.sh: python3 is required" >&2; exit 1; }
reports="$out/reports"
sweep_clear "$out"/table1.csv "$out"/fig8.csv "$out"/fig9.csv "$out"/fig10.csv "$out"/fig11.csv "$out/figures.md" \
	-- "$out/speculate-figures"

if [[ $plot_only == 0 ]]; then
	sweep_gpubench
	mkdir -p "$reports"
	IFS=, read -r -a loop_list <<<"$loops"
	total=$((${#loop_list[@]} * 5))
	sweeps() {
		n=0
		echo "speculate-figures.sh: $total runs of $sweep_version ($gpubench), reports in $reports" >&2
		for loop in "${loop_list[@]}"; do
			for opt in all no-mo no-co no-sched none; do
				n=$((n + 1))
				name="spec-$loop-$opt"
				compare=()
				if [[ $opt == all ]]; then
					case $loop in
					fftbench) compare=(--compare seq,cpu-tm,cpu-spec,cpu-inspect,gpu-nospec) ;;
					alvinn) compare=(--compare seq,cpu-tm,cpu-spec,gpu-nospec) ;;
					ocean | trfd) compare=(--compare seq,cpu-tm,cpu-spec,cpu-inspect) ;;
					*) compare=(--compare seq,cpu-tm,cpu-spec) ;;
					esac
				fi
				sweep_run "[$n/$total]" "$reports" "$name" python3 "$helper" check -- \
					speculate --loop "$loop" --opt "$opt" --reps "$reps" "${size[@]}" "${compare[@]}" \
					"${extra[@]}"
			done
		done
	}
	sweep_loops sweeps
else
	[[ -d $reports ]] || { echo "speculate-figures.sh: --plot-only: no folder '$reports'" >&2; exit 1; }
fi
sweep_wait
sweep_emit_done

python3 "$helper" table "$reports" --out "$out"

plot_draw "$out/speculate-figures" "$formats" "$reports" -e "dir='$out'" "$plot_script"
