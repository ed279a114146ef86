#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Derive the tcp, tcpcong and udp conversions from data, and hold the
patches to them (SPEC section 8.1).

  derive.py lists --src DIR --debian DIR [--out F]   derive from the data;
                      write lists.txt, report.txt and messages/
  derive.py check --src DIR --debian DIR PATCHDIR    derive, then compare
                      the committed lists and the patches with the result
  derive.py check --derived F PATCHDIR               the same against lists
                      that "lists --out F" derived (no data needed)
  derive.py explain --src DIR --debian DIR SYMBOL... every reference to
                      SYMBOL and what it counted for
  derive.py apply [--ns NS]... SRC                   convert a kernel tree as
                      lists.txt says (to regenerate the patches)

The rule: a candidate (an EXPORT_SYMBOL or EXPORT_SYMBOL_GPL of the
namespace's exporter files, conversions.tsv) is restricted to namespace N
when at least one of N's partners uses it and nothing else does. Users:

  - Debian: every .ko of Debian's linux-image-6.1 tree with the symbol
    undefined (nm -u);
  - source: a reference in a .c file of the pristine 6.1 tree that Kbuild
    can build as a module, directly or through a header's inline function
    or macro (followed transitively), outside the exporter's own files.

See README.md for the scan's rules and what each one errs towards.
Exit status: 0 fine, 1 drift (check) or a failed apply, 2 bad input.
"""

import argparse
import bisect
import fnmatch
import gzip
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, 'conversions.tsv')
LISTS = os.path.join(HERE, 'lists.txt')
REPORT = os.path.join(HERE, 'report.txt')
MESSAGES = os.path.join(HERE, 'messages')


class InputError(Exception):
    """An input is missing or unreadable: exit 2, never a silent pass."""


def die(msg, status=2):
    print(f'derive.py: ERROR: {msg}', file=sys.stderr)
    sys.exit(status)


def note(msg):
    print(f'derive.py: {msg}', file=sys.stderr)


def read(path):
    """A file's text; bytes that are not UTF-8 survive a write() back."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        return f.read()


def write(path, text):
    with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(text)


# --------------------------------------------------------------------------
# The definitions table
# --------------------------------------------------------------------------

@dataclass
class Namespace:
    name: str
    exporter_globs: list = field(default_factory=list)
    partners: list = field(default_factory=list)
    open: dict = field(default_factory=dict)      # symbol -> reason
    allow_in: str = ''
    comment: list = field(default_factory=list)
    dropped: list = field(default_factory=list)   # derived: glob modules


def load_table(path=TABLE):
    """conversions.tsv -> [Namespace] in the series' order."""
    spaces, order = {}, []
    for n, line in enumerate(read(path).splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        cols = line.split('\t')
        if len(cols) < 3:
            raise InputError(f'{path}:{n}: want NAMESPACE, KEY, VALUE')
        name, key, value = cols[0], cols[1], cols[2]
        if key == 'order':
            order = value.split()
            continue
        ns = spaces.setdefault(name, Namespace(name))
        if key == 'exporter':
            ns.exporter_globs.append(value)
        elif key == 'partner':
            ns.partners.append(value)
        elif key == 'open':
            ns.open[value] = cols[3] if len(cols) > 3 else ''
        elif key == 'allow_in':
            ns.allow_in = value
        elif key == 'comment':
            ns.comment.append(value)
        else:
            raise InputError(f'{path}:{n}: unknown key {key}')
    if sorted(order) != sorted(spaces):
        raise InputError(f'{path}: order {order} does not name every '
                         f'namespace {sorted(spaces)}')
    for ns in spaces.values():
        if not (ns.exporter_globs and ns.partners and ns.allow_in):
            raise InputError(f'{path}: {ns.name} needs exporter, partner '
                             'and allow_in lines')
    return [spaces[n] for n in order]


# --------------------------------------------------------------------------
# Kconfig and Kbuild: which .c file can be built as which module
# --------------------------------------------------------------------------

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

        def record(word, module, modular, seen):
            name = word[:-2]
            if name in parts and name not in seen:
                for p in parts[name]:
                    if p.endswith('.o'):
                        record(p, module, modular, seen | {name})
                return
            c = os.path.normpath(os.path.join(d, name + '.c'))
            self.listings[c].append(Listing(module, modular, path))

        for cond, rhs in objs:
            modular = self._modular(cond)
            for word in expand(rhs).split():
                if word.endswith('.o'):
                    module = os.path.basename(word[:-2]).replace('-', '_')
                    record(word, module if modular else '', modular, set())

    def builtin_only(self, path):
        lis = self.listings.get(path)
        return bool(lis) and not any(li.modular for li in lis)

    def files_of(self, module):
        return sorted(p for p, lis in self.listings.items()
                      if any(li.modular and li.module == module
                             for li in lis))


# --------------------------------------------------------------------------
# The C scan: where a file refers to a name, and what kind of reference
# --------------------------------------------------------------------------

LITERAL = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'
                     r"'(?:\\.|[^'\\\n])*'", re.S)
DIRECTIVE = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.M)
DEFINE = re.compile(r'[ \t]*#[ \t]*define[ \t]+(\w+)')
IDENT = re.compile(r'[A-Za-z_]\w*')
# Top-level statements that only declare what they name.
DECLARE_MACROS = re.compile(
    r'(?:extern|DECLARE_STATIC_KEY_(?:FALSE|TRUE)|DECLARE_PER_CPU\w*|'
    r'INDIRECT_CALLABLE_DECLARE|DECLARE_STATIC_CALL)\b')
