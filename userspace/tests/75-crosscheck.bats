#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nscheck reads each module itself, once (README.md, "Reading modules");
# tests/crosscheck.c says that what it reads is what libkmod reads: the
# undefined symbols and their binding in .symtab order
# (kmod_module_get_dependency_symbols()) and the modinfo name, license and
# namespaces (kmod_module_get_info()). make audit-debian runs it on all of
# Debian's tree.

load helpers

CROSSCHECK=${NSCHECK_CROSSCHECK:-$NSCHECK_BUILD/crosscheck}

setup() {
	[[ -x $CROSSCHECK ]] || skip "no $CROSSCHECK (make check builds it)"
}

@test "crosscheck: every readable fixture, as libkmod reads it" {
	local f files=()
	for f in "$FX"/*.ko "$FX"/*.ko.xz "$FX"/*.ko.zst "$FX"/sg/*/*.ko; do
		case ${f##*/} in
		bad_info_* | rec_* | nothis.ko) continue ;;
		esac
		files+=("$f")
	done
	((${#files[@]} > 50)) || fail "only ${#files[@]} fixtures"
	run "$CROSSCHECK" "${files[@]}"
	assert_success
	assert_output "crosscheck: ${#files[@]} modules, the same as libkmod"
}

@test "crosscheck: it can fail" {
	# A module nscheck cannot read is a difference.
	run "$CROSSCHECK" "$FX/nothis.ko"
	assert_failure 1
	assert_line --partial "$FX/nothis.ko: nscheck cannot read it"
}

@test "crosscheck: signatures against the key, as libkmod names the signer" {
	local f files=()
	for f in "$FX"/sig/*.ko "$FX"/sig/*/*.ko; do
		files+=("$f")
	done
	run "$CROSSCHECK" --key "$FX/keys/build.x509" "${files[@]}"
	assert_success
	assert_output "crosscheck: ${#files[@]} modules, the same as libkmod"
	run "$CROSSCHECK" --key "$FX/keys/other.x509" "${files[@]}"
	assert_success
}

@test "crosscheck: the real test modules and the build's own, signed or not" {
	local ko=$NSCHECK_BUILD/../modules/ko kobj=$NSCHECK_BUILD/../kernel/obj
	local stage=$NSCHECK_BUILD/../kernel/stage f files=()
	[[ -f $ko/signed/nsa_exp.ko && -f $kobj/certs/signing_key.x509 ]] ||
		skip "no signed test modules (make modules)"
	for f in "$ko"/*.ko "$ko"/*/*.ko $(find "$stage" -name '*.ko'); do
		case ${f##*/} in
		nsa_bad_*) continue ;;
		esac
		files+=("$f")
	done
	run "$CROSSCHECK" --key "$kobj/certs/signing_key.x509" "${files[@]}"
	assert_success
	assert_output "crosscheck: ${#files[@]} modules, the same as libkmod"
}
