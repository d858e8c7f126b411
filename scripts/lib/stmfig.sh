# shellcheck shell=bash
# What every figure script of `gpubench stm` shares (scripts/fig7.sh, fig8.sh,
# fig9.sh). A figure of Shen et al. 2020 is four panels (section 4: "for each of
# these experiments four graphs are presented"), each a sweep of one axis with
# the other options fixed, over engines and workloads:
#   A: no presort, 0% read-only     B: no presort, 20% read-only
#   C: presort,    0% read-only     D: presort,    20% read-only
# where 20% read-only is 20% of the threads running only read-only
# transactions, as the paper's section 4.2 has it ("when 20% of the threads are
# read-only"), or with --read-only-mix blocks 20% of every thread's.
# A figure script sets the variables below and calls `stmfig_main "$@"`:
#
#   fig_name          outputs DIR/<fig_name>.{csv,md,png} (and .svg, .pdf with --format); default DIR
#                     results/local/<fig_name>
#   fig_title         the table's and plot's title
#   fig_axis          the gpubench stm option swept, without dashes (threads, hash,
#                     semantic-ratio, read-only); also the script's option that lists its points
#   fig_axis_label    the x axis label
#   fig_points        default points, comma-separated
#   fig_quick_points  points of --quick
#   fig_fixed         array: the options every run gets (the paper's fixed parameters)
#   fig_quick_fixed   array: the same under --quick (fewer threads)
#   fig_logx          1 for a log2 x axis
#   fig_about         a paragraph of what the figure shows, for --help
#   fig_workloads     optional: default workloads, comma-separated (bank,vacation)
#   fig_algos         optional: default engines, comma-separated (prstm,gpustm,gpustm-local:
#                     GPU-STM as the original keeps its logs, in global memory, and our
#                     variant with them thread-local, so a plot tells the two apart)
#   fig_algos_about   optional: a paragraph for --help on the engines (why some are left out)
#   fig_paper_algos   optional: the engines of the paper's own series, comma-separated
#                     (default prstm,gpustm), what --series paper runs; the others of
#                     fig_algos are our variants beside them
#   fig_quick_sizes   optional: the sizes of --quick for every workload, replacing
#                     stmfig_quick_sizes (when the fixed options tie sizes together)
#   fig_metrics       optional: what the plot shows, a row of panels each per workload:
#                     "throughput" (default), "throughput abort_rate" adds the abort rate
#   fig_panel_title   optional: the plot's title of a one-panel figure's panel
#   fig_protocol      optional array: the measurement options of every run but under
#                     --paper and --quick (default: none, gpubench's 5 repetitions of one
#                     pass over the table); PR-STM's figures set a time-based one
#
# An engine with no GPU backend in any build (`gpubench info`: cpu_only, the host
# baseline jvstm) runs on the CPU backend when --backend gpu is asked, with a note.
#
# A figure whose panels are not A-D (kmeans and graph have no read-only
# transactions and nothing to presort) sets stmfig_panels after sourcing this
# file, and fig_panels_about to say what they are; --panels then defaults to
# its letters.
#
# One report per run: DIR/<workload>-<algo>-<panel>-x<point>.json; then
# scripts/lib/report2csv.py checks every report (complete, verified, what its
# name says, one sweep's settings) and writes the CSV and markdown, and
# scripts/stm-figure.gp draws one row of panels per workload.

stmfig_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$stmfig_here/sweep.sh"
# shellcheck source=scripts/lib/plot.sh
. "$stmfig_here/plot.sh"
# shellcheck source=scripts/lib/slurm.sh
. "$stmfig_here/slurm.sh"

fig_protocol=()

# Panel letter, then the gpubench stm options that make it.
stmfig_panels=(
	"A --read-only 0"
	"B --read-only 20 --read-only-threads"
	"C --read-only 0 --presort"
	"D --read-only 20 --presort --read-only-threads"
)

# --quick: each workload at tiny sizes (the paper's sizes otherwise, gpubench's defaults).
stmfig_quick_sizes() {
	case $1 in
	bank) echo "--tx-per-thread 20 --accounts 20000" ;;
	vacation) echo "--tx-per-thread 20 --customers 2000 --room-types 100" ;;
	skiplist) echo "--tx-per-thread 20 --initial-keys 200 --key-range 4000 --capacity 10000" ;;
	kmeans) echo "--points 3000 --clusters 4 --iterations 3" ;;
	graph) echo "--vertices 2000 --edges 8000" ;;
	*) echo "--tx-per-thread 20" ;;
	esac
}

