#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Whole trees of .ko.gz, .ko.xz and .ko.zst modules: each file inflated
# once by nscheck, every format end to end (libkmod never reads them, so
# Debian's libkmod without zlib is no matter), the same verdicts as plain.

load helpers

# A tree of FORMAT (gz, xz or zst) modules, compressed with its tool.
ctree() {
	local f
	mktree exp_a.ko:kernel/exp_a.ko exp_b.ko:kernel/exp_b.ko \
		imp_ok.ko:kernel/a/imp_ok.ko imp_none.ko:kernel/a/imp_none.ko \
		aa_lister.ko:kernel/z/aa_lister.ko imp_two.ko:kernel/imp_two.ko
	for f in $(find "$M" -name '*.ko'); do
		case $1 in
		gz) gzip -n "$f" ;;
		xz) xz --check=crc32 "$f" ;;
		zst) zstd -q --rm "$f" ;;
		esac
	done
}

check_format() {
	local feature=$1 ext=$2
	has "$feature" || skip "nscheck built without $feature"
	ctree "$ext"
	run --separate-stderr nst --all -v
	assert_failure 1
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 "module imp_none not allowed to reference namespace \`MRES' for a_fn"
	assert_line --index 2 "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`aa_lister'"
	[[ $stderr == *"checked 6 modules: 4 would load, 2 refused, 0 unreadable"* ]] ||
		fail "$stderr"
	# A name, and its compressed dependency.
	run nst imp_ok
	assert_success
	run nst imp_none
	assert_failure 1
	assert_line --index 0 "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}

@test "compressed tree: .ko.gz" {
	check_format ZLIB gz
}

@test "compressed tree: .ko.xz" {
	check_format XZ xz
}

@test "compressed tree: .ko.zst" {
	check_format ZSTD zst
}

@test "compressed tree: a corrupt one is named, the others still checked" {
	has XZ || skip "nscheck built without XZ"
	ctree xz
	head -c 100 "$M/kernel/exp_b.ko.xz" >"$M/kernel/exp_b.ko.xz.tmp"
	mv "$M/kernel/exp_b.ko.xz.tmp" "$M/kernel/exp_b.ko.xz"
	run --separate-stderr nst --all
	assert_failure 2
	assert_error_names "$M/kernel/exp_b.ko.xz: xz: corrupt or truncated data"
}
