#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the two bench runs: median and spread per configuration, the
patched/pristine ratio, and the data for the plot.

usage: report.py PATCHED.txt PRISTINE.txt RESULTS.md PLOT.dat BOOTS CLOCK
"""
import statistics
import sys


def read(path):
    """Pooled load times per record count, symget ns per pair, and the
    load times of each boot (each begins with the guest's '# kernel')."""
    load, symget, boots = {}, [], []
    for line in open(path):
        f = line.split()
        if f[:2] == ['#', 'kernel']:
            boots.append({})
        elif len(f) == 3 and f[0] == 'load':
            ms = int(f[2]) / 1e6
            load.setdefault(int(f[1]), []).append(ms)
            boots[-1].setdefault(int(f[1]), []).append(ms)
        elif len(f) == 3 and f[0] == 'symget':
            symget.append(int(f[2]) / int(f[1]))
    if not load or not symget:
        sys.exit(f'report: {path}: no figures')
    return load, symget, boots


def summary(xs):
    q = statistics.quantiles(xs, n=4)
    return statistics.median(xs), q[0], q[2], len(xs)


patched, pgets, pboots = read(sys.argv[1])
pristine, xgets, xboots = read(sys.argv[2])
rows, plot = [], []
for records in sorted(patched):
    pm, pq1, pq3, n = summary(patched[records])
    xm, xq1, xq3, _ = summary(pristine[records])
    rows.append(f'| {records:,} | {pm:.3f} ({pq1:.3f}–{pq3:.3f}) | '
                f'{xm:.3f} ({xq1:.3f}–{xq3:.3f}) | {pm / xm:.3f} | {n} |')
    plot.append(f'{records} {pm} {pq1} {pq3} {xm} {xq1} {xq3}')
pg, xg = statistics.median(pgets), statistics.median(xgets)
boots = int(sys.argv[5])
clock = {
    'icount': 'The guest has one vCPU, and its clock is virtual (QEMU '
              '`-icount shift=0`):\none nanosecond per guest instruction, '
              'so the figures count the work the\nkernel did.',
    'wall': 'The guest has one vCPU and times with its TSC at the '
            'host\'s rate\n(`tsc_early_khz=`): wall-clock time under TCG.',
}[sys.argv[6]]
first, last = summary(patched[100])[0], summary(patched[10000])[0]
xfirst, xlast = summary(pristine[100])[0], summary(pristine[10000])[0]
# Boot i of one kernel ran next to boot i of the other: their ratio at
# 1,000 records, boot by boot, shows how far one pair can stray.
pairs = [statistics.median(p[1000]) / statistics.median(x[1000])
         for p, x in zip(pboots, xboots)]

with open(sys.argv[3], 'w') as out:
    out.write(f'''# Benchmark: what allow-lists cost at module load

Written by `make bench` (bench/run.sh). Both kernels are built from the
same configuration, the pristine one without kernel-patch/; both load the
same module files, in QEMU under TCG, so absolute times are slow and only
the ratios mean something. `finit_module()` of bench_imp, which resolves
2,000 symbols of the restricted namespace BENCH_NS, is timed in the guest
around the system call, after 5 warm-up loads; each load is followed by an
unload. Grant records are held by 50 filler modules, loaded at every
record count (0, 2, 20 or 200 records each, over namespaces nobody
exports into). Each kernel was booted {boots} times, alternating with the
other, and the figures of its boots are pooled.
{clock}
Median (interquartile range) in ms.

| grant records | patched | pristine | patched/pristine | loads |
|---|---|---|---|---|
''' + '\n'.join(rows) + f'''

Patched/pristine at 1,000 records, boot pair by boot pair:
{', '.join(f'{r:.3f}' for r in pairs)}.

Growth of the load time from 100 to 10,000 records (the same 50 filler
modules hold them): patched {last / first:.3f}x, pristine {xlast / xfirst:.3f}x.

`symbol_get()`/`symbol_put()` of a restricted symbol, 10,000 pairs,
{len(pgets)} runs: patched {pg:.0f} ns a pair, pristine {xg:.0f} ns a pair (median),
ratio {pg / xg:.3f}.

![load time against grant records](load-time.svg)
''')
open(sys.argv[4], 'w').write('\n'.join(plot) + '\n')
