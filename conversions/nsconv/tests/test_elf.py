# SPDX-License-Identifier: GPL-2.0-or-later
"""elf: a module's name is its modinfo name=, its users the undefined
symbols, whatever the file is called and however it is compressed."""

import gzip
import lzma
import os
import shutil
import subprocess
import unittest

from nsconv import elf
from nsconv.common import InputError
from nsconv.tests.fixtures import TreeCase, make_elf


class ReadModule(TreeCase):

    def test_name_from_modinfo_not_the_file_name(self):
        p = self.put('x/nvme-tcp.ko', make_elf(
            ['license=GPL', 'name=nvme_tcp', 'vermagic=6.1'],
            ['tcp_read_sock', 'printk'], ['init_module']))
        self.assertEqual(elf.read_module(p),
                         ('nvme_tcp', ['tcp_read_sock', 'printk']))
        q = self.put('x/renamed.ko', make_elf(['name=kcm'], ['tcp_abort']))
        self.assertEqual(elf.read_module(q)[0], 'kcm')

    def test_defined_symbols_are_no_users(self):
        p = self.put('a.ko', make_elf(['name=a'], [], ['tcp_prot']))
        self.assertEqual(elf.read_module(p), ('a', []))

    def test_other_classes_and_byte_orders(self):
        for cls, big in ((32, False), (64, True), (32, True)):
            p = self.put(f'{cls}{big}.ko', make_elf(['name=m'], ['s'],
                                                    cls=cls, big=big))
            self.assertEqual(elf.read_module(p), ('m', ['s']), (cls, big))

    def test_compressed(self):
        img = make_elf(['name=udp_diag'], ['udp_table'])
        self.put('m.ko.xz', lzma.compress(img))
        self.put('m.ko.gz', gzip.compress(img))
        for f in ('m.ko.xz', 'm.ko.gz'):
            self.assertEqual(elf.read_module(os.path.join(self.root, f)),
                             ('udp_diag', ['udp_table']))

    @unittest.skipUnless(shutil.which('zstd'), 'no zstd(1)')
    def test_zstd(self):
        p = self.put('m.ko', make_elf(['name=z'], ['tcp_done']))
        subprocess.run(['zstd', '-q', p, '-o', p + '.zst'], check=True)
        self.assertEqual(elf.read_module(p + '.zst'), ('z', ['tcp_done']))

    def test_refused(self):
        no_name = self.put('n.ko', make_elf(['license=GPL'], ['x']))
        not_elf = self.put('t.ko', b'not an ELF file at all')
        for p in (no_name, not_elf):
            with self.assertRaises(InputError):
                elf.read_module(p)

    def test_is_module(self):
        self.assertTrue(elf.is_module('kernel/net/ipv6/ipv6.ko.zst'))
        self.assertFalse(elf.is_module('modules.order'))


@unittest.skipUnless(shutil.which('gcc') and shutil.which('nm'),
                     'no gcc or nm')
class AgainstNm(TreeCase):
    """What the derivation used before: nm -u on a real object file."""

    def test_same_as_nm(self):
        c = self.put('m.c', '''
extern int tcp_memory_pressure;
extern void tcp_done(void *);
extern void __attribute__((weak)) maybe(void);
static const char n[] __attribute__((section(".modinfo"), used)) =
	"name=m";
int f(void *sk) { tcp_done(sk); if (maybe) maybe();
	return tcp_memory_pressure; }
''')
        o = os.path.join(self.root, 'm.ko')
        subprocess.run(['gcc', '-c', '-O2', c, '-o', o], check=True)
        nm = subprocess.run(['nm', '-u', o], capture_output=True, text=True,
                            check=True).stdout.split()[1::2]
        name, undef = elf.read_module(o)
        self.assertEqual(name, 'm')
        self.assertEqual(sorted(undef), sorted(nm))
        self.assertIn('maybe', undef)


if __name__ == '__main__':
    unittest.main()
