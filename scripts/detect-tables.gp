# Tables 3.2-3.3 (OSDDA) and 4.3-4.4 (LMDDA) of Abell's thesis as a figure,
# from detect-tables.csv: one row of panels per algorithm; left, the median
# time to replay the stream per detector; right, the speedups of the first
# detector and of the GPU ones over cpu, cpu-bits and cpu-serial. Size N (an N x N system)
# on a log x axis.
#
#   gnuplot -e "set loadpath 'scripts/lib'; csv='DIR/detect-tables.csv'; out='DIR/detect-speedup.png'; \
#               $(python3 scripts/lib/detect_tables.py plot-vars DIR/detect-tables.csv)" \
#           scripts/detect-tables.gp
#
# plot-vars gives `algos` (the algorithms in the CSV) and, for each algorithm
# A, variables named A_<what>, the parallel word lists holding its lines:
#   A_title, A_nmin, A_nmax            panel title, range of sizes
#   A_t_impl, A_t_ci                   a time line: detector, colour index
#   A_s_fast, A_s_base, A_s_col, A_s_ci, A_s_bi
#                                      a speedup line: faster and slower
#                                      detector, the CSV column holding it (in
#                                      the faster one's rows), colour index (the
#                                      faster one's) and base index (dash, point)
# CSV columns: 1 algo, 2 procs, 3 res, 4 impl, 5 events, 6 stream_median_s,
# ..., 14 speedup_over_cpu, 15 speedup_over_cpu_bits, 16 speedup_over_cpu_serial. Rows are sorted by algo,
# impl and size, so the points of one line are consecutive rows.

if (!exists("csv")) csv = 'detect-tables.csv'
if (!exists("out")) out = 'detect-speedup.png'
if (!exists("algos")) { print "detect-tables.gp: give the plot-vars of detect_tables.py"; exit status 1 }

if (!exists("about")) about = ''
width = 1600
height = 640 * words(algos) + 80
fontsize = 11
load 'terminal.gp'
set datafile separator ","
set logscale x 2
set format x "%.0f"
set xlabel "N (N processes x N resources)"
set logscale y
set format y "10^{%L}"
set grid xtics ytics mytics
set key below left horizontal Left reverse font ",9" width 2 height 1.5

pick(a, i, col) = (strcol(1) eq a && strcol(4) eq i) ? column(col) : NaN
base_dash(k) = k
base_point(k) = 5 + 2 * k

set multiplot layout words(algos), 2 \
    title "Deadlock detection on one generated event stream per size (Tables 3.2-3.3, 4.3-4.4)". \
          (about ne "" ? "\n".about : "")

do for [k = 1:words(algos)] {
    a = word(algos, k)
    ti = value(a . "_t_impl")
    tc = value(a . "_t_ci")
    sf = value(a . "_s_fast")
    sb = value(a . "_s_base")
    sc = value(a . "_s_col")
    sci = value(a . "_s_ci")
    sbi = value(a . "_s_bi")
    set xrange [value(a . "_nmin") / 1.3 : value(a . "_nmax") * 1.3]

    set title value(a . "_title") . ": median time per stream"
    set ylabel "seconds"
    unset label 1
    unset yrange
    set autoscale y
    plot for [i = 1:words(ti)] csv skip 1 using 2:(pick(a, word(ti, i), 6)) \
             with linespoints linecolor (word(tc, i) + 0) pointtype 7 pointsize 0.9 \
             title word(ti, i)

    set title value(a . "_title") . ": speedup (slower one's median time / faster one's)"
    set ylabel "times faster"
    if (words(sf) == 0) {
        set yrange [0.1:10]
        set label 1 "one detector only: nothing to compare" at graph 0.5, graph 0.6 center
        plot 1 with lines linecolor "gray" dashtype 2 title "same time"
    } else {
        plot for [i = 1:words(sf)] csv skip 1 \
                 using 2:(pick(a, word(sf, i), word(sc, i) + 0)) \
                 with linespoints linecolor (word(sci, i) + 0) \
                 dashtype base_dash(word(sbi, i) + 0) pointtype base_point(word(sbi, i) + 0) \
                 pointsize 0.9 title sprintf("%s over %s", word(sf, i), word(sb, i)), \
             1 with lines linecolor "gray" dashtype 2 title "same time"
    }
}
unset multiplot
