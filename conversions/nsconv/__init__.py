# SPDX-License-Identifier: GPL-2.0-or-later
"""nsconv: the tcp, tcpcong and udp namespace conversions, derived from
data (SPEC section 8.1). One module a job, as tools/testing/kunit splits
kunit.py:

  common   errors, messages and file I/O every job shares
  table    conversions.tsv, the intent
  kbuild   Kconfig and Kbuild: which .c file can be which module
  cscan    the C scan: references to a name, followed through headers
  elf      a module file's modinfo name= and undefined symbols
  debian   Debian's extracted linux-image tree and its modules' users
  outoftree  out-of-tree users: DKMS packages and other known modules
  rule     the derivation: each candidate's verdict, the grants
  lists    lists.txt, the derivation's canonical form
  report   report.txt, the commit-message texts and explain
  patches  check (the series against the lists) and apply

../derive.py is the command line; tests/ holds the host tests
(python3 -m unittest, run from conversions/).
"""
