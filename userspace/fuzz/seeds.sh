#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fuzzers' seed corpus, from what the repository builds: the test
# modules (build/modules/ko), nscheck's fixtures, tests/data and the guest
# kernel's Module.symvers and modules.builtin.modinfo. Each seed is named
# by its SHA-1, so running this again adds nothing twice. A folder that is
# not built yet is skipped. Usage: seeds.sh CORPUS FIXTURES DATA DIR...
# (DIR: a folder of .ko files, or a kernel build tree).
set -euo pipefail

corpus=$1 fixtures=$2 data=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# seed TARGET FILE: FILE (when not empty) into TARGET's corpus.
seed() {
	local sum
	[[ -s $2 ]] || return 0
	sum=$(sha1sum "$2")
	cp "$2" "$corpus/$1/seed-${sum%% *}"
}

# A section's bytes: section FILE NAME OUT
section() {
	objcopy -O binary --only-section="$2" "$1" "$3" 2>/dev/null || : >"$3"
}

# A Module.symvers in pieces of 40 lines (a whole one is too big to fuzz).
symvers() {
	rm -f "$tmp"/sv.*
	split -l 40 "$1" "$tmp/sv."
	for f in "$tmp"/sv.*; do
		seed symvers "$f"
	done
}

mkdir -p "$corpus"/{ko,symvers,modinfo,nsallow}
mods=()
for dir in "$fixtures" "$@"; do
	if [[ ! -d $dir ]]; then
		echo "seeds: no $dir (not built yet): skipped" >&2
		continue
	fi
	mods+=("$dir"/*.ko "$dir"/*.ko.{xz,zst,gz})
	[[ -f $dir/Module.symvers ]] && symvers "$dir/Module.symvers"
	[[ -f $dir/kdir/Module.symvers ]] && symvers "$dir/kdir/Module.symvers"
	for f in "$dir/modules.builtin.modinfo" \
		"$dir/kdir/modules.builtin.modinfo"; do
		[[ -f $f ]] || continue
		# Pieces of about 2 KiB, cut at a string's end.
		rm -f "$tmp"/bi.*
		tr '\0' '\n' <"$f" | split -C 2048 - "$tmp/bi."
		for p in "$tmp"/bi.*; do
			tr '\n' '\0' <"$p" >"$p.bin"
			seed modinfo "$p.bin"
		done
	done
done
[[ -f $data/vmlinux.symvers ]] && symvers "$data/vmlinux.symvers"

for m in "${mods[@]}"; do
	[[ -f $m ]] || continue
	seed ko "$m"
	case $m in
	*.ko)
		section "$m" .modinfo "$tmp/mi"
		seed modinfo "$tmp/mi"
		section "$m" __ns_allow "$tmp/na"
		seed nsallow "$tmp/na"
		;;
	esac
done
# One test module compressed the three ways a tree may hold it.
for m in "${mods[@]}"; do
	[[ $m == */nsa_exp.ko ]] || continue
	xz --check=crc32 -c "$m" >"$tmp/x.ko.xz" && seed ko "$tmp/x.ko.xz"
	zstd -q -c "$m" >"$tmp/x.ko.zst" && seed ko "$tmp/x.ko.zst"
	gzip -n -c "$m" >"$tmp/x.ko.gz" && seed ko "$tmp/x.ko.gz"
done

for t in ko symvers modinfo nsallow; do
	printf 'seeds: %-8s %4d files\n' "$t" \
		"$(find "$corpus/$t" -type f | wc -l)"
done