TYPE_DEF = re.compile(r'(?:(?:typedef|static|const|extern)\s+)*'
                      r'(?:struct|union|enum)\b[^()=]*$')


def blank(s):
    return re.sub(r'[^\n]', ' ', s)


def clean(text, names):
    """Comments and literals blanked (same length, lines kept). A string
    literal that is exactly one of names ("tcp_prot", as __symbol_get
    takes it) stays, unquoted: it names the symbol."""
    def sub(m):
        s = m.group(0)
        if s.startswith('"') and s[1:-1] in names:
            return ' ' + s[1:-1] + ' '
        if s.startswith(('"', "'")):
            return s[0] + blank(s[1:-1]) + s[-1]
        return blank(s)
    return LITERAL.sub(sub, text)


def matching(code, i, open_='{', close='}'):
    """Index of the bracket closing the one at i, or -1."""
    depth = 0
    for m in re.compile(re.escape(open_) + '|' + re.escape(close)).finditer(
            code, i):
        depth += 1 if m.group(0) == open_ else -1
        if depth == 0:
            return m.start()
    return -1


def top_paren_names(header):
    """Identifiers directly before a '(' at parenthesis depth 0: a function
    header's name (and, conservatively, any attribute macro's)."""
    names, depth = [], 0
    for m in re.finditer(r'[()]|[A-Za-z_]\w*(?=\s*\()', header):
        t = m.group(0)
        if t == '(':
            depth += 1
        elif t == ')':
            depth -= 1
        elif depth == 0:
            names.append(t)
    return names


@dataclass
class Item:
    kind: str          # 'func' or 'stmt'
    start: int
    end: int
    names: list = field(default_factory=list)   # func: its name(s)
    params: list = field(default_factory=list)  # func: its parameters
    body: int = 0      # func: where its body starts
    static: bool = False   # func: declared static (else every includer
                           # of a header compiles it, called or not)


def flatten(s):
    """s with every parenthesised group removed."""
    while True:
        t = re.sub(r'\([^()]*\)', '', s)
        if t == s:
            return s
        s = t


def params_of(header):
    """The parameter names of a function header (the last identifier of
    each parameter of its last top-level parenthesis group)."""
    close = header.rstrip().rfind(')')
    depth, i = 0, close
    while i >= 0:
        depth += {')': 1, '(': -1}.get(header[i], 0)
        if depth == 0:
            break
        i -= 1
    names = []
    for p in flatten(header[i + 1:close]).split(','):
        ids = IDENT.findall(re.sub(r'\[[^]]*\]', '', p))
        if len(ids) > 1:
            names.append(ids[-1])
    return names


def items(code):
    """Split code (directives blanked) into top-level items, sorted and
    disjoint, and the struct/union/enum bodies among them; None when the
    braces do not balance (#if branches with a brace each)."""
    out, types, start, i, paren = [], [], 0, 0, 0
    punct = re.compile(r'[{}();]')
    while True:
        m = punct.search(code, i)
        if not m:
            return out, types
        c, i = m.group(0), m.end()
        if c == '(':
            paren += 1
        elif c == ')':
            paren -= 1
        elif c == ';' and paren == 0:
            out.append(Item('stmt', start, i))
            start = i
        elif c == '}' and paren == 0:
            return None
        elif c == '{' and paren == 0:
            header = code[start:m.start()]
            end = matching(code, m.start())
            if end < 0:
                return None
            i = end + 1
            if '=' in flatten(header):
                continue                      # an initializer: the statement
            if TYPE_DEF.match(header.strip()):  # goes on to its ';'
                types.append((m.start(), end + 1))
                continue
            if header.rstrip().endswith(')'):
                out.append(Item('func', start, end + 1,
                                top_paren_names(header), params_of(header),
                                m.start(),
                                re.search(r'\bstatic\b', header) is not None))
                start = i
            # anything else: part of a statement that ends at its ';'


