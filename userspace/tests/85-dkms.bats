#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The DKMS hook (dkms/nscheck-dkms) with the dkms package: two small
# out-of-tree congestion controls (tests/dkms/) built by DKMS against the
# project's patched kernel build tree, checked against its installed
# module tree (a scratch DKMS tree; nothing installed into this machine's
# kernel). tcp_rogue uses tcpcong without being listed: the hook must fail
# the build loudly with the kernel's line. tcp_yeah is listed: it passes,
# if the kernel does not bind vmlinux's grants to its signing key; if it
# does (CONFIG_MODULE_NS_ALLOW_SIG=y, the project's guest), a module DKMS
# built is refused until it is signed with the build key (DKMS signs with
# its own MOK key at best). Skipped without dkms or without the kernel
# build (build/kernel).

load helpers

setup() {
	command -v dkms >/dev/null || skip "no dkms (apt-get install dkms)"
	KOBJ=${NSCHECK_KOBJ:-$NSCHECK_BUILD/../kernel/obj}
	KSTAGE=${NSCHECK_KSTAGE:-$NSCHECK_BUILD/../kernel/stage}
	[[ -f $KOBJ/Module.symvers && -f $KOBJ/kernelrelease &&
		-d $KSTAGE/lib/modules ]] ||
		skip "no kernel build (build/kernel/obj and stage)"
	KVER=$(cat "$KOBJ/kernelrelease")
	D=$BATS_TEST_TMPDIR
	mkdir -p "$D/src" "$D/dkms" "$D/install/$KVER"
	local pkg
	for pkg in rogue listed; do
		cp -r "$BATS_TEST_DIRNAME/dkms/nsdkms-$pkg-1.0" "$D/src/"
		# As a package ships it: the hook in its source tree.
		cp "$BATS_TEST_DIRNAME/../dkms/nscheck-dkms" \
			"$D/src/nsdkms-$pkg-1.0/"
	done
	export NSCHECK_BASEDIR=$KSTAGE
	# The hook runs nscheck as the suite does (valgrind, ASan).
	printf '#!/bin/sh\nexec %s %s "$@"\n' "${NSCHECK_WRAP:-}" \
		"$NSCHECK_BIN" >"$D/nscheck"
	chmod +x "$D/nscheck"
	export NSCHECK=$D/nscheck
}

# dk ACTION PACKAGE: dkms on the scratch trees, for the patched kernel.
# Not with make check's MAKEFLAGS: its O= would be the kernel's too.
dk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dkms "$1" --dkmstree "$D/dkms" --sourcetree "$D/src" \
		--installtree "$D/install" -m "nsdkms-$2" -v 1.0 -k "$KVER" \
		--kernelsourcedir "$KOBJ" --no-depmod
}

# dk build. The kernel build tree is shared with whoever builds the
# kernel and its test modules, and may be busy or rebuilt under us: a
# module that does not build (or whose kernel tree is away) is tried
# twice more, then its make.log shown.
dk_build() {
	local try
	for try in 1 2 3; do
		run dk build "$1"
		[[ $output == *"Bad return status for module build"* ||
			$output == *"cannot be found at"* ]] || return 0
		sed 's/^/# make.log: /' \
			"$D/dkms/nsdkms-$1/1.0/build/make.log" >&3 2>/dev/null
		sleep 10
	done
}

@test "dkms: the hook refuses a module the kernel would refuse, loudly" {
	dk add rogue >/dev/null
	# POST_BUILD: the kernel's lines and a banner (DKMS carries on).
	dk_build rogue
	assert_line "Running the post_build script:"
	assert_line "module tcp_rogue not allowed to reference namespace \`tcpcong' for tcp_slow_start"
	assert_line "tcp_rogue: Unknown symbol tcp_slow_start (err -13)"
	assert_line "nscheck-dkms: kernel $KVER would REFUSE to load:"
	# PRE_INSTALL: dkms install stops, nothing installed.
	run dk install rogue
	assert_failure
	assert_line "module tcp_rogue not allowed to reference namespace \`tcpcong' for tcp_slow_start"
	[[ -z $(find "$D/install" -name 'tcp_rogue*' 2>/dev/null) ]] ||
		fail "installed all the same"
}

@test "dkms: the hook passes a module the kernel lists" {
	local ko
	dk add listed >/dev/null
	dk_build listed
	assert_success
	assert_line "Running the post_build script:"
	refute_line --partial "not allowed"
	if grep -qx CONFIG_MODULE_NS_ALLOW_SIG=y "$KOBJ/.config"; then
		# Listed, but not signed with the kernel's key.
		assert_line "module tcp_yeah is not signed with a built-in key, required for namespace \`tcpcong' (tcp_slow_start)"
		assert_line "nscheck-dkms: kernel $KVER would REFUSE to load:"
		run dk install listed
		assert_failure
		# Signed with the build key, as the kernel's own modules.
		ko=$(find "$D/dkms/nsdkms-listed/1.0/$KVER" -name 'tcp_yeah.ko')
		[[ -n $ko ]] || fail "no tcp_yeah.ko built"
		"$KOBJ/scripts/sign-file" sha256 "$KOBJ/certs/signing_key.pem" \
			"$KOBJ/certs/signing_key.x509" "$ko"
	else
		refute_line --partial "nscheck-dkms:"
	fi
	run dk install listed
	assert_success
	refute_line --partial "nscheck-dkms:"
	[[ -n $(find "$D/install" -name 'tcp_yeah.ko*') ]] ||
		fail "not installed: $output"
}
