# SPDX-License-Identifier: GPL-2.0-or-later
"""The patches against the lists. check: the series' net effect on the
namespaces' exports, grants and imports, compared with the derivation
(every difference fails, README.md says why). apply: convert a kernel
tree as the lists say, to regenerate the patches: each export to the
namespace's macro, the grants under its switch, the imports. The macro's
definition and the switch's Kconfig entry are the patches' own."""

import os
import re
import sys
from dataclasses import dataclass, field

from .common import InputError, note, read, write
from .lists import decisions, format_lists


P_EXPORT = re.compile(r'^([+-])\s*EXPORT_SYMBOL_NS(_GPL)?\(\s*(\w+)\s*,'
                      r'\s*(\w+)\s*\)\s*;')
# A namespace's own export macro (conversions.tsv: macro), which exports
# into it under the switch and as 6.1 does without.
P_MACRO = re.compile(r'^([+-])\s*(\w+?)(_GPL)?\(\s*(\w+)\s*\)\s*;')
P_IF = re.compile(r'^\+#if IS_ENABLED\(CONFIG_(\w+)\)$')
P_UNIF = re.compile(r'^-#if IS_ENABLED\(CONFIG_(\w+)\)$')
P_ALLOW = re.compile(r'^([+-])MODULE_NAMESPACE_ALLOW\(\s*(\w+)\s*,'
                     r'\s*([\w*]+)\s*\)\s*;')
P_IMPORT = re.compile(r'^([+-])MODULE_IMPORT_NS\(\s*(\w+)\s*\)\s*;')


@dataclass
class PatchState:
    export: dict = field(default_factory=dict)   # sym -> (ns, kind,
    #                                              file, patch)
    allow: dict = field(default_factory=dict)    # (ns, module) -> (file,
    #                                              patch, switch)
    imports: dict = field(default_factory=dict)  # (ns, file) -> patch


def patch_files(patchdir):
    if not os.path.isdir(patchdir):
        raise InputError(f'{patchdir}: no such folder of patches')
    series = os.path.join(patchdir, 'series')
    if os.path.exists(series):
        names = [ln.strip() for ln in read(series).splitlines()
                 if ln.strip() and not ln.startswith('#')]
    else:
        names = sorted(f for f in os.listdir(patchdir)
                       if f.endswith('.patch'))
    if not names:
        raise InputError(f'{patchdir}: no patches')
    return [os.path.join(patchdir, n) for n in names]


def read_patches(patchdir, spaces):
    """The net effect of the series on the namespaces' exports, grants
    and imports: patch by patch in series order, each patch's '-' lines
    before its '+' lines (a line that moves stays)."""
    st = PatchState()
    macros = {ns.macro: name for name, ns in spaces.items() if ns.macro}
    for path in patch_files(patchdir):
        if not os.path.exists(path):
            raise InputError(f'{path}: listed in series, missing')
        name, cur, changes, switch = os.path.basename(path), None, [], None
        for line in read(path).splitlines():
            if line.startswith('+++ '):
                cur = line[4:].split('/', 1)[1] if '/' in line else None
                switch = None
            elif line.startswith('--- ') or not cur or \
                    not cur.endswith('.c'):
                continue
            elif m := P_IF.match(line):
                switch = m.group(1)
            elif m := P_UNIF.match(line):
                # The switch taken away from the grants below it.
                changes.append(('-', None, None, (cur, m.group(1)), None))
            elif line == '+#endif':
                switch = None
            elif m := P_EXPORT.match(line):
                kind = 'EXPORT_SYMBOL_GPL' if m.group(2) else 'EXPORT_SYMBOL'
                changes.append((m.group(1), m.group(4), st.export,
                                m.group(3), (m.group(4), kind, cur, name)))
            elif (m := P_MACRO.match(line)) and m.group(2) in macros:
                ns = macros[m.group(2)]
                kind = 'EXPORT_SYMBOL_GPL' if m.group(3) else 'EXPORT_SYMBOL'
                changes.append((m.group(1), ns, st.export,
                                m.group(4), (ns, kind, cur, name)))
            elif m := P_ALLOW.match(line):
                changes.append((m.group(1), m.group(2), st.allow,
                                (m.group(2), m.group(3)),
                                (cur, name, switch)))
            elif m := P_IMPORT.match(line):
                changes.append((m.group(1), m.group(2), st.imports,
                                (m.group(2), cur), name))
        for sign in '-+':
            for s, ns, table, key, value in changes:
                if table is None and sign == '-':
                    for k, (f, p, sw) in list(st.allow.items()):
                        if (f, sw) == key:
                            st.allow[k] = (f, p, None)
                    continue
                if s != sign or ns not in spaces:
                    continue
                if sign == '+':
                    table[key] = value
                else:
                    table.pop(key, None)
    return st


