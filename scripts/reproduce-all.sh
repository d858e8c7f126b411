#!/usr/bin/env bash
# Every figure and table script in turn, into one results folder with an index
# page (index.md) that links every table and plot and shows the tables, the
# paper's numbers beside ours where the script has them, then the verdict on
# every claim of the papers (scripts/claims.sh: claims.md, claims.csv). A
# script that fails is marked FAILED in the index and the others still run;
# the exit status is then 1. A point whose verified report of this revision
# and configuration is already there is kept (scripts/lib/sweep.sh), so the
# run can be spread over several sessions; the time each script took is
# printed and kept in timing.md and timing.csv.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"

# name | what it reproduces
scripts=(
	"fig7 | PR-STM (Shen et al. 2020), Figure 7, bank and vacation: throughput against threads"
	"fig8 | PR-STM (Shen et al. 2020), Figure 8, bank and vacation: throughput against lock coverage"
	"fig9 | PR-STM (Shen et al. 2020), Figure 9, bank and vacation: throughput against the semantic ratio"
	"fig10 | PR-STM (Shen et al. 2020), Figure 10, skiplist: throughput against threads"
	"fig11 | PR-STM (Shen et al. 2020), Figure 11, skiplist: throughput against lock coverage at 1536 threads"
	"fig12a | PR-STM (Shen et al. 2020), Figure 12 A, kmeans: throughput against threads"
	"fig12b | PR-STM (Shen et al. 2020), Figure 12 B, kmeans: throughput against lock coverage at 6720 threads"
	"fig13a | PR-STM (Shen et al. 2020), Figure 13 A, graph: throughput against threads"
	"fig13b | PR-STM (Shen et al. 2020), Figure 13 B, graph: throughput against lock coverage at 1536 threads"
	"csmv-fig1 | CSMV (Nunes et al.), Figure 1, bank: throughput and abort rate against the read-only share"
	"csmv-fig2 | CSMV (Nunes et al.), Figure 2, memcached: throughput and abort rate against the associativity"
	"csmv-fig3 | CSMV (Nunes et al.), Figure 3, bank: throughput of the ablations against the read-only share"
	"csmv-tables | CSMV (Nunes et al.), Tables I-IV: commit phases and time per transaction, from csmv-fig1's and csmv-fig2's reports"
	"pba-tables | GPU-PBA thesis chapter, Tables 5.2-5.4: worst-case request time"
	"detect-tables | OSDDA and LMDDA, Tables 3.2-3.3 and 4.3-4.4: detection time and speedups"
	"speculate-figures | speculative loop parallelization (Feng, Gupta and Bhuyan), Table 1 and Figures 8-11"
	"list-table1 | lock-free semi-linked list (Mulder 2015), Table 1: inserting 128..4096 nodes"
)

