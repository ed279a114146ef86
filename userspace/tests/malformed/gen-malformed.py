#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Write corrupted variants of a module that declares namespace grants
# (MODULE_NAMESPACE_ALLOW): its __ns_allow records, that section's header,
# and its modinfo allow_ns= entries.
#
#   gen-malformed.py IN.ko TABLE OUTDIR
#
# IN.ko is an x86_64 (ELF64, little-endian) kernel module with an
# allocated __ns_allow section and a .modinfo section. TABLE is
# userspace/tests/malformed/malformed.tsv: for each row, OUTDIR/<variant>.ko is written by
# the function below registered under the row's variant name. What the
# kernel and nscheck do with each variant is the table's business; this
# only makes the files. Every variant keeps the module's name.
#
# A section that grows is appended at the end of the file and its header
# pointed at the new bytes; one that shrinks or keeps its size is
# rewritten in place.

import os
import struct
import sys

PROG = "gen-malformed"

ET_REL = 1
SHT_RELA = 4
SHT_NOBITS = 8
R_X86_64_64 = 1
SHF_WRITE = 0x1
SHF_ALLOC = 0x2

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHDR = struct.Struct("<IIQQQQIIQQ")
SHDR_FIELDS = ("name", "type", "flags", "addr", "offset", "size", "link",
               "info", "addralign", "entsize")
# struct module (6.1, x86_64): state (4, padded to 8), list (16), name[56]
MODULE_NAME_OFF = 24
MODULE_NAME_LEN = 56


class BadInput(Exception):
    pass


def die(msg):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(1)


class Module:
    """A parsed module: the file's bytes and its section headers."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.data = bytes(f.read())
        except OSError as e:
            raise BadInput(e.strerror)
        d = self.data
        if len(d) < EHDR.size or d[:4] != b"\x7fELF":
            raise BadInput("not an ELF file")
        if d[4] != 2 or d[5] != 1:
            raise BadInput("not a 64-bit little-endian ELF file")
        (_, e_type, _, _, _, _, self.shoff, _, _, _, _, shentsize,
         self.shnum, shstrndx) = EHDR.unpack_from(d)
        if e_type != ET_REL:
            raise BadInput(f"ELF type {e_type} is not a relocatable object: "
                           "not a kernel module")
        if (shentsize != SHDR.size or self.shnum == 0 or
                self.shoff + self.shnum * SHDR.size > len(d)):
            raise BadInput("corrupt section header table")
        self.shdrs = [dict(zip(SHDR_FIELDS,
                               SHDR.unpack_from(d, self.shoff + i * SHDR.size)))
                      for i in range(self.shnum)]
        if not 0 < shstrndx < self.shnum:
            raise BadInput("no section name table")
        strtab = self.shdrs[shstrndx]
        if strtab["offset"] + strtab["size"] > len(d):
            raise BadInput("section name table past the end of the file")
        names = d[strtab["offset"]:strtab["offset"] + strtab["size"]]
        for s in self.shdrs:
            end = names.find(b"\0", s["name"])
            if s["name"] >= len(names) or end < 0:
                raise BadInput("corrupt section name")
            s["sname"] = names[s["name"]:end].decode("latin-1")
        self.ns_allow = self.find("__ns_allow")
        self.modinfo = self.find(".modinfo")
        this = self.find(".gnu.linkonce.this_module")
        raw = self.contents(this)[MODULE_NAME_OFF:
                                  MODULE_NAME_OFF + MODULE_NAME_LEN]
        self.name = raw.split(b"\0")[0].decode("latin-1")
        if not self.name:
            raise BadInput("no name in struct module")
        self.records = self.contents(self.ns_allow).split(b"\0")
        if self.records.pop() != b"" or not self.records:
            raise BadInput("__ns_allow does not hold NUL-terminated records")
        self.info = self.contents(self.modinfo).rstrip(b"\0").split(b"\0")

    def find(self, name):
        """The first allocated section called name, as the kernel's find_sec()."""
        for i, s in enumerate(self.shdrs):
            if i and s["sname"] == name and s["flags"] & SHF_ALLOC:
                if s["type"] == SHT_NOBITS or \
                   s["offset"] + s["size"] > len(self.data):
                    raise BadInput(f"{name}: no contents in the file")
                return i
        raise BadInput(f"no allocated {name} section")

    def contents(self, idx):
        s = self.shdrs[idx]
        return self.data[s["offset"]:s["offset"] + s["size"]]


