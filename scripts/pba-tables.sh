#!/usr/bin/env bash
# Tables 5.2, 5.3 and 5.4 of Abell's thesis, chapter 5 (GPU-PBA): the time to
# decide one request of the banker's worst case (every request needs I - 1
# safety iterations) at 256, 512 and 1024 resources for 512..8192 processes,
# here for every implementation of gpubench avoid, with the speedups of gpu and
# gpu-thesis over cpu (the thesis's serial CPU-PBA) and cpu-fast, and the
# thesis's own run-times and speedups beside ours at its sizes.
# One JSON report per size, then pba-tables.csv, pba-tables.md and (with
# gnuplot) pba-speedup.png. Any failed or unverified run stops the script with
# status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"
# shellcheck source=scripts/lib/plot.sh
. "$here/lib/plot.sh"
# shellcheck source=scripts/lib/slurm.sh
. "$here/lib/slurm.sh"
helper="$here/lib/pba_tables.py"
plot_script="$here/pba-tables.gp"

usage() {
	cat <<'EOF'
usage: scripts/pba-tables.sh [options] [-- extra gpubench avoid options]

Runs gpubench avoid --workload worst-case once per resource count and process
count, every implementation on the same stream (--impl FIRST --compare REST),
writes DIR/reports/pba-R<res>-P<procs>.json, then builds DIR/pba-tables.csv,
DIR/pba-tables.md (one table per resource count: Tables 5.2-5.4 at 256, 512
and 1024) and, when gnuplot is installed, DIR/pba-speedup.png.

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out DIR           where reports and outputs go (default results/local/pba-tables)
  --impls LIST        comma-separated implementations, the first one is --impl:
                      gpu, gpu-thesis, cpu, cpu-fast (default all four, gpu
                      first; --quick: cpu,cpu-fast)
  --res LIST          comma-separated resource counts (default 256,512,1024)
  --procs LIST        comma-separated process counts (default 512,1024,2048,4096,8192)
  --events N          events per stream (default 2: one request and its
                      release; the worst case repeats identically)
  --reps N            repetitions of the stream (default 1)
  --extended          then a second sweep past the thesis: 16384, 32768 and
                      65536 processes at 256 and 1024 resources, with the
                      --impls list less cpu and gpu-thesis (gpu vs cpu-fast by
                      default). cpu is the thesis's serial algorithm, whose
                      worst-case request costs O(I^2 J): where one takes 15 s
                      at 8192 x 1024, one at 65536 x 1024 takes about 16
                      minutes, and cpu would add half an hour to the sweep.
                      gpu-thesis pays a launch and a host round trip per
                      safety iteration: 65535 of them per request.
  --extended-impls LIST
                      implementations of the second sweep instead
  --quick             tiny sizes for CI, no GPU needed: resources 16,32,
                      processes 64,128 (extended: 256,512), implementations
                      cpu,cpu-fast unless --impls is given
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

pba-tables.csv has one row per size and implementation, sorted by impl, res
and procs:
  res, procs, impl        the size and the implementation
  request_median_s        median seconds to decide one request (the thesis's
                          time); request_min_s, request_max_s and requests
                          (how many) describe the same sample
  stream_median_s         median seconds for the whole stream over repetitions
  safety_steps_max        most safety iterations in one request (processes
                          released, for cpu-fast)
  speedup_gpu             request_median_s / that of gpu in the same run: how
                          many times faster gpu decided; empty without gpu
  speedup_gpu_thesis      the same for gpu-thesis

pba-tables.md has the request times and the speedups of gpu and gpu-thesis
over cpu and cpu-fast, then, at the sizes the thesis has (`-` elsewhere), its
own numbers as printed (scripts/lib/thesis-numbers.tsv): thesis cpu
(CPU-PBA), thesis K20c gpu-thesis (GPU-PBA on the Tesla K20c, the newest of
its GPUs), its speedup over cpu, and thesis best gpu-thesis over cpu (the best
of the GTX 670, Tesla C2050 and Tesla K20c). Its run-times are seconds (it
prints no unit); its speedups are (CPU - GPU) / GPU, where ours are CPU / GPU.

Options after -- go to every gpubench avoid run unchanged. Every run must
verify (no --no-verify). Exit status: 0 when every run succeeded and verified,
1 otherwise, 2 on a usage error.
EOF
}

# check_impls OPTION LIST: known names, none twice.
check_impls() {
	local name seen=,
	local -a names
	[[ $2 =~ ^[a-z-]+(,[a-z-]+)*$ ]] ||
		die_usage "$1: '$2' is not a comma-separated list of implementations"
	IFS=, read -r -a names <<<"$2"
	for name in "${names[@]}"; do
		case $name in
		gpu | gpu-thesis | cpu | cpu-fast) ;;
		*) die_usage "$1: unknown implementation '$name' (accepted: gpu, gpu-thesis, cpu, cpu-fast)" ;;
		esac
		[[ $seen != *,$name,* ]] || die_usage "$1: '$name' is named twice"
		seen+="$name,"
	done
}

