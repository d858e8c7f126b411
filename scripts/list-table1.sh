#!/usr/bin/env bash
# Table 1 of Mulder 2015: the time to insert 128..4096 nodes into an empty
# list, one logical thread (work-item) per node, for the paper's three
# columns: the OpenCL kernel on an OpenCL CPU device (opencl-cpu, PoCL) and
# on the GPU (opencl), and the serial C list (cpu), with our CUDA list (gpu)
# beside them; then, with --extended, past the
# paper's 2304-node GPU limit. One JSON report per size, then
# list-table1.csv, list-table1.md and (with gnuplot) list-table1.png. Any
# failed or unverified run stops the script with status 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"
# shellcheck source=scripts/lib/plot.sh
. "$here/lib/plot.sh"
# shellcheck source=scripts/lib/slurm.sh
. "$here/lib/slurm.sh"
helper="$here/lib/list_table1.py"
plot_script="$here/list-table1.gp"

usage() {
	cat <<'EOF_USAGE'
usage: scripts/list-table1.sh [options] [-- extra gpubench list options]

Runs gpubench list --op insert once per size, every implementation on the
same operations (--impl FIRST --compare REST), writes
DIR/reports/table1-N<nodes>.json, then DIR/list-table1.csv, DIR/list-table1.md
and, when gnuplot is installed, DIR/list-table1.png.

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out DIR           where reports and outputs go (default results/local/list-table1)
  --impls LIST        comma-separated implementations, the first is --impl
                      (default opencl-cpu,opencl,gpu,cpu: Table 1's columns
                      and the CUDA list; any of opencl-cpu, opencl, gpu,
                      gpu-tail, cpu, cpu-tail, cpu-lockfree,
                      cpu-lockfree-tail). The default leaves out, with a
                      warning, those this machine cannot run; named ones
                      must run. opencl needs an OpenCL GPU: where
                      OCL_ICD_VENDORS is unset, NVIDIA's OpenCL is
                      registered for the run by scripts/opencl-icd.sh
  --nodes LIST        comma-separated sizes (default 128,256,...,4096 as Table 1)
  --reps N            repetitions per size (default 5, as the paper)
  --extended          then sizes past the paper: 8192..65536 nodes for the
                      traversing implementations of --impls (each add walks
                      the whole list: 65536 inserts cost 2^31 node visits),
                      and 131072..1048576 nodes for gpu-tail and cpu-tail,
                      whose add does not traverse
  --quick             tiny sizes for CI, no GPU needed: 128,256,384 nodes, 1
                      repetition, implementations opencl-cpu (when built),
                      cpu-lockfree and cpu unless --impls is given
  --format LIST       the plot's formats, comma-separated: png, svg, pdf
                      (default png)
  --plot-only         run nothing: rebuild CSV, markdown and PNG from the
                      reports already in DIR/reports
  --emit-slurm DIR    run nothing: write the runs to DIR/jobs.txt and a Slurm
                      job array in DIR (sbatch it, then --plot-only)
EOF_USAGE
	sweep_gpus_help
	cat <<'EOF_USAGE'
  -h, --help          this text

Options after -- go to every gpubench list run unchanged. Exit status: 0 when
every run succeeded and verified, 1 otherwise, 2 on a usage error.
EOF_USAGE
}

check_impls() {
	local name
	local -a names
	[[ $2 =~ ^[a-z-]+(,[a-z-]+)*$ ]] || die_usage "$1: '$2' is not a comma-separated list of implementations"
	IFS=, read -r -a names <<<"$2"
	for name in "${names[@]}"; do
		case $name in
		opencl | opencl-cpu | gpu | gpu-tail | cpu | cpu-tail | cpu-lockfree | cpu-lockfree-tail) ;;
		*) die_usage "$1: unknown implementation '$name'" ;;
		esac
	done
}

gpubench=""
out="results/local/list-table1"
impls=""
nodes=$(seq -s, 128 128 4096)
nodes_set=0
reps=5
reps_set=0
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
	--nodes) need_value "$@"; nodes=$2; nodes_set=1; shift 2 ;;
	--reps) need_value "$@"; reps=$2; reps_set=1; shift 2 ;;
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

