#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# With MODVERSIONS, a module records module_layout's CRC, which genksyms
# derives from struct module and everything it reaches: a module built
# against pristine 6.1 loads on the patched kernel only if that CRC is
# the same on both. Compute it in the pristine tree of the same
# configuration (one object, kernel/module/version.o) and compare it with
# the patched build's Module.symvers.
#
# usage: modversions-check.sh PSRC POBJ KOBJ
set -euo pipefail
psrc=$1 pobj=$2 kobj=$3
grep -q '^CONFIG_MODVERSIONS=y' "$kobj/.config" || {
	echo "modversions-check: MODVERSIONS is off in $kobj: nothing to compare"
	exit 0
}
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
make -s --no-print-directory -C "$psrc" O="$pobj" CC="$cc" HOSTCC="$cc" \
	kernel/module/version.o
# 6.1 keeps a object's symbol versions in its .cmd file (#SYMVER lines).
pristine=$(sed -n 's/^#SYMVER module_layout \(0x[0-9a-f]*\)$/\1/p' \
	"$pobj/kernel/module/.version.o.cmd")
patched=$(awk '$2 == "module_layout" { print $1 }' "$kobj/Module.symvers")
[ -n "$pristine" ] && [ -n "$patched" ] || {
	echo "modversions-check: no CRC of module_layout (pristine '$pristine', patched '$patched')" >&2
	exit 1
}
if [ "$((pristine))" != "$((patched))" ]; then
	echo "modversions-check: module_layout CRC $patched patched, $pristine pristine: modules built against 6.1 will not load" >&2
	exit 1
fi
echo "modversions-check: module_layout CRC $patched on both: struct module is unchanged"
