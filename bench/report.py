#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the bench runs of two kernels, A and B: median and spread per
configuration, the A/B ratio, and the data for the plot.

usage: report.py A.txt B.txt RESULTS.md PLOT.dat BOOTS CLOCK A_NAME B_NAME SVG

A and B are the series against pristine 6.1 (make bench), or the series
against the series with its per-load memo switched off (make bench-memo).
"""
import statistics
import sys


def read(path):
    """Pooled load times per record count, symget ns per pair by kind, load
    times of the many-namespace modules, a small module's load times alone
    and beside bench_many1000, and the load times of each boot (each
    begins with the guest's '# kernel')."""
    load, symget, many, beside, boots = {}, {}, {}, {}, []
    unload = {}
    for line in open(path):
        f = line.split()
        if f[:2] == ['#', 'kernel']:
            boots.append({})
        elif len(f) == 4 and f[0] == 'load':
            ms = int(f[2]) / 1e6
            load.setdefault(int(f[1]), []).append(ms)
            boots[-1].setdefault(int(f[1]), []).append(ms)
            if int(f[1]) == 0:
                unload.setdefault('bench_imp', []).append(int(f[3]) / 1e6)
        elif len(f) == 4 and f[0] == 'symget':
            symget.setdefault(f[1], []).append(int(f[3]) / int(f[2]))
        elif len(f) == 4 and f[0] == 'many':
            many.setdefault(f[1], []).append(int(f[2]) / 1e6)
        elif len(f) == 4 and f[0] == 'beside':
            beside.setdefault(f[1], []).append(int(f[2]) / 1e6)
            if f[1] == 'idle':
                unload.setdefault('bench_f0_00', []).append(int(f[3]) / 1e6)
    if not load or not symget or not many or len(beside) != 2 \
            or len(unload) != 2:
        sys.exit(f'report: {path}: no figures')
    return load, symget, many, beside, unload, boots


def summary(xs):
    q = statistics.quantiles(xs, n=4)
    return statistics.median(xs), q[0], q[2], len(xs)


def tail(xs):
    """Median, 90th percentile and maximum: a stall shows in the last two."""
    return (statistics.median(xs), statistics.quantiles(xs, n=10)[8],
            max(xs))


def cell(xs):
    m, q1, q3, _ = summary(xs)
    return f'{m:.3f} ({q1:.3f}–{q3:.3f})'


a_path, b_path, results, plotfile, boots, clock, an, bn, svg = sys.argv[1:10]
a, agets, amany, abeside, aunload, aboots = read(a_path)
b, bgets, bmany, bbeside, bunload, bboots = read(b_path)
rows, plot = [], []
for records in sorted(a):
    am, aq1, aq3, n = summary(a[records])
    bm, bq1, bq3, _ = summary(b[records])
    rows.append(f'| {records:,} | {cell(a[records])} | {cell(b[records])} | '
                f'{am / bm:.3f} | {n} |')
    plot.append(f'{records} {am} {aq1} {aq3} {bm} {bq1} {bq3}')
many_rows = [f'| {m} | {cell(amany[m])} | {cell(bmany[m])} | '
             f'{summary(amany[m])[0] / summary(bmany[m])[0]:.3f} | '
             f'{len(amany[m])} |' for m in sorted(amany)]
beside_rows = []
for what in ('idle', 'bench_many1000'):
    am, a90, amax = tail(abeside[what])
    bm, b90, bmax = tail(bbeside[what])
    label = 'alone' if what == 'idle' else f'beside {what}'
    beside_rows.append(f'| {label} | {am:.3f} / {a90:.3f} / {amax:.3f} | '
                       f'{bm:.3f} / {b90:.3f} / {bmax:.3f} | '
                       f'{am / bm:.3f} / {a90 / b90:.3f} | '
                       f'{len(abeside[what])} |')
unload_rows = [f'| {m} | {cell(aunload[m])} | {cell(bunload[m])} | '
               f'{summary(aunload[m])[0] / summary(bunload[m])[0]:.3f} | '
               f'{len(aunload[m])} |' for m in ('bench_f0_00', 'bench_imp')]
get_rows = []
for kind in ('restricted', 'open', 'none'):
    ag, bg = statistics.median(agets[kind]), statistics.median(bgets[kind])
    get_rows.append(f'| {kind} | {ag:.0f} | {bg:.0f} | {ag / bg:.3f} | '
                    f'{len(agets[kind])} |')
clock = {
    'icount': 'The guest has one vCPU, and its clock is virtual (QEMU '
              '`-icount shift=0`):\none nanosecond per guest instruction, '
              'so the figures count the work the\nkernel did.',
    'wall': 'The guest has one vCPU and times with its TSC at the '
            'host\'s rate\n(`tsc_early_khz=`): wall-clock time under TCG.',
}[clock]
first, last = summary(a[100])[0], summary(a[10000])[0]
bfirst, blast = summary(b[100])[0], summary(b[10000])[0]
# Boot i of one kernel ran next to boot i of the other: their ratio at
# 1,000 records, boot by boot, shows how far one pair can stray.
pairs = [statistics.median(p[1000]) / statistics.median(x[1000])
         for p, x in zip(aboots, bboots)]

with open(results, 'w') as out:
    out.write(f'''# Benchmark: {an} against {bn}

Written by `make {"bench" if bn == "pristine" else "bench-memo"}` (bench/run.sh). Both kernels are built from the
same configuration ({an}: the series; {bn}: {"6.1 without kernel-patch/" if bn == "pristine" else "the series with bench/no-memo.patch, which passes no memo to the check"}); both load the
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

| grant records | {an} | {bn} | {an}/{bn} | loads |
|---|---|---|---|---|
''' + '\n'.join(rows) + f'''

{an}/{bn} at 1,000 records, boot pair by boot pair:
{', '.join(f'{r:.3f}' for r in pairs)}.

Growth of the load time from 100 to 10,000 records (the same 50 filler
modules hold them): {an} {last / first:.3f}x, {bn} {blast / bfirst:.3f}x.

Loading a module that exports 4,000 symbols over 10 or 1,000 namespaces
and declares each of them (the series marks which declared namespaces it
exports into, before module_mutex), in ms:

| module | {an} | {bn} | {an}/{bn} | loads |
|---|---|---|---|---|
''' + '\n'.join(many_rows) + f'''

A small module's load (bench_f0_00: no export, no record), alone and
while bench_many1000 loads and unloads in a loop beside it. The guest
has one CPU and its kernel no preemption (PREEMPT_NONE): the small load
waits for whatever the big one does in the kernel until it sleeps or
yields, under module_mutex or not, and the longest such stretch makes
the tail. Median / 90th percentile / maximum, in ms. What the series
itself adds to this load is some 470 instructions, 0.4% (its one pass
over .modinfo, its section scan, its publication: bench/PROFILE.md counts
them one by one); a difference beyond that is the allocator's, whose free
lists differ from kernel to kernel and from boot to boot:

| bench_f0_00 | {an} | {bn} | {an}/{bn} at median / p90 | loads |
|---|---|---|---|---|
''' + '\n'.join(beside_rows) + f'''

`delete_module()` right after each load of the small module alone
(bench_f0_00: no namespaced import or export, no record) and of
bench_imp at 0 records (no record: an object that published nothing
costs the index two short bucket walks and a bump of its generation):
the unloading thread's CPU time, in ms, which SLOB's frees move by more
than that either way. Its wall time is mostly waits for RCU grace
periods, which end on 4 ms timer ticks, so that the tick's phase, not
the work, would decide it:

| module | {an} | {bn} | {an}/{bn} | unloads |
|---|---|---|---|---|
''' + '\n'.join(unload_rows) + f'''

`symbol_get()`/`symbol_put()`, 10,000 pairs a run, of a symbol of a
restricted namespace, of an open one and of one in no namespace, median
ns a pair:

| symbol | {an} | {bn} | {an}/{bn} | runs |
|---|---|---|---|---|
''' + '\n'.join(get_rows) + f'''

![load time against grant records]({svg})
''')
open(plotfile, 'w').write('\n'.join(plot) + '\n')
