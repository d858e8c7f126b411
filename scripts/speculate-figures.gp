# Figures 8-11 of "Optimistic Parallelism on GPUs" from the CSVs of
# scripts/lib/speculate_figures.py, as four panels: speedups over seq with
# each optimization left out (8), against cpu-spec, gpu-nospec, cpu-inspect and the
# paper's CPU speculation, cpu-tm (9),
# misspeculation rates with each optimization and with all of them left out
# (10, log scale) and the phase shares of the loop time (11, stacked).
#
#   gnuplot -e "dir='DIR'; out='DIR/speculate-figures.png'" scripts/speculate-figures.gp

if (!exists("dir")) dir = '.'
if (!exists("out")) out = dir.'/speculate-figures.png'

set terminal pngcairo size 1600,1100 font ",11"
set output out
set datafile separator ","
set datafile missing ""
set style data histograms
set style fill solid 0.8 border -1
set key top right autotitle columnhead
set xtics nomirror rotate by -30
set grid ytics

set multiplot layout 2,2 title "gpubench speculate: Figures 8-11"

set title "Figure 8: speedup over seq"
set style histogram clustered gap 1
set ylabel "speedup (x)"
set logscale y
plot for [c=2:5] dir.'/fig8.csv' using c:xtic(1)

set title "Figure 9: speculative run, cpu-spec, gpu-nospec, cpu-inspect and cpu-tm, over seq"
plot for [c=2:6] dir.'/fig9.csv' using c:xtic(1)

set title "Figure 10: misspeculation rate"
set ylabel "iterations re-executed on the CPU (%)"
plot for [c=2:6] dir.'/fig10.csv' using (column(c) > 0 ? column(c) : 1e-4):xtic(1)

set title "Figure 11: share of the loop time (--opt all)"
unset logscale y
set ylabel "% of loop time"
set style histogram rowstacked
set yrange [0:*]
plot for [c=2:8] dir.'/fig11.csv' using c:xtic(1)

unset multiplot
