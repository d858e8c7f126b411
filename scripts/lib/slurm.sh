# shellcheck shell=bash
# --emit-slurm DIR for the figure and table scripts: instead of running, write
# the runs as a Slurm job array a cluster's admin would accept. Sourced after
# scripts/lib/sweep.sh, whose sweep_run calls sweep_emit_job for each run; a
# script calls sweep_emit_done after its runs. It writes to DIR:
#
#   jobs.txt        one gpubench command line a run (absolute paths: the folders
#                   must be on a file system the nodes share)
#   tasks.txt       the array's tasks: "FIRST LAST" lines of jobs.txt each, short
#                   runs batched so a task lasts at most GPUBENCH_SLURM_TASK_MINUTES
#   <script>.slurm  the job array: one task a line of tasks.txt, its runs one after
#                   another (a failed run does not stop the others; the task's
#                   status says one failed), a GPU each (none when every run is on
#                   the CPU), --cpus-per-task for the CPU baselines and --time for
#                   its longest task
#   env.sh          sourced by every task and by the gather job before gpubench
#                   runs: module load, a virtual environment (written once, with
#                   examples commented out; edit it, a new --emit-slurm keeps it)
#   gather.slurm    after the array: the script's --plot-only, its tables and plots
#   submit.sh       sbatch the array, then gather.slurm once every task has ended
#
# A run's time bound is its --timeout (gpubench's 600 s when not given), which
# gpubench holds it to, plus a minute for start and report; the task's time is
# the sum of its runs' bounds. Runs with neither --backend nor --impl get
# --backend gpu, so a node without a GPU fails loudly (exit 1) instead of
# running on the CPU. The environment at emit time sets:
#
#   GPUBENCH_SLURM_TASK_MINUTES   the longest a task of several runs may be (default 60)
#   GPUBENCH_SLURM_RUN_SECONDS    a --timeout for every run that has none: bounds runs
#                                 known to be short, so more share a task
#   GPUBENCH_SLURM_CPUS           the CPUs a run on the CPU backend or with a threaded CPU
#                                 baseline (cpu-spec, cpu-tm, cpu-inspect, cpu-lockfree*,
#                                 jvstm) gets when it names no --cpu-workers (default 16,
#                                 the host the reference figures used). --cpus-per-task is
#                                 the most any run uses: that, its --cpu-workers, or 1 (a
#                                 GPU run; avoid's and detect's serial CPU implementations).

sweep_emit_jobs=0

# slurm_args_have OPT ARGS...: whether OPT is among ARGS.
slurm_args_have() {
	local opt=$1 a
	shift
	for a in "$@"; do
		[[ $a == "$opt" ]] && return 0
	done
	return 1
}

# slurm_arg_value OPT ARGS...: the value after the last OPT in ARGS, or nothing.
slurm_arg_value() {
	local opt=$1 v="" prev="" a
	shift
	for a in "$@"; do
		[[ $prev == "$opt" ]] && v=$a
		prev=$a
	done
	echo "$v"
}

