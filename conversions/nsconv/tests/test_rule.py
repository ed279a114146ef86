# SPDX-License-Identifier: GPL-2.0-or-later
"""rule: restricted when a partner uses it and nothing else does; open
when anything else does; unused, policy, and one home at most."""

import os
import types
import unittest

from nsconv import report, rule
from nsconv.common import InputError
from nsconv.lists import Candidate
from nsconv.outoftree import OutOfTree
from nsconv.tests.fixtures import TreeCase, namespace


class FakeKbuild:
    def __init__(self, files):
        self.files = files

    def files_of(self, module):
        return self.files.get(module, [])

    def config_of(self, module):
        return {'ipv6': 'IPV6', 'tcp_bic': 'TCP_CONG_BIC'}.get(module, '')


class FakeData:
    """What derive() reads of Data, without a kernel or Debian tree:
    users maps a symbol to {module: [evidence]}."""

    def __init__(self, root, table, syms, users):
        self.src, self.table, self.users_of = root, table, users
        self.kver, self.pkgver, self.nmods, self.version = \
            '6.1.0-9-amd64', '6.1.1-1', 3, '6.1.1'
        self.cands = {ns.name: {s: Candidate(s, 'EXPORT_SYMBOL',
                                             'net/ipv4/tcp.c', i + 1)
                                for i, s in enumerate(syms)}
                      for ns in table}
        self.exporters = {ns.name: {'net/ipv4/tcp.c'} for ns in table}
        self.scan = types.SimpleNamespace(files={'x.c'}, names={'a'},
                                          passes=1, refs=[], unparsed=[])
        self.kbuild = FakeKbuild({'ipv6': ['net/ipv6/af_inet6.c'],
                                  'tcp_bic': ['net/ipv4/tcp_bic.c']})
        self.oot = OutOfTree()
        self.debian = root
        os.makedirs(os.path.join(root, 'boot'), exist_ok=True)
        with open(os.path.join(root, 'boot', 'config-6.1.0-9-amd64'), 'w') as f:
            f.write('CONFIG_IPV6=y\nCONFIG_TCP_CONG_BIC=m\n')

    def users(self, sym, ns):
        part, other = {}, {}
        for m, ev in self.users_of.get(sym, {}).items():
            (part if m in ns.partners else other)[m] = ev
        return part, other


class Derive(TreeCase):

    def setUp(self):
        super().setUp()
        for f in ('net/ipv6/af_inet6.c', 'net/ipv4/tcp_bic.c'):
            self.put(f, 'MODULE_LICENSE("GPL");\n')
        self.table = [
            namespace('tcp', open={'reg': 'registration'}),
            namespace('tcpcong', partners=['tcp_bic'], out_of_tree='break',
                      out_of_tree_why='for in-tree algorithms')]
        self.data = FakeData(self.root, self.table,
                             ['a', 'b', 'c', 'd', 'reg', 'cong'], {
                                 'a': {'ipv6': ['Debian']},
                                 'b': {'ipv6': ['Debian'],
                                       'sunrpc': ['Debian']},
                                 'c': {'ipv6': ['x.c:1'],
                                       'tcp_bic': ['y.c:2']},
                                 'reg': {'tcp_bic': ['Debian']},
                                 'cong': {'tcp_bic': ['Debian']}})
        # An out-of-tree algorithm that uses the restricted helper: tcpcong
        # breaks it on purpose, and the lists say so.
        self.data.oot.users['cong']['tcp_ledbat'] = 'github x.c'
        self.lists, self.groups = rule.derive(self.data)

    def test_verdicts(self):
        lists = self.lists
        self.assertEqual([c.symbol for c in lists.restrict['tcp']], ['a'])
        self.assertEqual([c.symbol for c in lists.restrict['tcpcong']],
                         ['cong'])
        self.assertEqual(lists.allow, {
            'tcp': {'ipv6': 'net/ipv6/af_inet6.c'},
            'tcpcong': {'tcp_bic': 'net/ipv4/tcp_bic.c'}})
        # b: sunrpc alone is named; c: partners of two namespaces.
        self.assertEqual(sorted(lists.open['b']), ['sunrpc'])
        self.assertEqual(sorted(lists.open['c']), ['ipv6', 'tcp_bic'])
        self.assertEqual(lists.unused, ['d'])
        self.assertEqual(lists.policy, {'reg': ('tcp', 'registration')})
        self.assertEqual(lists.broken, {'cong': ('tcpcong', ['tcp_ledbat'])})
        self.assertEqual(len(self.groups), 1)

    def test_report_counts(self):
        rep = report.report(self.data, self.lists, self.groups)
        self.assertIn('  kept open by other users: 2 (1 with a Debian '
                      'module among them, 0 by the source scan alone, 1 '
                      'used by partners of different namespaces)', rep)
        msg = report.messages(self.data, self.lists, self.groups)
        self.assertEqual(sorted(msg), ['tcp', 'tcpcong'])
        self.assertEqual(rep[0], '== data: Debian linux-image-6.1.0-9-amd64 '
                         '(6.1.1-1), 3 modules; linux-source-6.1 6.1.1')
        self.assertTrue(msg['tcp'].endswith('\nSymbols:\n  a\n'))
        self.assertIn('this breaks tcp_ledbat.', ' '.join(msg['tcpcong'].split()))
        self.assertIn('  tcp: every grantee is built in: ipv6 (CONFIG_IPV6=y); '
                      'the namespace admits no module, its 1 symbols are '
                      'unexported for modules', rep)
        self.assertIn('  tcpcong: every grantee can be a module', rep)
        self.assertIn('    cong: restricted to tcpcong: BROKEN on purpose', rep)
        self.assertIn('Kept open although ipv6 uses them', msg['tcp'])

    def test_overlapping_partners(self):
        table = [namespace('x'), namespace('y')]
        data = FakeData(self.root, table, ['a'], {'a': {'ipv6': ['D']}})
        with self.assertRaisesRegex(InputError, 'must not overlap'):
            rule.derive(data)


class ImportFile(TreeCase):

    def test_one_license(self):
        self.put('a.c', 'MODULE_LICENSE("GPL");\n')
        self.put('b.c', 'int x;\n')
        kb = FakeKbuild({'m': ['a.c', 'b.c'], 'n': ['b.c']})
        self.assertEqual(rule.import_file(self.root, kb, 'm'), 'a.c')
        with self.assertRaises(InputError):
            rule.import_file(self.root, kb, 'n')


if __name__ == '__main__':
    unittest.main()