def is_declaration(stmt, off, name):
    """Is the reference at stmt[off:] to name only part of a declaration:
    an extern, a DECLARE_*, or a function prototype naming it?"""
    s = stmt.lstrip()
    if DECLARE_MACROS.match(s):
        return True
    before, after = stmt[:off], stmt[off + len(name):]
    if '=' in stmt or not after.lstrip().startswith('('):
        return False
    if not re.fullmatch(r'[\w\s*]*', re.sub(r'\w+\s*\([^()]*\)', '', before)):
        return False
    close = matching(after, after.index('('), '(', ')')
    rest = after[close + 1:] if close >= 0 else ';'
    rest = re.sub(r'\w+\s*\((?:[^()]|\([^()]*\))*\)', '', rest)
    return bool(re.fullmatch(r'[\w\s]*;\s*', rest))


def file_statics(text, code, its):
    """Names that a .c file defines or declares static at file scope,
    outside any #if block."""
    depth, marks = 0, []
    for m in DIRECTIVE.finditer(text):
        d = re.match(r'\s*#\s*(if|ifdef|ifndef|endif)\b', m.group(0))
        if d:
            depth += -1 if d.group(1) == 'endif' else 1
            marks.append((m.start(), depth))
    names = set()
    for it in its:
        k = bisect.bisect_right(marks, (it.start, 1 << 30)) - 1
        if k >= 0 and marks[k][1] != 0:
            continue
        head = code[it.start:it.body if it.kind == 'func' else it.end]
        if not re.match(r'\s*static\b', head):
            continue
        if it.kind == 'func':
            names.update(it.names)
        else:
            d = re.search(r'([A-Za-z_]\w*)\s*[\[=;,(]', flatten(head))
            if d:
                names.add(d.group(1))
    return names


@dataclass
class Ref:
    path: str
    line: int
    name: str          # the name referred to
    where: str         # 'use', or for a header: 'inline' / 'top'
    entity: list       # 'inline': the function or macro names it sits in


def scan_file(src, path, names):
    """Every non-declaration reference to one of names in a .c or .h file.
    In a .c file each is a 'use'. In a header a reference inside a
    function body or a macro is 'inline' (whoever uses that function or
    macro uses the name); anywhere else, or when the file cannot be
    parsed, 'top': counted as a user, since we cannot say who includes
    what."""
    text = clean(read(os.path.join(src, path)), names)
    header = path.endswith('.h')
    refs = []
    line_starts = [0] + [m.end() for m in re.finditer('\n', text)]

    def line_of(pos):
        return bisect.bisect_right(line_starts, pos)

    def member_or_tag(code, pos):
        before = code[max(0, pos - 64):pos].rstrip()
        return before.endswith(('.', '->')) or \
            re.search(r'\b(?:struct|union|enum)$', before) is not None

    # Macros: each #define's body belongs to its name. Then every
    # directive is blanked out of the code.
    for m in DIRECTIVE.finditer(text):
        d = DEFINE.match(m.group(0))
        if d:
            body_start = m.start() + d.end()
            for r in IDENT.finditer(text, body_start, m.end()):
                if r.group(0) in names and not member_or_tag(text, r.start()):
                    refs.append(Ref(path, line_of(r.start()), r.group(0),
                                    'inline' if header else 'use',
                                    [d.group(1)]))
    code = DIRECTIVE.sub(lambda m: blank(m.group(0)), text)

    parsed = items(code)
    its, types = parsed if parsed is not None else ([], [])
    starts = [it.start for it in its]
    # A .c file's own file-scope static of the same name hides the global
    # in the whole file; only trusted outside #if blocks (another branch
    # could use the global instead).
    hidden = set() if header else file_statics(text, code, its)
    for r in IDENT.finditer(code):
        name = r.group(0)
        if name not in names or name in hidden or \
                member_or_tag(code, r.start()):
            continue
        pos, line = r.start(), line_of(r.start())
        if parsed is None:
            refs.append(Ref(path, line, name, 'top' if header else 'use', []))
            continue
        if any(a <= pos < b for a, b in types):
            continue                          # a member's or enum's name
        k = bisect.bisect_right(starts, pos) - 1
        it = its[k] if k >= 0 and pos < its[k].end else None
        if it is None:
            # After the last item: a statement without its ';'.
            refs.append(Ref(path, line, name, 'top' if header else 'use', []))
        elif it.kind == 'func':
            # The function's header names it and its parameters; in its
            # body a parameter of the same name hides the global.
            if pos < it.body or name in it.params:
                continue
            if header:
                entity = it.names
                conservative = not it.static or not entity or \
                    all(n.isupper() for n in entity)
                refs.append(Ref(path, line, name,
                                'top' if conservative else 'inline', entity))
            else:
                refs.append(Ref(path, line, name, 'use', []))
        else:
            stmt = code[it.start:it.end]
            if is_declaration(stmt, pos - it.start, name):
                continue
            refs.append(Ref(path, line, name, 'top' if header else 'use', []))
    return refs, parsed is not None


