# SPDX-License-Identifier: GPL-2.0-or-later
"""The C scan: where a .c or .h file refers to a name, and what kind of
reference it is (a use, a header inline or macro to follow, or a header
reference we cannot attribute). Word matching on code whose comments and
literals are blanked; every rule errs towards counting a user."""

import bisect
import os
import re
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field

from .common import InputError, read
from .kbuild import SKIP_DIRS


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
