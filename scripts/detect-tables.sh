#!/usr/bin/env bash
# Tables 3.2-3.3 (OSDDA, single-unit resources) and 4.3-4.4 (LMDDA, multi-unit
# resources) of Abell's thesis, chapters 3 and 4: deadlock detection time on
# square systems, OSDDA at 512..8192 and LMDDA at 64..1024 processes and
# resources, here for every detector of gpubench detect on one generated event
# stream per size, with the speedups of the GPU detectors (or, with none, of the
# first CPU one) over cpu-serial (the thesis's serial CPU detectors), cpu and
# cpu-bits, and the thesis's own run-times and speedups beside ours at its sizes.
# One JSON report per size and detector (one gpubench run each, so that no run
# is longer than its slowest detector: cpu-serial at OSDDA 8192 x 8192 takes
# minutes), then detect-tables.csv, detect-tables.md and (with gnuplot)
# detect-speedup.png. Any failed or unverified run stops the script with
# status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"
# shellcheck source=scripts/lib/plot.sh
. "$here/lib/plot.sh"
# shellcheck source=scripts/lib/slurm.sh
. "$here/lib/slurm.sh"
helper="$here/lib/detect_tables.py"
plot_script="$here/detect-tables.gp"

usage() {
	cat <<'EOF'
usage: scripts/detect-tables.sh [options] [-- extra gpubench detect options]

Runs gpubench detect once per algorithm, size N on an N x N system (--procs
N --res N) and detector (--impl D), every detector of a size on the same
generated stream (the seed's), writes DIR/reports/detect-<algo>-<N>-<D>.json
(and .log), then builds DIR/detect-tables.csv, DIR/detect-tables.md (one table per
algorithm: Tables 3.2-3.3 for osdda, 4.3-4.4 for lmdda) and, when gnuplot is
installed, DIR/detect-speedup.png.

--protocol thesis (the default) times what the thesis's tables time
(docs/detect.md): for osdda the procs + res events that build the generated
RAG, for lmdda the first release after that build that recomputes
reachability. --protocol stream (the default with --events or --quick) times
a whole stream of --events events instead. Either way the events come from
gpubench's generator with a fixed seed and its default shares (release 0.4,
deadlock 0.02), the same settings at every size.

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out DIR           where reports and outputs go (default results/local/detect-tables)
  --algos LIST        comma-separated algorithms: osdda, lmdda (default both)
  --impls LIST        comma-separated detectors of every algorithm, run in
                      that order, one run each (default: those gpubench info
                      lists for the algorithm, GPU ones first and only when
                      info lists a device, then cpu-bits, then the other CPU
                      ones; --quick: cpu-bits,cpu)
  --osdda-sizes LIST  comma-separated sizes N (default 512,1024,2048,4096,8192)
  --lmdda-sizes LIST  comma-separated sizes N (default 64,128,256,512,1024)
  --units U | LO-HI   lmdda: units of every resource, or the range drawn per
                      resource (default 1-4)
  --lmdda-cpu-max N   run lmdda's cpu only up to N x N (default 256 under
                      --protocol thesis, 128 under stream; 0: never). It
                      recomputes reachability in O(N^2 M^2) after every
                      release that changes an edge, some 16 times longer
                      for each doubling of N: the thesis protocol times one
                      such release (seconds at 256 x 256, minutes at 512),
                      a 2000-event stream hundreds (about 8 minutes at
                      128 x 128 on one core). osdda's cpu runs at every size.
  --protocol NAME     thesis or stream (default thesis; stream with --events
                      or --quick)
  --events N          events per stream, --protocol stream only (default 2000;
                      --quick 200)
  --seed N            seed of the generator (default 1)
  --reps N            repetitions of the stream (default 1)
  --extended          then a second sweep past the thesis: osdda at 16384,
                      32768 and 65536, lmdda at 2048, 4096 and 8192, with the
                      --impls list less cpu and gpu-initial. osdda's cpu keeps
                      five N x N byte matrices (20 GiB at 65536); lmdda's cpu
                      would take centuries at 8192; gpu-initial keeps one int
                      a cell (154 GB at osdda 65536).
  --extended-impls LIST
                      detectors of the second sweep instead
  --quick             tiny sizes for CI, no GPU needed: osdda 64,128, lmdda
                      16,32 (extended: osdda 256,512, lmdda 64,128), 200
                      events, detectors cpu-bits,cpu unless --impls is given
  --format LIST       the plot's formats, comma-separated: png, svg, pdf
                      (default png)
  --plot-only         run nothing: rebuild CSV, markdown and PNG from the
                      reports already in DIR/reports (e.g. fetched from a GPU
                      machine)
  --emit-slurm DIR    run nothing: write the runs to DIR/jobs.txt and a Slurm
                      job array in DIR (sbatch it, then --plot-only)