[[ $nodes =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die_usage "--nodes: '$nodes' is not a comma-separated list of positive numbers"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die_usage "--reps: '$reps' is not a positive number"
command -v python3 >/dev/null || { echo "list-table1.sh: python3 is required" >&2; exit 1; }

reports="$out/reports"
sweep_clear "$out/list-table1.csv" "$out/list-table1.md" -- "$out/list-table1"

# run_sweep LABEL IMPLS NODES: one gpubench list run per size.
run_sweep() {
	local label=$1 list=$2 first rest n=0 total size name
	local -a sizes compare=()
	first=${list%%,*}
	rest=${list#"$first"}
	rest=${rest#,}
	[[ -z $rest ]] || compare=(--compare "$rest")
	IFS=, read -r -a sizes <<<"$3"
	total=${#sizes[@]}
	echo "list-table1.sh: $label: $total runs of $sweep_version, implementations $list" >&2
	for size in "${sizes[@]}"; do
		n=$((n + 1))
		name="table1-N$size"
		sweep_run "[$label $n/$total]" "$reports" "$name" python3 "$helper" check --impls "$list" -- \
			list --op insert --nodes "$size" --reps "$reps" --impl "$first" "${compare[@]}" "${extra[@]}"
	done
}

if [[ $plot_only == 0 ]]; then
	sweep_gpubench
	if [[ $quick == 1 ]]; then
		[[ $nodes_set == 1 ]] || nodes="128,256,384"
		[[ $reps_set == 1 ]] || reps=1
		if [[ -z $impls ]]; then
			impls="cpu-lockfree,cpu"
			! grep -q '^list implementation opencl-cpu:' <<<"$("$gpubench" info)" || impls="opencl-cpu,$impls"
		fi
	fi
	impls_given=${impls:+1}
	impls=${impls:-opencl-cpu,opencl,gpu,cpu}
	check_impls --impls "$impls"
	# NVIDIA's OpenCL, installed with the driver, is often not registered with the ICD loader.
	if [[ ,$impls, == *,opencl,* && -z ${OCL_ICD_VENDORS:-} ]]; then
		icd=$("$here/opencl-icd.sh" 2>/dev/null) || icd=""
		eval "$icd"
	fi
	# The default columns drop, with a warning, what this machine cannot run; named ones fail.
	if [[ -z $impls_given ]]; then
		probe_err=$(mktemp)
		for probe in opencl-cpu opencl gpu; do
			if ! "$gpubench" list --impl "$probe" --nodes 1 --reps 1 --warmup 0 --no-verify --quiet \
				>/dev/null 2>"$probe_err"; then
				echo "list-table1.sh: leaving out $probe: $(tail -n 1 "$probe_err")" >&2
				impls=$(tr , '\n' <<<"$impls" | grep -vx "$probe" | paste -sd,)
			fi
		done
		rm -f "$probe_err"
	fi
	mkdir -p "$reports"
	sweeps() {
		run_sweep table1 "$impls" "$nodes"
		if [[ $extended == 1 ]]; then
			trav=$(tr , '\n' <<<"$impls" | grep -vx -e gpu-tail -e cpu-tail | paste -sd, || true)
			[[ -z $trav ]] || run_sweep "extended (traversing)" "$trav" 8192,16384,32768,65536
			run_sweep "extended (tail)" "gpu-tail,cpu-tail" 131072,262144,524288,1048576
		fi
	}
	sweep_loops sweeps
else
	[[ -d $reports ]] || { echo "list-table1.sh: --plot-only: no folder '$reports'" >&2; exit 1; }
fi
sweep_wait
sweep_emit_done

python3 "$helper" table "$reports" --csv "$out/list-table1.csv" --md "$out/list-table1.md" >&2
vars=$(python3 "$helper" plot-vars "$out/list-table1.csv")
plot_draw "$out/list-table1" "$formats" "$reports" -e "csv='$out/list-table1.csv'; $vars" \
	"$plot_script"
