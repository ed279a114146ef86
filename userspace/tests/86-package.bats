#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A package of several modules (--order=deps, the DKMS hook without
# DKMS): each module is loaded after the package's modules whose symbols
# it uses, whatever the names of their files.

load helpers

# A package whose user sorts before its exporter, as find | sort lists it.
mkpkg() {
	P=$BATS_TEST_TMPDIR/pkg
	mkdir -p "$P/sub"
	cp "$FX/pkg/pkg_a.ko" "$P/a_user.ko"
	cp "$FX/pkg/pkg_b.ko" "$P/sub/z_exporter.ko"
}

@test "package: --order=deps loads an exporter before its user" {
	mkpkg
	run --separate-stderr nsk "$P/a_user.ko" "$P/sub/z_exporter.ko"
	assert_failure 1
	assert_line "pkg_a: Unknown symbol pk_fn (err -2)"
	run --separate-stderr nsk -v --order=deps "$P/a_user.ko" "$P/sub/z_exporter.ko"
	assert_success
	assert_output ""
	# The exporter first, then its user.
	[[ $stderr == *"z_exporter.ko: pkg_b would load"*"a_user.ko: pkg_a would load"* ]] ||
		fail "not in dependency order: $stderr"
	run nsk --order=given "$P/a_user.ko" "$P/sub/z_exporter.ko"
	assert_failure 1
	run --separate-stderr nsk --order=sideways "$P/a_user.ko"
	assert_failure 2
	[[ $stderr == *"--order: 'sideways' is not deps or given"* ]]
}

@test "package: --order=deps still refuses a user the exporter does not list" {
	mkpkg
	cp "$FX/imp_ok.ko" "$P/a_other.ko"
	cp "$FX/exp_a.ko" "$P/z_exp_a.ko"
	# imp_ok is exp_a's; pk_fn's user must be listed by pkg_b.
	run nsk --order=deps "$P/a_other.ko" "$P/a_user.ko" "$P/z_exp_a.ko" "$P/sub/z_exporter.ko"
	assert_success
	cp "$FX/imp_wrong.ko" "$P/a_wrong.ko"
	run nsk --order=deps "$P/a_wrong.ko" "$P/z_exp_a.ko"
	assert_failure 1
	assert_line "imp_wrong: Unknown symbol b_fn (err -2)"
}

@test "package: a cycle is said, and refused as the kernel refuses it" {
	run --separate-stderr nsk --order=deps pkg/cyc_b.ko pkg/cyc_a.ko
	assert_failure 1
	assert_line "cyc_b: Unknown symbol cy_a (err -2)"
	[[ $stderr == *"WARNING: cycle detected: cyc_b -> cyc_a -> cyc_b"* ]] ||
		fail "no cycle said: $stderr"
}

@test "package: the DKMS hook checks a package in its modules' order" {
	mkpkg
	mktree
	printf '#!/bin/sh\nexec %s %s "$@"\n' "${NSCHECK_WRAP:-}" \
		"$NSCHECK_BIN" >"$BATS_TEST_TMPDIR/nscheck"
	chmod +x "$BATS_TEST_TMPDIR/nscheck"
	export NSCHECK=$BATS_TEST_TMPDIR/nscheck NSCHECK_BASEDIR=$T
	run --separate-stderr "$BATS_TEST_DIRNAME/../dkms/nscheck-dkms" \
		"$KVER" "$FX/kdir" "$P"
	assert_success
	assert_output ""
	[[ $stderr != *"nscheck-dkms:"* ]] || fail "$stderr"
	# A module the kernel refuses still stops it.
	cp "$FX/imp_none.ko" "$P/a_none.ko"
	cp "$FX/exp_a.ko" "$P/z_exp_a.ko"
	run --separate-stderr "$BATS_TEST_DIRNAME/../dkms/nscheck-dkms" \
		"$KVER" "$FX/kdir" "$P"
	assert_failure 1
	assert_line "module imp_none not allowed to reference namespace \`MRES' for a_fn"
	[[ $stderr == *"nscheck-dkms: kernel $KVER would REFUSE to load:"* ]]
}
