#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# SPEC §8.4, CONFIG_MODULE_NS_ALLOW_SIG: a trusted owner (vmlinux, or a
# module signed with the kernel's key) lets in only modules signed with
# that key. nscheck compares the signature's signer with the key
# (--trusted-key, or --kdir's certs/signing_key.x509 when its .config has
# the option); it does not verify the cryptography. Fixtures: sig/ in
# fixtures.table, keys made by mkfixtures.sh.

load helpers

SIGLINE="module sig_user is not signed with a built-in key, required for namespace \`SRES' (s_fn)"

# nscheck on the fixture kernel built with the option.
nsig() {
	(cd "$FX" && nscheck --kdir "$FX/kdir-sig" "$@")
}

@test "sig: a user signed with the build key is let in" {
	run --separate-stderr nsig sig/exp_s.ko sig/exp_u.ko sig/build/sig_user.ko
	assert_success
	assert_output ""
}

@test "sig: unsigned, another key, or not PKCS#7: refused, -EACCES" {
	local v
	for v in none other garbage; do
		run --separate-stderr nsig sig/exp_s.ko sig/exp_u.ko sig/$v/sig_user.ko
		assert_failure 1
		assert_output "$SIGLINE"$'\n'"sig_user: Unknown symbol s_fn (err -13)"
	done
}

@test "sig: the signer named by its subject key identifier (sign-file -k)" {
	run --separate-stderr nsig sig/exp_s.ko sig/exp_u.ko sig/keyid/sig_user.ko
	assert_success
}

@test "sig: a compressed module's signature, inside the compression" {
	has XZ || skip "built without xz"
	run --separate-stderr nsig sig/exp_s.ko sig/exp_u.ko sig/xz/sig_user.ko.xz
	assert_success
}

@test "sig: an untrusted owner's grants work by name" {
	run --separate-stderr nsig sig/exp_u.ko sig/none/sig_user.ko
	assert_failure 1
	# Only exp_s is missing; u_fn is let in.
	assert_output "sig_user: Unknown symbol s_fn (err -2)"
	# exp_s signed with another key is not trusted either.
	run --separate-stderr nsig sig/exp_s_other.ko sig/exp_u.ko sig/none/sig_user.ko
	assert_success
}

@test "sig: vmlinux is always trusted" {
	run --separate-stderr nsig imp_v.ko
	assert_failure 1
	assert_output "module imp_v is not signed with a built-in key, required for namespace \`VRES' (v_res_fn)"$'\n'"imp_v: Unknown symbol v_res_fn (err -13)"
	run --separate-stderr nsig sig/build/imp_v.ko
	assert_success
}

@test "sig: a module list of a trusted owner wants a trusted user" {
	run --separate-stderr nsig sig/build/formod_exp.ko kvm.ko
	assert_failure 1
	assert_output "module kvm is not signed with a built-in key, required for namespace \`module:kvm,kvm-*' (f_fn)"$'\n'"kvm: Unknown symbol f_fn (err -13)"
	run --separate-stderr nsig sig/build/formod_exp.ko sig/build/kvm.ko
	assert_success
	# Unsigned owner: by name.
	run --separate-stderr nsig formod_exp.ko kvm.ko
	assert_success
}

@test "sig: the signature rule comes before the GPL rule, after the list" {
	# Signed but proprietary: the GPL rule refuses.
	run --separate-stderr nsig sig/exp_s.ko sig/prop/sig_user.ko
	assert_failure 1
	assert_output "sig_user: module is not GPL-compatible and cannot use s_fn from restricted namespace \`SRES'"$'\n'"sig_user: Unknown symbol s_fn (err -13)"
	# Not listed at all: rows 4 to 6 first, whatever the signature.
	run --separate-stderr nsig imp_bad_v.ko
	assert_failure 1
	assert_line "module imp_bad_v not allowed to reference namespace \`VRES' for v_res_fn"
}

@test "sig: open namespaces and symbols without one need no signature" {
	run --separate-stderr nsig exp_a.ko imp_open.ko imp_plain.ko
	assert_success
}

@test "sig: without the option in .config, grants work by name" {
	run --separate-stderr nsk sig/exp_s.ko sig/exp_u.ko sig/none/sig_user.ko
	assert_success
	run --separate-stderr nsk imp_v.ko
	assert_success
}

