#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Copy the configuration of Debian's newest linux-image-6.1 amd64 package
# (downloaded with apt-get download and extracted with dpkg -x, never
# installed: userspace/debian-tree.sh) to OUT. It is the base of the debug
# guest's kernel (Makefile, FLAVOR=debug); vm/config/README.md says what
# the guest changes in it and why.
# usage: debian-config.sh OUT
set -euo pipefail
out=${1:?usage: debian-config.sh OUT}
. "$(dirname "$0")/../userspace/debian-tree.sh"
debian_tree_prepare >&2
cfg=$DEB_TREE/boot/config-$DEB_KVER
[ -r "$cfg" ] || { echo "debian-config: no $cfg" >&2; exit 1; }
# Only when it changed, so that make sees an unchanged base as unchanged.
cmp -s "$cfg" "$out" 2>/dev/null || cp "$cfg" "$out"
