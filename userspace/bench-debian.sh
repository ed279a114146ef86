#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Time nscheck --all against depmod -n on the same Debian 6.1 tree (both
# read every module once). Prints both medians and their ratio; exits 1
# when nscheck is slower. Usage: bench-debian.sh NSCHECK [RUNS]
set -euo pipefail

nscheck=${1:?usage: bench-debian.sh NSCHECK [RUNS]}
runs=${2:-9}
. "$(dirname "$0")/debian-tree.sh"
debian_tree_prepare

# Median wall time in ms of running "$@" $runs times (after one warm-up).
median_ms() {
	local i t0 t1
	local -a t=()
	"$@" >/dev/null 2>&1 || true
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		t+=($(((t1 - t0) / 1000000)))
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

count=$(find "$DEB_TREE/lib/modules/$DEB_KVER" -name '*.ko*' | wc -l)
n=$(median_ms "$nscheck" --all -b "$DEB_TREE" -k "$DEB_KVER" -E "$DEB_SYMVERS")
d=$(median_ms depmod -n -b "$DEB_TREE" "$DEB_KVER")
echo "bench-debian: $DEB_KVER, $count modules, median of $runs runs"
echo "  nscheck --all: $n ms"
echo "  depmod -n:     $d ms"
echo "  ratio nscheck/depmod: $(awk -v n="$n" -v d="$d" 'BEGIN { printf "%.2f", n / d }')"
((n <= d)) || { echo "bench-debian: nscheck is slower than depmod -n" >&2; exit 1; }