@test "sig: --trusted-key turns the rule on, DER or PEM" {
	local k
	for k in build.x509 build.crt; do
		run --separate-stderr nsk --trusted-key "$FX/keys/$k" sig/exp_s.ko sig/exp_u.ko sig/none/sig_user.ko
		assert_failure 1
		assert_line "$SIGLINE"
		run --separate-stderr nsk --trusted-key "$FX/keys/$k" sig/exp_s.ko sig/exp_u.ko sig/build/sig_user.ko
		assert_success
	done
	# Another key given: the build key's signatures are not it.
	run --separate-stderr nsk --trusted-key "$FX/keys/other.x509" sig/exp_s_other.ko sig/exp_u.ko sig/build/sig_user.ko
	assert_failure 1
	run --separate-stderr nsk --trusted-key "$FX/keys/other.x509" sig/exp_s_other.ko sig/exp_u.ko sig/other/sig_user.ko
	assert_success
}

@test "sig: --all on a tree, each module against the others" {
	mktree sig/exp_s.ko:kernel/exp_s.ko sig/exp_u.ko:kernel/exp_u.ko \
		sig/none/sig_user.ko:extra/sig_user.ko
	run --separate-stderr nst --trusted-key "$FX/keys/build.x509" --all
	assert_failure 1
	assert_output "$SIGLINE"$'\n'"sig_user: Unknown symbol s_fn (err -13)"
	cp "$FX/sig/build/sig_user.ko" "$M/extra/sig_user.ko"
	run --separate-stderr nst --trusted-key "$FX/keys/build.x509" --all
	assert_success
}

@test "sig: json names the verdict" {
	run --separate-stderr nsig --json sig/exp_s.ko sig/exp_u.ko sig/none/sig_user.ko
	assert_failure 1
	assert_equal "$(jq -r '.modules[2].findings[0] | "\(.verdict) \(.row) \(.errno) \(.owner) \(.namespace)"' <<<"$output")" \
		"not-signed 3 -13 exp_s SRES"
}

@test "sig: a key that cannot be read is an error naming it" {
	run --separate-stderr nsk --trusted-key "$FX/no-such.x509" imp_ok.ko
	assert_failure 2
	assert_error_names "$FX/no-such.x509: No such file or directory"
	run --separate-stderr nsk --trusted-key "$FX/exp_a.ko" imp_ok.ko
	assert_failure 2
	assert_error_names "$FX/exp_a.ko: not an X.509 certificate (DER or PEM)"
	# The option in .config, the certificate missing.
	mkdir -p "$BATS_TEST_TMPDIR/kdir"
	cp "$FX/kdir-sig/.config" "$FX/kdir/Module.symvers" "$BATS_TEST_TMPDIR/kdir/"
	run --separate-stderr nscheck --kdir "$BATS_TEST_TMPDIR/kdir" "$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/kdir/certs/signing_key.x509: No such file or directory (the key of --kdir's CONFIG_MODULE_NS_ALLOW_SIG=y)"
}

@test "sig: the real test modules, signed, with another key, unsigned" {
	local ko=$NSCHECK_BUILD/../modules/ko kobj=$NSCHECK_BUILD/../kernel/obj
	[[ -f $ko/signed/nsa_exp.ko && -f $kobj/certs/signing_key.x509 ]] ||
		skip "no signed test modules (make modules)"
	run --separate-stderr nscheck --kdir "$kobj" "$ko/signed/nsa_exp.ko" "$ko/signed/nsa_user.ko"
	assert_success
	run --separate-stderr nscheck --kdir "$kobj" "$ko/signed/nsa_exp.ko" "$ko/otherkey/nsa_user.ko"
	assert_failure 1
	assert_line "module nsa_user is not signed with a built-in key, required for namespace \`NSA_RESTR' (nsa_fn)"
	run --separate-stderr nscheck --kdir "$kobj" "$ko/unsigned/test_ns_allow_user.ko"
	assert_failure 1
	run --separate-stderr nscheck --trusted-key "$kobj/certs/signing_key.x509" -E "$kobj/Module.symvers" \
		"$ko/signed/nsa_exp.ko" "$ko/nsa_user.ko"
	assert_failure 1
}
