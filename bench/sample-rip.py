#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sample a running guest's instruction pointer through QEMU's monitor.

usage: sample-rip.py MONITOR_SOCKET SYSTEM_MAP GUEST_OUTPUT PROFILE PHASE...

For each PHASE in turn, polls GUEST_OUTPUT (the results port's file)
until the guest prints '# profile start PHASE', then asks the monitor for
'info registers' every few milliseconds until '# profile end PHASE', and
writes PROFILE.PHASE: samples per vmlinux function, most first, with
'[user]' and '[module]' for addresses outside vmlinux's text. Under single-threaded TCG with -icount the host
time between samples is roughly a number of guest instructions, so the
counts are shares of the guest's work, not exact ones.
"""
import re
import socket
import sys
import time

from sysmap import SystemMap

sock_path, sysmap, guest_out, profile = sys.argv[1:5]
phases = sys.argv[5:]
symbols = SystemMap(sysmap)


def guest_said(what):
    try:
        return what in open(guest_out, errors='replace').read()
    except FileNotFoundError:
        return False


def name_of(rip):
    if rip < 0xffff800000000000:
        return '[user]'
    if rip >= 0xffffffffc0000000:
        return '[module]'
    return symbols.function(rip)


sock = None
for _ in range(600):
    try:
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(sock_path)
        break
    except OSError:
        sock = None
        time.sleep(0.1)
if sock is None:
    sys.exit(f'sample-rip: no monitor at {sock_path}')
sock.settimeout(10)


def monitor(cmd):
    sock.sendall(cmd.encode() + b'\n')
    buf = b''
    while not buf.rstrip().endswith(b'(qemu)'):
        chunk = sock.recv(65536)
        if not chunk:
            raise OSError('monitor closed')
        buf += chunk
    return buf.decode(errors='replace')


monitor('')
for phase in phases:
    while not guest_said(f'# profile start {phase}\n'):
        time.sleep(0.05)
    counts = {}
    try:
        while not guest_said(f'# profile end {phase}\n'):
            m = re.search(r'RIP=([0-9a-f]{16})', monitor('info registers'))
            if m:
                name = name_of(int(m.group(1), 16))
                counts[name] = counts.get(name, 0) + 1
            time.sleep(0.005)
    except (OSError, socket.timeout):
        pass
    if not counts:
        sys.exit(f'sample-rip: no sample taken in {phase}')
    with open(f'{profile}.{phase}', 'w') as out:
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            out.write(f'{n}\t{name}\n')
