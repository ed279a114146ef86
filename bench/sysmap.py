# SPDX-License-Identifier: GPL-2.0
"""A kernel's System.map: which function holds an address.

Shared by bench/sample-rip.py (samples) and bench/count-insns.py (single
steps), which both name guest instruction pointers.
"""
import bisect


class SystemMap:
    def __init__(self, path):
        syms = []
        for line in open(path):
            f = line.split()
            if len(f) >= 3 and f[1] in 'tTwW':
                syms.append((int(f[0], 16), f[2]))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    def function(self, addr, unknown='[unknown]'):
        """The text symbol at or below addr, or unknown below the first."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else unknown
