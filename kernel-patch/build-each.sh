#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every prefix of the series builds: in a git tree made by git-tree.sh,
# check out each commit after 'pristine' in turn and build bzImage and the
# modules into OBJ, configured from tinyconfig and the guest's fragments
# (no new W=1 warning in the files each patch touches). Incremental, so
# that each step rebuilds what the patch changed; ccache helps the rest.
#
# usage: build-each.sh DIR OBJ FRAGMENT...
set -euo pipefail

dir=$(realpath "${1:?usage: build-each.sh DIR OBJ FRAGMENT...}")
obj=$(realpath -m "${2:?}")
shift 2
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -s -C "$dir" O="$obj" CC="$cc" HOSTCC="$cc" -j"$(nproc)" "$@"; }

head=$(git -C "$dir" rev-parse HEAD)
trap 'git -C "$dir" checkout -q "$head"' EXIT
# Each step starts at its commit's parent: the previous step's commit.
git -C "$dir" checkout -q pristine
mkdir -p "$obj"
n=0
# "file: warning: text" lines of a build's output, without line numbers,
# which a patch shifts.
warnings() { grep 'warning:' | sed -E 's/:[0-9]+(:[0-9]+)?: /: /' | sort -u || true; }
for c in $(git -C "$dir" rev-list --reverse "pristine..$head"); do
	n=$((n + 1))
	# The kernel objects of the .c files the patch touches (scripts/ are
	# host programs, whose warnings the main build shows), and their W=1
	# warnings before it, while the tree is at the parent: a patch must
	# add no warning, and is not asked to fix its file's old kernel-doc.
	files=$(git -C "$dir" show --format= --name-only "$c" |
		grep -v '^scripts/' | grep '\.c$' |
		sed -n 's/\.c$/.o/p' | while read -r o; do
			[ -f "$obj/$o" ] && echo "$o"; done || true)
	before=
	[ -z "$files" ] || before=$(kmake W=1 $files 2>&1 | warnings)
	git -C "$dir" checkout -q "$c"
	subject=$(git -C "$dir" log -1 --format=%s)
	if [ ! -f "$obj/.config" ]; then
		kmake tinyconfig >/dev/null
		(cd "$obj" && KCONFIG_CONFIG=.config \
			"$dir/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" "${frags[@]}" >/dev/null)
	fi
	# Options the series adds later are unknown before it: olddefconfig.
	kmake olddefconfig >/dev/null
	if out=$(kmake bzImage modules 2>&1) &&
	   ! grep -q 'warning:' <<<"$out" &&
	   { [ -z "$files" ] || out=$(kmake W=1 $files 2>&1); } &&
	   out=$(comm -13 <(echo "$before") <(warnings <<<"$out")) &&
	   [ -z "$out" ]; then
		old=$(grep -c . <<<"$before" || true)
		echo "ok $n $subject${files:+ (W=1: $old old warnings, none new)}"
	else
		echo "not ok $n $subject"
		printf '#   %s\n' "$out" | tail -20
		exit 1
	fi
done
echo "build-each: every one of the $n prefixes builds"
