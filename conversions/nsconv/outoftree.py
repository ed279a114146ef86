# SPDX-License-Identifier: GPL-2.0-or-later
"""Out-of-tree users, the third source: Debian 12's DKMS packages built
against Debian's headers (dkms-users.tsv, written by dkms-users.sh) and
the committed list of other known modules (out-of-tree.tsv). Whether
they keep a symbol open is the namespace's choice (conversions.tsv:
out_of_tree keep or break)."""

import os
from collections import defaultdict
from dataclasses import dataclass, field

from .common import InputError, read


@dataclass
class OutOfTree:
    users: dict = field(default_factory=lambda: defaultdict(dict))
    #                         symbol -> {module: evidence}
    packages: int = 0         # DKMS packages tried
    built: int = 0
    modules: int = 0          # modules the built packages made
    failed: list = field(default_factory=list)    # (package, why)
    known: int = 0            # modules of out-of-tree.tsv

    def summary(self):
        return (f'{self.packages} DKMS packages, {self.built} of them '
                f'built into {self.modules} modules, {len(self.failed)} '
                f'failing; {self.known} other known modules')


def rows(path, ncols):
    if not os.path.exists(path):
        raise InputError(f'{path}: missing (conversions/README.md says '
                         'how it is made)')
    for n, line in enumerate(read(path).splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split('\t')
        if len(f) != ncols:
            raise InputError(f'{path}:{n}: want {ncols} tab-separated '
                             f'columns, got {len(f)}')
        yield f


def load(dkms_path, known_path):
    oot = OutOfTree()
    pkgs, built, mods = set(), set(), set()
    for pkg, ver, mod, sym in rows(dkms_path, 4):
        pkgs.add(pkg)
        if mod == '-':
            if not sym.startswith('failed: '):
                raise InputError(f'{dkms_path}: {pkg}: a row without a '
                                 'module must say why it failed')
            oot.failed.append((pkg, sym[len('failed: '):]))
            continue
        built.add(pkg)
        mods.add((pkg, mod))
        if sym != '-':
            oot.users[sym][mod] = f'DKMS {pkg} {ver}'
    oot.packages, oot.built, oot.modules = len(pkgs), len(built), len(mods)
    for mod, repo, commit, path, syms in rows(known_path, 5):
        oot.known += 1
        for s in syms.split():
            oot.users[s][mod] = f'{repo} {path} @{commit[:12]}'
    return oot
