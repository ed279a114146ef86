#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Under MODVERSIONS a module needs the CRC of every kernel symbol it uses,
# and 6.1.192 refuses one without ("no symbol version"). A pristine tree
# prepared for external modules (vm/prepare-pristine.sh) has no vmlinux
# and so no Module.symvers. This prints the Module.symvers lines pristine
# 6.1 would have for the symbols the modules of MODDIR use, and
# module_layout: for each, the object of the patched build KOBJ that
# exports it (its .cmd file's #SYMVER line) is compiled in the pristine
# tree PKDIR, and genksyms' CRC is read from there. Nothing of the patched
# tree's CRCs is copied: a pristine-built module loads on the patched
# kernel only if the two agree.
#
# usage: pristine-symvers.sh PKDIR KOBJ MODDIR > PKDIR/Module.symvers
set -euo pipefail
pkdir=$1 kobj=$2 moddir=$3
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"

# The symbols the modules use that no module of MODDIR defines.
syms=$( { nm -u "$moddir"/*.o | awk '$1 == "U" { print $2 }'
	  echo module_layout; } | sort -u |
	comm -23 - <(nm --defined-only "$moddir"/*.o | awk 'NF == 3 { print $3 }' | sort -u))

# Where the patched build exports each one: ".../dir/.name.o.cmd:#SYMVER sym crc"
declare -A object=()
while IFS=: read -r cmd line; do
	set -- $line
	o=${cmd#"$kobj"/}
	o=$(dirname "$o")/$(basename "$o" .cmd)
	object[$2]=${o/\/./\/}
done < <(grep -r --include='.*.o.cmd' '^#SYMVER ' "$kobj" 2>/dev/null)

objs=()
for s in $syms; do
	[ -n "${object[$s]:-}" ] || { echo "pristine-symvers: no object of $kobj exports $s" >&2; exit 1; }
	objs+=("${object[$s]}")
done
make -s --no-print-directory -C "$pkdir" CC="$cc" HOSTCC="$cc" \
	$(printf '%s\n' "${objs[@]}" | sort -u) >&2

for s in $syms; do
	o=${object[$s]}
	crc=$(sed -n "s/^#SYMVER $s \(0x[0-9a-f]*\)$/\1/p" \
		"$pkdir/$(dirname "$o")/.$(basename "$o").cmd")
	[ -n "$crc" ] || { echo "pristine-symvers: pristine $o has no CRC for $s" >&2; exit 1; }
	printf '%s\t%s\tvmlinux\tEXPORT_SYMBOL\t\n' "$crc" "$s"
done
