#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write bench/PROFILE.md from bench/profile.sh's samples.

usage: profile-report.py OUT LOADS REPORT PHASE...

OUT holds, for K in patched and pristine, K.profile.PHASE (samples per
function, from bench/sample-rip.py) and K.txt (the guest's output, with
a 'median PHASE NS ...' line per phase).
"""
import sys

WHAT = {
    'imp0': 'bench_imp, which resolves 2,000 symbols of the restricted '
            'namespace BENCH_NS, beside 50 filler modules that hold no '
            'grant record (the bench\'s first row)',
    'imp1000': 'bench_imp with 1,000 grant records loaded (50 filler '
               'modules, over namespaces nobody exports into)',
    'many1000': 'bench_many1000, which exports 4,000 symbols over 1,000 '
                'namespaces and declares each of them',
}
KERNELS = ('patched', 'pristine')


def section(out, phase):
    prof, total, median = {}, {}, {}
    for k in KERNELS:
        prof[k] = {}
        for line in open(f'{out}/{k}.profile.{phase}'):
            n, name = line.split('\t')
            prof[k][name.strip()] = int(n)
        total[k] = sum(prof[k].values())
        median[k] = next(int(line.split()[2]) for line in open(f'{out}/{k}.txt')
                         if line.startswith(f'median {phase} '))

    def share(k, n):
        return prof[k].get(n, 0) / total[k]

    names = sorted(set(prof['patched']) | set(prof['pristine']),
                   key=lambda n: -max(share('patched', n), share('pristine', n)))
    rows = [f"| {n} | {prof['patched'].get(n, 0)} "
            f"({100 * share('patched', n):.1f}%) | "
            f"{prof['pristine'].get(n, 0)} ({100 * share('pristine', n):.1f}%) |"
            for n in names[:25]]
    return f'''## {phase}: {WHAT[phase]}

Median load: patched {median["patched"] / 1e6:.3f} ms, pristine
{median["pristine"] / 1e6:.3f} ms ({median["patched"] / median["pristine"]:.3f}x).
Samples: patched {total["patched"]:,}, pristine {total["pristine"]:,}.

| function | patched | pristine |
|---|---|---|
''' + '\n'.join(rows) + '\n'


out, loads, report = sys.argv[1], int(sys.argv[2]), sys.argv[3]
phases = sys.argv[4:]
with open(report, 'w') as f:
    f.write(f'''# Profile: module loads, patched against pristine

Written by `make bench-profile` (bench/profile.sh). The guest (one vCPU,
QEMU TCG with `-icount shift=0`) loads and unloads a module {loads:,}
times in each phase below; the host samples the vCPU's instruction
pointer through QEMU's monitor every few milliseconds
(bench/sample-rip.py) and names it from each kernel's System.map.
Samples are shares of host time, which under TCG tracks the guest's
instructions only roughly: read them as where the time goes, not as
exact costs, and a difference of a share point or less as noise. A
function the compiler inlined shows as its caller (the series' inline
memo test, for one, as resolve_symbol). `[user]`
is the loop itself, `[module]` any module's text. Load times are
virtual, one nanosecond an instruction.

bench_imp's load cost 2.0% more than pristine's before kernel-patch 20
(1.2% after the first round's series). Read off the disassembly of the
check's path rather than these samples (too few to resolve a point),
that was about 150 instructions on each of the 2,000 symbols: a
strcmp() of the namespace (a module's export strings are not merged, so
the memo's pointer test missed), the trusted-owner probe of the
signature rule, the livepatch rule, an out-of-line call and the
"module:" prefix test ahead of the imports. Patch 20 keys the memo on
the requester's own import_ns entry and tests it inline: about 20.

''' + '\n'.join(section(out, p) for p in phases))
