# SPDX-License-Identifier: GPL-2.0-or-later
"""The rule (SPEC section 8.1): a candidate, an EXPORT_SYMBOL or
EXPORT_SYMBOL_GPL line of a namespace's built-in exporter files, goes
into namespace N when at least one of N's partners uses it and nothing
else does. Users are Debian's modules (debian.py), the source scan's
modular .c files (cscan.py, kbuild.py) and out-of-tree modules
(outoftree.py), these only for a namespace that keeps them."""

import fnmatch
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field

from .common import InputError, note, read
from .cscan import SourceScan
from .debian import debian_tree, undefined
from .kbuild import Kbuild
from .lists import Candidate, Lists


EXPORT = re.compile(r'^\s*(EXPORT_SYMBOL(?:_GPL)?)\(\s*(\w+)\s*\)\s*;', re.M)


def candidates_of(src, kbuild, ns):
    """The exporter files (built-in ones of the globs) and their exports."""
    files, dropped = [], []
    for g in ns.exporter_globs:
        d = os.path.join(src, os.path.dirname(g))
        if not os.path.isdir(d):
            raise InputError(f'{g}: no such directory in {src}')
        for f in sorted(os.listdir(d)):
            p = os.path.normpath(os.path.join(os.path.dirname(g), f))
            if not fnmatch.fnmatch(p, g):
                continue
            (files if kbuild.builtin_only(p) else dropped).append(p)
    if not files:
        raise InputError(f'{ns.name}: no built-in file matches '
                         f'{ns.exporter_globs}')
    cands = []
    for p in files:
        text = read(os.path.join(src, p))
        for m in EXPORT.finditer(text):
            cands.append(Candidate(m.group(2), m.group(1), p,
                                   text.count('\n', 0, m.start()) + 1))
    return files, dropped, cands


def source_version(src):
    mk = read(os.path.join(src, 'Makefile'))
    v = [re.search(rf'^{k} = (\S*)', mk, re.M) for k in
         ('VERSION', 'PATCHLEVEL', 'SUBLEVEL')]
    if not all(v):
        raise InputError(f'{src}: not a kernel source tree')
    return '.'.join(m.group(1) for m in v)


class Data:
    """The data a derivation reads: Debian's tree, Kbuild, the exporters'
    candidates and the source scan."""

    def __init__(self, src, debian, table, oot):
        for p in (src, debian):
            if not os.path.isdir(p):
                raise InputError(f'{p}: no such directory')
        self.src, self.table, self.oot = src, table, oot
        self.debian = debian
        self.version = source_version(src)
        if not self.version.startswith('6.1.'):
            raise InputError(f'{src}: Linux {self.version}, want 6.1.x')
        self.kver, self.pkgver, mods = debian_tree(debian)
        self.nmods = len(mods)
        note(f'Debian {self.kver} ({self.pkgver}): {self.nmods} modules')
        self.deb = undefined(mods)
        self.kbuild = Kbuild(src)
        note(f'source {self.version}: {len(self.kbuild.listings)} .c files '
             f'in Makefiles, {len(self.kbuild.types)} Kconfig symbols')
        for ns in table:
            for m in ns.partners:
                if not self.kbuild.files_of(m):
                    raise InputError(f'{ns.name}: partner {m}: no module '
                                     'of that name in Kbuild')
        self.exporters, self.cands = {}, {}
        for ns in table:
            files, ns.dropped, cs = candidates_of(src, self.kbuild, ns)
            self.exporters[ns.name] = set(files)
            self.cands[ns.name] = {c.symbol: c for c in cs}
        allsyms = set().union(*(c.keys() for c in self.cands.values()))
        self.scan = SourceScan(src, self.kbuild, allsyms)
        note(f'source scan: {len(self.scan.files)} files, '
             f'{len(self.scan.refs)} references, '
             f'{len(self.scan.names) - len(allsyms)} header inlines and '
             f'macros followed, {self.scan.passes} passes, '
             f'{len(self.scan.unparsed)} files whose braces do not balance '
             '(every reference in them counted)')

    def users(self, sym, ns, ignored=None):
        """(partner users, other users) of sym as seen from namespace ns,
        each {module, or file when no module is known: [evidence]}. The
        references that count for neither go to ignored, with the reason."""
        part, other = defaultdict(list), defaultdict(list)
        skip = ignored.append if ignored is not None else (lambda x: None)
        for m in sorted(self.deb.get(sym, ())):
            (part if m in ns.partners else other)[m].append('Debian')
        if ns.out_of_tree == 'keep':
            for m, ev in sorted(self.oot.users.get(sym, {}).items()):
                other[m].append(ev)
        for name, chain in self.scan.closure(sym).items():
            via = '' if len(chain) == 1 else ' via ' + '>'.join(chain[1:])
            for r in self.scan.by_name.get(name, ()):
                ev = f'{r.path}:{r.line}{via}'
                if r.where == 'top':
                    other[r.path].append(ev + ' (header, outside an inline)')
                elif r.where == 'inline':
                    skip(f'{ev}: in {"/".join(r.entity)}, followed')
                elif r.path in self.exporters[ns.name]:
                    skip(f'{ev}: the exporter\'s own file')
                elif r.path not in self.kbuild.listings:
                    if r.path.startswith('tools/'):
                        skip(f'{ev}: tools/, in no Kbuild obj line')
                    else:
                        other[r.path].append(ev + ' (in no Makefile)')
                else:
                    for li in self.kbuild.listings[r.path]:
                        if not li.modular:
                            skip(f'{ev}: built in ({li.makefile})')
                        elif li.module in ns.partners:
                            part[li.module].append(ev)
                        else:
                            other[li.module].append(ev)
        return part, other


