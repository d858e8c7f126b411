# A figure of `gpubench stm` (Figures 7-9 of Shen et al. 2020) from the CSV of
# scripts/lib/report2csv.py table: one row of panels A-D per workload,
# committed transactions per second against the swept option, log y, one line
# per engine (median, bars min..max). scripts/lib/stmfig.sh calls it:
#
#   gnuplot -e "set loadpath 'scripts/lib'; csv='DIR/fig7.csv'; out='DIR/fig7.png'; title='...'" \
#           -e "xlabel='threads'; logx=0; algos='gpustm gpustm-local prstm'; workloads='bank vacation'" \
#           -e "panels='A B C D'" scripts/stm-figure.gp
#
# (plot_draw in scripts/lib/plot.sh gives fmt, png, svg or pdf, out and about, the
# reports' devices and revisions, a second line of the title.)
#
# algos, workloads and panels name what the CSV holds; a panel without rows
# is left blank. Optional: metrics, a row of panels each per workload,
# "throughput" (default) or "throughput abort_rate" (the abort rate, linear y);
# panel_title_all, the title of every panel (a one-panel figure whose panel A is
# not the paper's A, e.g. a sweep of the read-only share).
#
# CSV columns: 1 workload, 2 algo, 3 panel, 4 presort, 5 read_only, 6 x,
# 7 threads, 8 hash, 9 semantic_ratio, 10 throughput_median, 11 throughput_min,
# 12 throughput_max, 13 abort_rate, ... Rows are sorted by workload, algo, panel and x, so
# each engine's points of one panel are consecutive and join into one line.

if (!exists("csv")) csv = 'fig7.csv'
if (!exists("out")) out = 'fig7.png'
if (!exists("title")) title = ''
if (!exists("xlabel")) xlabel = 'x'
if (!exists("logx")) logx = 0
if (!exists("algos")) algos = 'prstm'
if (!exists("workloads")) workloads = 'bank'
if (!exists("panels")) panels = 'A B C D'
if (!exists("metrics")) metrics = 'throughput'
if (!exists("panel_title_all")) panel_title_all = ''

# one column per panel the reports have (A-D, or A alone for one-panel figures), wide enough for the title
width = words(panels) < 2 ? 900 : 450 * words(panels)
height = 480 * words(workloads) * words(metrics) + 100
fontsize = 10
load 'terminal.gp'
set datafile separator ","
# the key under each panel, where it covers no point; points at the ends of x clear of the axes
set key outside bottom center horizontal Left reverse samplen 2 spacing 0.9 font ",9"
set offsets graph 0.03, graph 0.03, 0, 0
if (logx) { set logscale x 2; set autoscale xfix } else { set xrange [0:*]; set autoscale xfixmax }
set xlabel xlabel
set grid ytics mytics xtics
set xtics rotate by -30

panel_title(p) = panel_title_all ne "" ? panel_title_all : p eq "A" ? "A: no presort, 0% read-only" : \
                 p eq "B" ? "B: no presort, 20% read-only" : \
                 p eq "C" ? "C: presort, 0% read-only" : "D: presort, 20% read-only"
pick(w, a, p, col) = (strcol(1) eq w && strcol(2) eq a && strcol(3) eq p) ? column(col) : NaN
in_panel(w, p) = strcol(1) eq w && strcol(3) eq p
if (!exists("about")) about = ''

set multiplot layout words(workloads) * words(metrics),words(panels) \
    title title." (median of repetitions, bars: min..max)".(about ne "" ? "\n".about : "")
do for [k = 1:words(workloads)] {
    wl = word(workloads, k)
    do for [m = 1:words(metrics)] {
        metric = word(metrics, m)
        if (metric eq "abort_rate") {
            unset logscale y
            set format y "%g%%"
            set ylabel "aborts / (commits + aborts)"
        } else {
            set logscale y
            set format y "10^{%L}"
            set ylabel "committed transactions / s"
        }
        do for [p in panels] {
            set title wl." ".panel_title(p)
            if (metric eq "abort_rate") {
                plot for [i = 1:words(algos)] csv skip 1 using 6:(100 * pick(wl, word(algos, i), p, 13)) \
                     with linespoints linecolor i pointtype 7 pointsize 0.8 title word(algos, i)
            } else {
                # A median of 0 (nothing committed) has no place on a log axis: it is drawn as an
                # open triangle at a third of the panel's smallest positive value, and said so.
                stats csv skip 1 using (in_panel(wl, p) && column(10) > 0 ? column(10) : 1e300) nooutput
                floor = STATS_min < 1e300 ? STATS_min / 3 : 1
                stats csv skip 1 using (in_panel(wl, p) && column(10) == 0 ? 1 : 0) nooutput
                zeros = STATS_sum
                plot for [i = 1:words(algos)] csv skip 1 \
                     using 6:(pick(wl, word(algos, i), p, 10)):(pick(wl, word(algos, i), p, 11)):(pick(wl, word(algos, i), p, 12)) \
                     with yerrorlines linecolor i pointtype 7 pointsize 0.8 title word(algos, i), \
                     for [i = 1:words(algos)] csv skip 1 using 6:(pick(wl, word(algos, i), p, 10) == 0 ? floor : NaN) \
                     with points linecolor i pointtype 8 pointsize 1.6 notitle, \
                     NaN with points linecolor "black" pointtype 8 pointsize 1.6 \
                     title (zeros > 0 ? "0 (none committed), drawn low" : "")
            }
        }
    }
}
unset multiplot