# Whether a run (gpubench ARGS) is on the CPU alone: --backend cpu, or an --impl and a --compare
# whose every name is a CPU one (cpu, cpu-*, *-cpu, seq, jvstm: as the registries name them).
slurm_on_cpu() {
	local impl compare name
	slurm_args_have --backend "$@" && { [[ $(slurm_arg_value --backend "$@") == cpu ]]; return; }
	impl=$(slurm_arg_value --impl "$@")
	[[ -n $impl ]] || return 1
	compare=$(slurm_arg_value --compare "$@")
	for name in $impl ${compare//,/ }; do
		[[ $name =~ ^(cpu|cpu-.*|.*-cpu|seq|jvstm)$ ]] || return 1
	done
}

# sweep_emit_job JSON ARGS...: append `gpubench ARGS --json JSON` to DIR/jobs.txt, and
# its time bound (seconds), the CPUs it uses and whether it needs a GPU to DIR/.bounds.
sweep_emit_job() {
	local json=$1 exe bound workers gpu
	shift
	local -a args=("$@")
	if [[ $sweep_emit_jobs == 0 ]]; then
		mkdir -p "$sweep_emit_dir" || exit 1
		: >"$sweep_emit_dir/jobs.txt"
		: >"$sweep_emit_dir/.bounds"
	fi
	slurm_args_have --backend "${args[@]}" || slurm_args_have --impl "${args[@]}" || args+=(--backend gpu)
	if [[ -n ${GPUBENCH_SLURM_RUN_SECONDS:-} ]] && ! slurm_args_have --timeout "${args[@]}"; then
		[[ $GPUBENCH_SLURM_RUN_SECONDS =~ ^[1-9][0-9]*$ ]] ||
			die_usage "GPUBENCH_SLURM_RUN_SECONDS: '$GPUBENCH_SLURM_RUN_SECONDS' is not a whole number of seconds"
		args+=(--timeout "$GPUBENCH_SLURM_RUN_SECONDS")
	fi
	bound=$(slurm_arg_value --timeout "${args[@]}")
	bound=${bound:-600}
	bound=$(((${bound%.*} + 1) + 60))
	gpu=1
	slurm_on_cpu "${args[@]}" && gpu=0
	# the CPUs it uses: --cpu-workers; or every CPU the task is given (0 here) on the CPU backend
	# or with a threaded CPU implementation; else one (a GPU run, avoid's and detect's serial CPU ones)
	workers=$(slurm_arg_value --cpu-workers "${args[@]}")
	if [[ -z $workers ]]; then
		workers=1
		[[ " ${args[*]} " =~ \ --backend\ cpu\ |[\ ,](cpu-spec|cpu-tm|cpu-inspect|cpu-lockfree|cpu-lockfree-tail|jvstm)[\ ,] ]] &&
			workers=0
	fi
	exe=$(sweep_abspath "$gpubench")
	json=$(sweep_abspath "$json")
	{
		printf '%q ' "$exe" "${args[@]}" --json
		printf '%q\n' "$json"
	} >>"$sweep_emit_dir/jobs.txt"
	echo "$bound ${workers:-0} $gpu" >>"$sweep_emit_dir/.bounds"
	sweep_emit_jobs=$((sweep_emit_jobs + 1))
}

# Pack the runs of DIR/.bounds into tasks of at most MINUTES (a run longer than that
# is a task of its own): "FIRST LAST SECONDS" lines.
slurm_pack() {
	awk -v limit=$(($1 * 60)) '
	{ b = $1 }
	n && sum + b > limit { print first, NR - 1, sum; n = 0 }
	!n { first = NR; sum = 0 }
	{ sum += b; n++ }
	END { if (n) print first, NR, sum }' "$2"
}

# With --emit-slurm: write the array, its gather job and submit.sh, say how to
# submit, and exit 0. Reads $plot_only, $out and ($formats) of the sourcing script.
sweep_emit_done() {
	local dir base script minutes cpus tasks longest hms gres=1 setup here
	! sweep_planning || exit 0 # a plan stops after its loops, before any table
	[[ -n $sweep_emit_dir ]] || return 0
	[[ $plot_only == 0 ]] || die_usage "--emit-slurm and --plot-only do not go together"
	[[ $sweep_emit_jobs -gt 0 ]] || { echo "$sweep_name: no runs to emit" >&2; exit 1; }
	minutes=${GPUBENCH_SLURM_TASK_MINUTES:-60}
	[[ $minutes =~ ^[1-9][0-9]*$ ]] ||
		die_usage "GPUBENCH_SLURM_TASK_MINUTES: '$minutes' is not a whole number of minutes"
	dir=$(cd "$sweep_emit_dir" && pwd)
	base=${sweep_name%.sh}
	script=$dir/$base.slurm
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	mkdir -p "$dir/logs"
	slurm_pack "$minutes" "$dir/.bounds" | awk '{ print $1, $2 }' >"$dir/tasks.txt"
	longest=$(slurm_pack "$minutes" "$dir/.bounds" | awk '$3 > m { m = $3 } END { print m }')
	tasks=$(wc -l <"$dir/tasks.txt")
	# the most any run uses; a run whose baselines take every CPU given asks for GPUBENCH_SLURM_CPUS
	cpus=$(awk -v all="${GPUBENCH_SLURM_CPUS:-16}" '{ w = $2 == 0 ? all : $2 } w > m { m = w } END { print m }' \
		"$dir/.bounds")
	[[ $cpus =~ ^[1-9][0-9]*$ ]] || die_usage "GPUBENCH_SLURM_CPUS: '$cpus' is not a number of CPUs"
	# an array whose every run is on the CPU (e.g. --quick) asks for no GPU
	awk '$3 == 1 { gpu = 1 } END { exit !gpu }' "$dir/.bounds" || gres=0
	rm -f "$dir/.bounds"
	longest=$(((longest + 59) / 60))
	hms=$(printf '%02d:%02d:00' $((longest / 60)) $((longest % 60)))
	setup=$dir/env.sh
	[[ -e $setup ]] || cat >"$setup" <<'EOF'
# Sourced by every task of the job array and by the gather job, before gpubench
# runs: what the nodes need to find the binary's libraries, python3 and gnuplot.
# For example:
#   module load cuda/13.0
#   module load gnuplot
# (Slurm sets CUDA_VISIBLE_DEVICES to the GPU it gives a task; the reports record it.)
EOF
	sed -e "s|@BASE@|$base|g" -e "s|@DIR@|$dir|g" -e "s|@TASKS@|$tasks|g" -e "s|@JOBS@|$sweep_emit_jobs|g" \
		-e "s|@SCRIPT@|$sweep_name|g" -e "s|@CPUS@|$cpus|g" -e "s|@TIME@|$hms|g" \
		-e "s|@MINUTES@|$minutes|g" -e "/@GRES@/{s|@GRES@||;$([[ $gres == 1 ]] || echo d)}" >"$script" <<'EOF'
#!/usr/bin/env bash
# The runs of scripts/@SCRIPT@ as a Slurm job array (written by --emit-slurm):
# @JOBS@ runs of @DIR@/jobs.txt in @TASKS@ tasks of at most @MINUTES@ minutes
# (@DIR@/tasks.txt), run one after another on one GPU, each with
# --cpus-per-task for its CPU baselines. A run that fails does not stop the
# others; the task exits 1 and logs/<task>.log says which. Options on the
# sbatch command line override the lines below, e.g.
#   sbatch --partition=gpu --array=1-@TASKS@%8 @DIR@/@BASE@.slurm
# bash @DIR@/submit.sh submits it and the gather job after it.
#SBATCH --job-name=@BASE@
#SBATCH --array=1-@TASKS@
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=@CPUS@
#SBATCH --gres=gpu:1@GRES@
#SBATCH --time=@TIME@
#SBATCH --output=@DIR@/logs/%a.log
set -uo pipefail
task=${SLURM_ARRAY_TASK_ID:?run this script with sbatch, or set SLURM_ARRAY_TASK_ID}
range=$(sed -n "${task}p" "@DIR@/tasks.txt")
if [[ -z $range ]]; then
	echo "@BASE@.slurm: no task $task in @DIR@/tasks.txt" >&2
	exit 2
fi
# shellcheck source=/dev/null
. "@DIR@/env.sh"
read -r first last <<<"$range"
failed=0
for ((n = first; n <= last; n++)); do
	line=$(sed -n "${n}p" "@DIR@/jobs.txt")
	echo "@BASE@.slurm: run $n: $line"
	if eval "$line"; then
		echo "@BASE@.slurm: run $n: done"
	else
		echo "@BASE@.slurm: run $n: FAILED (exit $?)"
		failed=$((failed + 1))
	fi
done
if [[ $failed -gt 0 ]]; then
	echo "@BASE@.slurm: task $task: $failed of $((last - first + 1)) runs failed" >&2
	exit 1
fi
EOF
	chmod +x "$script"
	sed -e "s|@BASE@|$base|g" -e "s|@DIR@|$dir|g" -e "s|@SCRIPT@|$here/$sweep_name|g" \
		-e "s|@OUT@|$(sweep_abspath "$out")|g" -e "s|@FORMATS@|${formats:-png}|g" >"$dir/gather.slurm" <<'EOF'
#!/usr/bin/env bash
# After the job array of @BASE@.slurm: its tables and plots from the reports
# (scripts/@BASE@.sh --plot-only). A run that failed leaves its report missing
# or unverified, and this job then fails naming it (logs/<task>.log says why;
# rerun that task with sbatch --array=TASK @DIR@/@BASE@.slurm, then this).
#SBATCH --job-name=@BASE@-gather
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --output=@DIR@/logs/gather.log
set -euo pipefail
# shellcheck source=/dev/null
. "@DIR@/env.sh"
bash "@SCRIPT@" --plot-only --out "@OUT@" --format @FORMATS@
EOF
	chmod +x "$dir/gather.slurm"
	cat >"$dir/submit.sh" <<EOF
#!/usr/bin/env bash
# Submits the job array of $base, then the job that makes its tables and plots once
# every task has ended (afterany: it names a run that failed). Extra arguments go
# to both sbatch calls (e.g. --partition=gpu --account=ACCOUNT).
set -euo pipefail
array=\$(sbatch --parsable "\$@" "$script")
gather=\$(sbatch --parsable "\$@" --dependency=afterany:\${array%%;*} "$dir/gather.slurm")
echo "submitted the array \$array and the gather job \$gather"
EOF
	chmod +x "$dir/submit.sh"
	[[ $gres == 1 ]] || ! grep -qv -- ' --backend cpu ' "$dir/jobs.txt" ||
		echo "$sweep_name: note: no run of the array needs a GPU; a script that picks its implementations" \
			"by what runs here picks CPU ones on a machine without a GPU: name them (--impls), or emit" \
			"on a GPU node, for an array of GPU runs" >&2
	echo "$sweep_name: $sweep_emit_jobs runs in $tasks tasks of at most $hms, $cpus CPU$([[ $cpus == 1 ]] || echo s) and" \
		"$([[ $gres == 1 ]] && echo "a GPU" || echo "no GPU") each: $dir/jobs.txt, $dir/tasks.txt;" \
		"submit the array and the gather job with" >&2
	echo "  bash $dir/submit.sh" >&2
	echo "(edit $setup for module load first), or submit by hand with" >&2
	echo "  sbatch $script" >&2
	echo "and once every task has finished, gather the reports with" >&2
	echo "  scripts/$sweep_name --plot-only --out $out" >&2
	exit 0
}