class Variant:
    """A copy of the module being corrupted."""

    def __init__(self, mod):
        self.mod = mod
        self.data = bytearray(mod.data)
        self.shoff = mod.shoff

    def shdr_off(self, idx, field):
        off = {"name": 0, "type": 4, "flags": 8, "addr": 16, "offset": 24,
               "size": 32, "link": 40, "info": 44, "addralign": 48,
               "entsize": 56}[field]
        return self.shoff + idx * SHDR.size + off

    def get(self, idx, field):
        fmt = "<I" if field in ("name", "type", "link", "info") else "<Q"
        return struct.unpack_from(fmt, self.data, self.shdr_off(idx, field))[0]

    def set(self, idx, field, value):
        fmt = "<I" if field in ("name", "type", "link", "info") else "<Q"
        struct.pack_into(fmt, self.data, self.shdr_off(idx, field),
                         value % (1 << (struct.calcsize(fmt) * 8)))

    def append(self, blob, odd=False):
        """Put blob at the end of the file (at an odd offset if asked)."""
        if odd and len(self.data) % 2 == 0:
            self.data += b"\xa5"
        off = len(self.data)
        self.data += blob
        return off

    def replace(self, idx, blob):
        """New contents for a section: in place if they fit, else appended."""
        if len(blob) <= self.get(idx, "size"):
            off = self.get(idx, "offset")
            self.data[off:off + len(blob)] = blob
        else:
            self.set(idx, "offset", self.append(blob))
        self.set(idx, "size", len(blob))

    # the two sections of interest
    def records(self, recs):
        self.replace(self.mod.ns_allow, b"".join(r + b"\0" for r in recs))

    def modinfo(self, entries, terminated=True):
        blob = b"\0".join(entries) + (b"\0" if terminated else b"")
        self.replace(self.mod.modinfo, blob)

    def add_section(self, like, blob):
        """A copy of section header like, with contents blob, as the last
        section: the header table moves to the end of the file."""
        n = self.mod.shnum
        table = bytearray(self.data[self.shoff:self.shoff + n * SHDR.size])
        table += table[like * SHDR.size:(like + 1) * SHDR.size]
        struct.pack_into("<QQ", table, n * SHDR.size + 24,
                         self.append(blob), len(blob))
        while len(self.data) % 8:
            self.data += b"\0"
        self.shoff = self.append(bytes(table))
        struct.pack_into("<Q", self.data, 40, self.shoff)
        struct.pack_into("<H", self.data, 60, n + 1)


class Rand:
    """xorshift32: the same bytes on every machine and Python."""

    def __init__(self, seed):
        self.x = seed or 1

    def byte(self):
        x = self.x
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        x ^= (x << 5) & 0xffffffff
        self.x = x
        return x & 0xff

    def bytes(self, n, nonzero=False):
        out = bytearray()
        while len(out) < n:
            b = self.byte()
            if b or not nonzero:
                out.append(b)
        return bytes(out)


VARIANTS = {}


def variant(name):
    def register(fn):
        VARIANTS[name] = fn
        return fn
    return register


def allow_ns(v):
    return [e for e in v.mod.info if e.startswith(b"allow_ns=")]


def other_info(v):
    return [e for e in v.mod.info if not e.startswith(b"allow_ns=")]


def record_offset(v, n):
    """Byte offset of record n (negative: from the end) in the section."""
    recs = v.mod.records
    return sum(len(r) + 1 for r in recs[:n % len(recs)])


# --- the section header of __ns_allow ------------------------------------

@variant("size_zero")
def _(v):
    v.set(v.mod.ns_allow, "size", 0)


@variant("size_past_eof")
def _(v):
    v.set(v.mod.ns_allow, "size", len(v.data))


@variant("size_wraps")
def _(v):
    v.set(v.mod.ns_allow, "size", (1 << 64) - 1)


@variant("size_into_next")
def _(v):
    v.set(v.mod.ns_allow, "size", v.get(v.mod.ns_allow, "size") + 16)


@variant("size_cut_record")
def _(v):
    v.set(v.mod.ns_allow, "size", v.get(v.mod.ns_allow, "size") - 4)