stmfig_usage() {
	cat <<EOF
usage: scripts/$sweep_name [options] [-- extra gpubench stm options]

$fig_about

Runs gpubench stm for every engine, workload, panel and --$fig_axis point
(fixed: ${fig_fixed[*]}), then builds DIR/$fig_name.csv, DIR/$fig_name.md and,
when gnuplot is installed, DIR/$fig_name.png (one row of panels per
workload, log y; --format for SVG and PDF too). ${fig_panels_about:-Panels: A no presort, 0% read-only; B no presort, 20%
read-only; C presort, 0% read-only; D presort, 20% read-only, where 20% of the
threads run only read-only transactions, as in section 4.2 of the paper
(gpubench stm --read-only-threads).}
${fig_algos_about:-Engines: PR-STM (prstm); GPU-STM (gpustm), its transaction logs in global
memory as the original keeps them; and gpustm-local, our variant of GPU-STM with
its logs in thread-local memory, as PR-STM keeps its own.}

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out DIR           where reports and outputs go (default results/local/$fig_name)
  --backend B         gpu, cpu or auto (default auto; --quick: cpu)
  --algos LIST        comma-separated engines (default ${fig_algos:-prstm,gpustm,gpustm-local}); an
                      engine with no GPU backend (jvstm) runs on the CPU under
                      --backend gpu
  --series S          all (default): those engines; paper: only the paper's own
                      series, ${fig_paper_algos:-prstm,gpustm} (not with --algos)
  --workloads LIST    comma-separated workloads (default ${fig_workloads:-bank,vacation})
  --$fig_axis LIST    comma-separated points (default $fig_points)
  --panels LIST       comma-separated panels to run (default $(stmfig_letters)); the
                      table and plot cover every report in --out
EOF
	stmfig_mix_help
	cat <<EOF
  --paper             the paper's protocol on every run: 5 s x 10 repetitions
                      (default: $(stmfig_protocol_about))
  --duration S        each repetition S seconds of device time, in place of the
                      default protocol's (not with --paper or --quick)
  --reps N            N repetitions a run, in place of the default protocol's
                      (not with --paper or --quick): with --duration, a shorter
                      or longer look at the figure than its protocol
  --preview           a look in minutes before the full run: the first and last
                      of the default points (${fig_points%%,*} and ${fig_points##*,}) at the paper's sizes,
                      --duration 0.3 --reps 2 a run (not with --paper, --quick,
                      --duration or --reps)
  --quick             tiny sizes for CI: --$fig_axis $fig_quick_points, ${fig_quick_fixed[*]},
                      20 transactions per thread, 1 repetition, CPU backend
  --format LIST       the plot's formats, comma-separated: png, svg, pdf
                      (default png)
  --plot-only         run nothing: rebuild CSV, markdown and PNG from the
                      reports already in --out (e.g. fetched from a GPU machine)
  --emit-slurm DIR    run nothing: write the runs to DIR/jobs.txt and a Slurm
                      job array in DIR (sbatch it, then --plot-only)
$(sweep_gpus_help)
  -h, --help          this text

Options after -- go to every gpubench stm run unchanged (e.g. -- --verify-every 10).
Every run must be complete and verified: one that fails or is not verified
(e.g. -- --no-verify) stops the script and nothing is built from the sweep.
Exit status: 0 when every run succeeded and verified, 1 otherwise, 2 on a
usage error.
EOF
}

stmfig_main() {
	local gpubench="" out="results/local/$fig_name" backend="" algos=${fig_algos:-prstm,gpustm,gpustm-local}
	local workloads=${fig_workloads:-bank,vacation} points=$fig_points points_set=0
	local only_panels
	only_panels=$(stmfig_letters)
	local paper=0 quick=0 preview=0 plot_only=0 csv md formats=png duration="" reps="" mix=threads series=all algos_set=0
	local -a extra=() protocol=("${fig_protocol[@]}") fixed=("${fig_fixed[@]}")

	while [[ $# -gt 0 ]]; do
		case $1 in
		--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
		--out) need_value "$@"; out=$2; shift 2 ;;
		--backend) need_value "$@"; backend=$2; shift 2 ;;
		--algos) need_value "$@"; algos=$2; algos_set=1; shift 2 ;;
		--series) need_value "$@"; series=$2; shift 2 ;;
		--workloads) need_value "$@"; workloads=$2; shift 2 ;;
		"--$fig_axis") need_value "$@"; points=$2; points_set=1; shift 2 ;;
		--panels) need_value "$@"; only_panels=$2; shift 2 ;;
		--read-only-mix) need_value "$@"; mix=$2; shift 2 ;;
		--paper) paper=1; shift ;;
		--quick) quick=1; shift ;;
		--preview) preview=1; shift ;;
		--duration) need_value "$@"; duration=$2; shift 2 ;;
		--reps) need_value "$@"; reps=$2; shift 2 ;;
		--plot-only) plot_only=1; shift ;;
		--format) need_value "$@"; plot_formats "$2"; formats=$2; shift 2 ;;
		--emit-slurm) need_value "$@"; sweep_emit_dir=$2; shift 2 ;;
		--gpus) sweep_set_gpus "$@"; shift 2 ;;
		-h | --help) stmfig_usage; exit 0 ;;
		--) shift; extra=("$@"); break ;;
		*) die_usage "unknown option '$1'" ;;
		esac
	done

	case ${backend:-auto} in
	gpu | cpu | auto) ;;
	*) die_usage "--backend: '$backend' is not one of gpu, cpu, auto" ;;
	esac
	case $series in
	all) ;;
	paper)
		[[ $algos_set == 0 ]] || die_usage "--series and --algos both choose the engines: give one of them"
		algos=${fig_paper_algos:-prstm,gpustm}
		;;
	*) die_usage "--series: '$series' is not all or paper" ;;
	esac
	[[ $algos =~ ^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$ ]] ||
		die_usage "--algos: '$algos' is not a comma-separated list of engine names"
	[[ $workloads =~ ^[a-z0-9]+(,[a-z0-9]+)*$ ]] ||
		die_usage "--workloads: '$workloads' is not a comma-separated list of workload names"
	[[ $only_panels =~ ^[A-D](,[A-D])*$ ]] ||
		die_usage "--panels: '$only_panels' is not a comma-separated list of A, B, C, D"
	[[ $mix == threads || $mix == blocks ]] ||
		die_usage "--read-only-mix: '$mix' is not threads or blocks"
	[[ $mix == threads ]] || stmfig_has_read_only ||
		die_usage "--read-only-mix: $sweep_name has no panel with read-only transactions"
	[[ $points =~ ^[0-9]+(,[0-9]+)*$ ]] ||
		die_usage "--$fig_axis: '$points' is not a comma-separated list of numbers"

	if [[ -n $duration ]] && [[ ! $duration =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ || $duration =~ ^[0.]*$ ]]; then
		die_usage "--duration: '$duration' is not a positive number of seconds"
	fi
	[[ -z $reps || $reps =~ ^[1-9][0-9]*$ ]] || die_usage "--reps: '$reps' is not a positive number"
	if [[ -n $duration$reps ]]; then
		[[ $paper == 0 && $quick == 0 ]] || die_usage "--duration and --reps replace the default protocol: not with --paper or --quick"
		# the default protocol less what is replaced, then the replacements
		local -a kept=()
		local i=0
		while [[ $i -lt ${#protocol[@]} ]]; do
			case ${protocol[i]} in
			--duration) [[ -n $duration ]] || kept+=("${protocol[@]:i:2}"); i=$((i + 2)) ;;
			--reps) [[ -n $reps ]] || kept+=("${protocol[@]:i:2}"); i=$((i + 2)) ;;
			*) kept+=("${protocol[i]}"); i=$((i + 1)) ;;
			esac
		done
		protocol=("${kept[@]}")
		[[ -z $duration ]] || protocol+=(--duration "$duration")
		[[ -z $reps ]] || protocol+=(--reps "$reps")
	fi
	[[ $paper == 0 ]] || protocol=(--paper)
	if [[ $preview == 1 ]]; then
		[[ $paper == 0 && $quick == 0 && -z $duration$reps ]] ||
			die_usage "--preview has its own points and protocol: not with --paper, --quick, --duration or --reps"
		[[ $points_set == 1 ]] || points=${fig_points%%,*},${fig_points##*,}
		protocol=(--duration 0.3 --reps 2)
	fi
	if [[ $quick == 1 ]]; then
		[[ $points_set == 1 ]] || points=$fig_quick_points
		[[ -n $backend ]] || backend=cpu
		fixed=("${fig_quick_fixed[@]}")
		protocol=(--reps 1)
		[[ $paper == 0 ]] || protocol=(--paper --reps 1)
	fi
	# a job array is for GPU nodes: one without a GPU must fail, not run on the CPU
	[[ -n $backend || -z $sweep_emit_dir ]] || backend=gpu
	backend=${backend:-auto}

	command -v python3 >/dev/null || { echo "$sweep_name: python3 is required" >&2; exit 1; }

	csv=$out/$fig_name.csv
	md=$out/$fig_name.md
	# Outputs of an earlier sweep must not survive a failed one.
	sweep_clear "$csv" "$md" -- "$out/$fig_name"

	if [[ $plot_only == 0 ]]; then
		sweep_gpubench
		mkdir -p "$out"
		sweep_cpu_algos=" $(stmfig_cpu_only) " # once: sweep_loops runs stmfig_sweep twice
		sweep_loops stmfig_sweep
		sweep_wait
	else
		[[ -d $out ]] || { echo "$sweep_name: --plot-only: no folder '$out'" >&2; exit 1; }
	fi
	sweep_emit_done

	python3 "$stmfig_here/report2csv.py" table "$out" --axis "$fig_axis" --csv "$csv" --md "$md" \
		--title "$fig_title" >&2
	plot_draw "$out/$fig_name" "$formats" "$out" -e "csv='$(stmfig_gp "$csv")'; title='$(stmfig_gp "$fig_title")'" \
		-e "xlabel='$(stmfig_gp "$fig_axis_label")'" \
		-e "logx=$fig_logx; algos='$(stmfig_column 2)'; workloads='$(stmfig_column 1)'" \
		-e "panels='$(stmfig_column 3)'; metrics='${fig_metrics:-throughput}'" \
		-e "panel_title_all='$(stmfig_gp "${fig_panel_title:-}")'" "$stmfig_here/../stm-figure.gp"
}