def compare(lists, table, patchdir):
    """Every difference between the lists and the patches, as lines.
    Every one fails the check; see README.md for why a conversion the
    lists make and the patches miss fails too."""
    spaces = {ns.name: ns for ns in table}
    st = read_patches(patchdir, spaces)
    home = {c.symbol: (ns, c) for ns, cs in lists.restrict.items()
            for c in cs}
    errs = []
    for sym, (ns, kind, path, patch) in sorted(st.export.items()):
        where = f'{patch}: {path}: {sym} restricted to {ns}'
        if sym in home:
            want, c = home[sym]
            if want != ns:
                errs.append(f'{where}, but the lists put it in {want}')
            elif kind != c.kind or path != c.path:
                errs.append(f'{where} as {kind} in {path}; the lists want '
                            f'{c.kind} in {c.path}')
        elif sym in lists.open:
            errs.append(f'{where}, but other modules use it: '
                        f'{" ".join(lists.open[sym])}')
        elif sym in lists.policy:
            errs.append(f'{where}, but conversions.tsv keeps it open: '
                        f'{lists.policy[sym][1]}')
        elif sym in lists.unused:
            errs.append(f'{where}, but no module uses it (left open)')
        else:
            errs.append(f'{where}, but it is no candidate of the lists')
    for ns, cs in sorted(lists.restrict.items()):
        for c in cs:
            if c.symbol not in st.export:
                errs.append(f'{c.symbol}: the lists restrict it to {ns} '
                            f'({c.kind} in {c.path}), the patches leave it '
                            'open')
    for ns in spaces:
        want = lists.allow.get(ns, {})
        have = {m: v for (n, m), v in st.allow.items() if n == ns}
        for m in sorted(set(want) - set(have)):
            errs.append(f'grant missing: MODULE_NAMESPACE_ALLOW({ns}, {m}); '
                        f'{m} uses symbols the lists restrict to {ns}')
        for m in sorted(set(have) - set(want)):
            errs.append(f'{have[m][1]}: {have[m][0]}: '
                        f'MODULE_NAMESPACE_ALLOW({ns}, {m}): the lists grant '
                        f'{ns} to {", ".join(sorted(want)) or "nobody"}')
        for m in sorted(set(have) & set(want)):
            if have[m][0] != spaces[ns].allow_in:
                errs.append(f'{have[m][1]}: MODULE_NAMESPACE_ALLOW({ns}, {m})'
                            f' in {have[m][0]}, want {spaces[ns].allow_in}')
            elif have[m][2] != spaces[ns].config:
                errs.append(f'{have[m][1]}: MODULE_NAMESPACE_ALLOW({ns}, {m})'
                            f' is not under #if IS_ENABLED(CONFIG_'
                            f'{spaces[ns].config}): a kernel without the '
                            'switch would grant it')
        wanti = {f: m for m, f in want.items()}
        havei = {f: p for (n, f), p in st.imports.items() if n == ns}
        for f in sorted(set(wanti) - set(havei)):
            errs.append(f'import missing: MODULE_IMPORT_NS({ns}) in {f} '
                        f'({wanti[f]})')
        for f in sorted(set(havei) - set(wanti)):
            errs.append(f'{havei[f]}: {f}: MODULE_IMPORT_NS({ns}), but the '
                        f'lists grant {ns} to '
                        f'{", ".join(sorted(want)) or "nobody"}')
    return errs


def check(derived, committed, table, patchdir):
    """Exit status 1 when the committed lists or the patches differ from
    the derivation; every difference is printed."""
    want, have = decisions(derived), decisions(committed)
    stale = sorted(set(want) ^ set(have))
    if stale:
        print('derive.py: DRIFT: the committed lists are stale (- committed, '
              '+ derived); run make -C conversions lists:')
        for line in stale:
            print(f'  {"+" if line in want else "-"} {line}')
    elif format_lists(committed, table) != format_lists(derived, table):
        note('the committed lists differ in detail only (users of open '
             'symbols, data versions): make -C conversions lists')
    errs = compare(derived, table, patchdir)
    for e in errs:
        print(f'derive.py: DRIFT: {e}')
    if errs or stale:
        print(f'derive.py: check FAILED: {len(errs)} differences between '
              f'{patchdir} and the derived lists'
              + (f', {len(stale)} between them and the committed lists'
                 if stale else ''))
        return 1
    counts = ', '.join(f'{ns.name} {len(derived.restrict.get(ns.name, []))} '
                       f'for {len(derived.allow.get(ns.name, {}))}'
                       for ns in table)
    print(f'derive.py: check passed: {patchdir} restricts what the lists '
          f'say (symbols for modules: {counts}), with every grant and '
          'import')
    return 0


