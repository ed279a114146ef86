#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bad-crc.py IN SYMBOL OUT: a copy of module IN whose __versions entry
for SYMBOL has its CRC flipped, as a module built against other headers
would have (bats/078-modversions.bats). Writes nothing and exits 0 when IN
has no __versions (a kernel without MODVERSIONS); exits 1 when it has one
without SYMBOL."""
import struct
import sys

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHDR = struct.Struct("<IIQQQQIIQQ")
# struct modversion_info on 64-bit: unsigned long crc; char name[56]
ENTRY = 64


def main(src, symbol, out):
    data = bytearray(open(src, "rb").read())
    ehdr = EHDR.unpack_from(data)
    shoff, shnum, shstrndx = ehdr[6], ehdr[12], ehdr[13]
    shdrs = [SHDR.unpack_from(data, shoff + i * SHDR.size)
             for i in range(shnum)]
    names = shdrs[shstrndx]
    for name, _, _, _, off, size, *_ in shdrs:
        start = names[4] + name
        if data[start:data.index(b"\0", start)] != b"__versions":
            continue
        for e in range(off, off + size, ENTRY):
            if data[e + 8:e + ENTRY].split(b"\0")[0] == symbol.encode():
                crc, = struct.unpack_from("<Q", data, e)
                struct.pack_into("<Q", data, e, crc ^ 0xffffffff)
                open(out, "wb").write(data)
                return 0
        print(f"bad-crc: {src}: no __versions entry for {symbol}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: bad-crc.py IN SYMBOL OUT")
    sys.exit(main(*sys.argv[1:]))
