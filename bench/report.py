#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the two bench runs: median and spread per configuration, the
patched/pristine ratio, and the data for the plot.

usage: report.py PATCHED.txt PRISTINE.txt RESULTS.md PLOT.dat BOOTS
"""
import statistics
import sys


def read(path):
    load, symget = {}, []
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] == 'load':
            load.setdefault(int(f[1]), []).append(int(f[2]) / 1e6)
        elif len(f) == 3 and f[0] == 'symget':
            symget.append(int(f[2]) / int(f[1]))
    if not load or not symget:
        sys.exit(f'report: {path}: no figures')
    return load, symget


def summary(xs):
    q = statistics.quantiles(xs, n=4)
    return statistics.median(xs), q[0], q[2], len(xs)


patched, pgets = read(sys.argv[1])
pristine, xgets = read(sys.argv[2])
rows, plot = [], []
for records in sorted(patched):
    pm, pq1, pq3, n = summary(patched[records])
    xm, xq1, xq3, _ = summary(pristine[records])
    rows.append(f'| {records:,} | {pm:.3f} ({pq1:.3f}–{pq3:.3f}) | '
                f'{xm:.3f} ({xq1:.3f}–{xq3:.3f}) | {pm / xm:.3f} | {n} |')
    plot.append(f'{records} {pm} {pq1} {pq3} {xm} {xq1} {xq3}')
pg, xg = statistics.median(pgets), statistics.median(xgets)
boots = int(sys.argv[5])
first, last = summary(patched[100])[0], summary(patched[10000])[0]

with open(sys.argv[3], 'w') as out:
    out.write(f'''# Benchmark: what allow-lists cost at module load

Written by `make bench` (bench/run.sh). Both kernels are built from the
same configuration, the pristine one without kernel-patch/; both load the
same module files, in QEMU under TCG, so absolute times are slow and only
the ratios mean something. `finit_module()` of bench_imp, which resolves
2,000 symbols of the restricted namespace BENCH_NS, is timed in the guest
around the system call, after 5 warm-up loads; each load is followed by an
unload. Grant records are loaded in filler modules (200 each, over 500
namespaces nobody exports into). Each kernel was booted {boots} times,
alternating with the other, and the figures of its boots are pooled.
Timed with the guest's TSC (tsc_early_khz= from the host's rate).
Median (interquartile range) in ms.

| grant records | patched | pristine | patched/pristine | loads |
|---|---|---|---|---|
''' + '\n'.join(rows) + f'''

Growth of the patched load time from 100 to 10,000 records:
{last / first:.3f}x.

`symbol_get()`/`symbol_put()` of a restricted symbol, 10,000 pairs,
{len(pgets)} runs: patched {pg:.0f} ns a pair, pristine {xg:.0f} ns a pair (median),
ratio {pg / xg:.3f}.

![load time against grant records](load-time.svg)
''')
open(sys.argv[4], 'w').write('\n'.join(plot) + '\n')