def insert_allow(text, ns, modules, comment, config):
    """The ALLOW block under the switch, after the last #include of the
    file's first block of includes (the last one at #if depth 0 before
    the first line of code), preceded by a blank line, as the patches
    put it."""
    lines = text.split('\n')
    depth, last, incomment = 0, None, False
    for i, ln in enumerate(lines):
        s = ln.strip()
        if incomment:
            incomment = '*/' not in s
            continue
        if s.startswith('/*'):
            incomment = '*/' not in s
            continue
        if not s or s.startswith('//'):
            continue
        if re.match(r'#\s*if', s):
            depth += 1
        elif re.match(r'#\s*endif', s):
            depth -= 1
        elif re.match(r'#\s*include', s):
            if depth == 0:
                last = i
        elif not s.startswith('#'):
            break
    if last is None:
        raise ValueError('no #include to put the grants after')
    block = ['', f'#if IS_ENABLED(CONFIG_{config})'] + \
        ['/* ' + comment[0]] + [' * ' + c for c in comment[1:]] + [' */'] + \
        [f'MODULE_NAMESPACE_ALLOW({ns}, {m});' for m in modules] + ['#endif']
    if len(comment) == 1:
        block[2:4] = ['/* ' + comment[0] + ' */']
    return '\n'.join(lines[:last + 1] + block + lines[last + 1:])


def insert_import(text, ns):
    """MODULE_IMPORT_NS(ns) after MODULE_LICENSE and the imports that
    already follow it."""
    lines = text.split('\n')
    lic = [i for i, ln in enumerate(lines) if ln.startswith('MODULE_LICENSE(')]
    if len(lic) != 1:
        raise ValueError('want exactly one MODULE_LICENSE line')
    i = lic[0] + 1
    while i < len(lines) and lines[i].startswith('MODULE_IMPORT_NS('):
        i += 1
    return '\n'.join(lines[:i] + [f'MODULE_IMPORT_NS({ns});'] + lines[i:])


def apply(src, lists, table, only):
    spaces = [ns for ns in table if not only or ns.name in only]
    if only and len(spaces) != len(only):
        raise InputError(f'--ns {only}: know {[n.name for n in table]}')
    texts, changed = {}, {}

    def get(path):
        if path in changed:
            return changed[path]
        if path not in texts:
            full = os.path.join(src, path)
            if not os.path.exists(full):
                raise InputError(f'{full}: missing')
            texts[path] = read(full)
        return texts[path]

    errs = []
    for ns in spaces:
        for c in lists.restrict.get(ns.name, []):
            text = get(c.path)
            pat = re.compile(rf'^{c.kind}\({re.escape(c.symbol)}\);$', re.M)
            hits = pat.findall(text)
            if len(hits) != 1:
                errs.append(f'{c.path}: {len(hits)} lines {c.kind}'
                            f'({c.symbol}); want one')
                continue
            new = f'{ns.macro}{c.kind[13:]}({c.symbol});'
            changed[c.path] = pat.sub(new, text)
        grants = sorted(lists.allow.get(ns.name, {}))
        if not grants:
            continue
        text = get(ns.allow_in)
        if re.search(rf'^MODULE_NAMESPACE_ALLOW\({ns.name},', text, re.M):
            errs.append(f'{ns.allow_in}: already grants {ns.name}')
            continue
        try:
            changed[ns.allow_in] = insert_allow(text, ns.name, grants,
                                                ns.comment, ns.config)
        except ValueError as e:
            errs.append(f'{ns.allow_in}: {e}')
        for m, path in sorted(lists.allow[ns.name].items()):
            text = get(path)
            if re.search(rf'^MODULE_IMPORT_NS\({ns.name}\);', text, re.M):
                continue
            try:
                changed[path] = insert_import(text, ns.name)
            except ValueError as e:
                errs.append(f'{path}: {e}')
    if errs:
        for e in errs:
            print(f'derive.py: apply: {e}', file=sys.stderr)
        return 1
    for path, text in changed.items():
        write(os.path.join(src, path), text)
    n = sum(len(lists.restrict.get(ns.name, [])) for ns in spaces)
    note(f'apply: {n} exports converted, {len(changed)} files written')
    return 0
