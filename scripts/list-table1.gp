# Table 1 of Mulder 2015 as a figure, from list-table1.csv: the time to insert
# all nodes into an empty list per implementation, with the paper's three
# columns for comparison; nodes and time on log axes.
#
#   gnuplot -e "set loadpath 'scripts/lib'; csv='DIR/list-table1.csv'; out='DIR/list-table1.png'; \
#               $(python3 scripts/lib/list_table1.py plot-vars DIR/list-table1.csv)" \
#           scripts/list-table1.gp
#
# CSV columns: 1 nodes, 2 impl, 3 insert_median_us, ..., 9 paper_opencl_cpu_us,
# 10 paper_opencl_gpu_us, 11 paper_c_us. Rows are sorted by impl and nodes.

if (!exists("csv")) csv = 'list-table1.csv'
if (!exists("out")) out = 'list-table1.png'
if (!exists("impls")) { print "list-table1.gp: give the plot-vars of list_table1.py"; exit status 1 }

if (!exists("about")) about = ''
width = 1100
height = 780
fontsize = 11
load 'terminal.gp'
set datafile separator ","
set logscale x 2
set logscale y
set xrange [nmin / 1.3 : nmax * 1.3]
set format x "%.0f"
set format y "10^{%L}"
set xlabel "nodes inserted into an empty list"
set ylabel "microseconds"
set grid xtics ytics mytics
# the key under the plot, where no line of any size runs
set key below left horizontal Left reverse font ",9" width 2 height 1
set bmargin 7
set title "Table 1: inserting nodes into an empty list (median)".(about ne "" ? "\n".about : "")

pick(i, col) = strcol(2) eq i ? column(col) : NaN
paper(col) = strcol(2) eq word(impls, 1) && column(col) > 0 ? column(col) : NaN

plot for [i = 1:words(impls)] csv skip 1 using 1:(pick(word(impls, i), 3)) \
         with linespoints linecolor i pointtype 5 + i pointsize 0.8 title word(impls, i), \
     csv skip 1 using 1:(paper(9)) with lines linecolor "gray" dashtype 2 title "paper: OpenCL on the i3 CPU", \
     csv skip 1 using 1:(paper(10)) with lines linecolor "dark-gray" dashtype 3 title "paper: OpenCL on the GeForce 310M", \
     csv skip 1 using 1:(paper(11)) with lines linecolor "black" dashtype 4 title "paper: serial C"
