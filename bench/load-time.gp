# SPDX-License-Identifier: GPL-2.0
# Load time of bench_imp against grant records, both kernels.
# gnuplot -e "datafile='...'; outfile='...'; clock='icount|wall'; aname='...'; bname='...'" load-time.gp
set terminal svg size 720,440 dynamic noenhanced
set output outfile
set title "finit_module() of a 2,000-symbol importer (QEMU TCG)"
set xlabel "grant records loaded"
set ylabel (clock eq "icount" ? \
	"ms of virtual time, 1 ns = 1 instruction (median, IQR)" : \
	"ms (median, interquartile range)")
set logscale x
set xrange [50:20000]
set yrange [0:*]
set key bottom right
set grid
plot datafile using 1:2:3:4 with yerrorlines title aname, \
     datafile using 1:5:6:7 with yerrorlines title bname