# Whether a panel of the figure has read-only transactions (the mix --read-only-mix chooses).
stmfig_has_read_only() {
	[[ " ${stmfig_panels[*]} " == *" --read-only-threads"* ]]
}

# --read-only-mix's help, for a figure with read-only panels.
stmfig_mix_help() {
	stmfig_has_read_only || return 0
	cat <<'EOF'
  --read-only-mix M   threads (default): the read-only panels' 20% are whole
                      threads, each running only read-only transactions, as
                      the paper; blocks: 20% of every thread's transactions
                      (gpubench stm --read-only without --read-only-threads)
EOF
}

# What a run measures without --paper, for --help.
stmfig_protocol_about() {
	if [[ ${#fig_protocol[@]} == 0 ]]; then
		echo "5 repetitions of one pass over the table"
	else
		echo "${fig_protocol[*]}"
	fi
}

# A string for a single-quoted gnuplot string: each apostrophe doubled.
stmfig_gp() {
	printf '%s' "${1//\'/\'\'}"
}

# The letters of stmfig_panels, comma-separated.
stmfig_letters() {
	local spec letters=""
	for spec in "${stmfig_panels[@]}"; do
		letters+=${letters:+,}${spec%% *}
	done
	echo "$letters"
}

# The distinct values of one CSV column, space-separated, for the plot.
stmfig_column() {
	tail -n +2 "$csv" | cut -d, -f"$1" | sort -u | paste -sd' '
}

# The engines of `gpubench info` that have no GPU backend in any build, space-separated.
stmfig_cpu_only() {
	"$gpubench" info --quiet --json - | python3 -c '
import json, sys
print(" ".join(e["name"] for e in json.load(sys.stdin)["engines"]["stm"] if e.get("cpu_only")))'
}

# Every run of the figure, through sweep_run (reads stmfig_main's locals).
stmfig_sweep() {
	local -a algo_list wl_list point_list chosen=() sizes
	local total n=0 algo wl spec panel opts x run_backend cpu_only
	IFS=, read -r -a algo_list <<<"$algos"
	IFS=, read -r -a wl_list <<<"$workloads"
	IFS=, read -r -a point_list <<<"$points"
	for spec in "${stmfig_panels[@]}"; do
		[[ ,$only_panels, == *,${spec%% *},* ]] && chosen+=("$spec")
	done
	total=$((${#wl_list[@]} * ${#algo_list[@]} * ${#chosen[@]} * ${#point_list[@]}))
	echo "$sweep_name: $total runs of $sweep_version ($gpubench), backend $backend," \
		"reports in $out" >&2
	cpu_only=$sweep_cpu_algos
	for algo in "${algo_list[@]}"; do
		[[ $backend == gpu && $cpu_only == *" $algo "* ]] &&
			echo "$sweep_name: note: $algo has no GPU backend (the host baseline): its runs use --backend cpu" >&2
	done
	for wl in "${wl_list[@]}"; do
		sizes=()
		[[ $quick == 0 ]] || read -r -a sizes <<<"${fig_quick_sizes:-$(stmfig_quick_sizes "$wl")}"
		for algo in "${algo_list[@]}"; do
			run_backend=$backend
			[[ $backend == gpu && $cpu_only == *" $algo "* ]] && run_backend=cpu
			for spec in "${chosen[@]}"; do
				read -r panel opts <<<"$spec"
				[[ $mix == threads ]] || opts=${opts/ --read-only-threads/}
				for x in "${point_list[@]}"; do
					n=$((n + 1))
					sweep_expect=(python3 "$stmfig_here/report2csv.py" forecast "$out" "$wl-$algo-$panel-x$x" --points "$points")
					# shellcheck disable=SC2086 # $opts is a list of options
					sweep_run "[$n/$total]" "$out" "$wl-$algo-$panel-x$x" \
						python3 "$stmfig_here/report2csv.py" check -- \
						stm --workload "$wl" --algo "$algo" --backend "$run_backend" "${fixed[@]}" \
						"--$fig_axis" "$x" $opts "${sizes[@]}" "${protocol[@]}" "${extra[@]}"
				done
			done
		done
	done
}
