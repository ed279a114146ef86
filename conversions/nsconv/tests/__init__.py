# SPDX-License-Identifier: GPL-2.0-or-later
"""Host tests of the nsconv package: python3 -m unittest, run from
conversions/. Standard library only; no kernel tree or Debian tree is
needed (the bats tests in ../../tests/ and make check use the real data)."""