@variant("size_cut_boundary")
def _(v):
    # Ends before the first nsa_user record: whole records, fewer of them.
    first = v.mod.records.index(b"NSA_RESTR:nsa_user")
    v.set(v.mod.ns_allow, "size", record_offset(v, first))


@variant("offset_past_eof")
def _(v):
    v.set(v.mod.ns_allow, "offset", len(v.data) + 0x1000)


@variant("offset_wraps")
def _(v):
    v.set(v.mod.ns_allow, "offset", (1 << 64) - 0x10)


@variant("offset_modinfo")
def _(v):
    v.set(v.mod.ns_allow, "offset", v.get(v.mod.modinfo, "offset"))


@variant("offset_plus_one")
def _(v):
    v.set(v.mod.ns_allow, "offset", v.get(v.mod.ns_allow, "offset") + 1)


@variant("offset_minus_one")
def _(v):
    v.set(v.mod.ns_allow, "offset", v.get(v.mod.ns_allow, "offset") - 1)


@variant("offset_odd_moved")
def _(v):
    blob = bytes(v.mod.contents(v.mod.ns_allow))
    v.set(v.mod.ns_allow, "offset", v.append(blob, odd=True))


@variant("addralign_odd")
def _(v):
    v.set(v.mod.ns_allow, "addralign", 3)


@variant("addralign_page")
def _(v):
    v.set(v.mod.ns_allow, "addralign", 4096)


@variant("type_nobits")
def _(v):
    v.set(v.mod.ns_allow, "type", SHT_NOBITS)


@variant("flags_noalloc")
def _(v):
    v.set(v.mod.ns_allow, "flags", v.get(v.mod.ns_allow, "flags") & ~SHF_ALLOC)


@variant("flags_write")
def _(v):
    v.set(v.mod.ns_allow, "flags", v.get(v.mod.ns_allow, "flags") | SHF_WRITE)


@variant("second_noalloc")
def _(v):
    v.add_section(v.mod.ns_allow, Rand(2).bytes(64))
    v.set(v.mod.shnum, "flags", v.get(v.mod.ns_allow, "flags") & ~SHF_ALLOC)


@variant("second_alloc")
def _(v):
    # The same records again, in a second allocated __ns_allow.
    v.add_section(v.mod.ns_allow, bytes(v.mod.contents(v.mod.ns_allow)))


@variant("relocated")
def _(v):
    # A relocation section whose target is __ns_allow: apply_relocations()
    # would write into the records after they were checked. One
    # R_X86_64_64 at offset 0 against the null symbol, addend "evil:me".
    rela = next(i for i, s in enumerate(v.mod.shdrs)
                if i and s["type"] == SHT_RELA)
    v.add_section(rela, struct.pack("<QQq", 0, R_X86_64_64,
                                    int.from_bytes(b"evil:me\0", "little",
                                                   signed=True)))
    v.set(v.mod.shnum, "info", v.mod.ns_allow)


# --- the records ---------------------------------------------------------

def add_record(v, rec):
    v.records(v.mod.records + [rec])


@variant("unterminated")
def _(v):
    blob = bytearray(v.mod.contents(v.mod.ns_allow))
    blob[-1] = ord("x")
    v.replace(v.mod.ns_allow, bytes(blob))


@variant("empty_record")
def _(v):
    recs = list(v.mod.records)
    recs.insert(len(recs) - 2, b"")
    v.records(recs)


@variant("empty_ns")
def _(v):
    add_record(v, b":nsa_user")


@variant("empty_module")
def _(v):
    add_record(v, b"NSA_RESTR:")


@variant("no_colon")
def _(v):
    add_record(v, b"NSA_RESTR_nsa_user")


@variant("two_colons")
def _(v):
    add_record(v, b"NSA_RESTR:nsa:user")


@variant("bad_char")
def _(v):
    add_record(v, b"NSA_RESTR:nsa-user")


@variant("latin1_char")
def _(v):
    add_record(v, b"NSA_RESTR:nsa_us\xe9r")


def add_grant(v, rec):
    """A record, and the modinfo entry that must go with it."""
    add_record(v, rec)
    v.modinfo(v.mod.info + [b"allow_ns=" + rec])


@variant("ns_max")
def _(v):
    add_grant(v, b"N" * 127 + b":nsa_user")


@variant("prefix")
def _(v):
    add_grant(v, b"NSA_RESTR:nsa_glob_*")


