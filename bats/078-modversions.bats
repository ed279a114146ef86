#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# MODVERSIONS, as Debian builds it (the debug kernel; the small guest has
# it off and skips). A module built against the patched tree carries
# __versions and loads; a module built against pristine 6.1 (ko/
# nsa_oldget*, modules/pristine/, no Module.symvers there) loads; a CRC
# that disagrees is refused by 6.1's check_version(), which runs before
# the allow-lists: the line is 6.1's, not theirs. (That module_layout's
# CRC is pristine's is checked on the host: vm/modversions-check.sh.)

load helpers

setup() {
	grep -q ' module_layout$' /proc/kallsyms ||
		skip "kernel without MODVERSIONS (make check-debug)"
	dmesg -C
}

teardown() {
	unload_all nsa_exp nsa_user nsa_denied nsa_oldget_open nsa_open_exp
}

@test "modversions: a module built against the patched tree has __versions with the kernel's CRCs" {
	local crc
	crc=$(awk '$2 == "module_layout" { print $1 }' "$NSA/Module.symvers")
	assert [ -n "$crc" ]
	run modprobe --dump-modversions "$(ko nsa_user)"
	assert_success
	assert_line --regexp "^$crc[[:space:]]+module_layout$"
	assert_line --regexp "^0x[0-9a-f]+[[:space:]]+nsa_fn$"
	insmod "$(ko nsa_exp)"
	run insmod "$(ko nsa_user)"
	assert_success
}

@test "modversions: a module built against pristine 6.1 loads" {
	insmod "$(ko nsa_open_exp)"
	run insmod "$(ko nsa_oldget_open)"
	assert_success
}

@test "modversions: a CRC mismatch on a restricted symbol is refused as 6.1 refuses it, before the allow-lists" {
	insmod "$(ko nsa_exp)"
	run insmod "$NSA/badcrc/nsa_denied.ko"
	assert_failure
	assert_output "insmod: ERROR: could not insert module $NSA/badcrc/nsa_denied.ko: $(insmod_error EINVAL)"
	run kmsg
	assert_line "nsa_denied: disagrees about version of symbol nsa_fn"
	assert_line "nsa_denied: Unknown symbol nsa_fn (err -22)"
	refute_line --partial "not allowed to reference namespace"
}