usage() {
	cat <<'EOF'
usage: scripts/reproduce-all.sh [options]

Runs every figure and table script (fig7 to fig13b, csmv-fig1 to csmv-fig3, pba-tables,
detect-tables, speculate-figures, list-table1) with its outputs in OUT/<script>/, builds
CSMV's Tables I-IV from csmv-fig1's and csmv-fig2's reports (OUT/csmv-tables/), judges
every claim of docs/claims.md on the reports (scripts/claims.sh: OUT/claims.md and
OUT/claims.csv), then writes OUT/index.md linking every table and plot.

Resumable: a point whose report is already in OUT, made by this binary's revision with
the same options on this machine, complete and verified, is kept, not run again; run the
same command again after an interruption, or spread the run over several sessions (on one
machine: see --new-machine).
Delete a report to make its point again. Each script's time is printed when it ends
and added to OUT/timing.csv; OUT/timing.md sums the sessions of this revision
(after --plot-only, which runs no point, those of the run it plotted).

  --gpubench PATH     binary to run (default: dist/bin/gpubench if present,
                      else ./gpubench)
  --out OUT           results folder (default results/local/reproduce-all)
  --only LIST         comma-separated scripts to run (default: all)
  --quick             each script's --quick: tiny sizes on the CPU backend
  --paper             the STM figures (fig7 to csmv-fig3) under the paper's
                      protocol, 5 s x 10 repetitions a point (about a minute
                      each), instead of their default of 1 s x 5 (PR-STM's)
  --preview           a look in minutes before the full run: the STM figures
                      only (fig7 to csmv-tables), each at the first and last
                      point of its axis, at the paper's sizes, --duration 0.3
                      --reps 2 a point (fig7.sh --preview), then the claims
                      judged on them; into an OUT of its own (not with --quick
                      or --paper)
  --series S          all (default): every engine of the STM figures, ours beside
                      the paper's; paper: only the paper's own series (fig7 to
                      csmv-fig3 --series paper: PR-STM and GPU-STM, in Fig. 9
                      PR-STM without its manager too, in CSMV's the engines it
                      draws), about a quarter fewer points; a later run with
                      all adds the rest to the same OUT
  --plot-only         run nothing: rebuild every table, plot and the index
                      from the reports already in OUT
  --emit-slurm DIR    run nothing: each script's runs as a Slurm job array in
                      DIR/<script>/, and DIR/submit-all.sh to submit them all;
                      afterwards --plot-only --out OUT gathers everything
  --gpus LIST         comma-separated GPU indices (e.g. 0,1), given to every
                      script: its points run side by side, one process a GPU,
                      those that time the CPU alone (scripts/fig7.sh --help);
                      not with --emit-slurm
  --max-seconds S     start no point that would end after S seconds (say, a
                      batch job's time limit), judged by the longest point
                      the script has run so far, or by the point's own
                      expected time where the script can tell (detect-tables:
                      a detector's time at its smaller sizes, extrapolated;
                      the STM figures: the reports of the point's workload,
                      scripts/lib/report2csv.py forecast):
                      the points running end, the run stops there with status 3
                      and no claims or index; run the same command again to
                      go on (the points made are kept). A point expected to
                      take S seconds or more starts only as the first point
                      a run makes. Not with --emit-slurm or --plot-only
  --point-timeout S   stop a point that is still running after S seconds
                      (SIGINT, as gpubench --timeout stops itself; SIGKILL 5 s
                      + S/10 later, at most 60 s, if it has not ended), its
                      report removed and its log kept: its script goes on with
                      its other points and then fails, without tables, and
                      the run goes on with the next script; run the same
                      command again to make what is missing. For a point
                      that hangs: it costs S, not the session. Not with
                      --emit-slurm, --plot-only or --plan
  --new-machine       OUT was begun on another machine (OUT/machine.json: its GPU
                      models, CPU model and cores): make it this machine's run,
                      each point made again here as it comes (without it: exit 4)
  --plan              run nothing: for each script, how many points these
                      options make, how many of OUT's reports a run would keep
                      (the test a resume makes: this binary's revision, the
                      options, this machine) and about how long the rest takes
                      at the pace OUT/timing.csv measured for the script in
                      this mode (its seconds a point, every session and
                      revision, one point at a time); a table on standard
                      output. Not with --emit-slurm, --plot-only,
                      --max-seconds or --new-machine
  -h, --help          this text

One machine's run: the first session writes OUT/machine.json, and a later one on a
host with other GPU or CPU models or another number of cores stops with status 4
before it runs anything, since every point would be made again there (a resumed
Slurm job on another node type, a session given another GPU).

Killed by a signal that reaches the script and its runs (Ctrl-C, timeout(1), a
batch job's time limit), it records the script it was in as "killed" in
OUT/timing.csv and timing.md, with the points that script made before (their
reports are kept; the point cut off has its log and no report), and exits 128 +
the signal's number; the same command again goes on.

Exit status: 0 when every script succeeded, 1 otherwise, 2 on a usage error, 3 when
--max-seconds stopped the run, 4 when OUT was begun on another machine.
EOF
}

gpubench=""
out=results/local/reproduce-all
only=""
quick=0
paper=0
preview=0
plot_only=0
emit=""
gpus=""
max_seconds=""
point_timeout=""
new_machine=0
plan=0
series=all

while [[ $# -gt 0 ]]; do
	case $1 in
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--only) need_value "$@"; only=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--paper) paper=1; shift ;;
	--preview) preview=1; shift ;;
	--plot-only) plot_only=1; shift ;;
	--emit-slurm) need_value "$@"; emit=$2; shift 2 ;;
	--gpus) sweep_set_gpus "$@"; gpus=$2; shift 2 ;;
	--max-seconds) need_value "$@"; max_seconds=$2; shift 2 ;;
	--point-timeout) need_value "$@"; point_timeout=$2; shift 2 ;;
	--new-machine) new_machine=1; shift ;;
	--plan) plan=1; shift ;;
	--series) need_value "$@"; series=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done
