# shellcheck shell=bash
# What the figure and table scripts (scripts/*.sh) share: usage errors and the
# choice of the gpubench binary. Source it; messages name the sourcing script.
#
#   die_usage MESSAGE...   print MESSAGE and where the help is, exit 2
#   need_value "$@"        exit 2 unless option $1 has a value in $2
#   sweep_gpubench         settle $gpubench (see below), exit 1 if it is not there;
#                          $sweep_version is then its --version line
#   sweep_set_gpus "$@"    --gpus LIST: the GPUs points run on side by side (below)
#   sweep_gpus_help        its lines for --help
#   sweep_run ...          one run of a sweep (with --emit-slurm, one job of it);
#                          a point whose report is already there is kept (resume);
#                          none starts past a time budget (below: exit 3)
#   sweep_wait             after the runs: wait for the points still running (--gpus)
#   sweep_emit_done        after the runs: with --emit-slurm, write the job array and exit
#   sweep_plot PNG ARGS    gnuplot, or say where to plot
#
# --emit-slurm DIR (every sweep script sets sweep_emit_dir from it): the runs
# are not made but written to DIR/jobs.txt, one command line each, and
# DIR/<script>.slurm is a Slurm job array with one task per line. Once
# `sbatch DIR/<script>.slurm` has finished on the cluster, the script's
# --plot-only --out OUT gathers the reports into its tables and plots.
#
# Resume: a point whose report is already at its path is not run again (nor
# emitted) when scripts/lib/resume.py finds it made by this binary's revision
# with the same arguments on this machine and the point's CHECK accepts it
# (complete, verified); one resume.py process (--serve) answers every point of
# the sweep and runs a Python CHECK in itself, so a kept point costs
# milliseconds, not two interpreter starts. So a sweep cut short, run again,
# makes only the points it lacks, and a long one can be spread over several sessions. Delete a report
# to make its point again. Where GPUBENCH_SWEEP_TALLY names a file, each point
# appends a line to it: "ran SECONDS" or "kept" (scripts/reproduce-all.sh's
# timing table).
#
# Time budget: where GPUBENCH_SWEEP_DEADLINE holds a time (seconds since the
# epoch; scripts/reproduce-all.sh --max-seconds sets it), no point starts that
# would end after it, judged by the longest point the sweep has run so far (its
# tally) or, where the script can tell, by how long the point itself should take
# (sweep_expect, a command asked only then: scripts/detect-tables.sh extrapolates
# a detector's time from its smaller sizes, scripts/lib/stmfig.sh a point's from
# the reports of its workload, report2csv.py forecast): the points running end, and the script exits 3 before its
# tables, to be run again (resumed) later. A point expected to outlast the whole
# budget (GPUBENCH_SWEEP_BUDGET, seconds) would never start: it starts when it is
# the first point of the session to run (no "ran" line yet in the file
# GPUBENCH_SWEEP_SESSION, which reproduce-all.sh keeps across its scripts).
#
# Point timeout: where GPUBENCH_SWEEP_POINT_TIMEOUT holds whole seconds
# (scripts/reproduce-all.sh --point-timeout sets it), a point still running
# after them is stopped as gpubench stops at its own --timeout: SIGINT, then,
# if it has not ended within 5 s + a tenth of the timeout (60 s at most),
# SIGKILL. Its report (incomplete) is removed and its log kept; the sweep goes
# on with its other points and exits 1 after them, before its tables, so the
# same command run again makes only the points it lacks. A point that hangs
# (or runs far past what a session can give it) costs the timeout, not the
# session. The timeout does not enter the point's configuration: its report,
# when it ends in time, is the one it would be without.
#
# --gpus LIST (device indices, e.g. 0,1): the points run side by side, one
# process per GPU of LIST, each with --device N; the script waits for them all
# (sweep_wait) before it builds anything. A point that times the CPU (--backend
# cpu, or a CPU implementation among --impl and --compare: a CPU baseline)
# runs alone: the points running are waited for first, and the next starts
# after it, so no two processes share the host's cores while one is timed. A
# failed point stops the script as it does one GPU at a time, once the points
# still running have ended (their reports are kept for a resume). Each point's
# progress lines are printed whole when it ends, naming its GPU; its report's
# device block names the card. Without --gpus points run one after another
# with no --device, on the card gpubench picks. --gpus and --emit-slurm do not
# go together (exit 2): Slurm gives each task of the array its GPU.
#
# Plan: where GPUBENCH_SWEEP_PLAN is set (scripts/reproduce-all.sh --plan), no
# point runs: each point is tested as a resume tests it and appends "kept" or
# "plan" to the tally, the script removes none of its earlier outputs
# (sweep_clear) and exits 0 after its loops (slurm.sh's sweep_emit_done), before
# any table.

