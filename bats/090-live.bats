#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The live index (<debugfs>/module_ns_allow/index and trusted): what the
# loader consults, following loads and unloads. Each object's grants in
# it must be what its modinfo says (modinfo -F allow_ns), and vmlinux's
# what modules.builtin.modinfo says.
load helpers

INDEX=/sys/kernel/debug/module_ns_allow/index
TRUSTED=/sys/kernel/debug/module_ns_allow/trusted
MODS="nsa_exp nsa_lister nsa_glob_exp nsa_exp2"

setup() {
	unload_all signed/nsa_exp $MODS
}

teardown() {
	unload_all signed/nsa_exp $MODS
}

# The index's line for NAMESPACE and OBJECT, as "flags grants".
entry() {
	awk -v ns="$1" -v obj="$2" '$1 == ns && $2 == obj { print $3, $4 }' "$INDEX"
}

# An object's grants for NAMESPACE from a modinfo-style list on stdin
# ("ns:module" lines), in the index's order: names sorted, then prefixes.
grants_for() {
	sed -n "s/^$1://p" | sort -u | awk '/\*$/ { p = p "," $0; next }
		{ n = n "," $0 } END { print substr(n p, 2) }'
}

@test "live: the index is there, for root only" {
	run stat -c %a "$INDEX"
	assert_output 400
	run grep -c . "$INDEX"
	assert [ "$output" -gt 0 ]
}

@test "live: vmlinux's lines are modules.builtin.modinfo's grants" {
	local builtin=/lib/modules/$(uname -r)/modules.builtin.modinfo ns want

	for ns in tcp udp tcpcong TEST_NS_ALLOW; do
		want=$(tr '\0' '\n' <"$builtin" | sed -n 's/^[^.]*\.allow_ns=//p' |
			grants_for "$ns")
		run entry "$ns" vmlinux
		if [ -n "$want" ]; then
			assert_output "exports $want"
		else
			# The conversions' switch is off: no grant, no line.
			assert_output ""
		fi
	done
	# The grants are there exactly when the switch is on.
	for ns in tcp:TCP_RESTRICT_EXPORTS tcpcong:TCP_CONG_RESTRICT_EXPORTS \
		udp:UDP_RESTRICT_EXPORTS; do
		run entry "${ns%%:*}" vmlinux
		if kernel_has "${ns#*:}"; then
			assert_output --partial "exports "
		else
			assert_output ""
		fi
	done
	# vmlinux lists test_ns_allow_elsewhere where it exports nothing.
	run entry TEST_NS_ALLOW_ELSEWHERE vmlinux
	assert_output "- test_ns_allow_elsewhere"
}

@test "live: a module's lines come with its load and go with its unload" {
	local want

	run entry NSA_RESTR nsa_exp
	assert_output ""
	insmod "$(ko nsa_exp)"
	want=$(modinfo -F allow_ns "$(ko nsa_exp)" | grants_for NSA_RESTR)
	run entry NSA_RESTR nsa_exp
	assert_output "exports $want"

	insmod "$(ko nsa_lister)"
	run entry NSA_RESTR nsa_lister
	assert_output "- nsa_wrong"
	insmod "$(ko nsa_glob_exp)"
	run entry NSA_GLOB nsa_glob_exp
	assert_output "exports nsa_glob_*"
	# An exporter that does not declare has no line.
	insmod "$(ko nsa_exp2)"
	run grep -c " nsa_exp2 " "$INDEX"
	assert_output 0

	rmmod nsa_exp
	run entry NSA_RESTR nsa_exp
	assert_output ""
	run entry NSA_RESTR nsa_lister
	assert_output "- nsa_wrong"
	rmmod nsa_lister nsa_glob_exp nsa_exp2
	run grep -c -E " (nsa_lister|nsa_glob_exp) " "$INDEX"
	assert_output 0
}

@test "live: trusted lists vmlinux and modules signed with the build key" {
	run cat "$TRUSTED"
	assert_line vmlinux
	refute_line nsa_exp
	insmod "$(ko signed/nsa_exp)"
	run cat "$TRUSTED"
	assert_line nsa_exp
	rmmod nsa_exp
	insmod "$(ko nsa_exp)"
	run cat "$TRUSTED"
	refute_line nsa_exp
	# In-tree modules are signed at modules_install.
	modprobe crc7
	run cat "$TRUSTED"
	assert_line crc7
	rmmod crc7
}
