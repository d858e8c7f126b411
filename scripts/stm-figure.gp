# A figure of `gpubench stm` (Figures 7-9 of Shen et al. 2020) from the CSV of
# scripts/lib/report2csv.py table: one row of panels A-D per workload,
# committed transactions per second against the swept option, log y, one line
# per engine (median, bars min..max). scripts/lib/stmfig.sh calls it:
#
#   gnuplot -e "csv='DIR/fig7.csv'; out='DIR/fig7.png'; title='...'; xlabel='threads'" \
#           -e "logx=0; algos='gpustm gpustm-local prstm'; workloads='bank vacation'; panels='A B C D'" \
#           scripts/stm-figure.gp
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
set terminal pngcairo size width,(450 * words(workloads) * words(metrics) + 80) font ",10"
set output out
set datafile separator ","
set key top left
if (logx) { set logscale x 2 } else { set xrange [0:*] }
set xlabel xlabel
set grid ytics mytics xtics
set xtics rotate by -30

panel_title(p) = panel_title_all ne "" ? panel_title_all : p eq "A" ? "A: no presort, 0% read-only" : \
                 p eq "B" ? "B: no presort, 20% read-only" : \
                 p eq "C" ? "C: presort, 0% read-only" : "D: presort, 20% read-only"
pick(w, a, p, col) = (strcol(1) eq w && strcol(2) eq a && strcol(3) eq p) ? column(col) : NaN

set multiplot layout words(workloads) * words(metrics),words(panels) title title." (median of repetitions, bars: min..max)"
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
                plot for [i = 1:words(algos)] csv skip 1 \
                     using 6:(pick(wl, word(algos, i), p, 10)):(pick(wl, word(algos, i), p, 11)):(pick(wl, word(algos, i), p, 12)) \
                     with yerrorlines linecolor i pointtype 7 pointsize 0.8 title word(algos, i)
            }
        }
    }
}
unset multiplot