EOF
	sweep_gpus_help
	cat <<'EOF'
  -h, --help          this text

detect-tables.csv has one row per algorithm, size and detector, sorted by
algo, impl and size:
  algo, procs, res, impl  the system (procs = res = N) and the detector
  events                  events in the stream
  stream_median_s         median seconds to replay the whole stream, over
                          repetitions (the tables' time)
  events_per_s            events / stream_median_s
  granted_median_s, blocked_median_s, deadlock_median_s, released_median_s,
  regranted_median_s      median seconds of one event of that outcome, in the
                          last repetition; empty when none occurred
  matrix_bytes            memory of the detector's state
  speedup_over_cpu        stream_median_s of cpu / that of this row's detector,
                          at the same size; filled only in the rows of GPU
                          detectors (gpu, gpu-*) or, at a size where none ran,
                          of the first CPU one (cpu-bits, then cpu, then the
                          rest), and only when cpu ran at that size
  speedup_over_cpu_bits   the same over cpu-bits
  speedup_over_cpu_serial the same over cpu-serial (the thesis's serial
                          CPU detectors, as its Tables 3.3 and 4.4 compare)

detect-tables.md has the same times and speedups, then, at the sizes the
thesis has (`-` elsewhere), its own numbers as printed
(scripts/lib/thesis-numbers.tsv): thesis cpu (CPU-OSDDA, CPU-LMDDA), thesis
K20c gpu-initial and thesis K20c gpu (its initial and bit-packed GPU designs
on the Tesla K20c, the newest of its GPUs) with their speedups over its cpu,
and thesis best gpu over cpu (the bit-packed design's best over the GTX 670,
Tesla C2050 and Tesla K20c). Its run-times are seconds (it prints no unit);
its speedups are CPU / GPU in Tables 3.2-3.3, as ours, but mostly (CPU - GPU)
/ GPU in 4.3-4.4. It timed its own event streams: compare speedups, not times.

Options after -- go to every gpubench detect run unchanged. Every run must
verify (no --verify-every 0). Exit status: 0 when every run succeeded and
verified, 1 otherwise, 2 on a usage error.
EOF
}

# check_sizes OPTION LIST: positive numbers.
check_sizes() {
	[[ $2 =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
		die_usage "$1: '$2' is not a comma-separated list of positive numbers"
}

# check_names OPTION LIST: the shape of a list of detectors (gpubench info
# says later which names exist).
check_names() {
	[[ -z $2 || $2 =~ ^[a-z0-9-]+(,[a-z0-9-]+)*$ ]] ||
		die_usage "$1: '$2' is not a comma-separated list of detectors"
}

# without_cpu LIST: LIST less cpu (empty when nothing else is left).
without_cpu() {
	tr , '\n' <<<"$1" | grep -vx cpu | paste -sd, || true
}

# past_the_thesis LIST: the detectors of the extended sweep, LIST less cpu and
# gpu-initial (one int a cell: 154 GB at osdda 65536, hours a stream at lmdda 8192).
past_the_thesis() {
	tr , '\n' <<<"$1" | grep -vx -e cpu -e gpu-initial | paste -sd, || true
}

gpubench=""
out="results/local/detect-tables"
algos="osdda,lmdda"
impls=""
extended_impls=""
osdda_sizes="512,1024,2048,4096,8192"
osdda_set=0
lmdda_sizes="64,128,256,512,1024"
lmdda_set=0
units="1-4"
lmdda_cpu_max=""
events=2000
events_set=0
protocol=""
seed=1
reps=1
extended=0
quick=0
plot_only=0
formats=png
extra=()

while [[ $# -gt 0 ]]; do
	case $1 in
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--algos) need_value "$@"; algos=$2; shift 2 ;;
	--impls) need_value "$@"; impls=$2; shift 2 ;;
	--extended-impls) need_value "$@"; extended_impls=$2; shift 2 ;;
	--osdda-sizes) need_value "$@"; osdda_sizes=$2; osdda_set=1; shift 2 ;;
	--lmdda-sizes) need_value "$@"; lmdda_sizes=$2; lmdda_set=1; shift 2 ;;
	--units) need_value "$@"; units=$2; shift 2 ;;
	--lmdda-cpu-max) need_value "$@"; lmdda_cpu_max=$2; shift 2 ;;
	--events) need_value "$@"; events=$2; events_set=1; shift 2 ;;
	--protocol) need_value "$@"; protocol=$2; shift 2 ;;
	--seed) need_value "$@"; seed=$2; shift 2 ;;
	--reps) need_value "$@"; reps=$2; shift 2 ;;
	--extended) extended=1; shift ;;
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

