# SPDX-License-Identifier: GPL-2.0
"""Count a guest kernel's instructions one by one, per function (gdb -x).

Run by bench/profile.sh as
    gdb -q -batch -x count-insns.py VMLINUX
with COUNT_SOCK (QEMU's gdbstub, a unix socket), COUNT_MAP (the kernel's
System.map), COUNT_OUT (where to write) and COUNT_WARMUP in the
environment, while the guest runs profile.sh's counted sequence:
bench_exp's load, bench_f0_00 loaded and unloaded COUNT_WARMUP times,
its next load, then symbol_get() of a restricted symbol twice, of an
open and of a plain symbol.

At each counted call's entry (a hardware breakpoint) the return address is
read off the stack, and the vCPU is single-stepped until it gets there;
every step is one instruction, named by the function that holds it.
QEMU's gdbstub steps with interrupts and timers masked, so the count is
the call's own work. Writes "CALL<TAB>FUNCTION<TAB>COUNT" lines.
"""
import os
import sys

import gdb  # pylint: disable=import-error

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sysmap import SystemMap  # noqa: E402 (bench/, found once on the path)

# guarded against a call that never returns to its caller
MAX_STEPS = 2_000_000


SYMBOLS = SystemMap(os.environ['COUNT_MAP'])


def count(label, out):
    ret = int(gdb.parse_and_eval('*(unsigned long *)$rsp'))
    counts = {}
    for _ in range(MAX_STEPS):
        pc = int(gdb.parse_and_eval('$pc'))
        if pc == ret:
            break
        fn = SYMBOLS.function(pc, hex(pc))
        counts[fn] = counts.get(fn, 0) + 1
        gdb.execute('stepi', to_string=True)
    else:
        raise gdb.GdbError(f'{label}: no return after {MAX_STEPS} steps')
    for fn, n in sorted(counts.items(), key=lambda c: -c[1]):
        out.write(f'{label}\t{fn}\t{n}\n')
    out.flush()


def main():
    gdb.execute('set pagination off')
    gdb.execute('target remote ' + os.environ['COUNT_SOCK'])
    with open(os.environ['COUNT_OUT'], 'w') as out:
        gdb.execute('hbreak __x64_sys_finit_module')
        # bench_exp's load and the warm-up loads
        for _ in range(1 + int(os.environ['COUNT_WARMUP'])):
            gdb.execute('continue')
        gdb.execute('continue')
        count('load bench_f0_00', out)
        gdb.execute('delete')
        gdb.execute('hbreak __symbol_get')
        # the restricted symbol twice by one caller: its first call, and
        # one that finds the series' per-CPU memo holding its ruling
        for kind in ('restricted', 'restricted again', 'open', 'none'):
            gdb.execute('continue')
            count(f'symbol_get {kind}', out)
    gdb.execute('delete')
    gdb.execute('detach')


main()