sweep_name=$(basename "$0")
sweep_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die_usage() {
	echo "$sweep_name: $*" >&2
	echo "see scripts/$sweep_name --help" >&2
	exit 2
}

need_value() {
	[[ $# -ge 2 && -n $2 && $2 != --* ]] || die_usage "option $1 needs a value"
}

# Unless --gpubench named one, dist/bin/gpubench (what a GPU machine carries)
# or else ./gpubench. A dist/ older than ./gpubench would time an old build, so
# that case is said on stderr.
sweep_gpubench() {
	if [[ -z $gpubench ]]; then
		if [[ -x dist/bin/gpubench ]]; then
			gpubench=dist/bin/gpubench
			if [[ -x ./gpubench && ./gpubench -nt dist/bin/gpubench ]]; then
				echo "$sweep_name: note: running dist/bin/gpubench, which is older than ./gpubench" \
					"(make dist, or pass --gpubench ./gpubench)" >&2
			fi
		else
			gpubench=./gpubench
		fi
	fi
	[[ ${#sweep_gpus[@]} == 0 || -z $sweep_emit_dir ]] ||
		die_usage "--gpus and --emit-slurm do not go together: Slurm gives each task of the job array its GPU"
	[[ -x $gpubench ]] || {
		echo "$sweep_name: no gpubench at '$gpubench' (build with make or make dist, or" \
			"pass --gpubench PATH)" >&2
		exit 1
	}
	sweep_version=$("$gpubench" --version)
	[[ -z ${GPUBENCH_SWEEP_POINT_TIMEOUT:-} ]] || sweep_point_timeout_ok "$GPUBENCH_SWEEP_POINT_TIMEOUT" ||
		die_usage "GPUBENCH_SWEEP_POINT_TIMEOUT: '$GPUBENCH_SWEEP_POINT_TIMEOUT' is not a whole number of" \
			"seconds from 1 to 999999"
}

# sweep_point_timeout_ok S: whether S is a point timeout: whole seconds, 1 to 999999.
sweep_point_timeout_ok() {
	[[ $1 =~ ^[1-9][0-9]{0,5}$ ]]
}

# sweep_run TAG DIR NAME CHECK... -- ARGS...: one run of a sweep,
# `gpubench ARGS --json DIR/NAME.json`, its output kept in DIR/NAME.log; then
# CHECK, given the report's path as its last word, must accept the report and
# print its one-line summary. A failed run or a rejected report stops the
# script with status 1, before any table is made. TAG (e.g. "[tables 3/10]")
# starts each progress line. With --gpus the run starts in the background on
# a free GPU of the list (see --gpus above).
sweep_run() {
	local tag=$1 dir=$2 name=$3 json log slot
	local -a check=() expect=("${sweep_expect[@]}")
	sweep_expect=() # this point's alone, kept or run
	if ((sweep_counting)); then
		sweep_todo=$((sweep_todo + 1))
		return 0
	fi
	((sweep_todo == 0)) || sweep_todo=$((sweep_todo - 1))
	shift 3
	while [[ $1 != -- ]]; do
		check+=("$1")
		shift
	done
	shift
	json=$dir/$name.json
	log=$dir/$name.log
	if sweep_kept "$tag $name" "$json" "${check[@]}" -- "$@"; then
		return
	fi
	if sweep_planning; then
		sweep_tally plan
		return
	fi
	if [[ -n $sweep_emit_dir ]]; then
		rm -f "$json"
		sweep_emit_job "$json" "$@"
		return
	fi
	if [[ ${#sweep_gpus[@]} == 0 ]] || sweep_on_cpu "$@"; then
		sweep_wait_all || sweep_stop $?
		sweep_budget "$tag $name" "${expect[@]}"
		sweep_point "$tag" "$name" "$json" "$log" "" "${check[@]}" -- "$@" || sweep_ended $?
		return
	fi
	sweep_free_slot
	sweep_budget "$tag $name" "${expect[@]}" # the deadline as it is when a GPU is free, not before the wait
	slot=$sweep_slot
	[[ -n $sweep_tmp ]] || sweep_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpubench-sweep.XXXXXX") || exit 1
	sweep_point "$tag" "$name" "$json" "$log" "${sweep_gpus[slot]}" "${check[@]}" -- \
		"$@" --device "${sweep_gpus[slot]}" 2>"$sweep_tmp/$slot" &
	sweep_pids[slot]=$!
}

# sweep_point TAG NAME JSON LOG GPU CHECK... -- ARGS...: run the point and say how it
# went on stderr; status 0, or 1 when gpubench failed, 2 when CHECK rejected its report,
# 4 when GPUBENCH_SWEEP_POINT_TIMEOUT stopped it.
# GPU is the device it was given with --device, or empty.
sweep_point() {
	local tag=$1 name=$2 json=$3 log=$4 gpu=$5 rc line started=$SECONDS on=""
	local -a check=()
	shift 5
	while [[ $1 != -- ]]; do
		check+=("$1")
		shift
	done
	shift
	[[ -z $gpu ]] || on=" on GPU $gpu"
	# the report this point replaces goes only now: until the point starts, the
	# forecast (sweep_expect) may read its time
	rm -f "$json"
	local -a bound=()
	if [[ -n ${GPUBENCH_SWEEP_POINT_TIMEOUT:-} ]]; then
		local limit=$GPUBENCH_SWEEP_POINT_TIMEOUT grace
		# gpubench's own grace after its --timeout (common/stop.c, gb_stop_grace)
		grace=$((5 + limit / 10 < 60 ? 5 + limit / 10 : 60))
		# --foreground: gpubench stays in the sweep's process group, where Ctrl-C reaches it
		bound=(timeout --foreground -s INT -k "$grace" "$limit")
	fi
	if "${bound[@]}" "$gpubench" "$@" --json "$json" >"$log" 2>&1; then rc=0; else rc=$?; fi
	if [[ ${#bound[@]} != 0 && ($rc == 124 || $rc == 137) ]]; then
		rm -f "$json"
		echo "$tag $name TIMED OUT$on: stopped after $GPUBENCH_SWEEP_POINT_TIMEOUT s" \
			"(GPUBENCH_SWEEP_POINT_TIMEOUT, reproduce-all.sh --point-timeout); the other points go on." \
			"The end of its output ($log):" >&2
		tail -n 5 "$log" | sed 's/^/    /' >&2
		return 4
	fi
	if [[ $rc != 0 ]]; then
		echo "$tag $name FAILED: gpubench exited $rc$on; its output ($log):" >&2
		sed 's/^/    /' "$log" >&2
		return 1
	fi
	if ! line=$("${check[@]}" "$json"); then
		echo "$tag $name REJECTED (see above); output in $log" >&2
		return 2
	fi
	local took=$((SECONDS - started)) eta=""
	if [[ -z $gpu ]]; then # a point run in the background (--gpus) cannot add to the pace
		sweep_ran_n=$((sweep_ran_n + 1))
		sweep_ran_s=$((sweep_ran_s + took))
		((sweep_todo == 0)) ||
			eta="; $sweep_todo to go, about $(sweep_duration $((sweep_todo * sweep_ran_s / sweep_ran_n))) at this pace"
	fi
	echo "$tag $name$on: $line, $took s$eta" >&2
	sweep_tally "ran $took"
}

# sweep_budget LABEL [CMD...]: where GPUBENCH_SWEEP_DEADLINE (seconds since the
# epoch) would pass before a point as long as the longest this sweep has run so
# far (the "ran SECONDS" lines of $GPUBENCH_SWEEP_TALLY, where it is set), or as
# EXPECT seconds when that is longer (what CMD prints, asked only under a
# deadline), ended, start no point: wait for those
# running (a failed one stops the script with status 1 as ever), say where the
# sweep stopped and exit 3. The reports made are kept, so the same command run
# again goes on from there. A point whose EXPECT is the whole
# GPUBENCH_SWEEP_BUDGET or more starts all the same when no point of the
# session has run yet (GPUBENCH_SWEEP_SESSION), else it could never start; a
# budget of 0 starts nothing.
sweep_budget() {
	local label=$1 longest=0 expect=0 need
	shift
	[[ -n ${GPUBENCH_SWEEP_DEADLINE:-} ]] || return 0
	[[ $GPUBENCH_SWEEP_DEADLINE =~ ^[0-9]+$ ]] ||
		die_usage "GPUBENCH_SWEEP_DEADLINE: '$GPUBENCH_SWEEP_DEADLINE' is not a time in seconds since the epoch"
	if (($#)); then
		expect=$("$@") || exit 1
		[[ $expect =~ ^[0-9]+$ ]] || { echo "$label: the expected time '$expect' is not whole seconds" >&2; exit 1; }
	fi
	if [[ -n ${GPUBENCH_SWEEP_TALLY:-} && -r $GPUBENCH_SWEEP_TALLY ]]; then
		longest=$(awk '$1 == "ran" && $2 + 0 > m {m = $2 + 0} END {print m + 0}' "$GPUBENCH_SWEEP_TALLY")
	fi
	need=$((expect > longest ? expect : longest))
	(($(date +%s) + need >= GPUBENCH_SWEEP_DEADLINE)) || return 0
	if [[ ${GPUBENCH_SWEEP_BUDGET:-} =~ ^[1-9][0-9]*$ ]] && ((expect >= GPUBENCH_SWEEP_BUDGET)) &&
		[[ -n ${GPUBENCH_SWEEP_SESSION:-} ]] && ! grep -q '^ran ' "$GPUBENCH_SWEEP_SESSION" 2>/dev/null; then
		echo "$label: expected to take about $expect s, longer than the whole time budget" \
			"($GPUBENCH_SWEEP_BUDGET s): started as the session's first point" >&2
		return 0
	fi
	sweep_wait_all || sweep_stop $?
	local why="the time budget is spent"
	if ((expect > longest)); then
		why+=" or would be before it ended (the point is expected to take about $expect s)"
		[[ ! ${GPUBENCH_SWEEP_BUDGET:-} =~ ^[1-9][0-9]*$ ]] || ((expect < GPUBENCH_SWEEP_BUDGET)) ||
			why+="; it starts when it is the first point a session runs"
	elif ((longest > 0)); then
		why+=" or would be before it ended (the longest point so far took $longest s)"
	fi
	echo "$label: not started: $why; the reports made so far are kept, run the same command again to go on" >&2
	exit 3
}

# sweep_timed_out_counted STATUS: true, having counted it, when sweep_point's STATUS says the
# point timeout stopped the point (the sweep goes on; sweep_wait fails the script after it).
sweep_timed_out_counted() {
	[[ $1 == 4 ]] || return 1
	sweep_timed_out=$((sweep_timed_out + 1))
}

# sweep_ended STATUS: a point run here ended with sweep_point's STATUS, not 0: one
# stopped by the point timeout is counted and the sweep goes on; else sweep_stop.
sweep_ended() {
	sweep_timed_out_counted "$1" || sweep_stop "$1"
}

# sweep_stop STATUS: a point failed (sweep_point's STATUS): once the points still
# running have ended, stop the script with status 1.
sweep_stop() {
	local why=$1
	sweep_wait_all || true
	[[ $why != 1 ]] || echo "$sweep_name: stopped; no table or plot is made from a failed sweep" >&2
	exit 1
}

# The --gpus lines of a script's --help.
sweep_gpus_help() {
	cat <<'EOF'
  --gpus LIST         comma-separated GPU indices (e.g. 0,1): run the points
                      side by side, one process a GPU, each with --device N;
                      a point that times the CPU (--backend cpu, or a CPU
                      implementation beside the GPU one) runs alone, once the
                      others have ended; not with --emit-slurm
EOF
}

sweep_gpus=()
sweep_pids=()
sweep_slot=""
sweep_version=""
sweep_tmp=""
# Where the script can tell: a command that prints how many seconds its next
# point should take; the next sweep_run gives it to sweep_budget and empties it.
sweep_expect=()
# The progress: points counted (sweep_loops) and not reached yet, and the points
# run here (not in the background) with their seconds, whose mean is the pace.
sweep_todo=0
sweep_counting=0
sweep_ran_n=0
sweep_ran_s=0

# sweep_loops CMD...: CMD, a script's loops of sweep_run calls, run twice: first
# only to count its points (each sweep_run adds one and returns; CMD's messages
# are dropped), then for real. Each point's line then ends with how many are
# still to come and how long they would take at the pace so far (kept points
# cost next to nothing, so it is an upper bound where reports are kept).
sweep_loops() {
	sweep_counting=1
	"$@" >/dev/null 2>&1
	sweep_counting=0
	"$@"
}

# sweep_plan N: N more points are coming, where a script knows how many.
sweep_plan() {
	sweep_todo=$((sweep_todo + $1))
}

# sweep_duration S: S seconds as "45 s", "12 min" or "2 h 5 min".
sweep_duration() {
	if (($1 < 90)); then
		echo "$1 s"
	elif (($1 < 5400)); then
		echo "$((($1 + 30) / 60)) min"
	else
		echo "$(($1 / 3600)) h $((($1 % 3600 + 30) / 60)) min"
	fi
}

# sweep_set_gpus "$@": --gpus LIST in a script's option loop (then shift 2). LIST is
# device indices as gpubench --device takes them, comma-separated, each once.
sweep_set_gpus() {
	local -a devices
	local i seen=" "
	need_value "$@"
	[[ $2 =~ ^[0-9]+(,[0-9]+)*$ ]] ||
		die_usage "option --gpus: '$2' is not a comma-separated list of device indices (e.g. 0,1)"
	IFS=, read -r -a devices <<<"$2"
	for i in "${!devices[@]}"; do
		[[ ${#devices[i]} -le 4 ]] || die_usage "option --gpus: '${devices[i]}' is not a device index"
		devices[i]=$((10#${devices[i]}))
		[[ $seen != *" ${devices[i]} "* ]] || die_usage "option --gpus: device ${devices[i]} is named twice in '$2'"
		seen+="${devices[i]} "
	done
	sweep_gpus=("${devices[@]}")
}

# Engines (--algo) that run on the CPU whatever --backend says (gpubench info's cpu_only
# STM engines, jvstm), space-separated: a script that runs them sets it.
sweep_cpu_algos=""

# sweep_on_cpu ARGS...: whether the run `gpubench ARGS` times anything on the CPU: the
# last --backend is cpu, its --algo is one of sweep_cpu_algos, or a name of its --impl or
# --compare is a CPU one (cpu, cpu-*, *-cpu, seq, jvstm: as the registries name them).
sweep_on_cpu() {
	local prev="" a name backend="" algo=""
	local -a impls=() more
	for a in "$@"; do
		case $prev in
		--backend) backend=$a ;;
		--algo) algo=$a ;;
		--impl | --compare) IFS=, read -r -a more <<<"$a"; impls+=("${more[@]}") ;;
		esac
		prev=$a
	done
	[[ $backend != cpu ]] || return 0
	[[ -z $algo || " $sweep_cpu_algos " != *" $algo "* ]] || return 0
	for name in "${impls[@]}"; do
		[[ ! $name =~ ^(cpu|cpu-.*|.*-cpu|seq|jvstm)$ ]] || return 0
	done
	return 1
}

# Set sweep_slot to a GPU of the list with no point running, waiting for one to end.
sweep_free_slot() {
	local i
	while :; do
		for i in "${!sweep_gpus[@]}"; do
			if [[ -z ${sweep_pids[i]:-} ]]; then
				sweep_slot=$i
				return
			fi
		done
		sweep_reap_ended || sweep_stop $?
	done
}

# Wait for a running point to end, then collect every point that has ended: its
# lines printed, its GPU free. Status: 0, or that of a point that failed.
sweep_reap_ended() {
	local i rc=0 one
	wait -n 2>/dev/null || true
	for i in "${!sweep_gpus[@]}"; do
		[[ -n ${sweep_pids[i]:-} ]] || continue
		kill -0 "${sweep_pids[i]}" 2>/dev/null && continue
		sweep_reap "$i" || { one=$?; [[ $rc == 1 ]] || rc=$one; }
	done
	return "$rc"
}

# sweep_reap SLOT: wait for the point on SLOT, print its lines, free the slot; its status.
sweep_reap() {
	local rc
	if wait "${sweep_pids[$1]}"; then rc=0; else rc=$?; fi
	cat "$sweep_tmp/$1" >&2
	sweep_pids[$1]=""
	! sweep_timed_out_counted "$rc" || rc=0
	return "$rc"
}

# Wait for every point still running, printing their lines as they end; status 0, or
# that of a point that failed (1 before 2).
sweep_wait_all() {
	local i rc=0 one busy
	while :; do
		busy=0
		for i in "${!sweep_gpus[@]}"; do
			[[ -z ${sweep_pids[i]:-} ]] || busy=1
		done
		[[ $busy == 1 ]] || break
		sweep_reap_ended || { one=$?; [[ $rc == 1 ]] || rc=$one; }
	done
	[[ -z $sweep_tmp ]] || rm -rf "$sweep_tmp"
	sweep_tmp=""
	return "$rc"
}

# sweep_wait: after a sweep's runs, wait for the points still running (--gpus); one
# that failed stops the script, as sweep_run does, and so, once all have ended, do
# points stopped by the point timeout (status 1).
sweep_wait() {
	sweep_wait_all || sweep_stop $?
	((sweep_timed_out == 0)) && return 0
	echo "$sweep_name: $sweep_timed_out point(s) stopped by the point timeout: no table or plot;" \
		"run the same command again to make them (the others are kept)" >&2
	exit 1
}

sweep_info=""
sweep_kept_points=0
sweep_timed_out=0 # points stopped by GPUBENCH_SWEEP_POINT_TIMEOUT
sweep_resume_pid=""
sweep_check=()

# sweep_resume_ask JSON CHECK... -- ARGS...: sets sweep_verdict and sweep_text
# to resume.py --serve's answer on the report JSON, and sweep_check to CHECK.
# One resume.py answers every point of the sweep (a coprocess started at the
# first report found), so a resumed sweep pays no Python start a point; where
# it has ended, one is started for the request alone.
sweep_resume_ask() {
	local json=$1 a
	local -a first=() request
	shift
	sweep_check=()
	for a; do
		[[ $a != -- ]] || break
		sweep_check+=("$a")
	done
	shift $((${#sweep_check[@]} + 1))
	request=("$json" "${#sweep_check[@]}" "${sweep_check[@]}" "$#" "$@")
	if [[ -z $sweep_resume_pid ]]; then
		coproc SWEEP_RESUME { exec python3 "$sweep_lib/resume.py" --serve "$gpubench"; }
		# shellcheck disable=SC2153 # coproc sets SWEEP_RESUME_PID
		sweep_resume_pid=$SWEEP_RESUME_PID
		first=("$sweep_info")
	fi
	if [[ -n ${SWEEP_RESUME[1]:-} ]]; then
		# one that ended before bash took its fds away: a failed write, not SIGPIPE
		trap '' PIPE
		if { printf '%s\0' "${first[@]}" "${request[@]}" >&"${SWEEP_RESUME[1]}"; } 2>/dev/null &&
			IFS= read -r -d '' sweep_verdict <&"${SWEEP_RESUME[0]}" &&
			IFS= read -r -d '' sweep_text <&"${SWEEP_RESUME[0]}"; then
			trap - PIPE
			return 0
		fi
		trap - PIPE
	fi
	if ! { IFS= read -r -d '' sweep_verdict && IFS= read -r -d '' sweep_text; } < <(
		printf '%s\0' "$sweep_info" "${request[@]}" | python3 "$sweep_lib/resume.py" --serve "$gpubench"
	); then
		sweep_verdict=error sweep_text="resume.py --serve gave no answer"
	fi
}

# sweep_kept LABEL JSON CHECK... -- ARGS...: true, having said so, when the
# report JSON of the run `gpubench ARGS` can be kept (see Resume above); when
# a report there cannot, says why it is made again.
sweep_kept() {
	local label=$1 json=$2
	shift 2
	[[ -e $json ]] || return 1
	if [[ -z $sweep_info ]]; then
		sweep_info=$("$gpubench" info --quiet --json -) || return 1
	fi
	sweep_resume_ask "$json" "$@"
	if [[ $sweep_verdict == check ]]; then # no Python script: resume.py left it to us
		if sweep_text=$("${sweep_check[@]}" "$json" 2>/dev/null); then
			sweep_verdict=kept
		else
			sweep_verdict=unverified
		fi
	fi
	case $sweep_verdict in
	kept) ;;
	other)
		echo "$label: made again: its report was $sweep_text" >&2
		return 1
		;;
	unverified)
		echo "$label: made again: its report is not complete and verified" >&2
		return 1
		;;
	*)
		echo "$label: made again: the resume check failed ($sweep_text)" >&2
		return 1
		;;
	esac
	echo "$label: kept, $sweep_text (a report of this revision and configuration)" >&2
	sweep_kept_points=$((sweep_kept_points + 1))
	sweep_tally kept
	return 0
}

# sweep_tally LINE: append LINE to $GPUBENCH_SWEEP_TALLY and to
# $GPUBENCH_SWEEP_SESSION, each when it is set.
sweep_tally() {
	[[ -z ${GPUBENCH_SWEEP_TALLY:-} ]] || echo "$1" >>"$GPUBENCH_SWEEP_TALLY"
	[[ -z ${GPUBENCH_SWEEP_SESSION:-} ]] || echo "$1" >>"$GPUBENCH_SWEEP_SESSION"
}

# sweep_plot PNG GNUPLOT_ARGS...: draw PNG with `gnuplot GNUPLOT_ARGS`, or, where
# gnuplot is missing, say how to draw it on another machine.
sweep_plot() {
	local png=$1
	shift
	if command -v gnuplot >/dev/null; then
		gnuplot "$@"
		echo "$sweep_name: plot in $png" >&2
	else
		echo "$sweep_name: gnuplot not installed, no plot; copy $(dirname "$png") to a machine" \
			"with gnuplot and run scripts/$sweep_name --plot-only --out DIR there" >&2
	fi
}

# sweep_planning: whether this is a plan (GPUBENCH_SWEEP_PLAN): nothing runs.
sweep_planning() {
	[[ -n ${GPUBENCH_SWEEP_PLAN:-} ]]
}

# sweep_clear FILE... -- PLOT_BASE: remove an earlier sweep's outputs (FILEs and
# PLOT_BASE's plots), which must not survive a failed sweep; a plan removes nothing.
sweep_clear() {
	local -a files=()
	while [[ $1 != -- ]]; do
		files+=("$1")
		shift
	done
	sweep_planning && return 0
	rm -f "${files[@]}"
	plot_files "$2" png,svg,pdf | xargs rm -f
}

sweep_emit_dir=""
sweep_emit_jobs=0

# An absolute path for PATH (whose folder exists), as the cluster's nodes see
# the shared file system.
sweep_abspath() {
	local d
	d=$(cd "$(dirname "$1")" && pwd) || exit 1
	echo "$d/$(basename "$1")"
}
