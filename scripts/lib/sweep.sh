# shellcheck shell=bash
# What the figure and table scripts (scripts/*.sh) share: usage errors and the
# choice of the gpubench binary. Source it; messages name the sourcing script.
#
#   die_usage MESSAGE...   print MESSAGE and where the help is, exit 2
#   need_value "$@"        exit 2 unless option $1 has a value in $2
#   sweep_gpubench         settle $gpubench (see below), exit 1 if it is not there

sweep_name=$(basename "$0")

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
	[[ -x $gpubench ]] || {
		echo "$sweep_name: no gpubench at '$gpubench' (build with make or make dist, or" \
			"pass --gpubench PATH)" >&2
		exit 1
	}
}

# sweep_run TAG DIR NAME CHECK... -- ARGS...: one run of a sweep,
# `gpubench ARGS --json DIR/NAME.json`, its output kept in DIR/NAME.log; then
# CHECK, given the report's path as its last word, must accept the report and
# print its one-line summary. A failed run or a rejected report stops the
# script with status 1, before any table is made. TAG (e.g. "[tables 3/10]")
# starts each progress line.
sweep_run() {
	local tag=$1 dir=$2 name=$3 json log rc line started=$SECONDS
	local -a check=()
	shift 3
	while [[ $1 != -- ]]; do
		check+=("$1")
		shift
	done
	shift
	json=$dir/$name.json
	log=$dir/$name.log
	rm -f "$json"
	if "$gpubench" "$@" --json "$json" >"$log" 2>&1; then rc=0; else rc=$?; fi
	if [[ $rc != 0 ]]; then
		echo "$tag $name FAILED: gpubench exited $rc; its output ($log):" >&2
		sed 's/^/    /' "$log" >&2
		echo "$sweep_name: stopped; no table or plot is made from a failed sweep" >&2
		exit 1
	fi
	if ! line=$("${check[@]}" "$json"); then
		echo "$tag $name REJECTED (see above); output in $log" >&2
		exit 1
	fi
	echo "$tag $name: $line, $((SECONDS - started)) s" >&2
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
