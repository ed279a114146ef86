# SPDX-License-Identifier: GPL-2.0-or-later
"""What several test modules build: small files in a temporary tree, a
kernel-module-shaped ELF file, and a namespace table."""

import os
import struct
import tempfile
import unittest

from nsconv.table import Namespace


class TreeCase(unittest.TestCase):
    """A test with a temporary directory, self.root, and put() to fill it."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def put(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        mode = 'wb' if isinstance(text, bytes) else 'w'
        with open(path, mode) as f:
            f.write(text)
        return path


def make_elf(modinfo=(), undefined=(), defined=(), cls=64, big=False):
    """An ELF relocatable file with a .modinfo section holding modinfo
    (strings such as 'name=foo') and a .symtab with the undefined and
    defined symbols: the parts of a .ko that elf.read_module reads."""
    e = '>' if big else '<'
    strtab, names = b'\0', []
    for s in list(undefined) + list(defined):
        names.append(len(strtab))
        strtab += s.encode() + b'\0'
    if cls == 64:
        sym = e + 'IBBHQQ'
        syms = struct.pack(sym, 0, 0, 0, 0, 0, 0)
        for i, s in enumerate(list(undefined) + list(defined)):
            shndx = 0 if s in undefined else 1
            syms += struct.pack(sym, names[i], 0x10, 0, shndx, 0, 0)
        ehsize, shentsize, entsize = 64, 64, 24
    else:
        sym = e + 'IIIBBH'
        syms = struct.pack(sym, 0, 0, 0, 0, 0, 0)
        for i, s in enumerate(list(undefined) + list(defined)):
            shndx = 0 if s in undefined else 1
            syms += struct.pack(sym, names[i], 0, 0, 0x10, 0, shndx)
        ehsize, shentsize, entsize = 52, 40, 16
    info = b''.join(m.encode() + b'\0' for m in modinfo)
    shstr = b'\0.modinfo\0.symtab\0.strtab\0.shstrtab\0'
    secs = [(1, 1, info, 0, 0), (9, 2, syms, 3, entsize),
            (17, 3, strtab, 0, 0), (25, 3, shstr, 0, 0)]
    body, offs = b'', []
    for _, _, data, _, _ in secs:
        offs.append(ehsize + len(body))
        body += data
    shoff = ehsize + len(body)
    ident = b'\x7fELF' + bytes([2 if cls == 64 else 1, 2 if big else 1, 1])
    ident += b'\0' * 9
    if cls == 64:
        hdr = ident + struct.pack(e + 'HHIQQQIHHHHHH', 1, 62, 1, 0, 0, shoff,
                                  0, ehsize, 0, 0, shentsize, 5, 4)
        sh = e + 'IIQQQQIIQQ'
    else:
        hdr = ident + struct.pack(e + 'HHIIIIIHHHHHH', 1, 3, 1, 0, 0, shoff,
                                  0, ehsize, 0, 0, shentsize, 5, 4)
        sh = e + 'IIIIIIIIII'
    shdrs = struct.pack(sh, *[0] * 10)
    for (name, typ, data, link, ent), off in zip(secs, offs):
        shdrs += struct.pack(sh, name, typ, 0, 0, off, len(data), link, 0,
                             1, ent)
    return hdr + body + shdrs


def namespace(name, globs=('net/ipv4/tcp*.c',), partners=('ipv6',),
              **kw):
    return Namespace(name, list(globs), list(partners),
                     allow_in=kw.pop('allow_in', 'net/ipv4/tcp.c'),
                     macro=kw.pop('macro', f'EXPORT_SYMBOL_{name.upper()}'),
                     config=kw.pop('config',
                                   f'{name.upper()}_RESTRICT_EXPORTS'),
                     out_of_tree=kw.pop('out_of_tree', 'keep'), **kw)
