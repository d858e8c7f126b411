# The output of a figure, in the format plot_draw (scripts/lib/plot.sh) asks
# for: set width and height (pixels of the PNG; the SVG has the same, the PDF
# the same at 96 to the inch) and fontsize (points in the PNG), then
#   load 'terminal.gp'
# fmt: png (default), svg or pdf; out: the file.

if (!exists("fmt")) fmt = 'png'
if (!exists("fontsize")) fontsize = 10
if (fmt eq 'svg') {
    set terminal svg size width,height dynamic enhanced font sprintf('sans,%g', fontsize) background rgb 'white'
} else {
    if (fmt eq 'pdf') {
        set terminal pdfcairo size (width / 96.0),(height / 96.0) enhanced font sprintf('sans,%g', fontsize)
    } else {
        set terminal pngcairo size width,height enhanced font sprintf(',%g', fontsize)
    }
}
set output out
