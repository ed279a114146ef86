# SPDX-License-Identifier: GPL-2.0-or-later
"""debian: a complete tree is read, an incomplete one waited for then
refused, and users are named by modinfo name=."""

import gzip
import os
import unittest

from nsconv import debian
from nsconv.common import InputError
from nsconv.tests.fixtures import TreeCase, make_elf

KVER = '6.1.0-99-amd64'


class Tree(TreeCase):

    def tree(self, n=1000, drop=None):
        """A tree of n modules as modules.order lists them; drop: one
        that is listed but not (yet) there."""
        mdir = f'lib/modules/{KVER}'
        order = [f'kernel/m{i}.ko' for i in range(n)]
        self.put(f'{mdir}/modules.builtin.modinfo', '')
        self.put(f'{mdir}/modules.order', '\n'.join(order) + '\n')
        for p in order:
            if p != drop:
                self.put(f'{mdir}/{p}', b'')
        return order

    def test_complete(self):
        self.tree()
        self.put(f'usr/share/doc/linux-image-{KVER}-unsigned/'
                 'changelog.Debian.gz',
                 gzip.compress(b'linux (6.1.192-3) bookworm; urgency=high\n'))
        kver, pkgver, paths = debian.debian_tree(self.root, wait=0)
        self.assertEqual((kver, pkgver, len(paths)), (KVER, '6.1.192-3',
                                                      1000))
        self.assertTrue(paths[0].endswith(f'{KVER}/kernel/m0.ko'))

    def test_incomplete_is_refused_after_the_wait(self):
        self.tree(drop='kernel/m7.ko')
        with self.assertRaisesRegex(InputError, 'incomplete: 1 modules'):
            debian.debian_tree(self.root, wait=0, poll=0)

    def test_no_tree(self):
        with self.assertRaisesRegex(InputError, 'no Debian tree'):
            debian.debian_tree(os.path.join(self.root, 'none'), wait=0)
        with self.assertRaisesRegex(InputError, 'modules.builtin.modinfo'):
            debian.debian_tree(self.root, wait=0, poll=0)

    def test_too_few_modules(self):
        self.tree(n=3)
        with self.assertRaisesRegex(InputError, 'only 3 modules'):
            debian.debian_tree(self.root, wait=0)


class Users(TreeCase):

    def test_named_by_modinfo(self):
        a = self.put('a/nvme-tcp.ko', make_elf(['name=nvme_tcp'],
                                               ['tcp_read_sock']))
        b = self.put('a/other-file.ko', make_elf(['name=siw'],
                                                 ['tcp_read_sock', 'x']))
        users = debian.undefined([a, b])
        self.assertEqual(users['tcp_read_sock'], {'nvme_tcp', 'siw'})
        self.assertEqual(users['x'], {'siw'})


if __name__ == '__main__':
    unittest.main()