@variant("prefix_star_inside")
def _(v):
    add_grant(v, b"NSA_RESTR:nsa*user")


@variant("prefix_star_alone")
def _(v):
    add_grant(v, b"NSA_RESTR:*")


@variant("huge_ns")
def _(v):
    add_record(v, b"N" * 128 + b":nsa_user")


@variant("huge_module")
def _(v):
    add_record(v, b"NSA_RESTR:" + b"m" * 56)


@variant("huge_name_1m")
def _(v):
    add_record(v, b"N" * (1 << 20) + b":nsa_user")


@variant("duplicated")
def _(v):
    v.records(v.mod.records * 2)


@variant("huge_count")
def _(v):
    # More records for one namespace than one kmalloc() can index:
    # 530000 pointers are more than 4 MiB.
    v.records(v.mod.records + [b"NSA_RESTR:nsa_user"] * 530000)


@variant("garbage")
def _(v):
    v.replace(v.mod.ns_allow,
              Rand(1).bytes(v.get(v.mod.ns_allow, "size")))


@variant("garbage_appended")
def _(v):
    v.replace(v.mod.ns_allow,
              bytes(v.mod.contents(v.mod.ns_allow)) + Rand(3).bytes(64))


# --- modinfo allow_ns= -----------------------------------------------------

@variant("modinfo_unterminated")
def _(v):
    # allow_ns= entries last, the very last one without its NUL
    v.modinfo(other_info(v) + allow_ns(v), terminated=False)


@variant("modinfo_empty")
def _(v):
    v.modinfo(v.mod.info + [b"allow_ns="])


@variant("modinfo_empty_ns")
def _(v):
    v.modinfo(v.mod.info + [b"allow_ns=:nsa_user"])


@variant("modinfo_empty_module")
def _(v):
    v.modinfo(v.mod.info + [b"allow_ns=NSA_RESTR:"])


@variant("modinfo_huge")
def _(v):
    v.modinfo(v.mod.info + [b"allow_ns=NSA_RESTR:" + b"m" * 4096])


@variant("modinfo_garbage")
def _(v):
    v.modinfo(v.mod.info + [b"allow_ns=" + Rand(4).bytes(48, nonzero=True)])


@variant("modinfo_mismatch")
def _(v):
    v.modinfo(v.mod.info + [b"allow_ns=NSA_RESTR:nsa_denied"])


@variant("modinfo_missing")
def _(v):
    v.modinfo(other_info(v))


@variant("modinfo_duplicated")
def _(v):
    v.modinfo(other_info(v) + allow_ns(v) * 2)


@variant("modinfo_reordered")
def _(v):
    # the loader's one-for-one comparison fails: it compares the sets
    v.modinfo(other_info(v) + allow_ns(v)[::-1])


def read_table(path):
    """(line number, variant) for each row of the table."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        die(f"{path}: {e.strerror}")
    rows = []
    for n, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 5:
            die(f"{path}:{n}: {len(cols)} columns, not 5 "
                "(variant errno message nscheck why)")
        if cols[0] not in VARIANTS:
            die(f"{path}:{n}: unknown variant '{cols[0]}'")
        if cols[0] in (r[1] for r in rows):
            die(f"{path}:{n}: variant '{cols[0]}' twice")
        rows.append((n, cols[0]))
    if not rows:
        die(f"{path}: no variants")
    return rows


def main(argv):
    if len(argv) != 4:
        die("usage: gen-malformed.py IN.ko TABLE OUTDIR")
    src, table, outdir = argv[1:]
    rows = read_table(table)
    try:
        mod = Module(src)
    except BadInput as e:
        die(f"{src}: {e}")
    os.makedirs(outdir, exist_ok=True)
    for n, name in rows:
        v = Variant(mod)
        try:
            VARIANTS[name](v)
        except (ValueError, IndexError, struct.error) as e:
            die(f"{table}:{n}: variant '{name}' does not apply to {src}: {e}")
        with open(os.path.join(outdir, name + ".ko"), "wb") as f:
            f.write(v.data)
    # The table's NS_ALLOW_SECTION: where __ns_allow is in this build.
    with open(os.path.join(outdir, "ns_allow_section"), "w") as f:
        f.write(f"{mod.ns_allow}\n")


if __name__ == "__main__":
    main(sys.argv)