[[ $algos =~ ^(osdda|lmdda)(,(osdda|lmdda))?$ && $algos != osdda,osdda && $algos != lmdda,lmdda ]] ||
	die_usage "--algos: '$algos' is not osdda, lmdda or both, comma-separated"
check_sizes --osdda-sizes "$osdda_sizes"
check_sizes --lmdda-sizes "$lmdda_sizes"
check_names --impls "$impls"
check_names --extended-impls "$extended_impls"
[[ $units =~ ^[1-9][0-9]*(-[1-9][0-9]*)?$ ]] ||
	die_usage "--units: '$units' is not a number of units or a range LO-HI"
[[ $events =~ ^[1-9][0-9]*$ ]] || die_usage "--events: '$events' is not a positive number"
[[ $seed =~ ^[0-9]+$ ]] || die_usage "--seed: '$seed' is not a number"
[[ -z $protocol || $protocol == thesis || $protocol == stream ]] ||
	die_usage "--protocol: '$protocol' is not thesis or stream"
if [[ -z $protocol ]]; then
	protocol=thesis
	[[ $events_set == 0 && $quick == 0 ]] || protocol=stream
fi
[[ $protocol == stream || $events_set == 0 ]] || die_usage "--events applies only to --protocol stream"
if [[ -z $lmdda_cpu_max ]]; then
	lmdda_cpu_max=256
	[[ $protocol == thesis ]] || lmdda_cpu_max=128
fi
[[ $lmdda_cpu_max =~ ^(0|[1-9][0-9]*)$ ]] || die_usage "--lmdda-cpu-max: '$lmdda_cpu_max' is not a number"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die_usage "--reps: '$reps' is not a positive number"
[[ $extended == 1 || -z $extended_impls ]] || die_usage "--extended-impls applies only with --extended"

ext_osdda="16384,32768,65536"
ext_lmdda="2048,4096,8192"
if [[ $quick == 1 ]]; then
	[[ $osdda_set == 1 ]] || osdda_sizes="64,128"
	[[ $lmdda_set == 1 ]] || lmdda_sizes="16,32"
	[[ $events_set == 1 ]] || events=200
	[[ -n $impls ]] || impls="cpu-bits,cpu"
	ext_osdda="256,512"
	ext_lmdda="64,128"
fi
declare -A table_sizes=([osdda]=$osdda_sizes [lmdda]=$lmdda_sizes)
declare -A ext_sizes=([osdda]=$ext_osdda [lmdda]=$ext_lmdda)

command -v python3 >/dev/null || { echo "detect-tables.sh: python3 is required" >&2; exit 1; }
[[ -r $helper ]] || { echo "detect-tables.sh: $helper is missing" >&2; exit 1; }

reports="$out/reports"
IFS=, read -r -a algo_list <<<"$algos"
declare -A list ext_list

# detectors ALGO OPTION [LIST]: the detectors to run for ALGO: LIST checked
# against gpubench info, or info's default. Called in $(...): its exit status
# (2 for a name info does not list, 1 otherwise) ends the script through set -e.
detectors() {
	local rc=0 result
	result=$(python3 "$helper" impls --algo "$1" --option="$2" ${3:+--want "$3"} <<<"$info") ||
		rc=$?
	case $rc in
	0) echo "$result" ;;
	2) echo "see scripts/detect-tables.sh --help" >&2; exit 2 ;;
	*) echo "detect-tables.sh: cannot choose the $1 detectors of $gpubench (see above)" >&2; exit 1 ;;
	esac
}

# check_lmdda_left OPTION LIST SIZES: lmdda's LIST must keep a detector at the
# SIZES past --lmdda-cpu-max, where cpu is left out.
check_lmdda_left() {
	if [[ -z $(without_cpu "$2") ]] &&
		tr , '\n' <<<"$3" | awk -v m="$lmdda_cpu_max" '$1 > m {f = 1} END {exit !f}'; then
		die_usage "$1: '$2' leaves nothing for lmdda above --lmdda-cpu-max $lmdda_cpu_max;" \
			"add cpu-bits or lower the sizes"
	fi
}

