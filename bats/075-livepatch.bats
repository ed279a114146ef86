#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# A livepatch may use a restricted symbol (the rst, "What a restriction
# means"): nsa_livepatch (modules/livepatch/) replaces version_proc_show()
# with a function that calls vmlinux's test_ns_allow_fn, which vmlinux
# lists for another module only. Signed with the build key it loads and
# patches; unsigned, vmlinux's signature-bound grant refuses it. Needs
# CONFIG_LIVEPATCH: the debug kernel has it, the small guest skips.

load helpers

setup() {
	[ -d /sys/kernel/livepatch ] && [ -f "$(ko signed/nsa_livepatch)" ] ||
		skip "kernel without CONFIG_LIVEPATCH (make check-debug)"
	dmesg -C
}

# Disable the patch, wait for its transition, unload it.
unpatch() {
	local i

	[ -d /sys/kernel/livepatch/nsa_livepatch ] || return 0
	echo 0 > /sys/kernel/livepatch/nsa_livepatch/enabled
	for ((i = 0; i < 300; i++)); do
		[ -d /sys/kernel/livepatch/nsa_livepatch ] || break
		sleep 0.1
	done
	rmmod nsa_livepatch
}

teardown() {
	unpatch
}

@test "livepatch: signed with a built-in key, it loads and patches" {
	run insmod "$(ko signed/nsa_livepatch)"
	assert_success
	# The transition may take a moment on two CPUs.
	for ((i = 0; i < 300; i++)); do
		[ "$(cat /sys/kernel/livepatch/nsa_livepatch/transition)" = 0 ] && break
		sleep 0.1
	done
	run cat /proc/version
	assert_output "nsa_livepatch test_ns_allow_fn() = 42"
	run kmsg
	refute_line --partial "not allowed to reference namespace"
	run unpatch
	assert_success
	refute is_loaded nsa_livepatch
}

@test "livepatch: unsigned, vmlinux's signature-bound grant refuses it" {
	run insmod "$(ko nsa_livepatch)"
	assert_failure
	assert_output "insmod: ERROR: could not insert module $(ko nsa_livepatch): $(insmod_error EACCES)"
	run kmsg
	assert_line "module nsa_livepatch is not signed with a built-in key, required for namespace \`TEST_NS_ALLOW' (test_ns_allow_fn)"
}
