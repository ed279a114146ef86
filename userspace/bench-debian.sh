#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Time nscheck --all against depmod -n on the same Debian 6.1 tree (both
# read every module once), warm cache: one warm-up each, then RUNS rounds
# that alternate the two, so that a machine getting busier or quieter
# weighs on both alike. Prints each one's median wall time (and CPU time,
# user + system), and the ratio of the medians; exits 1 when nscheck takes
# more than half of depmod's time. Usage: bench-debian.sh NSCHECK [RUNS]
set -euo pipefail

nscheck=${1:?usage: bench-debian.sh NSCHECK [RUNS]}
runs=${2:-7}
((runs >= 5)) || { echo "bench-debian: at least 5 runs" >&2; exit 2; }
. "$(dirname "$0")/debian-tree.sh"
debian_tree_prepare

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ns=("$nscheck" --all -b "$DEB_TREE" -k "$DEB_KVER" -E "$DEB_SYMVERS")
dm=(depmod -n -b "$DEB_TREE" "$DEB_KVER")

# One timed run of "$@" appended to FILE as "wall_ms cpu_ms".
timed() {
	local file=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$out/t" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$out/t" >>"$file"
}

median() {	# column 1 or 2 of FILE
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
		END { print v[int((NR + 1) / 2)] }'
}

"${ns[@]}" >/dev/null 2>&1 || true
"${dm[@]}" >/dev/null 2>&1 || true
for ((i = 0; i < runs; i++)); do
	timed "$out/ns" "${ns[@]}"
	timed "$out/dm" "${dm[@]}"
done

count=$(find "$DEB_TREE/lib/modules/$DEB_KVER" -name '*.ko*' | wc -l)
n=$(median "$out/ns" 1) d=$(median "$out/dm" 1)
nc=$(median "$out/ns" 2) dc=$(median "$out/dm" 2)
echo "bench-debian: $DEB_KVER, $count modules, $(nproc) CPUs, median of" \
	"$runs alternating runs"
echo "  nscheck --all: $n ms (CPU $nc ms)"
echo "  depmod -n:     $d ms (CPU $dc ms)"
echo "  ratio nscheck/depmod: $(awk -v n="$n" -v d="$d" \
	'BEGIN { printf "%.2f", n / d }') (CPU $(awk -v n="$nc" -v d="$dc" \
	'BEGIN { printf "%.2f", n / d }'))"
((2 * n <= d)) || {
	echo "bench-debian: nscheck takes more than half of depmod's time" >&2
	exit 1
}
