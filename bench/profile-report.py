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


CALLS = {
    'load bench_f0_00': 'finit_module() of bench_f0_00 (no namespaced '
                        'import or export, no record), after five loads '
                        'and unloads of it',
    'symbol_get restricted': '__symbol_get() of bench_fn_0, in BENCH_NS, '
                             'which bench_exp restricts and lets the '
                             'caller use: the caller\'s first call',
    'symbol_get restricted again': 'the same caller\'s next __symbol_get() '
                                   'of bench_fn_0: the series\' per-CPU '
                                   'memo holds its ruling (a loop\'s '
                                   'every call but its first, as in '
                                   'make bench)',
    'symbol_get open': '__symbol_get() of bench_open_fn, in BENCH_OPEN, '
                       'which nobody restricts',
    'symbol_get none': '__symbol_get() of bench_plain_fn, in no namespace',
}


def read_counts(path):
    counts = {}
    for line in open(path):
        call, fn, n = line.rstrip('\n').split('\t')
        counts.setdefault(call, {})[fn] = int(n)
    return counts


def counted(out):
    counts = {k: read_counts(f'{out}/{k}.count') for k in KERNELS}
    parts = []
    for call, what in CALLS.items():
        a, b = counts['patched'][call], counts['pristine'][call]
        ta, tb = sum(a.values()), sum(b.values())
        diff = sorted(((a.get(f, 0) - b.get(f, 0), f) for f in set(a) | set(b)),
                      key=lambda d: (-abs(d[0]), d[1]))
        diff = [d for d in diff if d[0]]
        own = sum(a.get(f, 0) for f in a if 'ns_allow' in f)
        rows = [f'| {f}{" (series)" if "ns_allow" in f else ""} | '
                f'{a.get(f, 0):,} | {b.get(f, 0):,} | {d:+,} |'
                for d, f in diff[:25]]
        more = f' ({len(diff) - 25} more functions differ)' if len(diff) > 25 else ''
        parts.append(f'''### {call}: {what}

patched {ta:,}, pristine {tb:,} instructions ({ta - tb:+,}; {ta / tb:.3f}x);
in the series' own functions (names with ns_allow): {own:,}. The
functions whose counts differ{more}:

| function | patched | pristine | difference |
|---|---|---|---|
''' + '\n'.join(rows) + '\n')
    return '''## Instruction by instruction

On another boot of each kernel, gdb single-steps the guest through
QEMU's gdbstub (bench/count-insns.py) from a call's entry to its return,
with interrupts and timers masked, and names each instruction's function
from System.map: an exact count of the call's own work. The load's count
also carries what depends on where its memory falls, which differs from
kernel to kernel and from boot to boot: SLOB's walk of its free lists
(slob_*) and the page-attribute changes that make the module's text
read-only (__change_page_attr_set_clr, pfn_pte, massage_pgprot and the
like) move by thousands of instructions either way, and the compiler
may inline a helper on one kernel and not on the other (strstarts(),
for one). Read the series' own cost off its functions.

''' + '\n'.join(parts)


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

Patch 21 took out what was left where no check needs it. bench_many1000
had marked each of its 4,000 exports with a binary search of its 1,000
namespaces by string compare, compared its modinfo with its records by
sorting the allow_ns= values and searching each, sorted its 1,000
records with a comparison that walked their shared 18-byte prefix
(ns_allow_sort_cmp, sort_r) and allocated a set for each namespace: its
sets are now indexed by hash in one allocation, its records checked in
one pass and grouped by a hash of their namespace, its exports marked
until every set is, and modinfo compared with the records one for one,
by length, in the one pass over .modinfo that every load now makes, a
word at a time. A symbol_get() loop's calls after its first find their
ruling in a per-CPU memo that every unload invalidates. The exact
counts at the end show what a small load and symbol_get() cost.

''' + '\n'.join(section(out, p) for p in phases) + '\n' + counted(out))
