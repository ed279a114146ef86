#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Compressed modules, wherever libkmod reads them. A decompressor missing
# from the build (nscheck -V) must give a clear error instead.

load helpers

# compressed FORMAT COMMAND...: run nscheck; when the build lacks FORMAT,
# expect exit 2 naming the missing support, and return 1.
compressed() {
	local feature=$1
	shift
	run --separate-stderr "$@"
	has "$feature" && return 0
	assert_failure 2
	[[ $stderr == *"nscheck was built without"* ]] ||
		fail "no clear error: $stderr"
	return 1
}

@test "xz and zstd modules are read like plain ones" {
	# exp_a_xz is named exp_a, exports a_fn into MRES and lists imp_ok;
	# imp_ok_zst is imp_ok and uses a_fn.
	if compressed XZ nsk exp_a_xz.ko.xz imp_none.ko; then
		assert_failure 1
		assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
	fi
	if compressed ZSTD nsk exp_a.ko imp_ok_zst.ko.zst; then
		assert_success
		assert_output ""
	fi
	if has XZ && has ZSTD; then
		run nsk exp_a_xz.ko.xz imp_ok_zst.ko.zst
		assert_success
		assert_output ""
	fi
}

@test "a compressed module's refusal is the same line" {
	local f=$BATS_TEST_TMPDIR/imp_none.ko
	cp "$FX/imp_none.ko" "$f"
	xz --check=crc32 -k "$f"
	zstd -q "$f" -o "$f.zst"
	if compressed XZ nsk exp_a.ko "$f.xz"; then
		assert_failure 1
		assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
	fi
	if compressed ZSTD nsk exp_a.ko "$f.zst"; then
		assert_failure 1
		assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
	fi
}

@test "compressed exporters restrict and satisfy like plain ones" {
	local f=$BATS_TEST_TMPDIR/exp_a.ko
	cp "$FX/exp_a.ko" "$f"
	zstd -q --rm "$f"
	compressed ZSTD nsk "$f.zst" imp_ok.ko imp_none.ko || return 0
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
}

@test "gzip: read end to end when nscheck has zlib, whatever libkmod has" {
	# nscheck inflates each file once and never hands it to libkmod, so
	# Debian's libkmod without zlib (kmod --version: -ZLIB) is no matter.
	compressed ZLIB nsk exp_a.ko imp_ok_gz.ko.gz || return 0
	assert_success
	assert_output ""
	local f=$BATS_TEST_TMPDIR/imp_none.ko
	cp "$FX/imp_none.ko" "$f"
	gzip -n "$f"
	run nsk exp_a.ko "$f.gz"
	assert_failure 1
	assert_line --index 0 "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}