def grep_files(src, names):
    """Files (.c and .h) with one of names as a word: a quick filter."""
    if not names:
        return set()
    words = '\n'.join(sorted(names)) + '\n'
    args = ['grep', '-rlwF', '--include=*.c', '--include=*.h', '-f', '-']
    args += sorted(d for d in os.listdir(src) if d not in SKIP_DIRS)
    p = subprocess.run(args, cwd=src, input=words, capture_output=True,
                       text=True)
    if p.returncode not in (0, 1):
        raise InputError(f'grep in {src}: {p.stderr.strip()}')
    return {os.path.normpath(f) for f in p.stdout.split()}


class SourceScan:
    """References to the candidates in the 6.1 source, followed through
    header inlines and macros until no new name turns up."""

    def __init__(self, src, kbuild, candidates):
        self.src, self.kbuild = src, kbuild
        tools_dirs = {os.path.dirname(p) for p in kbuild.listings
                      if p.startswith('tools/')}
        names = set(candidates)
        self.via = defaultdict(set)   # name -> header entities using it
        searched, files, passes = set(), set(), 0
        while names - searched:
            new = names - searched
            searched |= new
            files |= grep_files(src, new)
            passes += 1
            files = {f for f in files if not f.startswith('tools/')
                     or os.path.dirname(f) in tools_dirs}
            self.refs, self.unparsed = [], []
            for f in sorted(files):
                refs, ok = scan_file(src, f, names)
                self.refs += refs
                if not ok:
                    self.unparsed.append(f)
            for r in self.refs:
                if r.where == 'inline':
                    for e in r.entity:
                        self.via[r.name].add(e)
                        names.add(e)
        self.files, self.passes, self.names = files, passes, names
        self.by_name = defaultdict(list)
        for r in self.refs:
            self.by_name[r.name].append(r)

    def closure(self, symbol):
        """Every name through which a file can reach symbol, with the
        chain: {name: [symbol, inline, ..., name]}."""
        chains, todo = {symbol: [symbol]}, [symbol]
        while todo:
            n = todo.pop()
            for e in sorted(self.via.get(n, ())):
                if e not in chains:
                    chains[e] = chains[n] + [e]
                    todo.append(e)
        return chains


# --------------------------------------------------------------------------
# Debian's tree
# --------------------------------------------------------------------------

def debian_tree(root, wait=300):
    """(kernel version, package version, {module: [.ko path]}) of an
    extracted linux-image tree. A tree that another job is extracting is
    waited for (up to wait seconds): it is complete when a kernel
    version has modules.builtin.modinfo, modules.order and every module
    modules.order names."""
    base = os.path.join(root, 'lib', 'modules')
    if not os.path.isdir(root):
        raise InputError(f'{root}: no Debian tree; make -C conversions '
                         'debian-tree (userspace/debian-tree.sh) makes one')
    deadline, said = time.time() + wait, 0
    while True:
        problem = None
        kvers = sorted(os.listdir(base)) if os.path.isdir(base) else []
        kvers = [k for k in kvers if os.path.exists(
            os.path.join(base, k, 'modules.builtin.modinfo'))]
        if not kvers:
            problem = f'no {base}/*/modules.builtin.modinfo'
        else:
            mdir = os.path.join(base, kvers[-1])
            order = os.path.join(mdir, 'modules.order')
            if not os.path.exists(order):
                problem = f'no {order}'
            else:
                order = [ln.split()[0] for ln in read(order).splitlines()
                         if ln.strip()]
                missing = [p for p in order
                           if not os.path.exists(os.path.join(mdir, p))]
                if missing:
                    problem = (f'{len(missing)} modules of modules.order '
                               f'missing, e.g. {missing[0]}')
        if not problem:
            break
        if time.time() > deadline:
            raise InputError(f'{root}: incomplete: {problem}')
        if time.time() - said > 60:
            note(f'{root}: {problem}; waiting for its extraction')
            said = time.time()
        time.sleep(5)
    kver = kvers[-1]
    if len(order) < 1000:
        raise InputError(f'{mdir}: only {len(order)} modules')
    if any(not p.endswith('.ko') for p in order):
        raise InputError(f'{mdir}: compressed modules; nm cannot read them')
    mods = defaultdict(list)
    for p in order:
        name = os.path.basename(p)[:-3].replace('-', '_')
        mods[name].append(os.path.join(mdir, p))
    pkgver = ''
    for pkg in (f'linux-image-{kver}-unsigned', f'linux-image-{kver}'):
        log = os.path.join(root, 'usr/share/doc', pkg, 'changelog.Debian.gz')
        if os.path.exists(log):
            with gzip.open(log, 'rt', errors='replace') as f:
                m = re.match(r'\S+ \(([^)]+)\)', f.readline())
                pkgver = m.group(1) if m else ''
            break
    return kver, pkgver, mods


