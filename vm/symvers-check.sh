#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The network conversions' switch (kernel-patch/0025-0027) keeps 6.1's
# module ABI when it is off: every converted symbol's Module.symvers line
# (CRC, symbol, vmlinux, export type, namespace) must be pristine 6.1's
# for the same configuration, byte for byte. With it on, the line is the
# same but for the namespace. The pristine lines come from pristine 6.1's
# own tools: the exporting objects (conversions/lists.txt) compiled in
# the pristine tree of this configuration, linked into a vmlinux.o of
# their own, and pristine modpost run on it as the kernel build runs it
# (CRCs from the objects' .cmd files, -m under MODVERSIONS).
#
# Then the same comparison on a copy of the patched lines with one of
# them changed must fail: the check can fail.
#
# usage: symvers-check.sh PSRC POBJ KOBJ
set -euo pipefail
psrc=$(realpath "$1") pobj=$(realpath "$2") kobj=$(realpath "$3")
here=$(cd "$(dirname "$0")/.." && pwd)
lists=$here/conversions/lists.txt table=$here/conversions/conversions.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"

# The converted symbols, their namespace, and each namespace's switch.
awk -F'\t' '$1 == "restrict" { print $5 "\t" $2 }' "$lists" | sort >"$tmp/symbols"
[ -s "$tmp/symbols" ] || { echo "symvers-check: no restrict line in $lists" >&2; exit 2; }
# The exporting objects this configuration builds (the patched build has
# them): tcp_bpf.o, for one, needs BPF_SYSCALL.
mapfile -t objs < <(awk -F'\t' '$1 == "restrict" { sub(/\.c$/, ".o", $4); print $4 }' \
	"$lists" | sort -u | while read -r o; do [ ! -f "$kobj/$o" ] || echo "$o"; done)
[ ${#objs[@]} -gt 0 ] || { echo "symvers-check: $kobj built none of the exporting objects" >&2; exit 2; }

make -s --no-print-directory -C "$psrc" O="$pobj" CC="$cc" HOSTCC="$cc" \
	-j"$(nproc)" "${objs[@]}"
printf "$pobj/%s\n" "${objs[@]}" >"$tmp/.vmlinux.objs"
ld -r -o "$tmp/vmlinux.o" "${objs[@]/#/$pobj/}"
modpost_args=()
grep -q '^CONFIG_MODVERSIONS=y' "$pobj/.config" && modpost_args+=(-m)
(cd "$tmp" && "$pobj/scripts/mod/modpost" "${modpost_args[@]}" \
	-o Module.symvers vmlinux.o) 2>"$tmp/modpost.err" || {
	cat "$tmp/modpost.err" >&2
	echo "symvers-check: pristine modpost failed" >&2
	exit 2
}

# want: pristine's line of each converted symbol, its namespace field set
# to the namespace when this build has the namespace's switch on.
on=()
while IFS=$'\t' read -r ns config; do
	grep -qx "CONFIG_$config=y" "$kobj/.config" && on+=("$ns")
done < <(awk -F'\t' '$2 == "config" { print $1 "\t" $3 }' "$table")
awk -F'\t' -v OFS='\t' -v on="${on[*]}" '
	BEGIN { n = split(on, a, " "); for (i = 1; i <= n; i++) sw[a[i]] = 1 }
	NR == FNR { ns[$1] = $2; next }
	$2 in ns { $5 = ($5 == "" && sw[ns[$2]]) ? ns[$2] : $5; print }
' "$tmp/symbols" "$tmp/Module.symvers" | sort -k2,2 >"$tmp/want"
awk -F'\t' 'NR == FNR { ns[$1]; next } $2 in ns' "$tmp/symbols" \
	"$kobj/Module.symvers" | sort -k2,2 >"$tmp/have"

# The converted symbols this configuration exports: those of the
# patched build's lines (an exporting object's #ifdef may drop some);
# pristine must export the same ones.
total=$(wc -l <"$tmp/have")
[ "$total" -gt 0 ] || { echo "symvers-check: no converted symbol in $kobj/Module.symvers" >&2; exit 2; }
compare() {
	cmp -s "$1" "$2"
}
if ! compare "$tmp/want" "$tmp/have"; then
	echo "symvers-check: FAIL: converted symbols whose Module.symvers line differs (- pristine 6.1, + $kobj):" >&2
	diff "$tmp/want" "$tmp/have" | sed -n 's/^</  -/p; s/^>/  +/p' >&2
	exit 1
fi

# The control: one line changed (its export type) must be found.
awk -F'\t' -v OFS='\t' 'NR == 1 { $4 = ($4 == "EXPORT_SYMBOL") ? "EXPORT_SYMBOL_GPL" : "EXPORT_SYMBOL" } 1' \
	"$tmp/have" >"$tmp/changed"
if compare "$tmp/want" "$tmp/changed"; then
	echo "symvers-check: FAIL: the control (one line changed) was not found" >&2
	exit 1
fi
if [ ${#on[@]} = 0 ]; then
	state="switches off: byte for byte"
else
	state="switch on for ${on[*]}: but for the namespace"
fi
echo "symvers-check: the $total converted symbols this configuration exports" \
	"($(wc -l <"$tmp/symbols") in the lists) have pristine 6.1's Module.symvers lines" \
	"($state); the control with one line changed fails"
