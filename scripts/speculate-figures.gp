# Figures 8-11 of "Optimistic Parallelism on GPUs" from the CSVs of
# scripts/lib/speculate_figures.py, as four panels: speedups over seq with
# each optimization left out (8), against cpu-spec, gpu-nospec, cpu-inspect and the
# paper's CPU speculation, cpu-tm (9),
# misspeculation rates with each optimization and with all of them left out
# (10, log scale) and the phase shares of the loop time (11, stacked). A bar the
# reports lack (gpu-nospec and cpu-inspect run on some loops only) is marked n/a;
# a rate of 0, which a log axis cannot show, is a stub marked 0. The keys stand
# beside the panels, clear of the bars.
#
#   gnuplot -e "set loadpath 'scripts/lib'; dir='DIR'; out='DIR/speculate-figures.png'" \
#           scripts/speculate-figures.gp
#
# (plot_draw in scripts/lib/plot.sh gives fmt, png, svg or pdf, out and about, the
# reports' devices and revisions, a second line of the title.)

if (!exists("dir")) dir = '.'
if (!exists("out")) out = dir.'/speculate-figures.png'
if (!exists("about")) about = ''

width = 1700
height = 1150
fontsize = 11
load 'terminal.gp'
set datafile separator ","
set datafile missing ""
set style data histograms
set style fill solid 0.8 border -1
set key outside right top vertical autotitle columnhead font ",10"
set xtics nomirror rotate by -30
set grid ytics

# Where bar c (the CSV's column 2, 3, ...) of row r (0, 1, ...) stands in a clustered
# histogram of n bars a row with gap 1: rows at 0, 1, ..., each bar 1 / (n + 1) wide. (The
# labels' plots read the header as the histograms do, as columnhead, so their rows count alike.)
bar_x(r, c, n) = r + (c - 2 - (n - 1) / 2.0) / (n + 1.0)
lo = 1e300

set multiplot layout 2,2 title "gpubench speculate: Figures 8-11".(about ne "" ? "\n".about : "")

# lo: a panel's smallest positive value, below which its y range starts and its n/a and 0 stand
do for [c = 2:5] {
    stats dir.'/fig8.csv' skip 1 using (valid(c) && column(c) > 0 ? column(c) : 1e300) nooutput
    lo = STATS_min < lo ? STATS_min : lo
}
set title "Figure 8: speedup over seq"
set style histogram clustered gap 1
set ylabel "speedup (x)"
set logscale y
set yrange [lo / 4 : *]
plot for [c=2:5] dir.'/fig8.csv' using c:xtic(1), \
     for [c=2:5] dir.'/fig8.csv' using (bar_x($0, c, 4)):(lo / 2.5):(valid(c) ? "" : "n/a") \
     with labels rotate by 90 left font ",8" notitle

lo = 1e300
do for [c = 2:6] {
    stats dir.'/fig9.csv' skip 1 using (valid(c) && column(c) > 0 ? column(c) : 1e300) nooutput
    lo = STATS_min < lo ? STATS_min : lo
}
set title "Figure 9: speculative run, cpu-spec, gpu-nospec, cpu-inspect and cpu-tm, over seq"
set yrange [lo / 4 : *]
plot for [c=2:6] dir.'/fig9.csv' using c:xtic(1), \
     for [c=2:6] dir.'/fig9.csv' using (bar_x($0, c, 5)):(lo / 2.5):(valid(c) ? "" : "n/a") \
     with labels rotate by 90 left font ",8" notitle

lo = 1e300
do for [c = 2:6] {
    stats dir.'/fig10.csv' skip 1 using (valid(c) && column(c) > 0 ? column(c) : 1e300) nooutput
    lo = STATS_min < lo ? STATS_min : lo
}
lo = lo < 1e300 ? lo : 1
set title "Figure 10: misspeculation rate (0: no iteration re-executed)"
set ylabel "iterations re-executed on the CPU (%)"
set yrange [lo / 10 : *]
plot for [c=2:6] dir.'/fig10.csv' using (valid(c) && column(c) > 0 ? column(c) : lo / 5):xtic(1), \
     for [c=2:6] dir.'/fig10.csv' \
     using (bar_x($0, c, 5)):(lo / 4):(!valid(c) ? "n/a" : column(c) > 0 ? "" : "0") \
     with labels font ",8" notitle

set title "Figure 11: share of the loop time (--opt all)"
unset logscale y
set ylabel "% of loop time"
set style histogram rowstacked
set yrange [0:100]
plot for [c=2:8] dir.'/fig11.csv' using c:xtic(1)

unset multiplot
