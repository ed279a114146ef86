# SPDX-License-Identifier: GPL-2.0-or-later
"""patches: apply puts each line where the series puts it, and check
fails on every kind of difference between a series and the lists."""

import contextlib
import io
import os
import unittest

from nsconv import patches
from nsconv.common import InputError
from nsconv.lists import Candidate, Lists
from nsconv.tests.fixtures import TreeCase, namespace

TCP_C = '''// SPDX
/* a comment with #include in it */
#include <a.h>
#ifdef X
#include <x.h>
#endif
#include <b.h>

int tcp_a;
EXPORT_SYMBOL(tcp_a);
int tcp_b;
EXPORT_SYMBOL_GPL(tcp_b);
'''
IPV6_C = 'x\nMODULE_LICENSE("GPL");\nMODULE_IMPORT_NS(other);\ny\n'


def lists_ab():
    ls = Lists()
    ls.restrict['tcp'] = [
        Candidate('tcp_a', 'EXPORT_SYMBOL', 'net/ipv4/tcp.c', 0),
        Candidate('tcp_b', 'EXPORT_SYMBOL_GPL', 'net/ipv4/tcp.c', 0)]
    ls.allow['tcp'] = {'ipv6': 'net/ipv6/af_inet6.c'}
    ls.open['tcp_c'] = ['tls']
    return ls


class Insert(unittest.TestCase):

    def test_allow_after_the_first_include_block(self):
        out = patches.insert_allow(TCP_C, 'tcp', ['ipv6'], ['For IPv6.'],
                                   'TCP_X')
        self.assertIn('#include <b.h>\n\n#if IS_ENABLED(CONFIG_TCP_X)\n'
                      '/* For IPv6. */\n'
                      'MODULE_NAMESPACE_ALLOW(tcp, ipv6);\n#endif\n\nint', out)
        out = patches.insert_allow(TCP_C, 'tcp', ['a', 'b'], ['1', '2'], 'X')
        self.assertIn('/* 1\n * 2\n */\nMODULE_NAMESPACE_ALLOW(tcp, a);\n'
                      'MODULE_NAMESPACE_ALLOW(tcp, b);\n#endif\n', out)
        with self.assertRaises(ValueError):
            patches.insert_allow('int x;\n', 'tcp', ['a'], ['c'], 'X')

    def test_import_after_license_and_imports(self):
        self.assertEqual(patches.insert_import(IPV6_C, 'tcp'),
                         'x\nMODULE_LICENSE("GPL");\nMODULE_IMPORT_NS(other);'
                         '\nMODULE_IMPORT_NS(tcp);\ny\n')
        with self.assertRaises(ValueError):
            patches.insert_import('x\n', 'tcp')


class Apply(TreeCase):

    def setUp(self):
        super().setUp()
        self.put('net/ipv4/tcp.c', TCP_C)
        self.put('net/ipv6/af_inet6.c', IPV6_C)
        self.table = [namespace('tcp', comment=['For IPv6.'])]

    def apply(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            return patches.apply(self.root, lists_ab(), self.table, []), \
                err.getvalue()

    def test_apply_then_refuse(self):
        self.assertEqual(self.apply()[0], 0)
        with open(os.path.join(self.root, 'net/ipv4/tcp.c')) as f:
            text = f.read()
        self.assertIn('\nEXPORT_SYMBOL_TCP(tcp_a);', text)
        self.assertIn('\nEXPORT_SYMBOL_TCP_GPL(tcp_b);', text)
        self.assertIn('#if IS_ENABLED(CONFIG_TCP_RESTRICT_EXPORTS)\n', text)
        status, err = self.apply()
        self.assertEqual(status, 1)
        self.assertIn('already grants tcp', err)

    def test_unknown_namespace(self):
        with self.assertRaises(InputError):
            patches.apply(self.root, lists_ab(), self.table, ['udp'])


PATCH = '''--- a/net/ipv4/tcp.c
+++ b/net/ipv4/tcp.c
@@
+#if IS_ENABLED(CONFIG_TCP_RESTRICT_EXPORTS)
+MODULE_NAMESPACE_ALLOW(tcp, ipv6);
+#endif
-EXPORT_SYMBOL(tcp_a);
+EXPORT_SYMBOL_TCP(tcp_a);
+EXPORT_SYMBOL_TCP_GPL(tcp_b);
--- a/net/ipv6/af_inet6.c
+++ b/net/ipv6/af_inet6.c
+MODULE_IMPORT_NS(tcp);
--- a/Documentation/x.rst
+++ b/Documentation/x.rst
+EXPORT_SYMBOL_NS(tcp_c, tcp);
'''


class Check(TreeCase):

    def check(self, patch, lists=None):
        d = os.path.join(self.root, 'p')
        self.put('p/0001-x.patch', patch)
        lists = lists or lists_ab()
        with contextlib.redirect_stdout(io.StringIO()) as out, \
                contextlib.redirect_stderr(io.StringIO()):
            status = patches.check(lists, lists, [namespace('tcp')], d)
        return status, out.getvalue()

    def test_pass(self):
        self.assertEqual(self.check(PATCH), (0, 'derive.py: check passed: '
                         f'{self.root}/p restricts what the lists say '
                         '(symbols for modules: tcp 2 for 1), with every '
                         'grant and import\n'))

    def test_each_difference_fails(self):
        for old, new, says in (
                ('(tcp_b)', '(tcp_c)', 'other modules use it: tls'),
                ('TCP_GPL(tcp_b', 'TCP(tcp_b', 'the lists want'),
                ('+#if IS_ENABLED(CONFIG_TCP_RESTRICT_EXPORTS)\n', '',
                 'is not under #if IS_ENABLED'),
                ('EXPORT_SYMBOL_TCP(tcp_a)', 'EXPORT_SYMBOL_NS(tcp_a, tcp)',
                 None),
                ('+MODULE_IMPORT_NS(tcp);', '', 'import missing'),
                ('(tcp, ipv6)', '(tcp, tls)', 'grant missing'),
                ('+EXPORT_SYMBOL_TCP(tcp_a);\n', '',
                 'the patches leave it open')):
            self.assertIn(old, PATCH)
            status, out = self.check(PATCH.replace(old, new))
            if says is None:
                # The plain _NS form is read too: the same conversion.
                self.assertEqual(status, 0, old)
                continue
            self.assertEqual(status, 1, old)
            self.assertIn(says, out)

    def test_stale_committed_lists(self):
        d = os.path.join(self.root, 'p')
        self.put('p/0001-x.patch', PATCH)
        committed = lists_ab()
        committed.allow['tcp']['tls'] = 'net/tls/tls_main.c'
        with contextlib.redirect_stdout(io.StringIO()) as out:
            status = patches.check(lists_ab(), committed,
                                   [namespace('tcp')], d)
        self.assertEqual(status, 1)
        self.assertIn('the committed lists are stale', out.getvalue())

    def test_series_order(self):
        self.put('p/series', '# c\n0002-y.patch\n')
        self.put('p/0002-y.patch', '')
        self.assertEqual(patches.patch_files(os.path.join(self.root, 'p')),
                         [os.path.join(self.root, 'p', '0002-y.patch')])


if __name__ == '__main__':
    unittest.main()
