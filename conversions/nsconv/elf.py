# SPDX-License-Identifier: GPL-2.0-or-later
"""A kernel module file's name and undefined symbols, read from its ELF
sections without nm or any library: the module's name is its modinfo
name= (what the kernel and nscheck call it, and what a grant names),
never its file name; its undefined symbols are the .symtab entries of
section index SHN_UNDEF, which is what nm -u lists.

Compressed modules are read as nscheck and kmod read them: .ko.xz and
.ko.gz with the standard library, .ko.zst with zstd(1) (Python 3.11 has
no zstd module)."""

import gzip
import lzma
import struct
import subprocess

from .common import InputError

SUFFIXES = ('.ko', '.ko.xz', '.ko.gz', '.ko.zst')
SHT_SYMTAB = 2
SHN_UNDEF = 0


def is_module(path):
    return path.endswith(SUFFIXES)


def module_bytes(path):
    """The ELF image of a module file, decompressed."""
    if path.endswith('.ko.xz'):
        return lzma.open(path).read()
    if path.endswith('.ko.gz'):
        return gzip.open(path).read()
    if path.endswith('.ko.zst'):
        try:
            p = subprocess.run(['zstd', '-dcq', path], capture_output=True)
        except FileNotFoundError:
            raise InputError(f'{path}: zstd(1) is needed to read it')
        if p.returncode != 0:
            raise InputError(f'{path}: zstd: {p.stderr.decode().strip()}')
        return p.stdout
    with open(path, 'rb') as f:
        return f.read()


def sections(img, path):
    """[(name, type, offset, size, link)] of an ELF image, either class
    and byte order (a module is the kernel's, whatever the host's)."""
    if img[:4] != b'\x7fELF' or img[4] not in (1, 2) or img[5] not in (1, 2):
        raise InputError(f'{path}: not an ELF file')
    end = '<' if img[5] == 1 else '>'
    if img[4] == 2:                               # ELFCLASS64
        shoff, = struct.unpack_from(end + 'Q', img, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(end + 'HHH', img,
                                                        0x3a)
        shdr = end + 'IIQQQQIIQQ'
    else:
        shoff, = struct.unpack_from(end + 'I', img, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(end + 'HHH', img,
                                                        0x2e)
        shdr = end + 'IIIIIIIIII'
    raw = [struct.unpack_from(shdr, img, shoff + i * shentsize)
           for i in range(shnum)]
    if not raw or shstrndx >= shnum:
        raise InputError(f'{path}: no section headers')
    names = raw[shstrndx][4]
    return [(cstr(img, names + h[0]), h[1], h[4], h[5], h[6]) for h in raw]


def cstr(img, off):
    return img[off:img.index(b'\0', off)].decode('utf-8', 'surrogateescape')


def read_module(path):
    """(modinfo name=, [undefined symbol]) of a module file. A module
    without name= is refused: guessing it from the file name is what
    this replaces (nvme-tcp.ko is nvme_tcp, but nothing says a file's
    name has to match at all)."""
    img = module_bytes(path)
    secs = sections(img, path)
    big = img[5] == 2
    name, undef = None, []
    for sname, typ, off, size, link in secs:
        if sname == '.modinfo':
            for entry in img[off:off + size].split(b'\0'):
                if entry.startswith(b'name='):
                    name = entry[5:].decode('utf-8', 'surrogateescape')
        elif typ == SHT_SYMTAB:
            stroff = secs[link][2]
            if img[4] == 2:
                fmt, ent = ('>' if big else '<') + 'IBBHQQ', 24
            else:
                fmt, ent = ('>' if big else '<') + 'IIIBBH', 16
            for i in range(1, size // ent):
                f = struct.unpack_from(fmt, img, off + i * ent)
                shndx = f[3] if img[4] == 2 else f[5]
                if shndx == SHN_UNDEF and f[0]:
                    undef.append(cstr(img, stroff + f[0]))
    if not name:
        raise InputError(f'{path}: no name= in .modinfo')
    return name, undef
