# SPDX-License-Identifier: GPL-2.0-or-later
"""What every job shares: the input error that exits 2, the messages on
standard error (prefixed derive.py, the command the user ran), and file
I/O that keeps bytes which are not UTF-8."""

import sys


class InputError(Exception):
    """An input is missing or unreadable: exit 2, never a silent pass."""


def die(msg, status=2):
    print(f'derive.py: ERROR: {msg}', file=sys.stderr)
    sys.exit(status)


def note(msg):
    print(f'derive.py: {msg}', file=sys.stderr)


def read(path):
    """A file's text; bytes that are not UTF-8 survive a write() back."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        return f.read()


def write(path, text):
    with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(text)