[[ -z $emit || $plot_only == 0 ]] || die_usage "--emit-slurm and --plot-only do not go together"
[[ $series == all || $series == paper ]] || die_usage "--series: '$series' is not all or paper"
[[ -z $max_seconds || $max_seconds =~ ^[0-9]+$ ]] || die_usage "--max-seconds: '$max_seconds' is not a number of seconds"
[[ -z $max_seconds || ( -z $emit && $plot_only == 0 ) ]] ||
	die_usage "--max-seconds bounds the runs: not with --emit-slurm or --plot-only"
[[ -z $point_timeout ]] || sweep_point_timeout_ok "$point_timeout" ||
	die_usage "--point-timeout: '$point_timeout' is not a whole number of seconds from 1 to 999999"
[[ -z $point_timeout || ( -z $emit && $plot_only == 0 && $plan == 0 ) ]] ||
	die_usage "--point-timeout bounds the runs: not with --emit-slurm, --plot-only or --plan"
[[ $new_machine == 0 || ( -z $emit && $plot_only == 0 ) ]] ||
	die_usage "--new-machine is for a run: not with --emit-slurm or --plot-only"
[[ $plan == 0 || ( -z $emit && $plot_only == 0 && -z $max_seconds && $new_machine == 0 ) ]] ||
	die_usage "--plan runs nothing: not with --emit-slurm, --plot-only, --max-seconds or --new-machine"
[[ -z $emit || -z $gpus ]] ||
	die_usage "--gpus and --emit-slurm do not go together: Slurm gives each task of the job array its GPU"

names=()
for spec in "${scripts[@]}"; do
	names+=("${spec%% |*}")
done
if [[ -n $only ]]; then
	IFS=, read -r -a chosen <<<"$only"
	for n in "${chosen[@]}"; do
		[[ " ${names[*]} " == *" $n "* ]] || die_usage "--only: no script '$n' (one of: ${names[*]})"
	done
	names=("${chosen[@]}")
fi
if [[ $preview == 1 ]]; then
	[[ $quick == 0 && $paper == 0 ]] || die_usage "--preview has its own protocol: not with --quick or --paper"
	stm_names=()
	for n in "${names[@]}"; do
		case $n in
		fig* | csmv-*) stm_names+=("$n") ;;
		*) [[ -z $only ]] || die_usage "--preview is for the STM figures (fig7 to csmv-tables), not $n" ;;
		esac
	done
	names=("${stm_names[@]}")
fi

[[ $quick == 0 || $paper == 0 ]] || die_usage "--quick and --paper do not go together"
common=()
[[ -z $gpubench ]] || common+=(--gpubench "$gpubench")
[[ $quick == 0 ]] || common+=(--quick)
[[ $plot_only == 0 ]] || common+=(--plot-only)
[[ -z $gpus || $plot_only == 1 ]] || common+=(--gpus "$gpus")

# script_args NAME: the options reproduce-all gives script NAME, in $args.
script_args() {
	args=()
	case $1 in
	csmv-tables)
		# its runs are csmv-fig1's and csmv-fig2's: it builds the tables from their folders
		args=(--tables-only --fig1 "$out/csmv-fig1" --fig2 "$out/csmv-fig2" --out "$out/$1")
		return
		;;
	fig* | csmv-fig*)
		[[ $paper == 0 ]] || args+=(--paper)
		[[ $preview == 0 ]] || args+=(--preview)
		[[ $series == all ]] || args+=(--series "$series")
		;;
	esac
	args+=("${common[@]}" --out "$out/$1")
	[[ -z $emit ]] || args+=(--emit-slurm "$emit/$1")
}

