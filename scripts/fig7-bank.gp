# Figure 7 (bank panels) of Shen et al. 2020 from fig7-bank.csv: committed
# transactions per second against threads, log y, one line per engine.
#
#   gnuplot -e "csv='DIR/fig7-bank.csv'; out='DIR/fig7-bank.png'; algos='prstm'; panels='A B C D'" \
#           scripts/fig7-bank.gp
#
# algos and panels name what the CSV holds; a panel without rows is left blank.
#
# CSV columns: 1 algo, 2 panel, 3 presort, 4 read_only, 5 threads,
# 6 throughput_median, 7 throughput_min, 8 throughput_max, ...
# scripts/lib/report2csv.py sorts rows by algo, panel and threads, so each
# engine's points of one panel are consecutive and join into one line.

if (!exists("csv")) csv = 'fig7-bank.csv'
if (!exists("out")) out = 'fig7-bank.png'
if (!exists("algos")) algos = 'prstm'
if (!exists("panels")) panels = 'A B C D'

set terminal pngcairo size 1400,1000 font ",11"
set output out
set datafile separator ","
set key top left
set logscale y
set format y "10^{%L}"
set xlabel "threads"
set ylabel "committed transactions / s"
set grid ytics mytics xtics
set xrange [0:*]
set xtics rotate by -30

panel_title(p) = p eq "A" ? "A: no presort, 0% read-only" : \
                 p eq "B" ? "B: no presort, 20% read-only" : \
                 p eq "C" ? "C: presort, 0% read-only" : "D: presort, 20% read-only"
pick(a, p, col) = (strcol(1) eq a && strcol(2) eq p) ? column(col) : NaN

set multiplot layout 2,2 title "Bank: throughput with increasing threads (median of repetitions, bars: min..max)"
do for [p in "A B C D"] {
    if (strstrt(panels, p) == 0) {
        set multiplot next
        continue
    }
    set title panel_title(p)
    plot for [i = 1:words(algos)] csv skip 1 \
             using 5:(pick(word(algos, i), p, 6)):(pick(word(algos, i), p, 7)):(pick(word(algos, i), p, 8)) \
             with yerrorlines linecolor i pointtype 7 pointsize 0.8 title word(algos, i)
}
unset multiplot
