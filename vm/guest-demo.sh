#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, run in the guest by 'make' (nsa.mode=demo) and tested by
# bats/015-demo.bats: for some rows of cases.tsv, from a clean state each
# time, what nscheck predicts from the files and what insmod and the
# kernel then do, as a table; then the kernel's lines for each case.
# Exits 1 if nscheck and the kernel disagree, or a step goes wrong.
set -u
NSA=/usr/share/nsa
show=(allowed allowed_vmlinux open_noimport denied undeclared wrong_module
	wrong_module_vmlinux nongpl_restricted glob for_modules_glob_dash
	for_modules_not_listed for_modules_import sig_impostor
	sig_owner_unsigned_user symbol_get symbol_get_denied malformed_colon
	tcpcong_out_of_tree)
status=0

ko() { echo "$NSA/ko/$1.ko"; }
modname() { modinfo -F name "$(ko "$1")"; }

# Unload the given modules (file names), last first, if they are loaded.
unload() {
	local i m
	for ((i = $#; i > 0; i--)); do
		m=$(modname "${!i}")
		[ -e "/sys/module/$m/refcnt" ] && rmmod "$m"
	done
	return 0
}

echo "kernel $(uname -r), patched with kernel-patch/series"
echo "the grants of the test exporters (modinfo -F allow_ns):"
for m in nsa_exp nsa_lister nsa_glob_exp; do
	printf '  %-13s %s\n' "$m" "$(modinfo -F allow_ns "$(ko "$m")" | tr '\n' ' ')"
done
echo
printf '%-30s %-9s %-30s %s\n' case nscheck "the kernel" agree
lines=$(mktemp)
for c in "${show[@]}"; do
	IFS=$'\t' read -r _ first module _ _ expect _ \
		<<<"$(awk -F'\t' -v c="$c" '$1 == c' "$NSA/cases.tsv")"
	[ "$first" = - ] && first=
	files=()
	for m in $first $module; do files+=("$(ko "$m")"); done

	nscheck -E "$NSA/Module.symvers" --trusted-key "$NSA/signing_key.x509" \
		"${files[@]}" >/dev/null 2>&1
	case $? in
	0) predicted=loads ;;
	1) predicted=refused ;;
	*) predicted=invalid ;;
	esac
	[ "$expect" = - ] && predicted="-"

	unload $first "$module"
	# A case is only shown from a clean state: a module of that name
	# still loaded (the real ipv6 cannot be unloaded) would answer
	# "File exists" for the case's own file.
	if [ -e "/sys/module/$(modname "$module")" ]; then
		echo "demo: $c: $(modname "$module") is loaded and cannot be unloaded; boot afresh" >&2
		status=1
		continue
	fi
	dmesg -C
	for m in $first; do
		insmod "$(ko "$m")" || { echo "demo: $c: cannot load $m" >&2; status=1; }
	done
	if err=$(insmod "$(ko "$module")" 2>&1); then
		did=loads
	else
		did="refused: ${err##*: }"
	fi
	{
		echo "== $c: ${first:+with $first loaded, }insmod $module.ko"
		dmesg --notime | grep -v 'taints kernel\|verification failed' |
			sed 's/^/    /'
	} >>"$lines"
	unload $first "$module"

	if [ "$predicted" = - ]; then
		agree="(symbol_get: at run time)"
	elif { [ "$predicted" = loads ] && [ "$did" = loads ]; } ||
	     { [ "$predicted" != loads ] && [ "$did" != loads ]; }; then
		agree=yes
	else
		agree=NO
		status=1
	fi
	printf '%-30s %-9s %-30s %s\n' "$c" "$predicted" "$did" "$agree"
done
echo
echo "what the kernel said:"
cat "$lines"
rm -f "$lines"
exit $status