mode=full
[[ $paper == 0 ]] || mode=paper
[[ $preview == 0 ]] || mode=preview
[[ $quick == 0 ]] || mode=quick
revision=-
out_existed=0
[[ ! -d $out ]] || out_existed=1
[[ $plan == 1 ]] || mkdir -p "$out"
machine_note=""
if [[ $plot_only == 0 && -z $emit ]]; then
	# every script runs the binary whose revision the timing table names
	had_gpubench=$gpubench
	sweep_gpubench
	[[ -n $had_gpubench ]] || common=(--gpubench "$gpubench" "${common[@]}")
	if ! info=$("$gpubench" info --quiet --json -) ||
		! revision=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["git_revision"])' <<<"$info"); then
		echo "reproduce-all.sh: '$gpubench info' failed" >&2
		exit 1
	fi
	# one machine's run: a folder begun elsewhere would have every point made again here
	if [[ $plan == 1 ]]; then # writes no machine.json
		[[ ! -e $out/machine.json ]] ||
			why=$(python3 "$here/lib/resume.py" --machine "$out/machine.json" <<<"$info") ||
			machine_note="$out was begun on another machine ($why): a run here exits 4, and with --new-machine makes every point again"
	fi
	new=()
	[[ $new_machine == 0 ]] || new=(--new)
	if [[ $plan == 0 ]] && ! why=$(python3 "$here/lib/resume.py" --machine "$out/machine.json" "${new[@]}" <<<"$info"); then
		echo "reproduce-all.sh: $out was begun on another machine ($why): resumed here, every" \
			"point would be made again and replace that machine's report. Resume it there, give" \
			"another --out, or pass --new-machine to make it this machine's run." >&2
		exit 4
	fi
fi

failed=()
declare -A ran_with
if [[ -n $emit ]]; then
	mkdir -p "$emit"
	submit=$emit/submit-all.sh
	printf '#!/usr/bin/env bash\n# Submits every job array of scripts/reproduce-all.sh --emit-slurm.\nset -e\n' >"$submit"
fi
tally=$(mktemp)
session=$(mktemp) # every script's points run in this session: "ran SECONDS" lines
trap 'rm -f "$tally" "$session"' EXIT
# the scripts' sweeps start no point past it (scripts/lib/sweep.sh: exit 3)
if [[ -n $max_seconds ]]; then
	export GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + max_seconds))
	export GPUBENCH_SWEEP_BUDGET=$max_seconds GPUBENCH_SWEEP_SESSION=$session
fi
# a point still running after it is stopped and its script fails after its other points (sweep.sh)
[[ -z $point_timeout ]] || export GPUBENCH_SWEEP_POINT_TIMEOUT=$point_timeout
stopped=""
current="" # the script running now, for a signal's record
timing_mode=$mode # the mode timing.csv files this session under
[[ $plot_only == 0 ]] || timing_mode=plot-only

# timing_add SCRIPT STATUS SECONDS: SCRIPT's row of this session in timing.csv, its points from
# the tally; prints the counts ("N points run (S s in gpubench), K kept")
timing_add() {
	python3 "$here/lib/timing.py" add "$out/timing.csv" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$revision" \
		"$timing_mode" "$1" "$2" "$3" "$tally"
}
# timing_table: timing.md anew from timing.csv
timing_table() {
	python3 "$here/lib/timing.py" table "$out/timing.csv" "$out/timing.md" "$revision" "$timing_mode"
}

# on_signal NAME NUMBER: killed in the middle of a script, keep what it made in timing.csv and
# timing.md (the points it ran, the seconds it took) before the exit, so the time spent is
# counted and the next session's estimate knows it
on_signal() {
	trap - INT TERM HUP
	if [[ -n $current && -z $emit ]]; then
		timing_add "$current" killed "$((SECONDS - started))" >/dev/null || true
		timing_table || true
		echo "reproduce-all.sh: killed by SIG$1 in $current: the reports made are kept, and timing.md counts" \
			"the time spent; run the same command again to go on" >&2
	fi
	exit $((128 + $2))
}
trap 'on_signal INT 2' INT
trap 'on_signal TERM 15' TERM
trap 'on_signal HUP 1' HUP

