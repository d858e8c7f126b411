# Tables 5.2-5.4 of Abell's thesis (GPU-PBA, worst case) as a figure, from
# pba-tables.csv: left, the median time to decide one request per
# implementation; right, the speedups of gpu and gpu-thesis over cpu and
# cpu-fast. Processes on a log x axis, one line per resource count and
# implementation (left) or comparison (right).
#
#   gnuplot -e "set loadpath 'scripts/lib'; csv='DIR/pba-tables.csv'; out='DIR/pba-speedup.png'; \
#               $(python3 scripts/lib/pba_tables.py plot-vars DIR/pba-tables.csv)" \
#           scripts/pba-tables.gp
#
# plot-vars names the lines the CSV holds, as parallel word lists:
#   t_impl, t_res, t_ci, t_ri          a time line: implementation, resources,
#                                      colour index, resource index
#   s_fast, s_base, s_col, s_res, s_ci, s_ri
#                                      a speedup line: faster and slower
#                                      implementation, the CSV column that holds
#                                      it (in the slower one's rows), resources,
#                                      colour and resource index
#   pmin, pmax                         the range of process counts
# CSV columns: 1 res, 2 procs, 3 impl, 4 request_median_s, ..., 10 speedup_gpu,
# 11 speedup_gpu_thesis. Rows are sorted by impl, res and procs, so the points
# of one line are consecutive rows.

if (!exists("csv")) csv = 'pba-tables.csv'
if (!exists("out")) out = 'pba-speedup.png'
if (!exists("t_impl")) { print "pba-tables.gp: give the plot-vars of pba_tables.py"; exit status 1 }

if (!exists("about")) about = ''
width = 1600
height = 840
fontsize = 11
load 'terminal.gp'
set datafile separator ","
set logscale x 2
set xrange [pmin / 1.3 : pmax * 1.3]
set format x "%.0f"
set xlabel "processes"
set logscale y
set format y "10^{%L}"
set grid xtics ytics mytics
set key below left horizontal Left reverse font ",9" width 2 height 1.5

pick(r, i, col) = (column(1) == r && strcol(3) eq i) ? column(col) : NaN
res_dash(k) = k
res_point(k) = 5 + 2 * k

set multiplot layout 1,2 title "GPU-PBA, worst case (Tables 5.2-5.4): one request decided". \
    (about ne "" ? "\n".about : "")

set title "median time per request"
set ylabel "seconds"
plot for [i = 1:words(t_impl)] csv skip 1 \
         using 2:(pick(word(t_res, i) + 0, word(t_impl, i), 4)) \
         with linespoints linecolor (word(t_ci, i) + 0) dashtype res_dash(word(t_ri, i) + 0) \
         pointtype res_point(word(t_ri, i) + 0) pointsize 0.9 \
         title sprintf("%s, %s res", word(t_impl, i), word(t_res, i))

set title "speedup (slower one's median time / faster one's)"
set ylabel "times faster"
if (words(s_fast) == 0) {
    set yrange [0.1:10]
    set label 1 "no gpu or gpu-thesis runs in the reports: nothing to compare" \
        at graph 0.5, graph 0.6 center
    plot 1 with lines linecolor "gray" dashtype 2 title "same time"
} else {
    plot for [i = 1:words(s_fast)] csv skip 1 \
             using 2:(pick(word(s_res, i) + 0, word(s_base, i), word(s_col, i) + 0)) \
             with linespoints linecolor (word(s_ci, i) + 0) dashtype res_dash(word(s_ri, i) + 0) \
             pointtype res_point(word(s_ri, i) + 0) pointsize 0.9 \
             title sprintf("%s over %s, %s res", word(s_fast, i), word(s_base, i), word(s_res, i)), \
         1 with lines linecolor "gray" dashtype 2 title "same time"
}
unset multiplot