@dataclass
class Group:
    """Namespaces that share exporter files (tcp and tcpcong), decided
    together: a symbol fits one of them at most."""
    globs: tuple
    spaces: list
    syms: dict = field(default_factory=dict)      # symbol -> Candidate
    verdict: dict = field(default_factory=dict)   # symbol -> ns name, or
    #                                               policy, open, unused
    why: dict = field(default_factory=dict)       # symbol -> {user: [ev]}

    def partner(self, module):
        return any(module in ns.partners for ns in self.spaces)

    def having(self, verdict):
        return [s for s in self.syms if self.verdict[s] == verdict]


def decide(data, group, out):
    """Each of the group's candidates' verdict, and the users behind it:
    the partners for a restricted one, everyone for one kept open."""
    for s in sorted(group.syms):
        homes, all_users = [], {}
        for ns in group.spaces:
            if s in ns.open:
                out.policy[s] = (ns.name, ns.open[s])
                group.verdict[s] = 'policy'
                break
            part, other = data.users(s, ns)
            all_users[ns.name] = (part, other)
            if part and not other:
                homes.append(ns)
        if group.verdict.get(s) == 'policy':
            continue
        if len(homes) > 1:
            raise InputError(f'{s}: fits {[n.name for n in homes]}: '
                             'partner sets must not overlap')
        if homes:
            group.verdict[s] = homes[0].name
            group.why[s] = all_users[homes[0].name][0]
            continue
        part, other = all_users[group.spaces[0].name]
        everyone = {**part, **other}
        group.verdict[s] = 'open' if everyone else 'unused'
        if everyone:
            group.why[s] = everyone


def derive(data):
    """(the lists, [Group]): for each group of namespaces sharing
    exporter files, each candidate's verdict, the grants and imports."""
    out, groups = Lists(), {}
    out.data = [f'debian\tlinux-image-{data.kver} {data.pkgver}\t'
                f'{data.nmods} modules',
                f'source\tlinux-source-6.1 {data.version}',
                f'out-of-tree\t{data.oot.summary()}']
    for ns in data.table:
        groups.setdefault(tuple(ns.exporter_globs), []).append(ns)
    groups = [Group(g, spaces) for g, spaces in groups.items()]
    for g in groups:
        for ns in g.spaces:
            for s, c in data.cands[ns.name].items():
                g.syms.setdefault(s, c)
        decide(data, g, out)
        for ns in g.spaces:
            rs = sorted((c for c in g.syms.values()
                         if g.verdict[c.symbol] == ns.name),
                        key=lambda c: (c.path, c.line))
            out.restrict[ns.name] = rs
            grants = {m for c in rs for m in g.why[c.symbol]}
            out.allow[ns.name] = {m: import_file(data.src, data.kbuild, m)
                                  for m in sorted(grants)}
            if ns.out_of_tree == 'break':
                for c in rs:
                    users = data.oot.users.get(c.symbol)
                    if users:
                        out.broken[c.symbol] = (ns.name, sorted(users))
        for s in sorted(g.syms):
            if g.verdict[s] == 'unused':
                out.unused.append(s)
            elif g.verdict[s] == 'open':
                others = {m: e for m, e in g.why[s].items()
                          if not g.partner(m)}
                out.open[s] = others or g.why[s]
    return out, groups


def import_file(src, kbuild, module):
    """The file of module that holds MODULE_LICENSE: where its
    MODULE_IMPORT_NS goes."""
    hits = [f for f in kbuild.files_of(module)
            if re.search(r'^MODULE_LICENSE\(', read(os.path.join(src, f)),
                         re.M)]
    if len(hits) != 1:
        raise InputError(f'{module}: want one file with MODULE_LICENSE, '
                         f'found {hits}')
    return hits[0]