# run_sweep LABEL ALGO LIST SIZES: one gpubench detect run per size and detector
# of LIST, each on the stream the seed makes (the same events for every detector:
# the tables check that each size's reports agree on its decisions).
run_sweep() {
	local label=$1 algo=$2 all=$3 total n=0 size here_list impl
	local noted=0
	local -a sizes detectors_here units_opt=()
	IFS=, read -r -a sizes <<<"$4"
	total=${#sizes[@]}
	[[ $algo != lmdda ]] || units_opt=(--units "$units")
	local -a length=(--protocol thesis)
	[[ $protocol == thesis ]] || length=(--protocol stream --events "$events")
	echo "detect-tables.sh: $label $algo: $total sizes of $sweep_version ($gpubench)," \
		"one run a detector: $all, ${length[*]}, seed $seed, reports in $reports" >&2
	for size in "${sizes[@]}"; do
		n=$((n + 1))
		here_list=$all
		if [[ $algo == lmdda && $size -gt $lmdda_cpu_max && ,$all, == *,cpu,* ]]; then
			here_list=$(without_cpu "$all")
			if [[ $noted == 0 ]]; then
				echo "detect-tables.sh: lmdda's cpu left out above $lmdda_cpu_max x" \
					"$lmdda_cpu_max (--lmdda-cpu-max): it costs O(N^2 M^2) per release" >&2
				noted=1
			fi
		fi
		IFS=, read -r -a detectors_here <<<"$here_list"
		for impl in "${detectors_here[@]}"; do
			# how long this run should take, from the detector's smaller sizes (--max-seconds)
			sweep_expect=(python3 "$helper" forecast "$reports" --algo "$algo" --impl "$impl" --size "$size")
			sweep_run "[$label $algo $n/$total $impl]" "$reports" "detect-$algo-$size-$impl" \
				python3 "$helper" check --algo "$algo" --impls "$impl" -- \
				detect --algo "$algo" --procs "$size" --res "$size" "${units_opt[@]}" "${length[@]}" \
				--seed "$seed" --reps "$reps" --impl "$impl" "${extra[@]}"
		done
	done
}

# Outputs of an earlier sweep must not survive a failed one.
sweep_clear "$out/detect-tables.csv" "$out/detect-tables.md" -- "$out/detect-speedup"

if [[ $plot_only == 0 ]]; then
	sweep_gpubench
	info=$("$gpubench" info --quiet --json -) || {
		echo "detect-tables.sh: '$gpubench info --json -' failed" >&2
		exit 1
	}
	# Every list is settled before the first run, so a bad name costs no time.
	for algo in "${algo_list[@]}"; do
		list[$algo]=$(detectors "$algo" --impls "$impls")
		[[ $algo == osdda ]] || check_lmdda_left --impls "${list[$algo]}" "${table_sizes[lmdda]}"
		[[ $extended == 1 ]] || continue
		if [[ -n $extended_impls ]]; then
			ext_list[$algo]=$(detectors "$algo" --extended-impls "$extended_impls")
			[[ $algo == osdda ]] ||
				check_lmdda_left --extended-impls "${ext_list[$algo]}" "${ext_sizes[lmdda]}"
		else
			ext_list[$algo]=$(past_the_thesis "${list[$algo]}")
			[[ -n ${ext_list[$algo]} ]] ||
				die_usage "--extended: --impls '${list[$algo]}' leaves nothing once cpu and gpu-initial are" \
					"dropped; name the detectors with --extended-impls"
		fi
	done
	mkdir -p "$reports"
	sweeps() {
		for algo in "${algo_list[@]}"; do
			run_sweep tables "$algo" "${list[$algo]}" "${table_sizes[$algo]}"
		done
		if [[ $extended == 1 ]]; then
			for algo in "${algo_list[@]}"; do
				run_sweep extended "$algo" "${ext_list[$algo]}" "${ext_sizes[$algo]}"
			done
		fi
	}
	sweep_loops sweeps
else
	[[ -d $reports ]] || { echo "detect-tables.sh: --plot-only: no folder '$reports'" >&2; exit 1; }
fi
sweep_wait
sweep_emit_done

python3 "$helper" table "$reports" --csv "$out/detect-tables.csv" --md "$out/detect-tables.md" >&2

vars=$(python3 "$helper" plot-vars "$out/detect-tables.csv")
plot_draw "$out/detect-speedup" "$formats" "$reports" -e "csv='$out/detect-tables.csv'; $vars" \
	"$plot_script"
