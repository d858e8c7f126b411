#!/usr/bin/env bash
# Figure 7 of Shen et al. 2020 (PR-STM), bank panels: committed transactions per
# second as threads grow from 960 to 9600, 100% semantic transactions, hash 1.
#   A: no presort, 0% read-only     B: no presort, 20% read-only
#   C: presort,    0% read-only     D: presort,    20% read-only
# One JSON report per run, then fig7-bank.csv, fig7-bank.md and (with gnuplot)
# fig7-bank.png. Any failed or unverified run stops the script with status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"
report2csv="$here/lib/report2csv.py"
plot_script="$here/fig7-bank.gp"

usage() {
	cat <<'EOF'
usage: scripts/fig7-bank.sh [options] [-- extra gpubench stm options]

Sweeps gpubench stm over Figure 7's four bank panels and threads
960,1920,...,9600, then builds DIR/fig7-bank.csv, DIR/fig7-bank.md and, when
gnuplot is installed, DIR/fig7-bank.png.

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out DIR           where reports and outputs go (default results/local/fig7-bank)
  --backend B         gpu, cpu or auto (default auto; --quick: cpu)
  --algos LIST        comma-separated engines (default prstm,gpustm)
  --threads LIST      comma-separated thread counts (default 960,1920,...,9600)
  --panels LIST       comma-separated panels to run (default A,B,C,D); the
                      table and plot cover every report in --out
  --paper             the paper's protocol on every run: 5 s x 10 repetitions
  --quick             tiny sizes for CI: threads 96,192, 20 transactions per
                      thread, 20000 accounts, 1 repetition, CPU backend
  --plot-only         run nothing: rebuild CSV, markdown and PNG from the
                      reports already in --out (e.g. fetched from a GPU machine)
  --emit-slurm DIR    run nothing: write the runs to DIR/jobs.txt and a Slurm
                      job array in DIR (sbatch it, then --plot-only)
  -h, --help          this text

Options after -- go to every gpubench stm run unchanged (e.g. -- --hash 2).
Exit status: 0 when every run succeeded and verified, 1 otherwise, 2 on a
usage error.
EOF
}

gpubench=""
out="results/local/fig7-bank"
backend=""
algos="prstm,gpustm"
threads="960,1920,2880,3840,4800,5760,6720,7680,8640,9600"
threads_set=0
only_panels="A,B,C,D"
paper=0
quick=0
plot_only=0
extra=()

while [[ $# -gt 0 ]]; do
	case $1 in
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--backend) need_value "$@"; backend=$2; shift 2 ;;
	--algos) need_value "$@"; algos=$2; shift 2 ;;
	--threads) need_value "$@"; threads=$2; threads_set=1; shift 2 ;;
	--panels) need_value "$@"; only_panels=$2; shift 2 ;;
	--paper) paper=1; shift ;;
	--quick) quick=1; shift ;;
	--plot-only) plot_only=1; shift ;;
	--emit-slurm) need_value "$@"; sweep_emit_dir=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done

case ${backend:-auto} in
gpu | cpu | auto) ;;
*) die_usage "--backend: '$backend' is not one of gpu, cpu, auto" ;;
esac
[[ $algos =~ ^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$ ]] ||
	die_usage "--algos: '$algos' is not a comma-separated list of engine names"
[[ $only_panels =~ ^[A-D](,[A-D])*$ ]] ||
	die_usage "--panels: '$only_panels' is not a comma-separated list of A, B, C, D"
[[ $threads =~ ^[0-9]+(,[0-9]+)*$ ]] ||
	die_usage "--threads: '$threads' is not a comma-separated list of numbers"

protocol=()
[[ $paper == 0 ]] || protocol+=(--paper)
if [[ $quick == 1 ]]; then
	[[ $threads_set == 1 ]] || threads="96,192"
	[[ -n $backend ]] || backend=cpu
	protocol+=(--tx-per-thread 20 --accounts 20000 --reps 1)
fi
backend=${backend:-auto}

command -v python3 >/dev/null || { echo "fig7-bank.sh: python3 is required" >&2; exit 1; }
[[ -r $report2csv ]] || { echo "fig7-bank.sh: $report2csv is missing" >&2; exit 1; }

# Panel letter, then the gpubench stm options that make it.
panels=(
	"A --read-only 0"
	"B --read-only 20"
	"C --read-only 0 --presort"
	"D --read-only 20 --presort"
)

run_sweep() {
	local -a algo_list thread_list chosen=()
	local total n=0 algo spec panel opts t name
	IFS=, read -r -a algo_list <<<"$algos"
	IFS=, read -r -a thread_list <<<"$threads"
	for spec in "${panels[@]}"; do
		[[ ,$only_panels, == *,${spec%% *},* ]] && chosen+=("$spec")
	done
	total=$((${#algo_list[@]} * ${#chosen[@]} * ${#thread_list[@]}))
	echo "fig7-bank.sh: $total runs of $("$gpubench" --version) ($gpubench), backend $backend," \
		"reports in $out" >&2
	for algo in "${algo_list[@]}"; do
		for spec in "${chosen[@]}"; do
			read -r panel opts <<<"$spec"
			for t in "${thread_list[@]}"; do
				n=$((n + 1))
				name="$algo-$panel-t$t"
				# shellcheck disable=SC2086 # $opts is a list of options
				sweep_run "[$n/$total]" "$out" "$name" python3 "$report2csv" check -- \
					stm --algo "$algo" --backend "$backend" --threads "$t" --semantic-ratio 100 \
					--hash 1 $opts "${protocol[@]}" "${extra[@]}"
			done
		done
	done
}

# Outputs of an earlier sweep must not survive a failed one.
rm -f "$out/fig7-bank.csv" "$out/fig7-bank.md" "$out/fig7-bank.png"

if [[ $plot_only == 0 ]]; then
	sweep_gpubench
	mkdir -p "$out"
	run_sweep
else
	[[ -d $out ]] || { echo "fig7-bank.sh: --plot-only: no folder '$out'" >&2; exit 1; }
fi
sweep_emit_done

python3 "$report2csv" table "$out" --csv "$out/fig7-bank.csv" --md "$out/fig7-bank.md" \
	--title "Figure 7, bank panels: throughput with increasing threads" >&2

csv_column() { tail -n +2 "$out/fig7-bank.csv" | cut -d, -f"$1" | sort -u | paste -sd' '; }
sweep_plot "$out/fig7-bank.png" -e "csv='$out/fig7-bank.csv'; out='$out/fig7-bank.png'" \
	-e "algos='$(csv_column 1)'; panels='$(csv_column 2)'" "$plot_script"
