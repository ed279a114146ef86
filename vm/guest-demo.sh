#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, run in the guest by 'make' (nsa.mode=demo): for a few rows of
# cases.tsv, what nscheck predicts from the files, then what insmod and
# the kernel do.
NSA=/usr/share/nsa
show=(allowed allowed_vmlinux open_noimport denied undeclared wrong_module
	wrong_module_vmlinux nongpl_restricted symbol_get symbol_get_denied
	malformed_colon tcpcong_out_of_tree)

echo "kernel $(uname -r), patched with kernel-patch/series"
echo "modules that export into NSA_RESTR, and whom they let in:"
for m in nsa_exp nsa_exp2 nsa_lister; do
	printf '  %-11s %s\n' "$m" "$(modinfo -F allow_ns "$NSA/ko/$m.ko" | tr '\n' ' ')"
done
for c in "${show[@]}"; do
	IFS=$'\t' read -r _ first module _ <<<"$(awk -F'\t' -v c="$c" '$1 == c' "$NSA/cases.tsv")"
	[ "$first" = - ] && first=
	echo
	echo "== $c: ${first:+with $first loaded, }load $module"
	files=()
	for m in $first $module; do files+=("$NSA/ko/$m.ko"); done
	echo "nscheck predicts:"
	nscheck -E "$NSA/Module.symvers" "${files[@]}" 2>&1 | sed 's/^/    /'
	dmesg -C
	for m in $first; do insmod "$NSA/ko/$m.ko"; done
	if insmod "$NSA/ko/$module.ko" 2>/tmp/err; then
		echo "insmod $module.ko: loaded"
	else
		echo "$(cat /tmp/err)"
	fi
	echo "kernel says:"
	dmesg --notime | grep -v 'taints kernel' | sed 's/^/    /'
	for m in $module $(echo $first | tr ' ' '\n' | tac); do
		rmmod "$(modinfo -F name "$NSA/ko/$m.ko")" 2>/dev/null
	done
done
