#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the kernel of vm/selftest/grants-enomem.patch with the n-th
# allocation of vmlinux's grants failed (ns_allow_fail_nth=n, failslab
# reaching GFP_KERNEL), n = 1, 2, ... until a boot gets past them; then
# once with fail-nth armed and failslab as it boots by default. Prints a
# line a boot: what the parse saw and how the boot ended. Fails unless
# every failed allocation stopped the boot with the series' panic line
# and the boot after the last one ran to userspace.
#
# usage: failslab-boot.sh KERNEL INITRD OUTDIR
set -uo pipefail

kernel=$1 initrd=$2 out=$3
here=$(dirname "$(realpath "$0")")
want='Kernel panic - not syncing: vmlinux: out of memory indexing namespace allow records'
rc=0

boot() { # name cmdline: one boot, the parse's line and the end
	local log=$out/$1/console.log parse end
	KERNEL_CMDLINE="$2 nsa.mode=none" QEMU_TIMEOUT=900 \
		"$here/run.sh" demo "$kernel" "$initrd" "$out/$1" >/dev/null 2>&1
	parse=$(grep -o 'ns_allow_fail_nth=[0-9]*: .*' "$log" | tr -d '\r' | head -1)
	if grep -qF "$want" "$log"; then
		end=panic
	elif grep -q 'nsa-init: end of run' "$log"; then
		end=userspace
	else
		end="neither ($log)"
	fi
	echo "$1: ${parse:-no line of the parse}; boot: $end"
	last="${parse##*parse } $end"
}

# A failed parse must panic; a parse that got all it asked for must boot.
for n in $(seq 1 20); do
	boot "nth-$n" "failslab_gfp_wait ns_allow_fail_nth=$n"
	case $last in
	"-12 panic") ;;
	"0 userspace") break ;;
	*) echo "failslab-boot: nth-$n: want -12 and a panic, or 0 and userspace"
	   rc=1; break ;;
	esac
done
[ "$last" = "0 userspace" ] || rc=1
# As failslab boots by default, GFP_KERNEL is out of its reach.
boot "nth-1-gfp-wait-ignored" "ns_allow_fail_nth=1"
[ "$last" = "0 userspace" ] || rc=1
exit $rc
