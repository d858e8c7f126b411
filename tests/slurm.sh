#!/usr/bin/env bash
# Tests of --emit-slurm (scripts/lib/slurm.sh), without a cluster: the runs
# batched into tasks of the length asked for, --time, --cpus-per-task and
# --gres from the runs, --backend gpu made explicit, env.sh sourced by every
# task and kept, a failed run leaving the others of its task to run, the
# gather job making the table, submit.sh chaining the two (sbatch a stand-in).
# GPUBENCH names the binary (default ./gpubench). Run from the repository
# root. Last line: "slurm: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "slurm: $G is not an executable (set GPUBENCH)"
	echo "slurm: 0 passed, 1 failed"
	exit 1
fi
S=$T_TMP/slurm
O=$T_TMP/out

# ---------------------------------------------------------------- batching and the array's resources
# pba-tables --quick: 4 runs; a 30 s bound each (91 s with start and report) and 4-minute tasks: 2 a task
expect_rc "pba-tables.sh --quick --emit-slurm exits 0" 0 env GPUBENCH_SLURM_RUN_SECONDS=30 GPUBENCH_SLURM_TASK_MINUTES=4 \
	bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$O/pba" --emit-slurm "$S/pba"
expect_err "it says how many runs in how many tasks" "4 runs in 2 tasks of at most 00:04:00, 1 CPU and no GPU each" "bash $S/pba/submit.sh"
check "--emit-slurm runs nothing" test -z "$(find "$O" -name '*.json' 2>/dev/null)"
check "tasks.txt batches the runs two a task" test "$(paste -sd' ' "$S/pba/tasks.txt")" = "1 2 3 4"
slurm=$S/pba/pba-tables.slurm
check "the array has a task per line of tasks.txt" grep -qx '#SBATCH --array=1-2' "$slurm"
check "--time is the longest task's bound (two runs of 91 s)" grep -qx '#SBATCH --time=00:04:00' "$slurm"
check "avoid's serial CPU implementations ask for one CPU" grep -qx '#SBATCH --cpus-per-task=1' "$slurm"
check "every run got the --timeout the bound counts on" test "$(grep -c -- ' --timeout 30 ' "$S/pba/jobs.txt")" = 4
check "runs of CPU implementations only (--impl cpu --compare cpu-fast) ask for no GPU" test -z "$(grep -- '--gres' "$slurm")"
check "the array script parses" bash -n "$slurm"
check "the gather job parses" bash -n "$S/pba/gather.slurm"
check "submit.sh parses" bash -n "$S/pba/submit.sh"

# fig7 as for a cluster: --backend gpu on every run, a GPU a task, one CPU (GPU runs)
expect_rc "fig7.sh --emit-slurm exits 0" 0 bash scripts/fig7.sh --gpubench "$G" --out "$O/fig7" --emit-slurm "$S/fig7"
check "fig7: every run says --backend gpu" test "$(grep -c -- ' --backend gpu ' "$S/fig7/jobs.txt")" = "$(wc -l <"$S/fig7/jobs.txt")"
check "fig7: a GPU a task" grep -qx '#SBATCH --gres=gpu:1' "$S/fig7/fig7.slurm"
check "fig7: one CPU a task (its runs are on the GPU)" grep -qx '#SBATCH --cpus-per-task=1' "$S/fig7/fig7.slurm"
check "fig7: 600 s bounds by default, five runs an hour's task" \
	test "$(awk '{ n = $2 - $1 + 1 } n > m { m = n } END { print m }' "$S/fig7/tasks.txt")" = 5
# speculate without --backend gets --backend gpu; its CPU baselines ask for GPUBENCH_SLURM_CPUS
expect_rc "speculate-figures.sh --emit-slurm exits 0" 0 env GPUBENCH_SLURM_CPUS=8 bash scripts/speculate-figures.sh \
	--gpubench "$G" --loops ocean --out "$O/spec" --emit-slurm "$S/spec"
