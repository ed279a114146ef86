# SPDX-License-Identifier: GPL-2.0-or-later
"""Kconfig and Kbuild: which .c file can be built as which module.

Read from every Makefile and Kbuild file of the tree, erring towards
"modular" wherever a line cannot be read: a symbol kept open by an
unsure answer is as in 6.1 (README.md, "The source scan")."""

import os
import re
from collections import defaultdict
from dataclasses import dataclass

from .common import read


# Trees that hold no kernel code a configuration builds into a module:
# host programs, userspace, documentation. tools/ is special: only its .c
# files that a Kbuild obj line lists count (the selftests' test modules).
SKIP_DIRS = ('Documentation', 'scripts', 'usr', '.git')


def walk(src, want):
    """Relative paths under src whose basename satisfies want()."""
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        if rel == '.':
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for f in files:
            if want(f):
                yield os.path.normpath(os.path.join(rel, f))


def kconfig_types(src):
    """CONFIG name -> 'tristate' or 'bool' (tristate if any definition is)."""
    types = {}
    start = re.compile(r'^\s*(?:menu)?config\s+(\w+)')
    typ = re.compile(r'^\s*(tristate|def_tristate|bool|def_bool)\b')
    other = re.compile(r'^\s*(?:choice|endchoice|menu|endmenu|if|endif|'
                       r'source|comment|mainmenu)\b')
    for path in walk(src, lambda f: f.startswith('Kconfig')):
        cur = None
        for line in read(os.path.join(src, path)).splitlines():
            m = start.match(line)
            if m:
                cur = m.group(1)
                continue
            if other.match(line):
                cur = None
                continue
            m = typ.match(line)
            if cur and m:
                t = 'tristate' if 'tristate' in m.group(1) else 'bool'
                if types.get(cur) != 'tristate':
                    types[cur] = t
    return types


def assignment(line):
    """(variable, value) of a make assignment (=, :=, +=, ?=) whose
    variable may hold $(...) with spaces; None for any other line."""
    depth = 0
    for i, c in enumerate(line):
        depth += {'(': 1, ')': -1}.get(c, 0)
        if depth == 0 and c == '=':
            lhs = line[:i - 1] if i and line[i - 1] in ':+?' else line[:i]
            word = re.sub(r'\$\((?:[^()]|\([^()]*\))*\)', 'X', lhs.strip())
            if not word or re.search(r'[\s:]', word):
                return None
            return lhs.strip(), line[i + 1:].strip()
    return None


COMPOSITE = re.compile(r'^(.+?)-(y|m|objs|\$\(.*\))$')
VARREF = re.compile(r'\$\((\w[\w-]*)\)')
ADDPREFIX = re.compile(r'\$\(addprefix\s+([^,()]+),([^()]*)\)')


@dataclass
class Listing:
    module: str        # the object's name, '-' made '_' (vmlinux: '')
    modular: bool      # can the object be built as a module?
    makefile: str
    config: str = ''   # X of the obj-$(CONFIG_X) line that lists it


class Kbuild:
    """Every .c file that a Makefile or Kbuild file lists, with the
    objects it goes into and whether each can be a module.

    An obj-$(CONFIG_X) object can be a module when X is tristate, or when
    X is not found in Kconfig (unsure: count it). obj-y, lib-y, a bool X
    and $(subst m,y,...) are built in. A composite object's parts share
    its answer. Conditionals (ifeq, ifdef) are ignored: every branch
    counts, which can only add listings."""

    def __init__(self, src):
        self.src = src
        self.types = kconfig_types(src)
        self.listings = defaultdict(list)     # rel .c path -> [Listing]
        for path in walk(src, lambda f: f in ('Makefile', 'Kbuild')):
            self._parse(path)

    def _modular(self, cond):
        if cond == 'y':
            return False
        if cond == 'm':
            return True
        m = re.fullmatch(r'\$\(CONFIG_(\w+)\)', cond)
        if m:
            return self.types.get(m.group(1)) != 'bool'
        if re.fullmatch(r'\$\(subst m,y,\$\(CONFIG_\w+\)\)', cond):
            return False
        return True

    def _parse(self, path):
        text = re.sub(r'\\\n', ' ', read(os.path.join(self.src, path)))
        d = os.path.dirname(path)
        values = defaultdict(list)            # variable -> words
        objs = []                             # (cond, word)
        for line in text.splitlines():
            line = re.sub(r'(?<!\\)#.*', '', line).strip()
            a = assignment(line)
            if not a:
                continue
            lhs, rhs = a
            values[lhs].append(rhs)
            if lhs.startswith('obj-'):
                objs.append((lhs[4:], rhs))
            elif lhs.startswith('lib-'):
                objs.append(('y', rhs))

        def expand(s, depth=0):
            if depth > 8:
                return s
            s = ADDPREFIX.sub(lambda m: ' '.join(
                m.group(1).strip() + w for w in m.group(2).split()), s)
            t = VARREF.sub(lambda m: ' '.join(values[m.group(1)])
                           if m.group(1) in values else m.group(0), s)
            return t if t == s else expand(t, depth + 1)

        parts = defaultdict(list)             # composite -> part words
        for lhs, rhss in values.items():
            m = COMPOSITE.match(expand(lhs))
            if m and m.group(1) not in ('obj', 'lib'):
                for rhs in rhss:
                    parts[m.group(1)] += expand(rhs).split()

        def record(word, module, modular, seen, config):
            name = word[:-2]
            if name in parts and name not in seen:
                for p in parts[name]:
                    if p.endswith('.o'):
                        record(p, module, modular, seen | {name}, config)
                return
            c = os.path.normpath(os.path.join(d, name + '.c'))
            self.listings[c].append(Listing(module, modular, path, config))

        for cond, rhs in objs:
            modular = self._modular(cond)
            m = re.fullmatch(r'\$\(CONFIG_(\w+)\)', cond)
            for word in expand(rhs).split():
                if word.endswith('.o'):
                    module = os.path.basename(word[:-2]).replace('-', '_')
                    record(word, module if modular else '', modular, set(),
                           m.group(1) if m else '')

    def builtin_only(self, path):
        lis = self.listings.get(path)
        return bool(lis) and not any(li.modular for li in lis)

    def config_of(self, module):
        """The Kconfig symbol that builds module (obj-$(CONFIG_X) += it),
        or '' when no single one does."""
        cs = {li.config for lis in self.listings.values() for li in lis
              if li.modular and li.module == module}
        return cs.pop() if len(cs) == 1 else ''

    def files_of(self, module):
        return sorted(p for p, lis in self.listings.items()
                      if any(li.modular and li.module == module
                             for li in lis))
