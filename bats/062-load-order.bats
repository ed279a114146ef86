#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Load order under SMP, the contract the rst states: a declaration
# restricts a namespace for every exporter of it from the moment it is
# published. vmlinux exports test_ns_undeclared_fn into TEST_NS_UNDECLARED
# and does not declare it; nsa_race_decl exports into it and declares it.
# nsa_race_user, which uses vmlinux's symbol, loads when nsa_race_decl is
# not there and is refused as "undeclared" when it is. Loaded side by side
# on two CPUs, as udev does, the verdict depends on which load reaches
# COMING first: both outcomes are tallied.

load helpers

ROUNDS=36
UNDECLARED="nsa_race_user referencing undeclared namespace \`TEST_NS_UNDECLARED' for test_ns_undeclared_fn"

teardown() {
	unload_all nsa_race_decl nsa_race_user
}

@test "load order: vmlinux's undeclared symbol is allowed alone, refused beside its declarer" {
	dmesg -C
	run insmod "$(ko nsa_race_user)"
	assert_success
	rmmod nsa_race_user
	insmod "$(ko nsa_race_decl)"
	run insmod "$(ko nsa_race_user)"
	assert_failure
	assert_output "insmod: ERROR: could not insert module $(ko nsa_race_user): $(insmod_error EACCES)"
	run kmsg
	assert_line "$UNDECLARED"
}

@test "load order: side by side on two CPUs, the first to be COMING decides" {
	local i d out user declarer
	declare -A tally=()

	for ((i = 0; i < ROUNDS; i++)); do
		# From the user 0.4 s ahead to the declarer 0.4 s ahead: the ends
		# are sequential, the middle a race.
		d=$((i % 9 - 4))
		(
			[ $d -lt 0 ] && sleep "$(printf '0.%02d' $((-d * 10)))"
			insmod "$(ko nsa_race_decl)"
		) &
		declarer=$!
		[ $d -gt 0 ] && sleep "$(printf '0.%02d' $((d * 10)))"
		out=$(insmod "$(ko nsa_race_user)" 2>&1) && user=ok ||
			user=$(insmod_errno "$(ko nsa_race_user)" "$out")
		wait $declarer
		tally[$user]=$((${tally[$user]:-0} + 1))
		unload_all nsa_race_decl nsa_race_user
	done
	echo "# load order: $ROUNDS rounds: user loaded ${tally[ok]:-0}, refused (EACCES) ${tally[EACCES]:-0}" >&3
	assert [ "${tally[ok]:-0}" -gt 0 ]
	assert [ "${tally[EACCES]:-0}" -gt 0 ]
	assert_equal "$((${tally[ok]:-0} + ${tally[EACCES]:-0}))" "$ROUNDS"
}
