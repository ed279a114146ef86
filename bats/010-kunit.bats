# SPDX-License-Identifier: GPL-2.0
# The series' KUnit suite (CONFIG_MODULE_NS_ALLOW_KUNIT_TEST) runs at boot;
# its KTAP results are read from debugfs and copied into this TAP.
load helpers

results=/sys/kernel/debug/kunit/module_ns_allow/results

@test "KUnit suite module_ns_allow ran at boot and every case passed" {
	[ -r "$results" ] || fail "no $results: the suite did not run"
	sed 's/^/# /' "$results" >&3
	run cat "$results"
	assert_line --regexp '^ok [0-9]+ module_ns_allow$'
	refute_line --regexp 'not ok'
	# Every case of the suite reported (parameterised ones once each).
	[ "$(grep -cE '^    ok [0-9]+ ns_allow_test_' "$results")" -ge 11 ] ||
		fail "fewer than 11 KUnit cases reported"
}
