# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's linux-image-6.1 tree, extracted by userspace/debian-tree.sh
(never installed): its modules, and which of them use which symbol.

Another job (make check of the top level, the audit) may be extracting
the same tree while we start, so an incomplete tree is waited for before
it is refused. A module's name is its modinfo name= (elf.read_module),
the name a grant and the kernel use."""

import gzip
import os
import re
import time
from collections import defaultdict

from . import elf
from .common import InputError, note, read


def complete(base):
    """(module directory, [module path], None) of the newest kernel
    version under base, or (…, problem) while it is incomplete: a kernel
    version is complete when it has modules.builtin.modinfo,
    modules.order and every module modules.order names."""
    kvers = sorted(os.listdir(base)) if os.path.isdir(base) else []
    kvers = [k for k in kvers if os.path.exists(
        os.path.join(base, k, 'modules.builtin.modinfo'))]
    if not kvers:
        return None, [], f'no {base}/*/modules.builtin.modinfo'
    mdir = os.path.join(base, kvers[-1])
    order = os.path.join(mdir, 'modules.order')
    if not os.path.exists(order):
        return mdir, [], f'no {order}'
    order = [ln.split()[0] for ln in read(order).splitlines() if ln.strip()]
    missing = [p for p in order if not os.path.exists(os.path.join(mdir, p))]
    if missing:
        return mdir, order, (f'{len(missing)} modules of modules.order '
                             f'missing, e.g. {missing[0]}')
    return mdir, order, None


def debian_tree(root, wait=300, poll=5):
    """(kernel version, package version, [module path]) of an extracted
    linux-image tree, waiting up to wait seconds for it to be complete."""
    base = os.path.join(root, 'lib', 'modules')
    if not os.path.isdir(root):
        raise InputError(f'{root}: no Debian tree; make -C conversions '
                         'debian-tree (userspace/debian-tree.sh) makes one')
    deadline, said = time.time() + wait, 0
    while True:
        mdir, order, problem = complete(base)
        if not problem:
            break
        if time.time() > deadline:
            raise InputError(f'{root}: incomplete: {problem}')
        if time.time() - said > 60:
            note(f'{root}: {problem}; waiting for its extraction')
            said = time.time()
        time.sleep(poll)
    kver = os.path.basename(mdir)
    if len(order) < 1000:
        raise InputError(f'{mdir}: only {len(order)} modules')
    odd = [p for p in order if not elf.is_module(p)]
    if odd:
        raise InputError(f'{mdir}: {odd[0]}: not a module file')
    return kver, package_version(root, kver), \
        [os.path.join(mdir, p) for p in order]


def package_version(root, kver):
    """The Debian version of the image package, from its changelog."""
    for pkg in (f'linux-image-{kver}-unsigned', f'linux-image-{kver}'):
        log = os.path.join(root, 'usr/share/doc', pkg, 'changelog.Debian.gz')
        if os.path.exists(log):
            with gzip.open(log, 'rt', errors='replace') as f:
                m = re.match(r'\S+ \(([^)]+)\)', f.readline())
                return m.group(1) if m else ''
    return ''


def undefined(paths):
    """{symbol: {module name}} over every module's undefined symbols."""
    users = defaultdict(set)
    for p in paths:
        name, syms = elf.read_module(p)
        for sym in syms:
            users[sym].add(name)
    return users
