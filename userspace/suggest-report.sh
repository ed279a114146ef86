#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nscheck --suggest on one tree: the distribution of exports by number of
# module users, what --max-users proposes, and the wall time (nscheck does
# not time itself). The first run is timed as it comes (cold or warm page
# cache, whatever it finds); then RUNS more (default 3), and their median.
#
# Usage: suggest-report.sh NSCHECK --debian [NSCHECK-OPTIONS...]
#        suggest-report.sh NSCHECK NSCHECK-OPTIONS...
# --debian: Debian's real 6.1 tree (debian-tree.sh), extracted once.
# NSCHECK-OPTIONS: the tree (-b/-k, --kdir, -E) and --max-users etc.
# SUGGEST_OUT=FILE keeps the text proposals.
set -euo pipefail

nscheck=${1:?usage: suggest-report.sh NSCHECK [--debian] NSCHECK-OPTIONS...}
shift
runs=${RUNS:-3}
label=
if [[ ${1:-} == --debian ]]; then
	shift
	. "$(dirname "$0")/debian-tree.sh"
	debian_tree_prepare >&2
	set -- -b "$DEB_TREE" -k "$DEB_KVER" -E "$DEB_SYMVERS" "$@"
	label="Debian $DEB_KVER"
fi
((runs >= 1)) || { echo "RUNS must be at least 1" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Wall time in ms of one nscheck --suggest "$@" run, output to $out/json.
timed() {
	local t0 t1 rc=0
	t0=$(date +%s%N)
	"$nscheck" --suggest --json "$@" >"$out/json" 2>"$out/err" || rc=$?
	t1=$(date +%s%N)
	if ((rc != 0)); then
		cat "$out/err" >&2
		echo "suggest-report: nscheck exit $rc" >&2
		exit "$rc"
	fi
	echo $(((t1 - t0) / 1000000))
}

first=$(timed "$@")
t=()
for ((i = 0; i < runs; i++)); do
	t+=("$(timed "$@")")
done
median=$(printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
if [[ -n ${SUGGEST_OUT:-} ]]; then
	"$nscheck" --suggest "$@" >"$SUGGEST_OUT"
fi

jq -r --arg tree "${label:-$*}" --argjson first "$first" \
	--argjson median "$median" --argjson runs "$runs" '
	.summary as $s |
	def pct(n): if $s.exports > 0 then (n * 1000 / $s.exports | round) / 10
		    else 0 end;
	"suggest-report: \($tree)",
	"  \($s.modules) modules (\($s.unreadable) unreadable), \($s.exports) exports from \($s.exporters) exporters",
	"  exports by number of module users (weak references count):",
	($s.by_users | to_entries[] |
		"    \(.key | . + " " * (6 - length)) \(.value | tostring | " " * (7 - length) + .)  \(pct(.value))%"),
	"  proposed with --max-users \(.max_users): \($s.groups) namespaces, \($s.grouped_exports) exports",
	"  wall time: first run \($first) ms; median of \($runs) more \($median) ms"
' "$out/json"
