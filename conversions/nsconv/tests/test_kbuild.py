# SPDX-License-Identifier: GPL-2.0-or-later
"""kbuild: which .c file can be built as which module, erring towards
"modular" where a line cannot be read."""

import unittest

from nsconv import kbuild
from nsconv.tests.fixtures import TreeCase


class Assignment(unittest.TestCase):

    def test_forms(self):
        a = kbuild.assignment
        self.assertEqual(a('obj-$(CONFIG_X) += x.o'),
                         ('obj-$(CONFIG_X)', 'x.o'))
        self.assertEqual(a('foo-y := a.o b.o'), ('foo-y', 'a.o b.o'))
        self.assertEqual(a('obj-$(subst m,y,$(CONFIG_A)) += a.o'),
                         ('obj-$(subst m,y,$(CONFIG_A))', 'a.o'))
        self.assertIsNone(a('x.o: y.c'))
        self.assertIsNone(a('ifeq ($(A),y)'))


class Tree(TreeCase):

    def setUp(self):
        super().setUp()
        self.put('net/Kconfig', 'config T\n\ttristate "t"\n'
                 'config B\n\tbool "b"\nmenuconfig D\n\tdef_tristate m\n')
        self.put('net/ipv4/Makefile',
                 'obj-y += tcp.o \\\n\ttcp_ipv4.o\n'
                 'obj-$(CONFIG_T) += tcp_bic.o nvme-tcp.o\n'
                 'obj-$(CONFIG_B) += tcp_cong.o  # bool: built in\n'
                 'obj-$(subst m,y,$(CONFIG_T)) += udp.o\n'
                 'obj-$(CONFIG_UNKNOWN) += odd.o\n'
                 'obj-$(CONFIG_D) += ipv6.o\n'
                 'ipv6-y := af_inet6.o $(addprefix sub/,a.o b.o)\n'
                 'lib-y += lib.o\n')
        self.kb = kbuild.Kbuild(self.root)

    def test_types(self):
        self.assertEqual(self.kb.types, {'T': 'tristate', 'B': 'bool',
                                         'D': 'tristate'})

    def test_builtin_and_modular(self):
        b = self.kb.builtin_only
        for f in ('tcp', 'tcp_ipv4', 'tcp_cong', 'udp', 'lib'):
            self.assertTrue(b(f'net/ipv4/{f}.c'), f)
        for f in ('tcp_bic', 'nvme-tcp', 'odd', 'af_inet6', 'sub/a',
                  'not_listed'):
            self.assertFalse(b(f'net/ipv4/{f}.c'), f)

    def test_module_names(self):
        li = self.kb.listings['net/ipv4/nvme-tcp.c'][0]
        self.assertEqual((li.module, li.modular), ('nvme_tcp', True))
        self.assertEqual(self.kb.files_of('ipv6'),
                         ['net/ipv4/af_inet6.c', 'net/ipv4/sub/a.c',
                          'net/ipv4/sub/b.c'])

    def test_skipped_trees(self):
        self.put('scripts/Makefile', 'obj-m += host.o\n')
        self.assertNotIn('scripts/host.c',
                         kbuild.Kbuild(self.root).listings)


if __name__ == '__main__':
    unittest.main()
