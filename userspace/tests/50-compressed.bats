#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Compressed modules, wherever libkmod reads them.

load helpers

@test "xz and zstd modules are read like plain ones" {
	# exp_a_xz is named exp_a and lists imp_ok; imp_ok_zst is imp_ok.
	run nsk exp_a_xz.ko.xz imp_ok_zst.ko.zst
	assert_success
	assert_output ""
}

@test "a compressed module's refusal is the same line" {
	local f=$BATS_TEST_TMPDIR/imp_none.ko
	cp "$FX/imp_none.ko" "$f"
	xz --check=crc32 "$f"
	run nsk exp_a.ko "$f.xz"
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"
	zstd -q "$FX/imp_none.ko" -o "$f.zst"
	run nsk exp_a.ko "$f.zst"
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}

@test "compressed exporters restrict and satisfy like plain ones" {
	local f=$BATS_TEST_TMPDIR/exp_a.ko
	cp "$FX/exp_a.ko" "$f"
	zstd -q --rm "$f"
	run nsk "$f.zst" imp_ok.ko imp_none.ko
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}

@test "gzip: read when libkmod has zlib, else a clear error" {
	run --separate-stderr nsk exp_a.ko imp_ok_gz.ko.gz
	if kmod --version | grep -q '+ZLIB'; then
		assert_success
	else
		assert_failure 2
		assert_error_names "imp_ok_gz.ko.gz: libkmod cannot read its modinfo"
		[[ $stderr == *gzip* ]]
	fi
}
