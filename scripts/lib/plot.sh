# shellcheck shell=bash
# How the figure and table scripts draw (scripts/*.sh, after sourcing
# scripts/lib/sweep.sh): one gnuplot script per figure, drawn in every format
# --format asks for, with the device and gpubench revision of its reports in
# the title. Source it; messages name the sourcing script.
#
#   plot_formats LIST      exit 2 unless LIST is a comma-separated list of png, svg, pdf
#   plot_files BASE LIST   the files plot_draw makes of BASE: BASE.png, BASE.svg, ...
#   plot_draw BASE LIST REPORTS GNUPLOT_ARGS...
#       draw BASE.<format> for each format of LIST with `gnuplot GNUPLOT_ARGS`,
#       which are given: fmt (the format), out (the file), about (the devices and
#       revisions of the reports under REPORTS, a title's second line) and
#       gnuplot's loadpath at scripts/lib, so that a figure's script sets its
#       size and `load 'terminal.gp'` opens the output. Where gnuplot is
#       missing, say how to draw elsewhere.

plot_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

plot_formats() {
	[[ $1 =~ ^(png|svg|pdf)(,(png|svg|pdf))*$ ]] ||
		die_usage "--format: '$1' is not a comma-separated list of png, svg, pdf"
}

plot_files() {
	local f
	IFS=, read -r -a f <<<"$2"
	printf "$1.%s\n" "${f[@]}"
}

# The devices and gpubench revisions of the run reports under DIR, in words
# without gnuplot's enhanced-text characters: "NVIDIA H100 80GB HBM3, gpubench 8094dc6eefcc".
plot_about() {
	python3 - "$1" <<'PY'
import json, os, re, sys
devices, revisions = [], []
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for name in sorted(files):
        if not name.endswith(".json"):
            continue
        try:
            d = json.load(open(os.path.join(root, name)))
            dev, meta = d["device"], d["meta"]
            rev = meta["git_revision"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if dev.get("backend") == "gpu":
            what = dev.get("name", "GPU")
        else:
            what = "CPU %s (%s CPUs)" % (dev.get("cpu_model", ""), dev.get("cpus_usable", dev.get("cpu_logical_cores", "?")))
        for seen, x in ((devices, what), (revisions, rev)):
            if x not in seen:
                seen.append(x)
def words(xs, one):
    return xs[0] if len(xs) == 1 else "%d %ss: %s" % (len(xs), one, ", ".join(xs[:3]) + (", ..." if len(xs) > 3 else ""))
text = "%s; gpubench %s" % (words(devices, "device"), words(revisions, "revision")) if devices else ""
print(re.sub(r"[_^{}@&~\\'\"]", " ", text))
PY
}

plot_draw() {
	local base=$1 formats=$2 reports=$3 about fmt
	local -a list
	shift 3
	if ! command -v gnuplot >/dev/null; then
		echo "$sweep_name: gnuplot not installed, no plot; copy $(dirname "$base") to a machine" \
			"with gnuplot and run scripts/$sweep_name --plot-only --out DIR there" >&2
		return 0
	fi
	about=$(plot_about "$reports")
	IFS=, read -r -a list <<<"$formats"
	for fmt in "${list[@]}"; do
		gnuplot -e "set loadpath '$plot_lib'; fmt='$fmt'; out='${base//\'/\'\'}.$fmt'; about='$about'" "$@"
		echo "$sweep_name: plot in $base.$fmt" >&2
	done
}