# --plan: each script's points tested as a run would test them, none run (sweep.sh's
# GPUBENCH_SWEEP_PLAN), and the folders the test made where there were none taken away.
if [[ $plan == 1 ]]; then
	errs=$(mktemp)
	trap 'rm -f "$tally" "$session" "$errs"' EXIT
	echo "# Plan: $out, mode $mode, revision $revision"
	echo
	[[ -z $machine_note ]] || { echo "Note: $machine_note."; echo; }
	echo "| script | points | kept | to make | about (pace from timing.csv) |"
	echo "| --- | ---: | ---: | ---: | --- |"
	all=0 all_kept=0 all_make=0 all_s=0 paced_any=0 unknown=()
	for name in "${names[@]}"; do
		[[ $name != csmv-tables ]] || continue # no runs of its own (csmv-fig1's and csmv-fig2's)
		script_args "$name"
		had=0
		[[ ! -d $out/$name ]] || had=1
		: >"$tally"
		rc=0
		GPUBENCH_SWEEP_PLAN=1 GPUBENCH_SWEEP_TALLY=$tally bash "$here/$name.sh" "${args[@]}" 2>"$errs" || rc=$?
		[[ $had == 1 || ! -d $out/$name ]] || find "$out/$name" -depth -type d -empty -delete
		if [[ $rc != 0 ]]; then
			failed+=("$name")
			echo "| $name | | | | FAILED: see standard error |"
			{ echo "reproduce-all.sh: $name FAILED in its plan:"; sed 's/^/    /' "$errs"; } >&2
			continue
		fi
		kept=$(grep -cx kept "$tally" || true)
		make=$(grep -cx plan "$tally" || true)
		read -r pace paced s < <(python3 "$here/lib/timing.py" pace "$out/timing.csv" "$mode" "$name" "$make")
		if ((make == 0)); then
			about="nothing to run"
		elif [[ $pace == - ]]; then
			about="unknown: no point of $name in $mode mode in timing.csv"
			unknown+=("$name")
		else
			all_s=$((all_s + s)) paced_any=1
			about="$(sweep_duration "$s") ($pace s a point, over $paced points)"
		fi
		all=$((all + kept + make)) all_kept=$((all_kept + kept)) all_make=$((all_make + make))
		echo "| $name | $((kept + make)) | $kept | $make | $about |"
	done
	total="$(sweep_duration "$all_s")"
	if [[ ${#unknown[@]} != 0 ]]; then
		[[ $paced_any == 1 ]] && total="at least $total" || total="unknown"
		total+=" (no pace for $(IFS=,; echo "${unknown[*]}"))"
	fi
	echo "| all | $all | $all_kept | $all_make | $total |"
	[[ $out_existed == 1 || ! -d $out ]] || rmdir "$out" 2>/dev/null || true
	[[ ${#failed[@]} == 0 ]] || exit 1
	exit 0
fi

for name in "${names[@]}"; do
	if [[ -n $emit && $name == csmv-tables ]]; then
		echo "reproduce-all.sh: == $name: no runs of its own (csmv-fig1's and csmv-fig2's); gathered by --plot-only" >&2
		continue
	fi
	echo "reproduce-all.sh: == $name" >&2
	script_args "$name"
	ran_with[$name]="scripts/$name.sh ${args[*]}"
	: >"$tally"
	started=$SECONDS
	status=ok
	rc=0
	current=$name
	GPUBENCH_SWEEP_TALLY=$tally bash "$here/$name.sh" "${args[@]}" || rc=$?
	current=""
	if [[ $rc == 0 ]]; then
		[[ -z $emit || ! -e $emit/$name/$name.slurm ]] || echo "sbatch $(cd "$emit/$name" && pwd)/$name.slurm" >>"$submit"
	elif [[ $rc == 3 && -n $max_seconds ]]; then
		status=stopped
		stopped=$name
	else
		status=FAILED
		failed+=("$name")
		echo "reproduce-all.sh: $name FAILED" >&2
	fi
	[[ -z $emit ]] || continue
	took=$((SECONDS - started))
	counts=$(timing_add "$name" "$status" "$took")
	echo "reproduce-all.sh: $name took $took s: $counts" >&2
	[[ -z $stopped ]] || break
done

if [[ -n $emit ]]; then
	chmod +x "$submit"
	echo "reproduce-all.sh: submit every job array with  bash $submit" >&2
	echo "reproduce-all.sh: then gather with  scripts/reproduce-all.sh --plot-only --out $out" >&2
	[[ ${#failed[@]} == 0 ]] || exit 1
	exit 0
fi
timing_table
echo "reproduce-all.sh: time per script in $out/timing.md" >&2
if [[ -n $stopped ]]; then
	echo "reproduce-all.sh: stopped in $stopped at --max-seconds $max_seconds; run the same command" \
		"again to go on (no claims or index until every script has run)" >&2
	[[ ${#failed[@]} == 0 ]] || { echo "reproduce-all.sh: failed: ${failed[*]}" >&2; exit 1; }
	exit 3
fi

# The verdict on every claim, from the reports of every script (those that failed too:
# what they left is judged, what they lack is "not run").
claims_ok=1
bash "$here/claims.sh" --run "$out" || { claims_ok=0; failed+=(claims); echo "reproduce-all.sh: claims FAILED" >&2; }

# The index: one section per script, its files linked, its tables shown.
index=$out/index.md
{
	echo "# gpubench: every figure and table"
	echo
	echo "Made by \`scripts/reproduce-all.sh\` on $(date -u +%Y-%m-%dT%H:%M:%SZ)$([[ $quick == 0 ]] || echo ", --quick (tiny sizes, CPU backend)")$([[ $preview == 0 ]] || echo ", --preview (the STM figures at the ends of their axes, 0.3 s x 2 a point: a look, not the reproduction)")."
	echo "Each section links the files its script wrote under its folder and shows its tables;"
	echo "where a script records the paper's numbers, they stand beside ours in its table."
	echo
	for spec in "${scripts[@]}"; do
		name=${spec%% |*}
		[[ " ${names[*]} " == *" $name "* ]] || continue
		echo "## $name: ${spec#*| }"
		echo
		if [[ " ${failed[*]} " == *" $name "* ]]; then
			echo "**FAILED**: see the script's messages; no table or plot is shown."
			echo
			continue
		fi
		echo "\`${ran_with[$name]}\`"
		echo
		for f in "$out/$name"/*.md "$out/$name"/*.csv "$out/$name"/*.png; do
			[[ -e $f ]] || continue
			echo "- [$name/$(basename "$f")]($name/$(basename "$f"))"
		done
		echo
		for f in "$out/$name"/*.png; do
			[[ -e $f ]] || continue
			echo "![$name/$(basename "$f")]($name/$(basename "$f"))"
			echo
		done
		for f in "$out/$name"/*.md; do
			[[ -e $f ]] || continue
			# two heading levels down, so the script's headings sit under this section
			sed -e 's/^#/###/' "$f"
			echo
		done
	done
	echo "## claims: every quantitative claim of the five documents against this run"
	echo
	if [[ $claims_ok == 1 ]]; then
		echo "- [claims.md](claims.md), [claims.csv](claims.csv): made by \`scripts/claims.sh --run $out\`"
		echo
		sed -e 's/^#/###/' "$out/claims.md"
	else
		echo "**FAILED**: see the messages of scripts/claims.sh."
	fi
	echo
	echo "## time per script"
	echo
	echo "- [timing.md](timing.md), [timing.csv](timing.csv)"
	echo
	sed -e 's/^#/###/' "$out/timing.md"
} >"$index"
echo "reproduce-all.sh: index in $index" >&2
[[ ${#failed[@]} == 0 ]] || { echo "reproduce-all.sh: failed: ${failed[*]}" >&2; exit 1; }
