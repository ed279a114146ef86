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
  derive.py builtin --src DIR --config F             what the grants of
                      lists.txt mean on the configuration F: a grant to a
                      module built in admits nobody

The rule: a candidate (an EXPORT_SYMBOL or EXPORT_SYMBOL_GPL of the
namespace's exporter files, conversions.tsv) is restricted to namespace N
when at least one of N's partners uses it and nothing else does. Users:

  - Debian: every module of Debian's linux-image-6.1 tree with the symbol
    undefined (as nm -u lists it), by its modinfo name=;
  - source: a reference in a .c file of the pristine 6.1 tree that Kbuild
    can build as a module, directly or through a header's inline function
    or macro (followed transitively), outside the exporter's own files;
  - out of tree: the modules of Debian 12's DKMS packages built against
    Debian's headers (dkms-users.tsv, made by dkms-users.sh) and those of
    out-of-tree.tsv, for a namespace whose out_of_tree is keep; for one
    whose out_of_tree is break, they are named as broken on purpose.

See README.md for the scan's rules and what each one errs towards.
Exit status: 0 fine, 1 drift (check) or a failed apply, 2 bad input.

The work is done by the nsconv package beside this file, one module a
job (nsconv/__init__.py lists them); this is its command line.
"""

import argparse
import os
import sys

from nsconv.common import InputError, die, note, write
from nsconv.kbuild import Kbuild
from nsconv.lists import format_lists, parse_lists
from nsconv.outoftree import load as load_out_of_tree
from nsconv.patches import apply, check
from nsconv.report import builtin_report, explain, messages, report
from nsconv.rule import Data, derive
from nsconv.table import load_table

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, 'conversions.tsv')
LISTS = os.path.join(HERE, 'lists.txt')
REPORT = os.path.join(HERE, 'report.txt')
MESSAGES = os.path.join(HERE, 'messages')
DKMS = os.path.join(HERE, 'dkms-users.tsv')
KNOWN = os.path.join(HERE, 'out-of-tree.tsv')


def parser():
    """The command line, as it was when derive.py was one file: the
    Makefiles and the bats tests call it so."""
    ap = argparse.ArgumentParser(
        description='Derive the network conversions and check the patches.')
    sub = ap.add_subparsers(dest='mode', required=True)
    modes = {
        'lists': 'derive from the data; write the lists, report, messages',
        'check': 'compare the patches (and the committed lists) with the '
                 'derivation',
        'explain': 'every reference to SYMBOL and what it counts for',
        'apply': 'convert a kernel tree as the lists say',
        'builtin': 'what the grants mean on a configuration'}
    p = {m: sub.add_parser(m, help=h) for m, h in modes.items()}
    for m in ('lists', 'check', 'explain', 'builtin'):
        p[m].add_argument('--src', help='the pristine linux-source-6.1 tree')
    for m in ('lists', 'check', 'explain'):
        p[m].add_argument('--debian', default=os.environ.get('DEBIAN_TREE'),
                          help="Debian's extracted tree ($DEBIAN_TREE)")
        p[m].add_argument('--dkms', default=DKMS,
                          help='out-of-tree users from DKMS packages '
                          '(default %(default)s)')
        p[m].add_argument('--out-of-tree', default=KNOWN,
                          help='other known out-of-tree users (default '
                          '%(default)s)')
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
    p['builtin'].add_argument('--config', required=True,
                              help="a kernel's .config")
    p['builtin'].add_argument('--lists', default=LISTS)
    return ap


def main():
    a = parser().parse_args()
    try:
        table = load_table(a.table)
        if a.mode == 'apply':
            return apply(a.src, parse_lists(a.lists), table, a.ns)
        if a.mode == 'builtin':
            if not a.src:
                raise InputError('builtin needs --src')
            print('\n'.join(builtin_report(Kbuild(a.src), parse_lists(
                a.lists), table, a.config, 'the')).rstrip('\n'))
            return 0
        if a.mode == 'check' and a.derived:
            lists = parse_lists(a.derived)
        else:
            if not a.src or not a.debian:
                raise InputError('deriving needs --src and --debian (or '
                                 '$DEBIAN_TREE)')
            data = Data(a.src, a.debian, table, load_out_of_tree(
                a.dkms, a.out_of_tree))
            if a.mode == 'explain':
                return explain(data, a.symbols)
            lists, groups = derive(data)
        if a.mode == 'lists':
            write(a.out, format_lists(lists, table))
            write(a.report, '\n'.join(report(data, lists, groups)) + '\n')
            os.makedirs(a.messages, exist_ok=True)
            for ns, text in messages(data, lists, groups).items():
                write(os.path.join(a.messages, ns + '.txt'), text)
            note(f'wrote {a.out}, {a.report} and {a.messages}/')
            return 0
        return check(lists, parse_lists(a.committed), table, a.patchdir)
    except InputError as e:
        die(str(e))


if __name__ == '__main__':
    sys.exit(main())