gpubench=""
out="results/local/pba-tables"
impls=""
extended_impls=""
res="256,512,1024"
res_set=0
procs="512,1024,2048,4096,8192"
procs_set=0
events=2
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
	--impls) need_value "$@"; impls=$2; shift 2 ;;
	--extended-impls) need_value "$@"; extended_impls=$2; shift 2 ;;
	--res) need_value "$@"; res=$2; res_set=1; shift 2 ;;
	--procs) need_value "$@"; procs=$2; procs_set=1; shift 2 ;;
	--events) need_value "$@"; events=$2; shift 2 ;;
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

[[ $res =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
	die_usage "--res: '$res' is not a comma-separated list of positive numbers"
[[ $procs =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
	die_usage "--procs: '$procs' is not a comma-separated list of positive numbers"
[[ $events =~ ^[1-9][0-9]*$ ]] || die_usage "--events: '$events' is not a positive number"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die_usage "--reps: '$reps' is not a positive number"

ext_res="256,1024"
ext_procs="16384,32768,65536"
if [[ $quick == 1 ]]; then
	[[ $res_set == 1 ]] || res="16,32"
	[[ $procs_set == 1 ]] || procs="64,128"
	[[ -n $impls ]] || impls="cpu,cpu-fast"
	ext_res="16,32"
	ext_procs="256,512"
fi
impls=${impls:-gpu,gpu-thesis,cpu,cpu-fast}
check_impls --impls "$impls"
if [[ $extended == 1 ]]; then
	if [[ -z $extended_impls ]]; then
		extended_impls=$(tr , '\n' <<<"$impls" | grep -vx -e cpu -e gpu-thesis | paste -sd, || true)
		[[ -n $extended_impls ]] ||
			die_usage "--extended: --impls '$impls' leaves nothing once cpu and gpu-thesis are" \
				"dropped; name the implementations with --extended-impls"
	fi
	check_impls --extended-impls "$extended_impls"
elif [[ -n $extended_impls ]]; then
	die_usage "--extended-impls applies only with --extended"
fi

command -v python3 >/dev/null || { echo "pba-tables.sh: python3 is required" >&2; exit 1; }
[[ -r $helper ]] || { echo "pba-tables.sh: $helper is missing" >&2; exit 1; }

reports="$out/reports"

# run_sweep LABEL IMPLS RES PROCS: one gpubench avoid run per size.
run_sweep() {
	local label=$1 list=$2 first rest total n=0 r p name
	local -a res_list procs_list compare=()
	first=${list%%,*}
	rest=${list#"$first"}
	rest=${rest#,}
	[[ -z $rest ]] || compare=(--compare "$rest")
	IFS=, read -r -a res_list <<<"$3"
	IFS=, read -r -a procs_list <<<"$4"
	total=$((${#res_list[@]} * ${#procs_list[@]}))
	echo "pba-tables.sh: $label: $total runs of $sweep_version ($gpubench)," \
		"implementations $list, reports in $reports" >&2
	for r in "${res_list[@]}"; do
		for p in "${procs_list[@]}"; do
			n=$((n + 1))
			name="pba-R$r-P$p"
			sweep_run "[$label $n/$total]" "$reports" "$name" python3 "$helper" check --impls "$list" -- \
				avoid --workload worst-case --res "$r" --procs "$p" --events "$events" --reps "$reps" \
				--impl "$first" "${compare[@]}" "${extra[@]}"
		done
	done
}

# Outputs of an earlier sweep must not survive a failed one.
sweep_clear "$out/pba-tables.csv" "$out/pba-tables.md" -- "$out/pba-speedup"

if [[ $plot_only == 0 ]]; then
	sweep_gpubench
	mkdir -p "$reports"
	sweeps() {
		run_sweep tables "$impls" "$res" "$procs"
		[[ $extended == 0 ]] || run_sweep extended "$extended_impls" "$ext_res" "$ext_procs"
	}
	sweep_loops sweeps
else
	[[ -d $reports ]] || { echo "pba-tables.sh: --plot-only: no folder '$reports'" >&2; exit 1; }
fi
sweep_wait
sweep_emit_done

python3 "$helper" table "$reports" --csv "$out/pba-tables.csv" --md "$out/pba-tables.md" >&2

vars=$(python3 "$helper" plot-vars "$out/pba-tables.csv")
plot_draw "$out/pba-speedup" "$formats" "$reports" -e "csv='$out/pba-tables.csv'; $vars" \
	"$plot_script"
