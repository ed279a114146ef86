# SPDX-License-Identifier: GPL-2.0-or-later
"""lists.txt, the derivation's canonical form: written by "lists", read
back by "check" (the committed and the freshly derived lists) and by
"apply". Only restrict and allow lines decide; the rest says why."""

import os
from dataclasses import dataclass, field

from .common import InputError, read


@dataclass
class Candidate:
    symbol: str
    kind: str          # EXPORT_SYMBOL or EXPORT_SYMBOL_GPL
    path: str
    line: int


@dataclass
class Lists:
    """What lists.txt holds: the decision, and why."""
    data: list = field(default_factory=list)        # header lines
    restrict: dict = field(default_factory=dict)    # ns -> [Candidate]
    allow: dict = field(default_factory=dict)       # ns -> {module: file}
    open: dict = field(default_factory=dict)        # symbol -> users text
    policy: dict = field(default_factory=dict)      # symbol -> (ns, reason)
    unused: list = field(default_factory=list)      # symbols
    broken: dict = field(default_factory=dict)      # symbol -> (ns,
    #                                 out-of-tree users broken on purpose)


LISTS_HEAD = """\
# Derived by conversions/derive.py from conversions/conversions.tsv and the
# data below; do not edit. Regenerate: make -C conversions lists
#   restrict NS KIND FILE SYMBOL   convert FILE's KIND(SYMBOL) into NS
#   allow    NS MODULE FILE        grant NS to MODULE; FILE imports NS
#   open     SYMBOL USERS          kept open: users besides the partners
#   policy   NS SYMBOL REASON      kept open by conversions.tsv
#   unused   SYMBOL                no module uses it: left open
#   broken   NS SYMBOL USERS       restricted although out-of-tree modules
#                                  use it (conversions.tsv: out_of_tree break)
"""


def format_lists(lists, table):
    out = [LISTS_HEAD.rstrip('\n')]
    out += [f'data\t{d}' for d in lists.data]
    for ns in table:
        for c in lists.restrict.get(ns.name, []):
            out.append(f'restrict\t{ns.name}\t{c.kind}\t{c.path}\t{c.symbol}')
        for m, f in sorted(lists.allow.get(ns.name, {}).items()):
            out.append(f'allow\t{ns.name}\t{m}\t{f}')
    for s, users in sorted(lists.open.items()):
        out.append(f'open\t{s}\t{" ".join(sorted(users))}')
    for s, (ns, reason) in sorted(lists.policy.items()):
        out.append(f'policy\t{ns}\t{s}\t{reason}')
    for s in sorted(lists.unused):
        out.append(f'unused\t{s}')
    for s, (ns, users) in sorted(lists.broken.items()):
        out.append(f'broken\t{ns}\t{s}\t{" ".join(sorted(users))}')
    return '\n'.join(out) + '\n'


def parse_lists(path):
    if not os.path.exists(path):
        raise InputError(f'{path}: missing; run make -C conversions lists')
    lists = Lists()
    for n, line in enumerate(read(path).splitlines(), 1):
        if not line or line.startswith('#'):
            continue
        f = line.split('\t')
        if f[0] == 'data':
            lists.data.append('\t'.join(f[1:]))
        elif f[0] == 'restrict' and len(f) == 5:
            lists.restrict.setdefault(f[1], []).append(
                Candidate(f[4], f[2], f[3], 0))
        elif f[0] == 'allow' and len(f) == 4:
            lists.allow.setdefault(f[1], {})[f[2]] = f[3]
        elif f[0] == 'open' and len(f) == 3:
            lists.open[f[1]] = f[2].split()
        elif f[0] == 'policy' and len(f) == 4:
            lists.policy[f[2]] = (f[1], f[3])
        elif f[0] == 'unused' and len(f) == 2:
            lists.unused.append(f[1])
        elif f[0] == 'broken' and len(f) == 4:
            lists.broken[f[2]] = (f[1], f[3].split())
        else:
            raise InputError(f'{path}:{n}: cannot read {line!r}')
    return lists


def decisions(lists):
    """The lines of a lists file that decide something: restrict, allow."""
    return sorted([f'restrict\t{ns}\t{c.kind}\t{c.path}\t{c.symbol}'
                   for ns, cs in lists.restrict.items() for c in cs] +
                  [f'allow\t{ns}\t{m}\t{f}' for ns, a in lists.allow.items()
                   for m, f in a.items()])