def debian_undefined(mods):
    """{symbol: {module}} over every module's undefined symbols."""
    users = defaultdict(set)
    files = {p: name for name, ps in mods.items() for p in ps}
    paths = sorted(files)
    for i in range(0, len(paths), 400):
        p = subprocess.run(['nm', '-u', '-A'] + paths[i:i + 400],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise InputError(f'nm: {p.stderr.strip()[:200]}')
        for line in p.stdout.splitlines():
            path, _, rest = line.partition(':')
            sym = rest.split()[-1]
            users[sym].add(files[path])
    return users


# --------------------------------------------------------------------------
# The derivation
# --------------------------------------------------------------------------

EXPORT = re.compile(r'^\s*(EXPORT_SYMBOL(?:_GPL)?)\(\s*(\w+)\s*\)\s*;', re.M)


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
    report: list = field(default_factory=list)      # report.txt lines
    messages: dict = field(default_factory=dict)    # ns -> commit text


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

    def __init__(self, src, debian, table):
        for p in (src, debian):
            if not os.path.isdir(p):
                raise InputError(f'{p}: no such directory')
        self.src, self.table = src, table
        self.version = source_version(src)
        if not self.version.startswith('6.1.'):
            raise InputError(f'{src}: Linux {self.version}, want 6.1.x')
        self.kver, self.pkgver, mods = debian_tree(debian)
        self.nmods = sum(map(len, mods.values()))
        note(f'Debian {self.kver} ({self.pkgver}): {self.nmods} modules')
        self.deb = debian_undefined(mods)
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


def derive(data):
    """The lists: for each group of namespaces sharing exporter files,
    each candidate's verdict."""
    table, out = data.table, Lists()
    out.data = [f'debian\tlinux-image-{data.kver} {data.pkgver}\t'
                f'{data.nmods} modules',
                f'source\tlinux-source-6.1 {data.version}']
    groups = {}                                 # exporter globs -> [ns]
    for ns in table:
        groups.setdefault(tuple(ns.exporter_globs), []).append(ns)
    rep = out.report
    sc = data.scan
    rep += [f'== data: Debian linux-image-{data.kver} ({data.pkgver}), '
            f'{data.nmods} modules; linux-source-6.1 {data.version}',
            f'source scan: {len(sc.files)} files refer to a candidate or to '
            f'a header inline or macro that does ({len(sc.names)} names, '
            f'{sc.passes} passes); {len(sc.refs)} references',
            'files whose braces do not balance (every reference counted): '
            + (' '.join(sc.unparsed) or 'none'), '']
    for globs, spaces in groups.items():
        syms = {}
        for ns in spaces:
            for s, c in data.cands[ns.name].items():
                syms.setdefault(s, c)
        verdict, why = {}, {}
        for s in sorted(syms):
            homes, all_users = [], {}
            for ns in spaces:
                if s in ns.open:
                    out.policy[s] = (ns.name, ns.open[s])
                    verdict[s] = 'policy'
                    break
                part, other = data.users(s, ns)
                all_users[ns.name] = (part, other)
                if part and not other:
                    homes.append(ns)
            if verdict.get(s) == 'policy':
                continue
            if len(homes) > 1:
                raise InputError(f'{s}: fits {[n.name for n in homes]}: '
                                 'partner sets must not overlap')
            if homes:
                verdict[s] = homes[0].name
                why[s] = all_users[homes[0].name][0]
                continue
            part, other = all_users[spaces[0].name]
            everyone = {**part, **other}
            if not everyone:
                verdict[s] = 'unused'
                continue
            verdict[s] = 'open'
            why[s] = everyone
        for ns in spaces:
            rs = sorted((c for s, c in syms.items() if verdict[s] == ns.name),
                        key=lambda c: (c.path, c.line))
            out.restrict[ns.name] = rs
            grants = {}
            for c in rs:
                for m in why[c.symbol]:
                    grants.setdefault(m, []).append(c.symbol)
            out.allow[ns.name] = {m: import_file(data.src, data.kbuild, m)
                                  for m in sorted(grants)}
        for s in sorted(syms):
            if verdict[s] == 'unused':
                out.unused.append(s)
            elif verdict[s] == 'open':
                others = {m: e for m, e in why[s].items()
                          if not any(m in ns.partners for ns in spaces)}
                out.open[s] = others or why[s]

        # The report for this exporter group.
        names = '+'.join(ns.name for ns in spaces)
        nopen = [s for s in syms if verdict[s] == 'open']
        by_deb = [s for s in nopen if any(
            'Debian' in ev for m, evs in why[s].items()
            if not any(m in ns.partners for ns in spaces) for ev in evs)]
        mixed = [s for s in nopen if all(
            any(m in ns.partners for ns in spaces) for m in why[s])]
        rep.append(f'== {names}: exporter {" ".join(globs)}')
        rep.append(f'exporter files (built in): '
                   f'{" ".join(sorted(data.exporters[spaces[0].name]))}')
        if spaces[0].dropped:
            rep.append('not exporters (Kbuild can build them as modules): '
                       + ' '.join(spaces[0].dropped))
        rep.append(f'candidates: {len(syms)} exports')
        for ns in spaces:
            rep.append(f'  restricted to {ns.name}: '
                       f'{len(out.restrict[ns.name])}, for '
                       f'{", ".join(out.allow[ns.name]) or "nobody"}')
        pol = [s for s in syms if verdict[s] == 'policy']
        rep.append(f'  open by the table: {len(pol)} '
                   f'({" ".join(sorted(pol))})' if pol else
                   '  open by the table: 0')
        rep.append(f'  kept open by other users: {len(nopen)} ('
                   f'{len(by_deb)} with a Debian module among them, '
                   f'{len(nopen) - len(by_deb) - len(mixed)} by the source '
                   f'scan alone, {len(mixed)} used by partners of '
                   'different namespaces)')
        unused = [s for s in syms if verdict[s] == 'unused']
        rep.append(f'  no module user at all, left open: {len(unused)}'
                   + (f' ({" ".join(sorted(unused))})' if unused else ''))
        for ns in spaces:
            rep.append('')
            rep.append(f'-- {ns.name}: restricted symbols and the partners '
                       'that use them')
            for c in out.restrict[ns.name]:
                rep.append(f'  {c.symbol}  ({c.path}:{c.line}; '
                           f'{", ".join(sorted(why[c.symbol]))})')
        rep.append('')
        rep.append(f'-- {names}: kept open, with every user (Debian: '
                   'the .ko has it undefined; file:line: the source scan)')
        for s in sorted(nopen):
            rep.append(f'  {s}')
            for m, evs in sorted(why[s].items()):
                tag = ' [partner]' if any(m in ns.partners
                                          for ns in spaces) else ''
                rep.append(f'    {m}{tag}: {"; ".join(evs[:4])}'
                           + (f'; +{len(evs) - 4} more' if len(evs) > 4
                              else ''))
        rep.append('')
        for ns in spaces:
            out.messages[ns.name] = message(
                data, ns, spaces, globs, len(syms), out, why,
                {k: [s for s in syms if verdict[s] == k]
                 for k in ('policy', 'unused')}, len(by_deb), len(mixed))
    return out


def wrap(text, width=72, first='', rest=''):
    """text filled to width, its first line indented by first, the others
    by rest."""
    lines, cur = [], first
    for w in text.split():
        if cur.strip() and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = rest
        cur += (' ' if cur.strip() else '') + w
    return '\n'.join(lines + [cur])


def message(data, ns, spaces, globs, ncand, out, why, kinds, ndeb, nmixed):
    """The part of the namespace's commit message that says how its list
    was derived, from which data, with the counts and the symbols."""
    partners = ', '.join(sorted(out.allow[ns.name])) or 'nobody'
    others = [o for o in spaces if o is not ns]
    nopen = sum(1 for s in why if s in out.open)
    near = sorted(s for s in why if s in out.open
                  if any(m in ns.partners for m in why[s]))
    split = [f'{len(out.restrict[ns.name])} go into {ns.name}, for '
             f'{partners}']
    split += [f'{len(out.restrict[o.name])} into {o.name}' for o in others]
    if kinds['policy']:
        split.append(f'{len(kinds["policy"])} stay open by design '
                     f'({", ".join(sorted(kinds["policy"]))})')
    split.append(f'{nopen} stay open because modules other than the '
                 f'partners use them ({ndeb} with a module of Debian\'s tree '
                 f'among them, {nopen - ndeb - nmixed} found by the source '
                 'scan alone)')
    split.append(f'{len(kinds["unused"])} have no module user and stay open')
    par = [
        'How the list was derived (conversions/derive.py, make -C '
        'conversions lists): the candidates are the EXPORT_SYMBOL and '
        'EXPORT_SYMBOL_GPL lines of the built-in files of '
        f'{" ".join(globs)}, {ncand} in all. A candidate\'s users are the '
        f'modules of Debian\'s linux-image-{data.kver} ({data.pkgver}) that '
        f'have it undefined ({data.nmods} modules, nm -u), and every .c file '
        f'of the linux-source-6.1 {data.version} tree that Kbuild can build '
        'as a module and refers to it, directly or through a header\'s '
        'inline function or macro. A candidate goes into '
        f'{ns.name} when at least one of its partners '
        f'({", ".join(ns.partners)}) uses it and nothing else does.',
        f'Of the {ncand}: ' + '; '.join(split) + '.']
    text = '\n\n'.join(wrap(p) for p in par) + '\n'
    if near:
        here = sorted({m for s in near for m in why[s] if m in ns.partners})
        text += (f'\nKept open although {", ".join(here)} '
                 f'use{"s" if len(here) == 1 else ""} them, for their other '
                 'users:\n')
        for s in near:
            users = sorted(m for m in why[s] if m not in ns.partners)
            text += wrap(f'{s}: {" ".join(users)}', first='  ',
                         rest='    ') + '\n'
    text += '\nSymbols:\n' + ''.join(f'  {c.symbol}\n'
                                      for c in out.restrict[ns.name])
    return text


def explain(data, symbols):
    """Every reference to each symbol, and what the derivation made of it."""
    for sym in symbols:
        spaces = [ns for ns in data.table if sym in data.cands[ns.name]]
        if not spaces:
            print(f'{sym}: no candidate of any namespace')
            continue
        c = data.cands[spaces[0].name][sym]
        print(f'{sym}: {c.kind} in {c.path}:{c.line}')
        chains = data.scan.closure(sym)
        if len(chains) > 1:
            print('  reached through: ' + ', '.join(
                '>'.join(ch) for n, ch in sorted(chains.items()) if n != sym))
        for ns in spaces:
            ignored = []
            part, other = data.users(sym, ns, ignored)
            verdict = ('open (conversions.tsv)' if sym in ns.open else
                       'restricted' if part and not other else 'not here')
            print(f'  {ns.name}: {verdict}; partners using it: '
                  f'{" ".join(sorted(part)) or "none"}; others: '
                  f'{" ".join(sorted(other)) or "none"}')
        for m, evs in sorted({**part, **other}.items()):
            print(f'    user {m}: {"; ".join(evs)}')
        for e in ignored:
            print(f'    not a user: {e}')
    return 0


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


# --------------------------------------------------------------------------
# lists.txt: the canonical form
# --------------------------------------------------------------------------

LISTS_HEAD = """\
# Derived by conversions/derive.py from conversions/conversions.tsv and the
# data below; do not edit. Regenerate: make -C conversions lists
#   restrict NS KIND FILE SYMBOL   convert FILE's KIND(SYMBOL) into NS
#   allow    NS MODULE FILE        grant NS to MODULE; FILE imports NS
#   open     SYMBOL USERS          kept open: users besides the partners
#   policy   NS SYMBOL REASON      kept open by conversions.tsv
#   unused   SYMBOL                no module uses it: left open
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
        else:
            raise InputError(f'{path}:{n}: cannot read {line!r}')
    return lists


# --------------------------------------------------------------------------
# check: the patches against the lists
# --------------------------------------------------------------------------

P_EXPORT = re.compile(r'^([+-])\s*EXPORT_SYMBOL_NS(_GPL)?\(\s*(\w+)\s*,'
                      r'\s*(\w+)\s*\)\s*;')
P_ALLOW = re.compile(r'^([+-])MODULE_NAMESPACE_ALLOW\(\s*(\w+)\s*,'
                     r'\s*([\w*]+)\s*\)\s*;')
P_IMPORT = re.compile(r'^([+-])MODULE_IMPORT_NS\(\s*(\w+)\s*\)\s*;')


@dataclass
class PatchState:
    export: dict = field(default_factory=dict)   # sym -> (ns, kind,
    #                                              file, patch)
    allow: dict = field(default_factory=dict)    # (ns, module) -> (file,
    #                                              patch)
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
    for path in patch_files(patchdir):
        if not os.path.exists(path):
            raise InputError(f'{path}: listed in series, missing')
        name, cur, changes = os.path.basename(path), None, []
        for line in read(path).splitlines():
            if line.startswith('+++ '):
                cur = line[4:].split('/', 1)[1] if '/' in line else None
            elif line.startswith('--- ') or not cur or \
                    not cur.endswith('.c'):
                continue
            elif m := P_EXPORT.match(line):
                kind = 'EXPORT_SYMBOL_GPL' if m.group(2) else 'EXPORT_SYMBOL'
                changes.append((m.group(1), m.group(4), st.export,
                                m.group(3), (m.group(4), kind, cur, name)))
            elif m := P_ALLOW.match(line):
                changes.append((m.group(1), m.group(2), st.allow,
                                (m.group(2), m.group(3)), (cur, name)))
            elif m := P_IMPORT.match(line):
                changes.append((m.group(1), m.group(2), st.imports,
                                (m.group(2), cur), name))
        for sign in '-+':
            for s, ns, table, key, value in changes:
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


def decisions(lists):
    """The lines of a lists file that decide something: restrict, allow."""
    return sorted([f'restrict\t{ns}\t{c.kind}\t{c.path}\t{c.symbol}'
                   for ns, cs in lists.restrict.items() for c in cs] +
                  [f'allow\t{ns}\t{m}\t{f}' for ns, a in lists.allow.items()
                   for m, f in a.items()])


# --------------------------------------------------------------------------
# apply: convert a kernel tree as the lists say
# --------------------------------------------------------------------------

def insert_allow(text, ns, modules, comment):
    """The ALLOW block, after the last #include of the file's first block
    of includes (the last one at #if depth 0 before the first line of
    code), preceded by a blank line, as the patches put it."""
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
    block = [''] + ['/* ' + comment[0]] + [' * ' + c for c in comment[1:]] \
        + [' */'] + [f'MODULE_NAMESPACE_ALLOW({ns}, {m});' for m in modules]
    if len(comment) == 1:
        block[1:3] = ['/* ' + comment[0] + ' */']
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
            new = f'EXPORT_SYMBOL_NS{c.kind[13:]}({c.symbol}, {ns.name});'
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
                                                ns.comment)
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


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description='Derive the network conversions and check the patches.')
    sub = ap.add_subparsers(dest='mode', required=True)
    modes = {
        'lists': 'derive from the data; write the lists, report, messages',
        'check': 'compare the patches (and the committed lists) with the '
                 'derivation',
        'explain': 'every reference to SYMBOL and what it counts for',
        'apply': 'convert a kernel tree as the lists say'}
    p = {m: sub.add_parser(m, help=h) for m, h in modes.items()}
    for m in ('lists', 'check', 'explain'):
        p[m].add_argument('--src', help='the pristine linux-source-6.1 tree')
        p[m].add_argument('--debian', default=os.environ.get('DEBIAN_TREE'),
                          help="Debian's extracted tree ($DEBIAN_TREE)")
    for m in modes:
        p[m].add_argument('--table', default=TABLE)
    p['lists'].add_argument('--out', default=LISTS)
    p['lists'].add_argument('--report', default=REPORT)
    p['lists'].add_argument('--messages', default=MESSAGES,
                            help='folder for the commit-message texts')
    p['check'].add_argument('--derived', help='a lists file that "lists '
                            '--out" wrote from the data: no derivation here')
    p['check'].add_argument('--committed', default=LISTS,
                            help='the committed lists, held to the '
                            'derivation (default %(default)s)')
    p['check'].add_argument('patchdir')
    p['explain'].add_argument('symbols', nargs='+')
    p['apply'].add_argument('--ns', action='append', default=[],
                            help='only this namespace (repeatable)')
    p['apply'].add_argument('--lists', default=LISTS)
    p['apply'].add_argument('src')
    a = ap.parse_args()

    try:
        table = load_table(a.table)
        if a.mode == 'apply':
            return apply(a.src, parse_lists(a.lists), table, a.ns)
        if a.mode == 'check' and a.derived:
            lists = parse_lists(a.derived)
        else:
            if not a.src or not a.debian:
                raise InputError('deriving needs --src and --debian (or '
                                 '$DEBIAN_TREE)')
            data = Data(a.src, a.debian, table)
            if a.mode == 'explain':
                return explain(data, a.symbols)
            lists = derive(data)
        if a.mode == 'lists':
            write(a.out, format_lists(lists, table))
            write(a.report, '\n'.join(lists.report) + '\n')
            os.makedirs(a.messages, exist_ok=True)
            for ns, text in lists.messages.items():
                write(os.path.join(a.messages, ns + '.txt'), text)
            note(f'wrote {a.out}, {a.report} and {a.messages}/')
            return 0
        return check(lists, parse_lists(a.committed), table, a.patchdir)
    except InputError as e:
        die(str(e))


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


if __name__ == '__main__':
    sys.exit(main())