check "speculate: --backend gpu where the run named none" \
	test "$(grep -c -- ' --backend gpu ' "$S/spec/jobs.txt")" = 5
check "speculate: its threaded CPU baselines ask for GPUBENCH_SLURM_CPUS" \
	grep -qx '#SBATCH --cpus-per-task=8' "$S/spec/speculate-figures.slurm"
check "--cpu-workers names the CPUs a run uses" bash -c \
	'bash scripts/speculate-figures.sh --gpubench "$1" --loops ocean --out "$2" --emit-slurm "$3" -- --cpu-workers 3 2>/dev/null;
	 grep -qx "#SBATCH --cpus-per-task=3" "$3/speculate-figures.slurm"' _ "$G" "$O/spec3" "$S/spec3"
expect_rc "GPUBENCH_SLURM_TASK_MINUTES=x exits 2" 2 env GPUBENCH_SLURM_TASK_MINUTES=x bash scripts/pba-tables.sh \
	--quick --gpubench "$G" --out "$O/pbax" --emit-slurm "$S/pbax"

# ---------------------------------------------------------------- the tasks, here
echo "touch '$T_TMP/env-sourced'" >>"$S/pba/env.sh"
# run 1 fails (an unknown option): the task goes on with run 2 and exits 1
sed -i '1s/ --json / --bogus --json /' "$S/pba/jobs.txt"
expect_rc "a task with a failed run exits 1" 1 env SLURM_ARRAY_TASK_ID=1 bash "$slurm"
expect_out "the task's log names the failed run and the one after it" "run 1: FAILED (exit 2)" "run 2: done"
expect_err "the task says how many of its runs failed" "task 1: 1 of 2 runs failed"
check "env.sh was sourced first" test -e "$T_TMP/env-sourced"
check "the run after the failed one wrote its report" test "$(find "$O/pba" -name '*.json' | wc -l)" = 1
sed -i '1s/ --bogus --json / --json /' "$S/pba/jobs.txt"
bad=0
for t in 1 2; do
	SLURM_ARRAY_TASK_ID=$t bash "$slurm" >"$T_TMP/task.log" 2>&1 || { bad=1; cat "$T_TMP/task.log"; }
done
check "every task runs and exits 0" test "$bad" = 0
check "every run wrote its report" test "$(find "$O/pba" -name '*.json' | wc -l)" = 4
expect_rc "a task past the array exits 2" 2 env SLURM_ARRAY_TASK_ID=3 bash "$slurm"
expect_rc "the gather job exits 0" 0 bash "$S/pba/gather.slurm"
check "the gather job made the table, a row per size and implementation" test "$(($(wc -l <"$O/pba/pba-tables.csv") - 1))" = 8
expect_rc "a new --emit-slurm exits 0" 0 bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$O/pba" --emit-slurm "$S/pba"
check "a new --emit-slurm keeps env.sh as edited" grep -q "env-sourced" "$S/pba/env.sh"

# ---------------------------------------------------------------- submit.sh, with a stand-in sbatch
mkdir -p "$T_TMP/bin"
cat >"$T_TMP/bin/sbatch" <<EOF
#!/usr/bin/env bash
n=\$(( \$(wc -l <"$T_TMP/sbatch.log" 2>/dev/null || echo 0) + 100 ))
echo "\$*" >>"$T_TMP/sbatch.log"
echo "\$n;cluster"
EOF
chmod +x "$T_TMP/bin/sbatch"
expect_rc "submit.sh exits 0" 0 env PATH="$T_TMP/bin:$PATH" bash "$S/pba/submit.sh" --partition=gpu
check "submit.sh submits the array, then the gather job after every task of it" test \
	"$(cat "$T_TMP/sbatch.log")" = "--parsable --partition=gpu $S/pba/pba-tables.slurm
--parsable --partition=gpu --dependency=afterany:100 $S/pba/gather.slurm"

summary slurm
